import { InvalidRequirementError } from '../errors.ts';
import type { MappedRange } from '../shared/semver-scheme.ts';

/** A Composer version, possibly partial or wildcarded: numeric parts given, wildcard after them, semver pre-release. */
interface Partial {
  parts: number[];
  wildcard: boolean;
  /** semver pre-release identifiers (`beta.1`), null for a stable version. */
  pre: string | null;
}

const PART = String.raw`(\d+|[*xX])`;
const VERSION = new RegExp(
  String.raw`^[vV]?${PART}(?:\.${PART})?(?:\.${PART})?(?:\.${PART})?(?:[-.]?(stable|beta|b|rc|alpha|a|patch|pl|p)(?:[.-]?(\d+))?)?$`,
  'i',
);
const STABILITY: Record<string, string | null> = { stable: null, beta: 'beta', b: 'beta', rc: 'rc', alpha: 'alpha', a: 'alpha' };

/** Parses a Composer version (`v1.2`, `1.2.*`, `2.0.0-RC1`, `1.0.0-beta.2`, `1.2.3-p1`); undefined when it is none. */
function parsePartial(text: string): Partial | undefined {
  const match = VERSION.exec(text.trim());
  if (!match) return undefined;
  const raw = match.slice(1, 5).filter((p): p is string => p !== undefined);
  const wildIndex = raw.findIndex((p) => /[*xX]/.test(p));
  if (wildIndex !== -1 && raw.slice(wildIndex).some((p) => !/[*xX]/.test(p))) return undefined;
  const parts = (wildIndex === -1 ? raw : raw.slice(0, wildIndex)).map(Number);
  if (parts.length === 4 && parts[3] !== 0) return undefined; // a non-zero 4th part has no semver form
  const flag = match[5]?.toLowerCase();
  const label = flag === undefined ? null : (STABILITY[flag] ?? null); // patch/pl/p: a stable patch release
  if (wildIndex !== -1 && flag !== undefined) return undefined;
  return { parts: parts.slice(0, 3), wildcard: wildIndex !== -1, pre: label === null ? null : match[6] ? `${label}.${match[6]}` : label };
}

/**
 * A Composer version in semver form (`v2.0` → `2.0.0`, `1.0.0-RC1` → `1.0.0-rc.1`, `1.0.0.0` → `1.0.0`), or null
 * for what has none: branches (`dev-main`, `1.x-dev`), wildcards, a non-zero 4th part (`1.2.3.4`). Patch
 * releases (`1.2.3-p1`) map to their base version, so they compare equal to it.
 */
export function composerVersionToSemver(version: string): string | null {
  const partial = parsePartial(version);
  if (!partial || partial.wildcard || partial.parts.length === 0) return null;
  return full(partial);
}

function full(p: Partial): string {
  const [major = 0, minor = 0, patch = 0] = p.parts;
  return `${major}.${minor}.${patch}${p.pre ? `-${p.pre}` : ''}`;
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
/** `>=v`; with pre-releases allowed, a stable lower bound also admits its pre-releases (Composer's `>=1.0.0.0-dev`). */
const atLeast = (ctx: Context, v: string) => `>=${v}${ctx.prerelease && !v.includes('-') ? '-0' : ''}`;
/** `<v-0`: Composer's upper bounds exclude the bound's own pre-releases (`<2.0.0.0-dev`). */
const below = (v: string) => `<${v}${v.includes('-') ? '' : '-0'}`;

/** One clause to its semver alternatives (`!=` gives two, everything else one; `[]` inside means "any"). */
function convertClause(ctx: Context, clause: string): string[][] {
  if (/^[*xX]$/.test(clause)) return [[]];
  const op = /^(>=|<=|!=|<>|==|=|>|<|\^|~)?(.*)$/.exec(clause);
  const operator = op?.[1] ?? '';
  const v = version(ctx, op?.[2] ?? '');
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
      flags.some((f) => ['dev', 'alpha', 'beta', 'rc'].includes(f)) || /\d[-.]?(alpha|beta|rc|a|b)(?:[.-]?\d+)?(?=$|[\s,|@])/i.test(text),
  };
  const alternatives = text.split(/\s*\|\|?\s*/).map((alternative) => {
    const cleaned = alternative
      .replace(/\s+as\s+\S+$/i, '')
      .replace(/@\w+/g, '')
      .replace(/(>=|<=|!=|<>|==|=|>|<|\^|~)\s+/g, '$1')
      .trim();
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(cleaned);
    if (hyphen?.[1] && hyphen[2]) {
      const low = version(ctx, hyphen[1]);
      const high = version(ctx, hyphen[2]);
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
