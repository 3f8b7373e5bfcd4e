import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';
import { compareGradleVersions, gradleNumericPrefix, isGradlePrerelease } from './version-order.ts';

/** One bound of a Gradle range: the version as written and whether it is included. */
export interface GradleBound {
  version: string;
  inclusive: boolean;
}

/** A Gradle version range; a missing bound is unbounded on that side. */
export interface GradleRange {
  lower?: GradleBound;
  upper?: GradleBound;
}

/**
 * A Gradle version declaration (https://docs.gradle.org/current/userguide/dependency_versions.html), read as Gradle's
 * `DefaultVersionSelectorScheme.parseSelector` reads one, plus the `!!` short form of `strictly`:
 * - `required`: a plain version (`1.2.3`, `v2.0.0`, any text), Gradle's "require": the version selected cannot be
 *   lower, conflict resolution may raise it;
 * - `strict`: `1.2.3!!`, Gradle's short form of `strictly`: that version only;
 * - `prefix`: a dynamic prefix version (`1.+`, `1.2.+`, `+`): any version whose text starts with the part before `+`;
 * - `latest`: `latest.release` (any release) or `latest.integration` (anything, pre-releases included);
 * - `range`: one range, `[1.0,2.0)`, `(,1.0]`, `[1.0,)`, `[1.2]`, also with Gradle's reversed brackets for exclusive
 *   bounds (`]1.0,2.0[`, `[1.0,2.0[`); `reversed` tells that notation was used.
 */
export type GradleRequirement =
  | { kind: 'required'; version: string }
  | { kind: 'strict'; version: string }
  | { kind: 'prefix'; prefix: string }
  | { kind: 'latest'; status: string }
  | { kind: 'range'; range: GradleRange; reversed: boolean };

const bad = (requirement: string, detail: string) => new InvalidRequirementError('Gradle', requirement, detail);

/**
 * Gradle's range syntax (`VersionRangeSelector.ALL_RANGE`): a bound is any run of characters other than whitespace,
 * `,` and brackets; `[`/`]`/`(` open (`[` inclusive), `]`/`[`/`)` close (`]` inclusive); `(` before an empty lower bound,
 * `)` after an empty upper bound; `[x]` is a single version.
 */
const BOUND = String.raw`[^\s,[\]()]+`;
const FINITE = new RegExp(String.raw`^[[\](]\s*(${BOUND})\s*,\s*(${BOUND})\s*[\][)]$`);
const LOWER_INFINITE = new RegExp(String.raw`^\(\s*,\s*(${BOUND})\s*[\][)]$`);
const UPPER_INFINITE = new RegExp(String.raw`^[[\](]\s*(${BOUND})\s*,\s*\)$`);
const SINGLE = new RegExp(String.raw`^\[\s*(${BOUND})\]$`);

/** The range of a selector in Gradle's range syntax, or undefined when it is not one. */
function readRange(text: string): { range: GradleRange; reversed: boolean } | undefined {
  const lowerInclusive = text.startsWith('[');
  const upperInclusive = text.endsWith(']');
  const reversed = text.startsWith(']') || text.endsWith('[');
  let match = FINITE.exec(text);
  if (match) {
    const [, lower = '', upper = ''] = match;
    return {
      range: { lower: { version: lower, inclusive: lowerInclusive }, upper: { version: upper, inclusive: upperInclusive } },
      reversed,
    };
  }
  match = LOWER_INFINITE.exec(text);
  if (match) return { range: { upper: { version: match[1] ?? '', inclusive: upperInclusive } }, reversed };
  match = UPPER_INFINITE.exec(text);
  if (match) return { range: { lower: { version: match[1] ?? '', inclusive: lowerInclusive } }, reversed };
  match = SINGLE.exec(text);
  if (match) {
    const version = match[1] ?? '';
    return { range: { lower: { version, inclusive: true }, upper: { version, inclusive: true } }, reversed: false };
  }
  return undefined;
}

/**
 * Reads a Gradle version declaration (see {@link GradleRequirement}): a range when the text is one in Gradle's range
 * syntax, else a prefix when it ends with `+`, else `latest.<status>`, else `x!!` strict, else a plain version. As
 * Gradle, any other text is a version (`v2.0.0`, `r09`, `1.0.0-alpha01`).
 * @throws InvalidRequirementError on an empty text, a property reference (`$x`), a text that opens with a bracket
 *   but is not one range (Maven's unions `(,1.0],[1.2,)`: Gradle reads them as a literal version no repository has),
 *   and `!!` after something other than a plain version
 */
export function parseGradleRequirement(requirement: string): GradleRequirement {
  const text = requirement.trim();
  if (text === '') throw bad(requirement, 'empty');
  if (text.includes('$')) throw bad(requirement, 'an unresolved property reference');
  const range = readRange(text);
  if (range) return { kind: 'range', ...range };
  if (/^[[\]()]/.test(text)) throw bad(requirement, 'not one range (Gradle reads no unions of ranges)');
  if (text.endsWith('+')) return { kind: 'prefix', prefix: text.slice(0, -1) };
  if (text.startsWith('latest.')) return { kind: 'latest', status: text.slice('latest.'.length) };
  if (text.endsWith('!!')) {
    const version = text.slice(0, -2);
    if (!isGradleVersion(version)) throw bad(requirement, 'not a version before !!');
    return { kind: 'strict', version };
  }
  if (!isGradleVersion(text)) throw bad(requirement, 'not a version');
  return { kind: 'required', version: text };
}

