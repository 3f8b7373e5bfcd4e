import type { VersionScheme } from '../ecosystem.ts';
import { InvalidRequirementError, InvalidVersionError } from '../errors.ts';
import { triple, updateKindOf } from '../shared/update-kind.ts';

/**
 * NuGet versions and version ranges, after https://learn.microsoft.com/nuget/concepts/package-versioning and
 * NuGet.Versioning (https://github.com/NuGet/NuGet.Client/tree/dev/src/NuGet.Core/NuGet.Versioning).
 */

/** A parsed NuGet version: four numbers (missing ones 0), the pre-release labels and the build metadata. */
export interface NuGetVersion {
  /** `[major, minor, patch, revision]`. */
  numbers: [bigint, bigint, bigint, bigint];
  /** Pre-release labels (`beta.1` → `['beta', '1']`), empty for a release. */
  pre: string[];
  /** Build metadata after `+`, or null (ignored when comparing). */
  build: string | null;
}

const IDENTIFIERS = String.raw`[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*`;
const VERSION = new RegExp(String.raw`^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?(?:-(${IDENTIFIERS}))?(?:\+(${IDENTIFIERS}))?$`);

/**
 * Reads a NuGet version: one to four dot-separated numbers (leading zeros allowed, `1.0` = `1.0.0` = `1.0.0.0`),
 * SemVer 2 pre-release labels after `-` and build metadata after `+`; no leading `v`, no spaces inside.
 * @returns undefined when the text is not a NuGet version
 */
export function parseNuGetVersion(version: string): NuGetVersion | undefined {
  const match = VERSION.exec(version.trim());
  if (!match) return undefined;
  const pre = match[5] === undefined ? [] : match[5].split('.');
  // SemVer 2: numeric labels have no leading zeros (NuGet refuses them too).
  if (pre.some((label) => /^0\d+$/.test(label))) return undefined;
  const n = (i: number) => BigInt(match[i] ?? '0');
  return { numbers: [n(1), n(2), n(3), n(4)], pre, build: match[6] ?? null };
}

const sign = (a: bigint, b: bigint) => (a === b ? 0 : a < b ? -1 : 1);

/** Compares two pre-release labels as SemVer 2 does, text case-insensitively as NuGet does. */
function compareLabels(a: string, b: string): number {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return sign(BigInt(a), BigInt(b));
  if (an !== bn) return an ? -1 : 1;
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x === y ? 0 : x < y ? -1 : 1;
}

/** NuGet's order of two parsed versions: the four numbers, then a release above its pre-releases, then the labels. */
export function compareParsedNuGet(a: NuGetVersion, b: NuGetVersion): number {
  for (let i = 0; i < 4; i++) {
    const result = sign(a.numbers[i] as bigint, b.numbers[i] as bigint);
    if (result !== 0) return result;
  }
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const result = compareLabels(a.pre[i] as string, b.pre[i] as string);
    if (result !== 0) return result;
  }
  return sign(BigInt(a.pre.length), BigInt(b.pre.length));
}

/**
 * NuGet's normalised form (https://learn.microsoft.com/nuget/concepts/package-versioning#normalized-version-numbers):
 * leading zeros dropped, three numbers plus the fourth when it is not 0, the pre-release labels as written, build
 * metadata dropped: `1.01` → `1.1.0`, `1.0.0.0` → `1.0.0`, `1.2.3.4-Beta.1+abc` → `1.2.3.4-Beta.1`.
 */
export function printNuGetVersion(version: NuGetVersion): string {
  const [major, minor, patch, revision] = version.numbers;
  const numbers = revision === 0n ? [major, minor, patch] : [major, minor, patch, revision];
  return `${numbers.join('.')}${version.pre.length ? `-${version.pre.join('.')}` : ''}`;
}

/** {@link printNuGetVersion} of a version's text, or undefined when it is not a NuGet version. */
export function normaliseNuGetVersion(version: string): string | undefined {
  const parsed = parseNuGetVersion(version);
  return parsed && printNuGetVersion(parsed);
}

function check(version: string): NuGetVersion {
  const parsed = parseNuGetVersion(version);
  if (!parsed) throw new InvalidVersionError('NuGet', version);
  return parsed;
}

