/**
 * Matching of a workspace directory by a glob of package.json's `workspaces` or lerna.json's `packages`, in the forms
 * npm's map-workspaces and Lerna take through minimatch (https://github.com/isaacs/minimatch#features), without a regular
 * expression: the globs are repository content, and a backtracking regular expression built from `*a*a*a*b` or
 * `+(a|aa)` takes minutes on a long directory name. Supported in a segment: `*` (any characters), `?` (one), `[...]`
 * (one of a class; `[!...]`/`[^...]` negated, `a-z` ranges), `{a,b}` (one of literal alternatives), and the extglobs
 * `@(a|b)`, `?(a|b)`, `+(a|b)`, `*(a|b)` and `!(a|b)` whose alternatives are literal text (no nested groups or
 * wildcards); `**` as a whole segment matches any number of directories. A segment is matched in O(name × glob ×
 * alternatives' length) time by dynamic programming, a directory in O(segments × glob segments) segment matches.
 */

import { inClass, readClass, globWithinBounds as withinBounds } from '../shared/glob.ts';

/** One element of a glob segment: any characters, one character, a class, an extglob or brace group, or a literal character. */
export type GlobToken =
  | { kind: 'star' }
  | { kind: 'one' }
  | { kind: 'class'; negated: boolean; ranges: ReadonlyArray<readonly [string, string]> }
  | { kind: 'group'; operator: '@' | '?' | '+' | '*' | '!'; alternatives: readonly string[] }
  | { kind: 'char'; char: string };

/** A glob segment as {@link matchesDirectory} takes it: `**` (any number of directories) or a segment's tokens. */
export type SegmentGlob = '**' | readonly GlobToken[];

/** Is the glob within the bounds a repository's glob must keep (`shared/glob.ts`), counting `*?[{(` as wildcards? */
export const globWithinBounds = (glob: string): boolean => withinBounds(glob, '*?[{(');

/**
 * The tokens of a glob segment: an extglob `@(a|b)` (operator before `(`, alternatives up to the first `)`), `{a,b}` as
 * `@(a|b)`, `*` (consecutive ones as one), `?`, `[...]` (a `[` or `{` without its closing character is literal), else a
 * literal character.
 */
export function parseSegmentGlob(segment: string): GlobToken[] {
  const tokens: GlobToken[] = [];
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charAt(i);
    if ('!@+*?'.includes(c) && segment.charAt(i + 1) === '(') {
      const close = segment.indexOf(')', i + 2);
      if (close >= 0) {
        const operator = c as '@' | '?' | '+' | '*' | '!';
        tokens.push({ kind: 'group', operator, alternatives: segment.slice(i + 2, close).split('|') });
        i = close;
        continue;
      }
    }
    if (c === '*') {
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else if (c === '[') {
      const found = readClass(segment, i, '!^');
      if (!found) tokens.push({ kind: 'char', char: c });
      else {
        tokens.push({ kind: 'class', negated: found.negated, ranges: found.ranges });
        i = found.close;
      }
    } else if (c === '{') {
      const close = segment.indexOf('}', i);
      if (close < 0) tokens.push({ kind: 'char', char: c });
      else {
        tokens.push({ kind: 'group', operator: '@', alternatives: segment.slice(i + 1, close).split(',') });
        i = close;
      }
    } else tokens.push({ kind: 'char', char: c });
  }
  return tokens;
}

/**
 * Does the path segment `name` (no `/`) match the tokens ({@link parseSegmentGlob})? By dynamic programming from the end:
 * `after[p]` says whether the tokens after the current one match `name` from position `p`. `!(a|b)` matches at `p` any
 * text (up to where the rest matches) unless an alternative followed by the rest matches the remainder, as minimatch's
 * `(?!(?:a|b)rest$)[^/]*?rest`.
 */
export function matchesSegment(tokens: readonly GlobToken[], name: string): boolean {
  const n = name.length;
  let after: boolean[] = Array.from({ length: n + 1 }, (_, p) => p === n);
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i] as GlobToken;
    const here: boolean[] = Array<boolean>(n + 1).fill(false);
    if (token.kind === 'star') {
      for (let p = n; p >= 0; p--) here[p] = (after[p] ?? false) || (p < n && (here[p + 1] ?? false));
    } else if (token.kind === 'group') {
      const next = after;
      // an alternative at `p` followed by `rest` (a table of positions)
      const alternativeThen = (p: number, rest: readonly boolean[]) =>
        token.alternatives.some((a) => name.startsWith(a, p) && (rest[p + a.length] ?? false));
      if (token.operator === '@') for (let p = 0; p <= n; p++) here[p] = alternativeThen(p, next);
      else if (token.operator === '?') for (let p = 0; p <= n; p++) here[p] = (next[p] ?? false) || alternativeThen(p, next);
      else if (token.operator === '!') {
        let anyLater = false;
        for (let p = n; p >= 0; p--) {
          anyLater ||= next[p] ?? false;
          here[p] = anyLater && !alternativeThen(p, next);
        }
      } else {
        // `*(a|b)`: none, or a non-empty alternative then `*(a|b)` again; `+(a|b)`: an alternative then `*(a|b)`
        const repeated: boolean[] = Array<boolean>(n + 1).fill(false);
        for (let p = n; p >= 0; p--) {
          repeated[p] =
            (next[p] ?? false) || token.alternatives.some((a) => a !== '' && name.startsWith(a, p) && (repeated[p + a.length] ?? false));
        }
        if (token.operator === '*') for (let p = 0; p <= n; p++) here[p] = repeated[p] ?? false;
        else for (let p = 0; p <= n; p++) here[p] = alternativeThen(p, repeated);
      }
    } else {
      for (let p = 0; p < n; p++) here[p] = matchesOne(token, name.charAt(p)) && (after[p + 1] ?? false);
    }
    after = here;
  }
  return after[0] ?? false;
}

/** Does a one-character token match the character `c`? */
function matchesOne(token: GlobToken, c: string): boolean {
  if (token.kind === 'one') return true;
  if (token.kind === 'char') return token.char === c;
  if (token.kind === 'class') return inClass(token.ranges, token.negated, c);
  return false;
}

/**
 * Does a directory's segments (`packages`, `core`; none empty) match the glob's ({@link SegmentGlob}: `**` any number of
 * directories, else one segment)? The iterative wildcard algorithm over segments: on a mismatch, the last `**` takes one
 * more directory; O(directory segments × glob segments) segment matches.
 */
export function matchesDirectory(globs: readonly SegmentGlob[], directory: readonly string[]): boolean {
  let d = 0;
  let g = 0;
  let starG = -1;
  let starD = 0;
  while (d < directory.length) {
    const glob = globs[g];
    if (glob === '**') {
      starG = g++;
      starD = d;
    } else if (glob !== undefined && matchesSegment(glob, directory[d] ?? '')) {
      g++;
      d++;
    } else if (starG >= 0) {
      g = starG + 1;
      d = ++starD;
    } else return false;
  }
  while (globs[g] === '**') g++;
  return g === globs.length;
}
