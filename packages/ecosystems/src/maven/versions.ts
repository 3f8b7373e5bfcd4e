import type { VersionScheme } from '../ecosystem.ts';
import { InvalidVersionError } from '../errors.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';
import { compareMavenVersions, isMavenPrerelease, mavenNumericPrefix } from './comparable-version.ts';
import { inMavenRange, parseMavenRequirement } from './range.ts';

/**
 * What this package accepts as a Maven version: starts with a digit, then letters, digits, `.`, `-`, `_`, `+`.
 * (Maven itself orders any string; this keeps out unresolved `${...}` references and meta versions such as
 * `LATEST`/`RELEASE`.)
 */
const VERSION = /^[0-9][0-9A-Za-z._+-]*$/;

function check(version: string): string {
  if (!VERSION.test(version.trim())) throw new InvalidVersionError('Maven', version);
  return version.trim();
}

/**
 * Maven's version scheme: ComparableVersion order (see {@link compareMavenVersions}) and version requirements
 * (see {@link parseMavenRequirement}). A bare version is a soft requirement that every version satisfies;
 * ranges are checked bound by bound, pre-releases included (Maven's ranges have no pre-release rule).
 * `isPrerelease`: the version holds alpha/beta/milestone/rc/cr/snapshot (unknown qualifiers such as `-jre` are
 * releases). `updateKind` is positional on the first three numeric items (`1.2` = `1.2.0`, `0.7 → 0.8` `minor`): Maven
 * gives version numbers no compatibility meaning (a bare version is a soft requirement any version satisfies,
 * https://maven.apache.org/pom.html#dependency-version-requirement-specification), so there is no 0.x rule to apply.
 */
export const mavenVersions: VersionScheme = {
  isValid: (version) => VERSION.test(version.trim()),
  compare: (a, b) => compareMavenVersions(check(a), check(b)),
  satisfies(version, requirement) {
    const v = check(version);
    const parsed = parseMavenRequirement(requirement);
    if ('soft' in parsed) return true;
    return parsed.ranges.some((range) => inMavenRange(v, range));
  },
  isPrerelease: (version) => VERSION.test(version.trim()) && isMavenPrerelease(version),
  updateKind: (from, to) => updateKindOf(mavenNumericPrefix(check(from)), mavenNumericPrefix(check(to))),
  release: (version) => triple(mavenNumericPrefix(check(version))),
  lowestAllowed(requirement) {
    const parsed = parseMavenRequirement(requirement);
    if ('soft' in parsed) return parsed.soft;
    let lowest: string | null = null;
    for (const range of parsed.ranges) {
      if (!range.lower?.inclusive) return null;
      if (lowest === null || compareMavenVersions(range.lower.version, lowest) < 0) lowest = range.lower.version;
    }
    return lowest;
  },
  allowsPrereleases(requirement) {
    try {
      const parsed = parseMavenRequirement(requirement);
      if ('soft' in parsed) return isMavenPrerelease(parsed.soft);
      return parsed.ranges.some((r) => [r.lower, r.upper].some((bound) => bound !== undefined && isMavenPrerelease(bound.version)));
    } catch {
      return false;
    }
  },
};

/** The exact version a requirement pins: the soft version (`1.2.3`) or a `[1.2.3]` range; else null. */
export function mavenPinnedVersion(requirement: string): string | null {
  try {
    const parsed = parseMavenRequirement(requirement);
    if ('soft' in parsed) return parsed.soft;
    const [only, ...others] = parsed.ranges;
    if (only && others.length === 0 && only.lower && only.upper && only.lower.version === only.upper.version) return only.lower.version;
    return null;
  } catch {
    return null;
  }
}