/** One bound of a range. */
export interface NuGetBound {
  version: string;
  inclusive: boolean;
}

/**
 * A NuGet version requirement (https://learn.microsoft.com/nuget/concepts/package-versioning#version-ranges):
 * - `minimum`: a bare version, `1.0` = `>= 1.0`;
 * - `range`: interval notation `[1.0,2.0)`, `(,1.0]`, `(1.0,)`, `[1.0]` (exact), with either bound absent;
 * - `floating` (https://learn.microsoft.com/nuget/concepts/dependency-resolution#floating-versions): `*`, `1.*`,
 *   `1.2.*`, `1.2.3-*`, `1.2.*-*`, `*-*`, `1.0.0-beta*`: `numbers` are the fixed leading numbers, `label` the fixed
 *   start of the pre-release label when the float is in the label (null when pre-releases are not floated),
 *   `floatsNumbers` whether a number floats (`1.2.*-*`: true; `1.0.0-beta*`, whose four numbers are fixed: false).
 */
export type NuGetRequirement =
  | { kind: 'minimum'; version: string }
  | { kind: 'range'; lower?: NuGetBound; upper?: NuGetBound }
  | { kind: 'floating'; numbers: bigint[]; label: string | null; floatsNumbers?: boolean };

const bad = (requirement: string, detail: string) => new InvalidRequirementError('NuGet', requirement, detail);

/**
 * Reads a NuGet version requirement (see {@link NuGetRequirement}).
 * @throws InvalidRequirementError on anything else: an empty text, `(1.0)`, a bound that is not a version, a lower bound
 *   above the upper one, an MSBuild property reference (`$(X)`)
 */
export function parseNuGetRequirement(requirement: string): NuGetRequirement {
  const text = requirement.trim();
  if (text === '') throw bad(requirement, 'empty');
  if (text.includes('$(')) throw bad(requirement, 'an unresolved MSBuild property');
  if (text.includes('*')) {
    const match = /^(?:((?:\d+\.){0,3})\*|(\d+(?:\.\d+){0,3}))(?:-([0-9A-Za-z.-]*)\*)?$/.exec(text);
    if (!match || (match[2] !== undefined && match[3] === undefined)) throw bad(requirement, 'not a floating version');
    const fixed = (match[1] ?? match[2] ?? '').split('.').filter((part) => part !== '');
    if (match[2] !== undefined && fixed.length < 3) throw bad(requirement, 'a floating pre-release needs a full version');
    return {
      kind: 'floating',
      numbers: fixed.map((part) => BigInt(part)),
      label: match[3] === undefined ? null : match[3],
      floatsNumbers: match[2] === undefined,
    };
  }
  if (!/^[[(]/.test(text)) {
    if (!parseNuGetVersion(text)) throw bad(requirement, 'not a version');
    return { kind: 'minimum', version: text };
  }
  // `[low, high]`, `(low,)`, `[exact]`: read by splitting, not by a backtracking pattern.
  const open = text.charAt(0);
  const close = text.charAt(text.length - 1);
  const inner = text.slice(1, -1);
  const parts = inner.split(',');
  if (text.length < 2 || (close !== ']' && close !== ')') || /[\])]/.test(inner) || parts.length > 2) {
    throw bad(requirement, 'not an interval');
  }
  const low = (parts[0] ?? '').trim();
  const high = (parts[1] ?? '').trim();
  if (parts.length === 1) {
    if (open !== '[' || close !== ']' || !parseNuGetVersion(low)) throw bad(requirement, 'an exact version is written [x]');
    return { kind: 'range', lower: { version: low, inclusive: true }, upper: { version: low, inclusive: true } };
  }
  if (low === '' && high === '') throw bad(requirement, 'a range needs a bound');
  for (const bound of [low, high]) if (bound !== '' && !parseNuGetVersion(bound)) throw bad(requirement, `'${bound}' is not a version`);
  const range: NuGetRequirement = { kind: 'range' };
  if (low !== '') range.lower = { version: low, inclusive: open === '[' };
  if (high !== '') range.upper = { version: high, inclusive: close === ']' };
  if (range.lower && range.upper) {
    const order = compareParsedNuGet(check(range.lower.version), check(range.upper.version));
    if (order > 0 || (order === 0 && !(range.lower.inclusive && range.upper.inclusive))) throw bad(requirement, 'an empty range');
  }
  return range;
}