/**
 * Is `text` a concrete version (what a repository publishes) rather than a selector or a reference? Gradle orders any
 * string; this rejects only the empty text and texts holding whitespace, quotes, `$`, braces, brackets, parentheses,
 * `,`, `:`, `@`, `/`, `\` or `!`, ending with `+` (a prefix selector) or starting with `latest.` (a status selector).
 */
function isGradleVersion(text: string): boolean {
  return /^[^\s"'$`{}[\]()<>,:@/\\!]+$/.test(text) && !text.endsWith('+') && !text.startsWith('latest.');
}

/** The trimmed version, or InvalidVersionError. */
function check(version: string): string {
  const text = version.trim();
  if (!isGradleVersion(text)) throw new InvalidVersionError('Gradle', version);
  return text;
}

/**
 * Is `version` inside `range`, as Gradle's `VersionRangeSelector.accept` decides: each bound by Gradle's order
 * ({@link compareGradleVersions}); an exclusive upper bound also excludes the versions that start with its text
 * (`[1.0,2.0)` excludes `2.0-SNAPSHOT` and `2.0-dev1`, though they order below `2.0`).
 */
export function inGradleRange(version: string, range: GradleRange): boolean {
  if (range.lower) {
    const c = compareGradleVersions(version, range.lower.version);
    if (c < 0 || (c === 0 && !range.lower.inclusive)) return false;
  }
  if (range.upper) {
    const c = compareGradleVersions(version, range.upper.version);
    if (range.upper.inclusive) return c <= 0;
    return c < 0 && !version.startsWith(range.upper.version);
  }
  return true;
}

/** Does `version` (already valid) match the declaration? See {@link gradleVersions}. */
function matches(version: string, parsed: GradleRequirement): boolean {
  switch (parsed.kind) {
    case 'required':
      return compareGradleVersions(version, parsed.version) >= 0;
    case 'strict':
      return compareGradleVersions(version, parsed.version) === 0;
    case 'prefix':
      return version.startsWith(parsed.prefix);
    case 'latest':
      return parsed.status !== 'release' || !isGradlePrerelease(version);
    case 'range':
      return inGradleRange(version, parsed.range);
  }
}

/**
 * Gradle's versions, by Gradle's own documented order
 * (https://docs.gradle.org/current/userguide/dependency_versions.html#sec:version-ordering; `compareGradleVersions`,
 * after gradle/gradle's `StaticVersionComparator`), not Maven's: `1.0` < `1.0.0`, `1.0-dev` below every other
 * qualifier, `1.0-rc` < `1.0-snapshot` < `1.0-final` < `1.0-ga` < `1.0-release` < `1.0-sp` < `1.0`, any other text
 * qualifier below those and the release (`31.1-jre` < `31.1`).
 * - `isValid`: any text Gradle would take as a version (`v2.0.0` included); only selectors (`1.+`, ranges,
 *   `latest.release`), references (`$x`) and texts with whitespace or quoting characters are refused.
 * - `satisfies` reads Gradle's declarations ({@link parseGradleRequirement}): a plain version is satisfied by itself
 *   and every higher version (Gradle's "require"), `x!!` by `x` only, `1.+` by versions whose text starts with `1.`,
 *   `latest.release` by every release, `latest.integration` by every version, a range as Gradle's
 *   `VersionRangeSelector` ({@link inGradleRange}).
 * - `isPrerelease`: Dependabot's Gradle `prerelease?` ({@link isGradlePrerelease}).
 * - `updateKind`/`release`: positional on the leading numbers (a leading `v` skipped): a plain Gradle version is a
 *   minimum ("require") with no compatibility meaning, so there is no 0.x rule to apply.
 */
export const gradleVersions: VersionScheme = {
  isValid: (version) => isGradleVersion(version.trim()),
  compare: (a, b) => compareGradleVersions(check(a), check(b)),
  satisfies(version, requirement) {
    return matches(check(version), parseGradleRequirement(requirement));
  },
  isPrerelease: (version) => isGradleVersion(version.trim()) && isGradlePrerelease(version.trim()),
  updateKind: (from, to) => updateKindOf(gradleNumericPrefix(check(from)), gradleNumericPrefix(check(to))),
  release: (version) => triple(gradleNumericPrefix(check(version))),
  lowestAllowed(requirement) {
    const parsed = parseGradleRequirement(requirement);
    if (parsed.kind === 'required' || parsed.kind === 'strict') return parsed.version;
    if (parsed.kind !== 'range') return null;
    return parsed.range.lower?.inclusive ? parsed.range.lower.version : null;
  },
  allowsPrereleases(requirement) {
    try {
      const parsed = parseGradleRequirement(requirement);
      if (parsed.kind === 'required' || parsed.kind === 'strict') return isGradlePrerelease(parsed.version);
      if (parsed.kind === 'latest') return parsed.status !== 'release';
      if (parsed.kind === 'prefix') return false;
      const { lower, upper } = parsed.range;
      return [lower, upper].some((bound) => bound !== undefined && isGradlePrerelease(bound.version));
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
    if (parsed.kind !== 'range') return null;
    const { lower, upper } = parsed.range;
    if (lower?.inclusive && upper?.inclusive && lower.version === upper.version && isGradleVersion(lower.version)) return lower.version;
    return null;
  } catch {
    return null;
  }
}
