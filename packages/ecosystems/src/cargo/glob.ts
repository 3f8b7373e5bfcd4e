/**
 * Matching of one path segment by a glob segment of a `[workspace] members` entry, as Cargo's `glob` crate matches a
 * path component (https://docs.rs/glob/latest/glob/struct.Pattern.html): `*` any characters, `?` one, `[...]` one of a
 * class (`[!...]` negated, `a-z` ranges, a `]` right after `[` or `[!` is literal); every other character itself. The
 * match runs in O(name × glob) time (the iterative wildcard algorithm, no regular expression: a member glob is repository
 * content, and a backtracking regular expression built from `*a*a*a*b` takes minutes on a long directory name).
 */

import { inClass, readClass, globWithinBounds as withinBounds } from '../shared/glob.ts';

/** One element of a glob segment: any characters, one character, a class, or a literal character. */
export type GlobToken =
  | { kind: 'star' }
  | { kind: 'one' }
  | { kind: 'class'; negated: boolean; ranges: ReadonlyArray<readonly [string, string]> }
  | { kind: 'char'; char: string };

/** Is the glob within the bounds a repository's glob must keep (`shared/glob.ts`), counting `*?[` as wildcards? */
export const globWithinBounds = (glob: string): boolean => withinBounds(glob, '*?[');

/**
 * The tokens of a glob segment (`lib-[ab]*` → `l`, `i`, `b`, `-`, class `a`/`b`, star); consecutive `*` are one (a `**`
 * segment is one `*`, matching one segment). A `[` without a closing `]` is literal.
 */
export function parseSegmentGlob(segment: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charAt(i);
    if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else if (c === '[') {
      const found = readClass(segment, i, '!');
      if (!found) tokens.push({ kind: 'char', char: c });
      else {
        tokens.push({ kind: 'class', negated: found.negated, ranges: found.ranges });
        i = found.close;
      }
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

/** Does a token other than a star match the character `c`? */
function matchesOne(token: GlobToken, c: string): boolean {
  if (token.kind === 'one') return true;
  if (token.kind === 'char') return token.char === c;
  if (token.kind === 'class') return inClass(token.ranges, token.negated, c);
  return false;
}

/**
 * Does the path segment `name` (no `/`) match the glob tokens ({@link parseSegmentGlob})? The iterative wildcard
 * algorithm: on a mismatch, the last `*` takes one more character; O(name × tokens).
 */
export function matchesSegment(tokens: readonly GlobToken[], name: string): boolean {
  let t = 0;
  let p = 0;
  let starP = -1;
  let starT = 0;
  while (t < name.length) {
    const token = tokens[p];
    if (token?.kind === 'star') {
      starP = p++;
      starT = t;
    } else if (token !== undefined && matchesOne(token, name.charAt(t))) {
      p++;
      t++;
    } else if (starP >= 0) {
      p = starP + 1;
      t = ++starT;
    } else return false;
  }
  while (tokens[p]?.kind === 'star') p++;
  return p === tokens.length;
}
