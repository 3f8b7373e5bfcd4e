/**
 * Gradle's version order (https://docs.gradle.org/current/userguide/dependency_versions.html#sec:version-ordering),
 * after Gradle's own `VersionParser` and `StaticVersionComparator` (gradle/gradle,
 * `platforms/software/dependency-management/src/main/java/org/gradle/api/internal/artifacts/ivyservice/ivyresolve/strategy/`).
 * Independent of Maven's ComparableVersion (`src/maven/`), which orders differently (`1.0` = `1.0.0` there, `1.0` <
 * `1.0.0` here; `31.1-jre` > `31.1` there, < here).
 */

/** The largest value Gradle reads as a numeric part (`Longs.tryParse`: a Java `long`); larger digit runs are text. */
const LONG_MAX = 9_223_372_036_854_775_807n;

/**
 * The qualifiers with a special meaning (`StaticVersionComparator.SPECIAL_MEANINGS`, compared case-insensitively):
 * `dev` below every other text part, then any other text, then `rc` < `snapshot` < `final` < `ga` < `release` < `sp`.
 */
const SPECIAL_MEANINGS: ReadonlyMap<string, number> = new Map([
  ['dev', -1],
  ['rc', 1],
  ['snapshot', 2],
  ['final', 3],
  ['ga', 4],
  ['release', 5],
  ['sp', 6],
]);

/**
 * A version split into its parts as Gradle's `VersionParser` does: `parts` are the texts between the separators `.`,
 * `-`, `_`, `+` and the boundaries between ASCII digits and anything else (`1.2-beta_3+0000` → `1`, `2`, `beta`, `3`,
 * `0000`; `1a2b` → `1`, `a`, `2`, `b`; an empty text between two separators is a part, a trailing separator adds
 * none); `numeric` holds each part's value when it is a digit run that fits a Java `long`, else null.
 */
export interface GradleVersionParts {
  parts: string[];
  numeric: (bigint | null)[];
}

const isDigit = (ch: string) => ch >= '0' && ch <= '9';
const isSeparator = (ch: string) => ch === '.' || ch === '_' || ch === '-' || ch === '+';

/** Splits any string into Gradle's version parts (see {@link GradleVersionParts}); never throws. */
export function parseGradleVersion(version: string): GradleVersionParts {
  const parts: string[] = [];
  let digit = false;
  let start = 0;
  let pos = 0;
  for (; pos < version.length; pos++) {
    const ch = version.charAt(pos);
    if (isSeparator(ch)) {
      parts.push(version.slice(start, pos));
      start = pos + 1;
      digit = false;
    } else if (isDigit(ch)) {
      if (!digit && pos > start) {
        parts.push(version.slice(start, pos));
        start = pos;
      }
      digit = true;
    } else {
      if (digit) {
        parts.push(version.slice(start, pos));
        start = pos;
      }
      digit = false;
    }
  }
  if (pos > start) parts.push(version.slice(start, pos));
  const numeric = parts.map((part) => {
    if (!/^[0-9]+$/.test(part)) return null;
    const value = BigInt(part);
    return value <= LONG_MAX ? value : null;
  });
  return { parts, numeric };
}

/** The special meaning of a text part (see {@link SPECIAL_MEANINGS}), 0 for any other text. */
const meaningOf = (part: string) => SPECIAL_MEANINGS.get(part.toLowerCase()) ?? 0;

/**
 * Compares two parsed versions part by part (Gradle's `StaticVersionComparator`): equal texts are equal; numbers
 * compare by value and are higher than text; two texts compare by special meaning, and texts without one by UTF-16
 * code units (case-sensitive, as Java's `String.compareTo`). When one version runs out of parts, the other is higher
 * if its next part is a number (`1.0` < `1.0.0`) and lower otherwise (`1.0-alpha` < `1.0`, `31.1-jre` < `31.1`).
 *
 * One deliberate difference: Gradle stops at the first two texts with the same special meaning (`RC` and `rc`) and
 * calls the versions equal, so it finds `1.0-rc-1` = `1.0-RC-1` = `1.0-rc-2` but `1.0-rc-1` < `1.0-rc-2`, which is not
 * an order. Here such parts are equal and the comparison goes on, so the order is total: `1.0-RC-1` < `1.0-rc-2`.
 */
