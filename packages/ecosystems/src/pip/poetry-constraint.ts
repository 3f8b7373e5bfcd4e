import * as pep440 from '@renovatebot/pep440';
import { InvalidRequirementError } from '../errors.ts';

/**
 * Converts a Poetry version constraint (https://python-poetry.org/docs/dependency-specification/#version-constraints)
 * to PEP 440 specifiers, one per `||` alternative ('' = any version):
 * - caret: `^1.2.3` → `>=1.2.3,<2.0.0`, `^0.2.3` → `>=0.2.3,<0.3.0`, `^0.0.3` → `>=0.0.3,<0.0.4`, `^0` → `>=0,<1`;
 * - tilde: `~1.2.3` → `>=1.2.3,<1.3.0`, `~1.2` → `>=1.2,<1.3`, `~1` → `>=1,<2` (`~=` stays PEP 440's);
 * - wildcard `1.2.*` → `==1.2.*`, `*` → any; a bare version `1.2.3` → `==1.2.3`; `=1.2` → `==1.2`;
 * - comparators `>=`, `<`, ... kept; `,` or whitespace between clauses means "and".
 * @throws InvalidRequirementError when a clause is not one of these
 */
export function poetryToPep440(constraint: string): string[] {
  const alternatives = constraint.split(/\|\|?/);
  return alternatives.map((alternative) => {
    const clauses = alternative
      .trim()
      .replace(/(===|~=|==|!=|<=|>=|<|>|\^|~|=)\s+/g, '$1')
      .split(/[\s,]+/)
      .filter(Boolean)
      .flatMap((clause) => convertClause(constraint, clause));
    const specifier = clauses.join(',');
    if (specifier !== '' && !pep440.validRange(specifier)) throw new InvalidRequirementError('PEP 440', constraint);
    return specifier;
  });
}

function releaseOf(constraint: string, version: string): number[] {
  const parsed = pep440.explain(version);
  if (!parsed) throw new InvalidRequirementError('PEP 440', constraint, `'${version}' is not a version`);
  return parsed.release;
}

function convertClause(constraint: string, clause: string): string[] {
  if (clause === '*') return [];
  if (clause.startsWith('^')) {
    const version = clause.slice(1);
    const release = releaseOf(constraint, version);
    const firstNonZero = release.findIndex((n) => n !== 0);
    const bump = firstNonZero === -1 ? release.length - 1 : firstNonZero;
    return [`>=${version}`, `<${bumped(release, bump)}`];
  }
  if (clause.startsWith('~') && !clause.startsWith('~=')) {
    const version = clause.slice(1);
    const release = releaseOf(constraint, version);
    return [`>=${version}`, `<${bumped(release, release.length === 1 ? 0 : 1)}`];
  }
  if (/^(===|~=|==|!=|<=|>=|<|>)/.test(clause)) return [clause];
  if (clause.startsWith('=')) return [`=${clause}`];
  return [`==${clause}`];
}

/** `release` cut after `index`, that position + 1, padded with zeros to the original length: ([1,2,3], 1) → `1.3.0`. */
function bumped(release: readonly number[], index: number): string {
  const parts = release.map((n, i) => (i < index ? n : i === index ? n + 1 : 0));
  return parts.join('.');
}
