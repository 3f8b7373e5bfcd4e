import { InvalidRequirementError } from '../errors.ts';
import type { MappedRange } from '../shared/semver-scheme.ts';

/**
 * A Composer version, possibly partial or wildcarded: numeric parts given (up to four), wildcard after them, semver
 * pre-release, and the `-dev` suffix of a development version (`1.0.0-dev`) or a numeric branch (`6.4.x-dev`).
 */
interface Partial {
  parts: number[];
  wildcard: boolean;
  /** semver pre-release identifiers (`beta.1`), null for a stable version (a `-dev` suffix is in `dev`, not here). */
  pre: string | null;
  /** The number of a patch release (`1.2.3-p1` → 1, `-patch` → 0), null for any other version. */
  patchRelease: number | null;
  /** A `-dev` suffix: `1.0.0-dev` (`1.0.0.0-dev`), `1.0.0-beta1-dev`, or a numeric branch. Its stability is dev. */
  dev: boolean;
  /**
   * A numeric branch (`6.4.x-dev`, `6.4.*-dev`, `6.x-dev`): its missing and wildcard parts are 9999999 in `parts`, as
   * `VersionParser::normalizeBranch` writes them (`6.4.9999999.9999999-dev`).
   */
  branch: boolean;
  /** How many numeric parts were written (`6.4.x-dev` → 2). */
  written: number;
}

/** The number `VersionParser::normalizeBranch` puts for a branch's wildcard parts. */
const BRANCH_PART = 9999999;

const PART = String.raw`(\d+|[*xX])`;
const VERSION = new RegExp(
  String.raw`^[vV]?${PART}(?:\.${PART})?(?:\.${PART})?(?:\.${PART})?(?:[-._]?(stable|beta|b|rc|alpha|a|patch|pl|p)(?:[.-]?(\d+))?)?([.-]?dev)?$`,
  'i',
);
const STABILITY: Record<string, string | null> = { stable: null, beta: 'beta', b: 'beta', rc: 'rc', alpha: 'alpha', a: 'alpha' };

/**
 * Parses a Composer version as `VersionParser::normalize` reads one (`v1.2`, `2.0.0-RC1`, `1.0.0-beta.2`, `1.2.3-p1`,
 * `1.2.3.4`, `1.0.0-dev` = `1.0.0.0-dev`, the numeric branch `6.4.x-dev` = `6.4.9999999.9999999-dev`) or a wildcard
 * (`1.2.*`); undefined when it is none (named branches such as `dev-main` included). A `#ref` after a branch is dropped,
 * and `-dev` after `stable` too (`normalize` returns a `stable` version as it is).
 */