/** Does the parsed `version` satisfy the parsed requirement? See {@link nugetVersions}. */
function matches(version: NuGetVersion, requirement: NuGetRequirement): boolean {
  switch (requirement.kind) {
    case 'minimum':
      return compareParsedNuGet(version, check(requirement.version)) >= 0;
    case 'range': {
      const { lower, upper } = requirement;
      if (lower) {
        const c = compareParsedNuGet(version, check(lower.version));
        if (c < 0 || (c === 0 && !lower.inclusive)) return false;
      }
      if (upper) {
        const c = compareParsedNuGet(version, check(upper.version));
        if (c > 0 || (c === 0 && !upper.inclusive)) return false;
      }
      return true;
    }
    case 'floating': {
      // A float in the label only (`1.0.0-beta*`, NuGet's `Prerelease` behaviour) fixes all four numbers.
      const fixed =
        requirement.label !== null && requirement.numbers.length >= 3 && !requirement.floatsNumbers
          ? [...requirement.numbers, 0n, 0n, 0n, 0n].slice(0, 4)
          : requirement.numbers;
      if (!fixed.every((n, i) => version.numbers[i] === n)) return false;
      if (version.pre.length === 0) return true;
      if (requirement.label === null) return false;
      return version.pre.join('.').toLowerCase().startsWith(requirement.label.toLowerCase());
    }
  }
}

/**
 * NuGet's version scheme: versions by {@link parseNuGetVersion} and {@link compareParsedNuGet} (build metadata ignored,
 * labels case-insensitive); requirements by {@link parseNuGetRequirement}. `satisfies`: a bare version is a minimum,
 * an interval is checked bound by bound (pre-releases included, as NuGet's `VersionRange.Satisfies`), a floating
 * version matches the versions it can float to: its fixed numbers, and pre-releases only when the float reaches into
 * the label (`1.*-*`, `1.0.0-beta*`). `updateKind` is positional on the first three numbers: a bare version is a minimum
 * (`>= 1.0`) and NuGet reads SemVer's major/minor/patch with no 0.x rule
 * (https://learn.microsoft.com/nuget/concepts/package-versioning).
 */
export const nugetVersions: VersionScheme = {
  isValid: (version) => parseNuGetVersion(version) !== undefined,
  compare: (a, b) => compareParsedNuGet(check(a), check(b)),
  satisfies: (version, requirement) => matches(check(version), parseNuGetRequirement(requirement)),
  isPrerelease: (version) => (parseNuGetVersion(version)?.pre.length ?? 0) > 0,
  updateKind: (from, to) => updateKindOf(check(from).numbers.map(Number), check(to).numbers.map(Number)),
  release: (version) => triple(check(version).numbers.map(Number)),
  lowestAllowed(requirement) {
    const parsed = parseNuGetRequirement(requirement);
    if (parsed.kind === 'minimum') return parsed.version;
    if (parsed.kind === 'range') return parsed.lower?.inclusive ? parsed.lower.version : null;
    const numbers = [...parsed.numbers];
    while (numbers.length < 3) numbers.push(0n);
    if (parsed.label !== null && !parsed.floatsNumbers) {
      // `1.0.0-beta*` starts at `1.0.0-beta`, `1.0.0-*` at `1.0.0-0` (FloatRange's minimum version)
      const label = parsed.label === '' || parsed.label.endsWith('.') ? `${parsed.label}0` : parsed.label;
      const lowest = `${numbers.join('.')}-${label}`;
      if (parseNuGetVersion(lowest)) return lowest;
    }
    return numbers.join('.');
  },
  allowsPrereleases(requirement) {
    try {
      const parsed = parseNuGetRequirement(requirement);
      if (parsed.kind === 'floating') return parsed.label !== null;
      const bounds = parsed.kind === 'minimum' ? [parsed.version] : [parsed.lower?.version, parsed.upper?.version];
      return bounds.some((bound) => bound !== undefined && (parseNuGetVersion(bound)?.pre.length ?? 0) > 0);
    } catch {
      return false;
    }
  },
};