function compareParts(a: GradleVersionParts, b: GradleVersionParts): number {
  const common = Math.min(a.parts.length, b.parts.length);
  for (let i = 0; i < common; i++) {
    const [partA, partB] = [a.parts[i] as string, b.parts[i] as string];
    if (partA === partB) continue;
    const [numberA, numberB] = [a.numeric[i] ?? null, b.numeric[i] ?? null];
    if (numberA !== null && numberB === null) return 1;
    if (numberB !== null && numberA === null) return -1;
    if (numberA !== null && numberB !== null) {
      if (numberA === numberB) continue;
      return numberA < numberB ? -1 : 1;
    }
    const [meaningA, meaningB] = [meaningOf(partA), meaningOf(partB)];
    if (meaningA !== meaningB) return meaningA < meaningB ? -1 : 1;
    if (meaningA !== 0) continue;
    return partA < partB ? -1 : 1;
  }
  if (a.parts.length > common) return a.numeric[common] === null ? -1 : 1;
  if (b.parts.length > common) return b.numeric[common] === null ? 1 : -1;
  return 0;
}

/**
 * Compares two Gradle versions (any strings, as Gradle orders any version): < 0, 0 or > 0, by Gradle's documented
 * order (see {@link compareParts}). Versions that differ only in separators or leading zeros are equal
 * (`1.0` = `1_0` = `1-0`, `01.0` = `1.0`, `1.a.2` = `1a2`).
 */
export function compareGradleVersions(a: string, b: string): number {
  if (a === b) return 0;
  return compareParts(parseGradleVersion(a), parseGradleVersion(b));
}

/**
 * The qualifiers Dependabot's Gradle version class reads as a pre-release (dependabot-core
 * `gradle/lib/dependabot/gradle/version.rb`, `prerelease?`: the named qualifiers ranked below `ga`, and `eap`).
 */
const PRERELEASE_QUALIFIERS = new Set(['a', 'alpha', 'b', 'beta', 'm', 'milestone', 'rc', 'cr', 'pr', 'snapshot', 'dev', 'eap']);

/**
 * Is the version a pre-release, as Dependabot's Gradle version class decided (`prerelease?`): one of its parts,
 * lowercased, is `a`/`alpha`, `b`/`beta`, `m`/`milestone`, `rc`/`cr`/`pr`, `snapshot`, `dev` or `eap`
 * (`1.0.0-alpha01`, `2.0-M1`, `1.0-SNAPSHOT`, `2024.1-eap`); `31.1-jre`, `1.0.Final`, `2.0-android` are releases.
 * Parts are Gradle's ({@link parseGradleVersion}), so a `+` separates too.
 */
export function isGradlePrerelease(version: string): boolean {
  return parseGradleVersion(version).parts.some((part) => PRERELEASE_QUALIFIERS.has(part.toLowerCase()));
}

/**
 * The leading numeric parts of a version, after a leading `v` part (`v2.0.0` → `[2, 0, 0]`, as Dependabot's
 * `stringify_version` drops `^v(?=\d)`): `1.2.3-rc1` → `[1, 2, 3]`, `31.1-jre` → `[31, 1]`, `1.0` → `[1, 0]`.
 */
export function gradleNumericPrefix(version: string): number[] {
  const { parts, numeric } = parseGradleVersion(version.trim());
  const from = parts.length > 1 && /^[vV]$/.test(parts[0] ?? '') && numeric[1] !== null ? 1 : 0;
  const out: number[] = [];
  for (let i = from; i < parts.length; i++) {
    const value = numeric[i];
    if (value === null || value === undefined) break;
    out.push(Number(value));
  }
  return out;
}
