import { InvalidRequirementError } from '../errors.ts';
import { compareMavenVersions } from './comparable-version.ts';

/** One bound of a range: the version and whether it is included. */
export interface MavenBound {
  version: string;
  inclusive: boolean;
}

/** One bracketed range; a missing bound is unbounded on that side. `[1.2]` is `{lower: 1.2 incl., upper: 1.2 incl.}`. */
export interface MavenRange {
  lower?: MavenBound;
  upper?: MavenBound;
}

/**
 * A Maven version requirement (https://maven.apache.org/pom.html#dependency-version-requirement-specification):
 * a bare version is a *soft* requirement (`{ soft: '1.0' }`: Maven uses 1.0 unless conflict mediation picks
 * another, so any version satisfies it); otherwise a union of ranges such as `[1.0,2.0)`, `(,1.0]`, `[1.2]`,
 * `[1.0,)`, `(,1.0],[1.2,)`.
 */
export type MavenRequirement = { soft: string } | { ranges: MavenRange[] };

const bad = (requirement: string, detail: string) => new InvalidRequirementError('Maven', requirement, detail);

/**
 * Parses a Maven version requirement.
 * @throws InvalidRequirementError on an empty requirement, unbalanced brackets, `(1.0)`, `(,)` with a single
 * bound that is exclusive, or a lower bound above the upper bound
 */
export function parseMavenRequirement(requirement: string): MavenRequirement {
  const text = requirement.replace(/\s+/g, '');
  if (text === '') throw bad(requirement, 'empty');
  if (!/^[[(]/.test(text)) {
    if (/[[\](),]/.test(text)) throw bad(requirement, 'a range must start with [ or (');
    return { soft: text };
  }
  const ranges: MavenRange[] = [];
  let rest = text;
  while (rest !== '') {
    const match = /^([[(])([^[\]()]*)([\])])(?:,(?=[[(])|$)/.exec(rest);
    if (!match) throw bad(requirement, `cannot read '${rest}'`);
    const [whole, open, body = '', close] = match;
    rest = rest.slice(whole.length);
    const parts = body.split(',');
    if (parts.length === 1) {
      if (open !== '[' || close !== ']' || !parts[0]) throw bad(requirement, 'a single version must be written [x]');
      ranges.push({ lower: { version: parts[0], inclusive: true }, upper: { version: parts[0], inclusive: true } });
      continue;
    }
    if (parts.length !== 2) throw bad(requirement, 'a range has at most two bounds');
    const [low = '', high = ''] = parts;
    const range: MavenRange = {};
    if (low !== '') range.lower = { version: low, inclusive: open === '[' };
    if (high !== '') range.upper = { version: high, inclusive: close === ']' };
    if (range.lower && range.upper && compareMavenVersions(range.lower.version, range.upper.version) > 0) {
      throw bad(requirement, 'lower bound above upper bound');
    }
    ranges.push(range);
  }
  return { ranges };
}

/** Is `version` inside `range`? */
export function inMavenRange(version: string, range: MavenRange): boolean {
  if (range.lower) {
    const c = compareMavenVersions(version, range.lower.version);
    if (c < 0 || (c === 0 && !range.lower.inclusive)) return false;
  }
  if (range.upper) {
    const c = compareMavenVersions(version, range.upper.version);
    if (c > 0 || (c === 0 && !range.upper.inclusive)) return false;
  }
  return true;
}
