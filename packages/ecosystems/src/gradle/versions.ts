import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError } from '../errors.ts';
import { isMavenPrerelease } from '../maven/comparable-version.ts';
import { inMavenRange, type MavenRange, parseMavenRequirement } from '../maven/range.ts';
import { mavenVersions } from '../maven/versions.ts';

/**
 * A Gradle version declaration (https://docs.gradle.org/current/userguide/dependency_versions.html,
 * https://docs.gradle.org/current/userguide/dynamic_versions.html):
 * - `required`: a plain version (`1.2.3`), Gradle's "require": the version selected cannot be lower, conflict
 *   resolution may raise it;
 * - `strict`: `1.2.3!!`, Gradle's short form of `strictly`: that version only;
 * - `prefix`: a dynamic prefix version (`1.+`, `1.2.+`, `+`): any version whose text starts with the part before `+`;
 * - `latest`: `latest.release` (any release) or `latest.integration` (anything, pre-releases included);
 * - `ranges`: a Maven range (`[1.0,2.0)`, `(,1.0]`, `[1.2]`), also with Gradle's reversed brackets for exclusive
 *   bounds (`]1.0,2.0[`, `[1.0,2.0[`); `reversed` tells that notation was used.
 */
export type GradleRequirement =
  | { kind: 'required'; version: string }
  | { kind: 'strict'; version: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'latest'; status: string }
  | { kind: 'ranges'; ranges: MavenRange[]; reversed: boolean };

const bad = (requirement: string, detail: string) => new InvalidRequirementError('Gradle', requirement, detail);

/**
 * Reads a Gradle version declaration (see {@link GradleRequirement}).
 * @throws InvalidRequirementError on an empty text, a property reference (`$x`), or a range Maven cannot read
 */
export function parseGradleRequirement(requirement: string): GradleRequirement {
  const text = requirement.trim();
  if (text === '') throw bad(requirement, 'empty');
  if (text.includes('$')) throw bad(requirement, 'an unresolved property reference');
  if (/^latest\.[A-Za-z]+$/.test(text)) return { kind: 'latest', status: text.slice('latest.'.length) };
  if (text.endsWith('+') && !/[[\]()]/.test(text)) {
    const prefix = text.slice(0, -1);
    if (prefix.includes('+')) throw bad(requirement, "only one '+' may end a dynamic version");
    return { kind: 'prefix', prefix };
  }
  if (text.endsWith('!!')) {
    const version = text.slice(0, -2);
    if (!mavenVersions.isValid(version)) throw bad(requirement, 'not a version before !!');
    return { kind: 'strict', version };
  }
  if (/^[[\]()]/.test(text)) {
    const reversed = text.startsWith(']') || text.endsWith('[');
    const maven = text.replace(/^\]/, '(').replace(/\[$/, ')');
    const parsed = parseMavenRequirement(maven);
    if ('soft' in parsed) throw bad(requirement, 'not a range');
    return { kind: 'ranges', ranges: parsed.ranges, reversed };
  }
  if (!mavenVersions.isValid(text)) throw bad(requirement, 'not a version');
  return { kind: 'required', version: text };
}

/** Does `version` (already valid) match the declaration? See {@link gradleVersions}. */
function matches(version: string, parsed: GradleRequirement): boolean {
  switch (parsed.kind) {
    case 'required':
      return mavenVersions.compare(version, parsed.version) >= 0;
    case 'strict':
      return mavenVersions.compare(version, parsed.version) === 0;
    case 'prefix':
      return version.startsWith(parsed.prefix);
    case 'latest':
      return parsed.status !== 'release' || !isMavenPrerelease(version);
    case 'ranges':
      return parsed.ranges.some((range) => inMavenRange(version, range));
  }
}

/**
 * Gradle's versions: Maven's order and qualifiers (Gradle's own comparator differs only in corner cases of unknown
 * qualifiers; https://docs.gradle.org/current/userguide/dependency_versions.html#sec:version-ordering), so
 * `compare`, `isValid`, `isPrerelease`, `updateKind` and `release` are {@link mavenVersions}'. `satisfies` reads
 * Gradle's declarations ({@link parseGradleRequirement}): a plain version is satisfied by itself and every higher
 * version (Gradle's "require"), `x!!` by `x` only, `1.+` by versions whose text starts with `1.`, `latest.release` by
 * every release, `latest.integration` by every version, a range bound by bound. `updateKind` is Maven's, positional:
 * a plain Gradle version is a minimum ("require") with no compatibility meaning, so there is no 0.x rule to apply.
 */
export const gradleVersions: VersionScheme = {
  isValid: mavenVersions.isValid,
  compare: mavenVersions.compare,
  satisfies(version, requirement) {
    mavenVersions.compare(version, version); // throws InvalidVersionError on an invalid version
    return matches(version.trim(), parseGradleRequirement(requirement));
  },
  isPrerelease: mavenVersions.isPrerelease,
  updateKind: (from, to) => mavenVersions.updateKind(from, to),
  release: (version) => mavenVersions.release?.(version) ?? [0, 0, 0],
  lowestAllowed(requirement) {
    const parsed = parseGradleRequirement(requirement);
    if (parsed.kind === 'required' || parsed.kind === 'strict') return parsed.version;
    if (parsed.kind !== 'ranges') return null;
    let lowest: string | null = null;
    for (const range of parsed.ranges) {
      if (!range.lower?.inclusive) return null;
      if (lowest === null || mavenVersions.compare(range.lower.version, lowest) < 0) lowest = range.lower.version;
    }
    return lowest;
  },
  allowsPrereleases(requirement) {
    try {
      const parsed = parseGradleRequirement(requirement);
      if (parsed.kind === 'required' || parsed.kind === 'strict') return isMavenPrerelease(parsed.version);
      if (parsed.kind === 'latest') return parsed.status !== 'release';
      if (parsed.kind === 'prefix') return false;
      return parsed.ranges.some((r) => [r.lower, r.upper].some((bound) => bound !== undefined && isMavenPrerelease(bound.version)));
    } catch {
      return false;
    }
  },
};

/** The exact version a declaration names: a plain version, `x!!` or `[x]`; else null. */
export function gradlePinnedVersion(requirement: string | null): string | null {
  if (requirement === null) return null;
  try {
    const parsed = parseGradleRequirement(requirement);
    if (parsed.kind === 'required' || parsed.kind === 'strict') return parsed.version;
    if (parsed.kind !== 'ranges') return null;
    const [only, ...others] = parsed.ranges;
    if (only && others.length === 0 && only.lower?.inclusive && only.upper?.inclusive && only.lower.version === only.upper.version) {
      return only.lower.version;
    }
    return null;
  } catch {
    return null;
  }
}