function parsePartial(text: string): Partial | undefined {
  const match = VERSION.exec(text.trim().replace(/^([^#\s]+-dev)#\S+$/i, '$1'));
  if (!match) return undefined;
  const raw = match.slice(1, 5).filter((p): p is string => p !== undefined);
  const wildIndex = raw.findIndex((p) => /[*xX]/.test(p));
  if (wildIndex !== -1 && raw.slice(wildIndex).some((p) => !/[*xX]/.test(p))) return undefined;
  const parts = (wildIndex === -1 ? raw : raw.slice(0, wildIndex)).map(Number);
  const flag = match[5]?.toLowerCase();
  const label = flag === undefined ? null : (STABILITY[flag] ?? null); // patch/pl/p: a stable patch release
  if (wildIndex !== -1 && flag !== undefined) return undefined;
  const dev = match[7] !== undefined && flag !== 'stable';
  const branch = wildIndex !== -1 && dev;
  if (branch && parts.length === 0) return undefined;
  const patchRelease = flag === 'patch' || flag === 'pl' || flag === 'p' ? Number(match[6] ?? 0) : null;
  return {
    parts: branch ? [0, 1, 2, 3].map((i) => parts[i] ?? BRANCH_PART) : parts,
    wildcard: wildIndex !== -1 && !branch,
    pre: label === null ? null : match[6] ? `${label}.${match[6]}` : label,
    patchRelease,
    dev,
    branch,
    written: parts.length,
  };
}

/**
 * A Composer version in semver form (`v2.0` → `2.0.0`, `1.0.0-RC1` → `1.0.0-rc.1`, `1.0.0.0` → `1.0.0`, `1.0.0-dev` →
 * `1.0.0-dev`, `1.0.0-beta1-dev` → `1.0.0-beta.1.dev`), or null for what has none: branches (`dev-main`, `1.x-dev`),
 * wildcards, a non-zero 4th part (`1.2.3.4`). Patch releases (`1.2.3-p1`) map to their base version (semver has no
 * post-release) and semver orders `dev` after `alpha`: the Composer scheme orders and matches versions itself (see
 * {@link compareComposerVersions}, {@link composerSatisfies}), this form only serves ranges and release numbers.
 */
export function composerVersionToSemver(version: string): string | null {
  const partial = parsePartial(version);
  if (!partial || partial.wildcard || partial.branch || partial.parts.length === 0 || (partial.parts[3] ?? 0) !== 0) return null;
  return full(partial);
}

function full(p: Partial): string {
  const [major = 0, minor = 0, patch = 0] = p.parts;
  const pre = [p.pre, p.dev ? 'dev' : null].filter((x) => x !== null).join('.');
  return `${major}.${minor}.${patch}${pre ? `-${pre}` : ''}`;
}

/** `parts` with position `index` incremented and what follows zeroed, as a full version. */
function bump(parts: readonly number[], index: number): string {
  const out = [0, 0, 0].map((_, i) => (i < index ? (parts[i] ?? 0) : i === index ? (parts[i] ?? 0) + 1 : 0));
  return out.join('.');
}

interface Context {
  constraint: string;
  prerelease: boolean;
}

const version = (ctx: Context, text: string): Partial => {
  const parsed = parsePartial(text);
  if (!parsed) throw new InvalidRequirementError('Composer', ctx.constraint, `cannot read version '${text}'`);
  return parsed;
};
/** A version of a constraint that has a semver form: not a branch, no non-zero 4th part. */
const semverVersion = (ctx: Context, text: string): Partial => {
  const parsed = version(ctx, text);
  if (parsed.branch) throw new InvalidRequirementError('Composer', ctx.constraint, `the branch '${text}' has no semver form`);
  if ((parsed.parts[3] ?? 0) !== 0) throw new InvalidRequirementError('Composer', ctx.constraint, `'${text}' has no semver form`);
  return parsed;
};
/** `>=v`; with pre-releases allowed, a stable lower bound also admits its pre-releases (Composer's `>=1.0.0.0-dev`). */
const atLeast = (ctx: Context, v: string) => `>=${v}${ctx.prerelease && !v.includes('-') ? '-0' : ''}`;
/** `<v-0`: Composer's upper bounds exclude the bound's own pre-releases (`<2.0.0.0-dev`). */
/**
 * The `||` (or `|`) alternatives of a Composer constraint, each as the matchers read it: an inline alias (`1.0.x-dev as
 * 1.0.0`) cut to its real version, stability flags (`@beta`) dropped, and operators joined to their version (`>= 1.2`
 * → `>=1.2`).
 */
const alternativesOf = (text: string): string[] =>
  text.split(/\s*\|\|?\s*/).map((alternative) =>
    alternative
      .replace(/\s+as\s+\S+$/i, '')
      .replace(/@\w+/g, '')
      .replace(/(>=|<=|!=|<>|==|=|>|<|\^|~)\s+/g, '$1')
      .trim(),
  );

const below = (v: string) => `<${v}${v.includes('-') ? '' : '-0'}`;

/** One clause to its semver alternatives (`!=` gives two, everything else one; `[]` inside means "any"). */
function convertClause(ctx: Context, clause: string): string[][] {
  if (/^[*xX]$/.test(clause)) return [[]];
  const op = /^(>=|<=|!=|<>|==|=|>|<|\^|~)?(.*)$/.exec(clause);
  const operator = op?.[1] ?? '';
  const v = semverVersion(ctx, op?.[2] ?? '');
  const n = v.parts.length;
  if (v.wildcard && operator !== '' && operator !== '=' && operator !== '==') {
    throw new InvalidRequirementError('Composer', ctx.constraint, `wildcard after '${operator}'`);
  }
  switch (operator) {
    case '^': {
      const [major = 0, minor = 0] = v.parts;
      const index = major > 0 || n === 1 ? 0 : minor > 0 || n === 2 ? 1 : 2;
      return [[atLeast(ctx, full(v)), below(bump(v.parts, index))]];
    }
    case '~':
      return [[atLeast(ctx, full(v)), below(bump(v.parts, n >= 3 ? 1 : 0))]];
    case '>=':
      return [[atLeast(ctx, full(v))]];
    case '>':
      return [[`>${full(v)}`]];
    case '<':
      return [[below(full(v))]];
    case '<=':
      return [[`<=${full(v)}`]];
    case '!=':
    case '<>':
      return [[`<${full(v)}`], [`>${full(v)}`]];
    default:
      if (v.wildcard) return n === 0 ? [[]] : [[atLeast(ctx, full(v)), below(bump(v.parts, n - 1))]];
      return [[`=${full(v)}`]];
  }
}

/**
 * Converts a Composer version constraint (https://getcomposer.org/doc/articles/versions.md) to an npm semver
 * range, the way Renovate's `composer2npm` does (renovatebot/renovate `lib/modules/versioning/composer/index.ts`):
 * - `||` or `|` is "or"; `,` or whitespace between clauses is "and"; `1.0 - 2.0` is a hyphen range;
 * - `^1.2.3` → `>=1.2.3 <2.0.0-0` (`^0.3` → `<0.4.0`); Composer's tilde is not npm's: `~1.2` → `>=1.2.0 <2.0.0-0`,
 *   `~1.2.3` → `>=1.2.3 <1.3.0-0`; `1.2.*` → `>=1.2.0 <1.3.0-0`; `!=1.5` → `<1.5.0 || >1.5.0`;
 * - versions are padded (`1.2` → `1.2.0`), lose a `v` prefix and map stabilities (`2.0.0-RC1` → `2.0.0-rc.1`);
 * - stability flags `@dev`, `@alpha`, `@beta`, `@RC` (or a pre-release version in the constraint, which
 *   Composer reads as the same flag) turn pre-releases on (`includePrerelease`, lower bounds `-0`); `@stable`
 *   changes nothing; the inline alias part of `x as y` is dropped.
 * @throws InvalidRequirementError on branch constraints (`dev-main`, `1.x-dev`), `self.version` or anything unreadable
 */
export function composerToSemverRange(constraint: string): MappedRange {
  const text = constraint.trim();
  if (text === '') throw new InvalidRequirementError('Composer', constraint, 'empty');
  const flags = [...text.matchAll(/@(\w+)/g)].map((m) => (m[1] ?? '').toLowerCase());
  const ctx: Context = {
    constraint,
    prerelease:
      flags.some((f) => ['dev', 'alpha', 'beta', 'rc'].includes(f)) ||
      /\d[-._]?(alpha|beta|rc|a|b|dev)(?:[.-]?\d+)?(?=$|[\s,|@])|\d[.-]dev(?=$|[\s,|@])/i.test(text),
  };
  const alternatives = alternativesOf(text).map((cleaned) => {
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(cleaned);
    if (hyphen?.[1] && hyphen[2]) {
      const low = semverVersion(ctx, hyphen[1]);
      const high = semverVersion(ctx, hyphen[2]);
      const upper = high.parts.length < 3 ? below(bump(high.parts, high.parts.length - 1)) : `<=${full(high)}`;
      return [`${atLeast(ctx, full(low))} ${upper}`];
    }
    const clauses = cleaned.split(/\s*,\s*|\s+/).filter(Boolean);
    // an `and` of clauses, each an `or` of comparator lists: expand to an `or` of `and`s
    let expanded: string[][] = [[]];
    for (const clause of clauses.length ? clauses : ['*']) {
      const options = convertClause(ctx, clause);
      expanded = expanded.flatMap((prefix) => options.map((option) => [...prefix, ...option]));
    }
    return expanded.map((comparators) => (comparators.length ? comparators.join(' ') : '*'));
  });
  return { range: alternatives.flat().join(' || '), includePrerelease: ctx.prerelease };
}

/**
 * Composer's stabilities, least stable first, as `BasePackage::STABILITIES` ranks them (dev 20, alpha 15, beta 10,
 * RC 5, stable 0: https://github.com/composer/composer/blob/main/src/Composer/Package/BasePackage.php); here as the
 * index in this list, so a larger index is more stable.
 */
const STABILITIES = ['dev', 'alpha', 'beta', 'rc', 'stable'] as const;
type Stability = (typeof STABILITIES)[number];
const stabilityRank = (stability: Stability) => STABILITIES.indexOf(stability);

/**
 * A version as Composer orders it (`VersionParser::normalize` then PHP's `version_compare`,
 * https://github.com/composer/semver/blob/main/src/VersionParser.php, https://www.php.net/manual/en/function.version-compare.php):
 * the numeric parts, then the suffix ranked dev < alpha < beta < RC < none < patch (`-p1`, `-pl1`, `-patch1` are
 * patch releases, newer than their base version), then the suffix's number.
 */
interface Ordered {
  parts: [number, number, number, number];
  /** 0 dev, 1 alpha, 2 beta, 3 RC, 4 stable, 5 patch release. */
  suffix: number;
  number: number;
  /** A `-dev` after a stability (`1.0.0.0-beta1-dev`): before the same version without it (`version_compare`'s `dev` < `#`). */
  dev: boolean;
}

const PATCH_SUFFIX = STABILITIES.length;

/**
 * The version as Composer orders it; `dev` true gives its `-dev` form instead (`1.0` → `1.0.0.0-dev`, what Composer's
 * bounds `>=1.0` and `<2.0` compare with). A plain `-dev` version (`1.0.0-dev`, a numeric branch) has suffix dev.
 */
function ordered(p: Partial, dev = false): Ordered {
  const [major = 0, minor = 0, patch = 0, fourth = 0] = p.parts;
  const parts: Ordered['parts'] = [major, minor, patch, fourth];
  if (dev || (p.dev && p.pre === null && p.patchRelease === null)) return { parts, suffix: 0, number: 0, dev: false };
  if (p.patchRelease !== null) return { parts, suffix: PATCH_SUFFIX, number: p.patchRelease, dev: p.dev };
  if (p.pre === null) return { parts, suffix: stabilityRank('stable'), number: 0, dev: false };
  const [label = '', number = '0'] = p.pre.split('.');
  return { parts, suffix: stabilityRank(label as Stability), number: Number(number), dev: p.dev };
}

function compareOrdered(a: Ordered, b: Ordered): number {
  for (let i = 0; i < 4; i++) if (a.parts[i] !== b.parts[i]) return (a.parts[i] ?? 0) < (b.parts[i] ?? 0) ? -1 : 1;
  if (a.suffix !== b.suffix) return a.suffix < b.suffix ? -1 : 1;
  if (a.number !== b.number) return a.number < b.number ? -1 : 1;
  return a.dev === b.dev ? 0 : a.dev ? -1 : 1;
}

/** The stability of an {@link Ordered} version: a patch release is stable, anything with a `-dev` suffix is dev. */
const stabilityOf = (v: Ordered): number => (v.dev ? 0 : Math.min(v.suffix, stabilityRank('stable')));

/** A full (non-wildcard) Composer version, or undefined. */
function orderedVersion(version: string): Ordered | undefined {
  const p = parsePartial(version);
  return p && !p.wildcard && p.parts.length > 0 ? ordered(p) : undefined;
}

/** Whether a valid version is a development or pre-release version: stability dev, alpha, beta or RC. */
export function isComposerPrerelease(version: string): boolean {
  const v = orderedVersion(version);
  return v !== undefined && stabilityOf(v) < stabilityRank('stable');
}

/** `[major, minor, patch]` of a Composer version (a numeric branch's wildcard parts are 9999999), or undefined. */
export function composerRelease(version: string): [number, number, number] | undefined {
  const v = orderedVersion(version);
  return v && [v.parts[0], v.parts[1], v.parts[2]];
}

/**
 * Compares two Composer versions as Composer does (see {@link Ordered}): `1.0.0-dev < 1.0.0-alpha1 < 1.0.0-RC1 < 1.0.0 <
 * 1.0.0-p1 < 1.0.1 < 1.0.x-dev`, `v2.0` = `2.0.0`, `1.2.3.4 > 1.2.3`. Undefined when either is not a version
 * ({@link normaliseComposerVersion}).
 */
export function compareComposerVersions(a: string, b: string): number | undefined {
  const left = orderedVersion(a);
  const right = orderedVersion(b);
  return left && right ? compareOrdered(left, right) : undefined;
}

type Operator = '>=' | '>' | '<' | '<=' | '=' | '!=';
/**
 * One comparison of a constraint: with a version, or with a named branch (`dev-main`), which Composer's
 * `Constraint::versionCompare` never orders against a version: only `!=` holds.
 */
type Comparator = { operator: Operator; version: Ordered } | { operator: Operator; branch: string };

function holds(v: Ordered, c: Comparator): boolean {
  if (!('version' in c)) return c.operator === '!=';
  const order = compareOrdered(v, c.version);
  switch (c.operator) {
    case '>=':
      return order >= 0;
    case '>':
      return order > 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '=':
      return order === 0;
    case '!=':
      return order !== 0;
  }
}

/** `parts` with position `index` incremented and what follows zeroed. */
const bumped = (parts: readonly number[], index: number): Partial => ({
  parts: [0, 0, 0].map((_, i) => (i < index ? (parts[i] ?? 0) : i === index ? (parts[i] ?? 0) + 1 : 0)),
  wildcard: false,
  pre: null,
  patchRelease: null,
  dev: false,
  branch: false,
  written: 3,
});

const isStable = (p: Partial) => p.pre === null && !p.dev;

/**
 * A named branch as a constraint's version: `dev-<name>` (a `#ref` dropped), `master`/`trunk`/`default` (Composer 1's
 * names for `dev-master`...), and `<name>-dev` that is not a numeric branch, which `parseConstraint` recovers as
 * `dev-<name>`; the branch's name, else undefined.
 */
function namedBranch(text: string): string | undefined {
  const bare = text.replace(/#\S+$/, '');
  if (/^dev-./i.test(bare)) return `dev-${bare.slice(4)}`;
  if (['master', 'trunk', 'default'].includes(bare)) return `dev-${bare}`;
  if (/^[0-9a-zA-Z./-]+-dev$/.test(bare) && parsePartial(bare) === undefined) return `dev-${bare.slice(0, -4)}`;
  return undefined;
}

/**
 * One clause as `VersionParser::parseConstraint` reads it: `^`, `~` and wildcards give `>=low <high-dev`, a stable
 * lower bound `>=x` and upper bound `<x` take the `-dev` suffix (so `<2.0` excludes 2.0's pre-releases and `>=1.0`
 * admits 1.0's), `>`, `<=`, `=` and `!=` compare with the version as written.
 */
function clauseComparators(ctx: Context, clause: string): Comparator[] {
  if (/^[*xX]$/.test(clause)) return [];
  const op = /^(>=|<=|!=|<>|==|=|>|<|\^|~)?(.*)$/.exec(clause);
  const operator = op?.[1] ?? '';
  const raw = op?.[2] ?? '';
  const branch = namedBranch(raw);
  if (branch !== undefined && !['^', '~'].includes(operator)) {
    const named: Operator = operator === '' || operator === '==' ? '=' : operator === '<>' ? '!=' : (operator as Operator);
    return [{ operator: named, branch }];
  }
  const v = version(ctx, raw);
  const n = v.written;
  if (v.wildcard && operator !== '' && operator !== '=' && operator !== '==') {
    throw new InvalidRequirementError('Composer', ctx.constraint, `wildcard after '${operator}'`);
  }
  const low = (p: Partial): Comparator => ({ operator: '>=', version: ordered(p, isStable(p) && p.patchRelease === null) });
  const high = (p: Partial): Comparator => ({ operator: '<', version: ordered(p, true) });
  switch (operator) {
    case '^': {
      const [major = 0, minor = 0] = v.parts;
      const index = major > 0 || n === 1 ? 0 : minor > 0 || n === 2 ? 1 : 2;
      return [low(v), high(bumped(v.parts, index))];
    }
    case '~': {
      const count =
        raw
          .replace(/^[vV]/, '')
          .split(/[-.]?[a-zA-Z]/)[0]
          ?.split('.').length ?? n;
      // `~6.4.x-dev` works one position further right, as `~6.4.0` does
      const position = count + (v.branch ? 1 : 0);
      return [low(v), high(bumped(v.parts, Math.max(0, Math.min(position, 4) - 2)))];
    }
    case '>=':
      return [low(v)];
    case '<':
      return [{ operator: '<', version: ordered(v, isStable(v) && v.patchRelease === null) }];
    case '>':
      return [{ operator: '>', version: ordered(v) }];
    case '<=':
      return [{ operator: '<=', version: ordered(v) }];
    case '!=':
    case '<>':
      return [{ operator: '!=', version: ordered(v) }];
    default:
      if (v.wildcard) return n === 0 ? [] : [low(v), high(bumped(v.parts, n - 1))];
      return [{ operator: '=', version: ordered(v) }];
  }
}

/** A constraint read the way Composer matches versions: alternatives of comparator lists, and the minimum stability. */
export interface ComposerConstraint {
  /** `||` alternatives, each a list of comparators that must all hold (an empty list allows any version). */
  alternatives: ReadonlyArray<readonly Comparator[]>;
  /** The least stable stability the constraint admits: `stable` unless a flag or a pre-release version lowers it. */
  minimumStability: Stability;
}

/**
 * The minimum stability of a constraint, as Composer's `RootPackageLoader::extractStabilityFlags` derives a package's
 * stability flag (https://github.com/composer/composer/blob/main/src/Composer/Package/Loader/RootPackageLoader.php):
 * the constraint is cut into `||` alternatives and `,`/space-separated clauses; explicit flags (`@beta`, `@RC`, ...)
 * give the least stable of them; without any, a clause that is a single version naming a stability (`^2.0.0-RC1`,
 * `>=1.0-beta2`, `1.0.0-alpha1 as 1.0`) gives the least stable of those (`VersionParser::parseStability`); else
 * `stable` (the root's `minimum-stability` and `prefer-stable` are applied to the constraint by the ecosystem's reader:
 * `constraintInRoot` in stability.ts).
 */
function minimumStability(text: string): Stability {
  const clauses = text
    .split(/\s*\|\|?\s*/)
    .map((alternative) => alternative.replace(/\s+as\s+\S+$/i, ''))
    .flatMap((alternative) => alternative.replace(/(>=|<=|!=|<>|==|=|>|<|\^|~)\s+/g, '$1').split(/\s*,\s*|\s+(?!-\s)(?<!\s-\s*)/));
  let least = stabilityRank('stable');
  let flagged = false;
  for (const clause of clauses) {
    const flag = /@(stable|rc|beta|alpha|dev)$/i.exec(clause.trim())?.[1]?.toLowerCase() as Stability | undefined;
    if (flag === undefined) continue;
    flagged = true;
    least = Math.min(least, stabilityRank(flag));
  }
  if (flagged) return STABILITIES[least] ?? 'stable';
  for (const clause of clauses) {
    if (!/^[^,\s@]+$/.test(clause)) continue;
    if (/^dev-|-dev(?:#\S+)?$/i.test(clause)) least = Math.min(least, stabilityRank('dev'));
    const modifier = /(?:[._-]?(beta|b|rc|alpha|a)(?:[.-]?\d+)?)$/i.exec(clause)?.[1]?.toLowerCase();
    if (modifier === undefined || !/\d/.test(clause)) continue;
    const stability: Stability = modifier.startsWith('a') ? 'alpha' : modifier.startsWith('b') ? 'beta' : 'rc';
    least = Math.min(least, stabilityRank(stability));
  }
  return STABILITIES[least] ?? 'stable';
}

/**
 * Reads a Composer constraint (https://getcomposer.org/doc/articles/versions.md) the way Composer matches it
 * (`VersionParser::parseConstraints`, https://github.com/composer/semver/blob/main/src/VersionParser.php, and the
 * stability flags of https://getcomposer.org/doc/04-schema.md#package-links): `||`/`|` alternatives of `,`/space
 * clauses; `^1.2.3` is `>=1.2.3-dev <2.0.0-dev`, `~1.2` `>=1.2-dev <2.0-dev`, `~1.2.3` `>=1.2.3-dev <1.3-dev`, `1.2.*`
 * `>=1.2-dev <1.3-dev`, `1.0 - 2.0` `>=1.0-dev <2.1-dev` (`<=2.0.0` for a full upper version); the inline alias
 * (`x as y`) is dropped.
 * @throws InvalidRequirementError on branch constraints (`dev-main`, `1.x-dev`), `self.version` or anything unreadable
 */
export function parseComposerConstraint(constraint: string): ComposerConstraint {
  const text = constraint.trim();
  if (text === '') throw new InvalidRequirementError('Composer', constraint, 'empty');
  const ctx: Context = { constraint, prerelease: false };
  const alternatives = alternativesOf(text).map((cleaned) => {
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(cleaned);
    if (hyphen?.[1] && hyphen[2]) {
      const lowVersion = version(ctx, hyphen[1]);
      const highVersion = version(ctx, hyphen[2]);
      const lower: Comparator = { operator: '>=', version: ordered(lowVersion, isStable(lowVersion) && lowVersion.patchRelease === null) };
      const upper: Comparator =
        highVersion.parts.length < 3 && isStable(highVersion) && highVersion.patchRelease === null
          ? { operator: '<', version: ordered(bumped(highVersion.parts, highVersion.parts.length - 1), true) }
          : { operator: '<=', version: ordered(highVersion) };
      return [lower, upper];
    }
    const clauses = cleaned.split(/\s*,\s*|\s+/).filter(Boolean);
    return (clauses.length ? clauses : ['*']).flatMap((clause) => clauseComparators(ctx, clause));
  });
  return { alternatives, minimumStability: minimumStability(text) };
}

/**
 * Does `version` satisfy `constraint` as Composer decides it: the version matches one alternative of the constraint
 * ({@link parseComposerConstraint}) and its stability is at least the constraint's minimum stability (dev < alpha <
 * beta < RC < stable; a patch release `-p1` is stable): `^1.0@beta` admits `1.1.0-beta1` but not `1.0.0-alpha1`,
 * `^2.0.0-RC1` admits `2.0.0-RC2` and `2.1.0` but not `2.1.0-beta2`. Undefined when `version` is not a version.
 * @throws InvalidRequirementError like {@link parseComposerConstraint}
 */
export function composerSatisfies(version: string, constraint: string): boolean | undefined {
  const parsed = parseComposerConstraint(constraint);
  const v = orderedVersion(version);
  if (v === undefined) return undefined;
  if (stabilityOf(v) < stabilityRank(parsed.minimumStability)) return false;
  return parsed.alternatives.some((comparators) => comparators.every((c) => holds(v, c)));
}
