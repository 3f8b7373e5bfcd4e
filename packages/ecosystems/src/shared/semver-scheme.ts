import semver from 'semver';
import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { kindWithin, triple, updateKindOf } from './update-kind.ts';

/** A requirement mapped onto an npm `semver` range, and whether pre-releases are matched like releases. */
export interface MappedRange {
  range: string;
  /** Passed to `semver.satisfies` as `includePrerelease` (npm's default is false). */
  includePrerelease: boolean;
}

/**
 * How an ecosystem's versions and requirements map onto npm `semver` (npm itself, Cargo, Composer).
 * `version` returns the semver form (e.g. Composer `v2.0` → `2.0.0`) or null when invalid; `range` throws
 * {@link InvalidRequirementError} on a requirement it cannot map.
 */
export interface SemverMapping {
  /** Scheme name used in error messages, e.g. `npm`. */
  name: string;
  version(version: string): string | null;
  range(requirement: string): MappedRange;
  /**
   * The requirement the ecosystem's tool writes by default for the release `M.m.p` in use, as a semver range (npm's
   * `^0.7.3` → `^0.7.3`, Composer's `^0.7.3`/`^1.2`): an update whose release it does not allow is `major`. Absent: the
   * kind is positional.
   */
  defaultRange?(release: string): string;
}

/** Does any comparator of `range` name a pre-release, apart from the `<x.y.z-0` upper bounds semver generates itself? */
function namesPrerelease(range: semver.Range): boolean {
  return range.set.some((comparators) =>
    comparators.some((c) => {
      const pre = c.semver.prerelease;
      if (pre.length === 0) return false;
      return !(c.operator === '<' && pre.length === 1 && pre[0] === 0);
    }),
  );
}

/**
 * Builds a {@link VersionScheme} on top of npm `semver` (https://github.com/npm/node-semver#ranges):
 * `satisfies` is `semver.satisfies` with npm's pre-release rule (a pre-release only matches a comparator set
 * that names a pre-release of the same major.minor.patch) unless the mapping turns `includePrerelease` on;
 * `lowestAllowed` is `semver.minVersion` when every `||` alternative has a lower bound (`>=`, `>`, `=`), else null.
 * `updateKind` compares releases (`M.m.p`, a pre-release placed on its release): `major` when the release of `to` is
 * outside the mapping's `defaultRange` of the release of `from`, else positional.
 */
export function semverScheme(mapping: SemverMapping): VersionScheme {
  const parse = (version: string): semver.SemVer => {
    const mapped = mapping.version(version);
    if (mapped === null) throw new InvalidVersionError(mapping.name, version);
    return new semver.SemVer(mapped);
  };
  const rangeOf = (requirement: string): { range: semver.Range; includePrerelease: boolean } => {
    const mapped = mapping.range(requirement);
    try {
      return {
        range: new semver.Range(mapped.range, { includePrerelease: mapped.includePrerelease }),
        includePrerelease: mapped.includePrerelease,
      };
    } catch (error) {
      throw new InvalidRequirementError(mapping.name, requirement, (error as Error).message);
    }
  };
  const release = (version: string): [number, number, number] => {
    const v = parse(version);
    return triple([v.major, v.minor, v.patch]);
  };
  return {
    isValid: (version) => mapping.version(version) !== null,
    compare: (a, b) => semver.compare(parse(a), parse(b)),
    satisfies(version, requirement) {
      const v = parse(version);
      const { range, includePrerelease } = rangeOf(requirement);
      return semver.satisfies(v, range, { includePrerelease });
    },
    isPrerelease: (version) => {
      const mapped = mapping.version(version);
      return mapped !== null && semver.prerelease(mapped) !== null;
    },
    updateKind(from, to) {
      const [a, b] = [release(from), release(to)];
      if (!mapping.defaultRange) return updateKindOf(a, b);
      return kindWithin(a, b, semver.satisfies(b.join('.'), mapping.defaultRange(a.join('.'))));
    },
    release,
    lowestAllowed(requirement) {
      const { range } = rangeOf(requirement);
      const bounded = range.set.every((comparators) =>
        comparators.some((c) => ['>=', '>', '', '='].includes(c.operator) && c.value !== ''),
      );
      if (!bounded) return null;
      const min = semver.minVersion(range);
      if (!min) return null;
      // `>=2.0.0-0` (pre-releases allowed) starts at the release itself as far as versions people publish go
      const bare = min.prerelease.length === 1 && min.prerelease[0] === 0;
      return bare ? `${min.major}.${min.minor}.${min.patch}` : min.version;
    },
    allowsPrereleases(requirement) {
      try {
        const { range, includePrerelease } = rangeOf(requirement);
        return includePrerelease || namesPrerelease(range);
      } catch {
        return false;
      }
    },
  };
}
