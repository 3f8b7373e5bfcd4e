/**
 * Pure text helpers of the views (no DOM): commit SHAs found in a text, and where a long name may break.
 */

/** A full commit SHA (40 hex digits, SHA-1) or a SHA-256 digest (64), as a whole word. */
const SHA = /\b(?:[0-9a-f]{64}|[0-9a-f]{40})\b/gi;

/** How many characters of a SHA are shown (git's short form). */
export const SHORT_SHA_LENGTH = 7;

/** Words longer than this (a URL, an image path in a reason) may break after their separators, as a name does. */
export const LONG_WORD = 24;

/** A piece of a text: plain text, a SHA (shown short, the whole one kept), or a long word that may break. */
export type TextPiece = { text: string } | { sha: string } | { name: string };

/**
 * `text` cut into plain pieces, the SHAs in it and its long words, in order:
 * `'a1b2… → c3d4…'` → `[{sha}, {text: ' → '}, {sha}]`.
 */
export function splitText(text: string): TextPiece[] {
  const pieces: TextPiece[] = [];
  const plain = (part: string) => {
    for (const word of part.split(/(\s+)/)) {
      if (word === '') continue;
      const last = pieces.at(-1);
      if (word.length > LONG_WORD && !/\s/.test(word)) pieces.push({ name: word });
      else if (last && 'text' in last) last.text += word;
      else pieces.push({ text: word });
    }
  };
  let from = 0;
  for (const found of text.matchAll(SHA)) {
    plain(text.slice(from, found.index));
    pieces.push({ sha: found[0] });
    from = found.index + found[0].length;
  }
  plain(text.slice(from));
  return pieces;
}

/** `sha`'s first {@link SHORT_SHA_LENGTH} characters. */
export function shortSha(sha: string): string {
  return sha.slice(0, SHORT_SHA_LENGTH);
}

/**
 * `name` cut after each separator a long identifier has (`/`, `.`, `:`, `@`, `_`), where a line may break: a Maven
 * `org.springframework.boot:spring-boot-starter-web`, a Go module path, an image path, a URL (hyphens break already).
 */
export function breakPoints(name: string): string[] {
  return name.split(/(?<=[/.:@_])(?=.)/);
}
