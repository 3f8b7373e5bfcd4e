/**
 * What the workspace-glob matchers share (Cargo's `[workspace] members` in `cargo/glob.ts`, npm's and Lerna's
 * `workspaces` in `npm/glob.ts`): the bounds a glob from a repository must keep, and character classes. Globs are
 * repository content, so each matcher runs without regular expressions, in time bounded by the name and the glob.
 */

/** The longest workspace glob read: a longer one is ignored (it names no member and no `files.related` pattern). */
export const MAX_GLOB_LENGTH = 256;

/** The most wildcard characters a workspace glob may hold: one with more is ignored. */
export const MAX_GLOB_WILDCARDS = 16;

/**
 * Is `glob` within {@link MAX_GLOB_LENGTH} characters and {@link MAX_GLOB_WILDCARDS} of the characters `wildcards`
 * counts (Cargo: `*?[`; npm: `*?[{(`)?
 */
export function globWithinBounds(glob: string, wildcards: string): boolean {
  if (glob.length > MAX_GLOB_LENGTH) return false;
  let count = 0;
  for (const c of glob) if (wildcards.includes(c)) count++;
  return count <= MAX_GLOB_WILDCARDS;
}

/** A character class read from a glob segment: its ranges, whether negated, and the offset of its closing `]`. */
export interface GlobClass {
  negated: boolean;
  ranges: Array<[string, string]>;
  close: number;
}

/**
 * The character class that opens with the `[` at `open` of `segment`: negated by a first character among `negators`
 * (Cargo's glob `!`; minimatch `!` and `^`), a `]` right after the opening (and its negator) taken literally; undefined
 * when no `]` closes it (the `[` is then a literal character).
 */
export function readClass(segment: string, open: number, negators: string): GlobClass | undefined {
  let start = open + 1;
  const negated = start < segment.length && negators.includes(segment.charAt(start));
  if (negated) start++;
  const close = segment.indexOf(']', start + 1);
  return close < 0 ? undefined : { negated, ranges: classRanges(segment.slice(start, close)), close };
}

/** The ranges of a character class's body (`a-z0` → `a`–`z`, `0`–`0`); a `-` first or last is literal. */
function classRanges(body: string): Array<[string, string]> {
  const ranges: Array<[string, string]> = [];
  for (let k = 0; k < body.length; k++) {
    const from = body.charAt(k);
    if (body.charAt(k + 1) === '-' && k + 2 < body.length) {
      ranges.push([from, body.charAt(k + 2)]);
      k += 2;
    } else ranges.push([from, from]);
  }
  return ranges;
}

/** Is the character `c` in a class of `ranges` (out of it, when `negated`)? */
export function inClass(ranges: ReadonlyArray<readonly [string, string]>, negated: boolean, c: string): boolean {
  return ranges.some(([from, to]) => from <= c && c <= to) !== negated;
}
