import * as pep440 from '@renovatebot/pep440';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';
import { poetryToPep440 } from './poetry-constraint.ts';

function explain(version: string): pep440.Pep440Version {
  const parsed = pep440.explain(version);
  if (!parsed) throw new InvalidVersionError('PEP 440', version);
  return parsed;
}

/** The PEP 440 specifier sets a requirement stands for: itself when it is PEP 440, else its Poetry conversion. */
function alternatives(requirement: string): string[] {
  if (requirement.trim() !== '' && pep440.validRange(requirement)) return [requirement];
  try {
    return poetryToPep440(requirement);
  } catch (error) {
    if (error instanceof InvalidRequirementError) throw new InvalidRequirementError('PEP 440', requirement, error.message);
    throw error;
  }
}

const CLAUSE = /^\s*(===|~=|==|!=|<=|>=|<|>)\s*(\S+?)\s*$/;

/** The lowest version one specifier set allows (largest of its `>=`, `==`, `~=`, `===` versions), null without one. */
function lowestOf(specifier: string): string | null {
  let lowest: string | null = null;
  for (const clause of specifier.split(',')) {
    const match = CLAUSE.exec(clause);
    if (!match?.[1] || !match[2] || !['>=', '==', '~=', '==='].includes(match[1])) continue;
    const version = match[2].replace(/\.\*$/, '');
    if (!pep440.valid(version)) continue;
    if (lowest === null || pep440.gt(version, lowest)) lowest = version;
  }
  return lowest;
}

/**
 * Python's version scheme, PEP 440 (https://peps.python.org/pep-0440/), via @renovatebot/pep440:
 * epochs (`1!2.0`), pre-releases (`1.0a1`, `1.0rc1`), post (`1.0.post1`), dev (`1.0.dev1`) and local
 * (`1.0+ubuntu1`) versions. Requirements are PEP 440 specifier sets (`>=2.0,<3`, `~=1.4`, `==1.2.*`) or, for
 * pyproject's Poetry sections, Poetry constraints (`^1.2`, `~1.2`, `1.2.3`, `>=1 <2`, `||`), converted by
 * {@link poetryToPep440}. `satisfies` follows PEP 440's default: a pre-release only matches a specifier set
 * that names a pre-release. `updateKind` is positional on the release segments (a different epoch is `major`): PEP 440
 * has no caret, and its compatible release `~=` is by precision with no 0.x rule (`~= 0.7` allows 0.8, PEP 440
 * "Compatible release"); Poetry's `^`, which is npm's caret, is one tool's constraint, not the scheme's.
 */
export const pep440Versions: VersionScheme = {
  isValid: (version) => pep440.valid(version) !== null,
  compare(a, b) {
    explain(a);
    explain(b);
    return pep440.compare(a, b);
  },
  satisfies(version, requirement) {
    explain(version);
    return alternatives(requirement).some((specifier) => pep440.satisfies(version, specifier));
  },
  isPrerelease: (version) => pep440.explain(version)?.is_prerelease ?? false,
  updateKind(from, to) {
    const a = explain(from);
    const b = explain(to);
    if (a.epoch !== b.epoch) return 'major';
    return updateKindOf(a.release, b.release);
  },
  release: (version) => triple(explain(version).release),
  lowestAllowed(requirement) {
    let lowest: string | null = null;
    for (const specifier of alternatives(requirement)) {
      const candidate = lowestOf(specifier);
      if (candidate === null) return null;
      if (lowest === null || pep440.lt(candidate, lowest)) lowest = candidate;
    }
    return lowest;
  },
  allowsPrereleases(requirement) {
    try {
      return alternatives(requirement).some((specifier) =>
        specifier.split(',').some((clause) => {
          const version = CLAUSE.exec(clause)?.[2]?.replace(/\.\*$/, '');
          return version !== undefined && pep440.explain(version)?.is_prerelease === true;
        }),
      );
    } catch {
      return false;
    }
  },
};