/** The exact version a requirement names: a bare version (NuGet resolves its lowest allowed version) or `[x]`; else null. */
export function nugetPinnedVersion(requirement: string | null): string | null {
  if (requirement === null) return null;
  try {
    const parsed = parseNuGetRequirement(requirement);
    if (parsed.kind === 'minimum') return parsed.version;
    if (parsed.kind === 'range' && parsed.lower?.inclusive && parsed.upper?.inclusive && parsed.lower.version === parsed.upper.version) {
      return parsed.lower.version;
    }
    return null;
  } catch {
    return null;
  }
}

/**
 * The text of a floating version as NuGet prints it (`FloatRange.ToString`,
 * https://github.com/NuGet/NuGet.Client/blob/dev/src/NuGet.Core/NuGet.Versioning/FloatRange.cs): the fixed numbers without
 * leading zeros, then `*` where the numbers float, then `-<label>*` where the label floats: `01.*` → `1.*`,
 * `1.0.0-beta*` → `1.0.0-beta*`, `1.2.*-*` → `1.2.*-*`.
 */
function printFloat(parsed: Extract<NuGetRequirement, { kind: 'floating' }>): string {
  const numbers = parsed.numbers.map(String);
  if (!parsed.floatsNumbers) {
    const [major, minor, patch, revision] = [...parsed.numbers, 0n, 0n, 0n, 0n];
    const fixed = revision === 0n ? [major, minor, patch] : [major, minor, patch, revision];
    return `${fixed.join('.')}-${parsed.label ?? ''}*`;
  }
  const head = numbers.length ? `${numbers.join('.')}.*` : '*';
  return parsed.label === null ? head : `${head}-${parsed.label}*`;
}

/**
 * A requirement as NuGet's `VersionRange.ToNormalizedString()` prints it, which `packages.lock.json` writes as a direct
 * dependency's `requested` (NuGet.Versioning's `VersionRangeFormatter`, format `N`): `1.0` → `[1.0.0, )`, `[1.0]` →
 * `[1.0.0, 1.0.0]`, `(,2.0)` → `(, 2.0.0)`, `1.2.*` → `[1.2.*, )`; versions in their normalised form
 * ({@link printNuGetVersion}).
 * @throws InvalidRequirementError when the requirement does not parse
 */
export function normalisedNuGetRange(requirement: string): string {
  const parsed = parseNuGetRequirement(requirement);
  const print = (version: string) => printNuGetVersion(check(version));
  if (parsed.kind === 'minimum') return `[${print(parsed.version)}, )`;
  if (parsed.kind === 'floating') return `[${printFloat(parsed)}, )`;
  const { lower, upper } = parsed;
  const open = lower?.inclusive ? '[' : '(';
  const close = upper?.inclusive ? ']' : ')';
  return `${open}${lower ? print(lower.version) : ''}, ${upper ? print(upper.version) : ''}${close}`;
}

/**
 * A requirement as NuGet's legacy short string prints it (`VersionRangeFormatter`, format `T`), which
 * `packages.lock.json` writes for a package's own dependencies: a minimum is the bare version (`[1.0, )` → `1.0.0`),
 * an exact version `[1.0.0]`, anything else the normalised interval (`[1.0.0, 2.0.0)`).
 * @throws InvalidRequirementError when the requirement does not parse
 */
export function legacyShortNuGetRange(requirement: string): string {
  const parsed = parseNuGetRequirement(requirement);
  const print = (version: string) => printNuGetVersion(check(version));
  if (parsed.kind === 'minimum') return print(parsed.version);
  if (parsed.kind === 'range' && parsed.lower?.inclusive && !parsed.upper) return print(parsed.lower.version);
  if (
    parsed.kind === 'range' &&
    parsed.lower?.inclusive &&
    parsed.upper?.inclusive &&
    compareParsedNuGet(check(parsed.lower.version), check(parsed.upper.version)) === 0
  ) {
    return `[${print(parsed.lower.version)}]`;
  }
  return normalisedNuGetRange(requirement);
}
