/**
 * Neutralising request input before it is echoed in a `text/plain` error body (the README's "Echoed input is
 * neutralised"). Upstream (https://github.com/NationalSecurityAgency/emissary) replaced CR/LF by `_` with `RequestUtil.sanitizeParameter`
 * (`src/main/java/emissary/server/mvc/adapters/RequestUtil.java`) and escaped `<`, `>`, `&` with
 * `HtmlEscaper.escapeHtml` (`src/main/java/emissary/util/web/HtmlEscaper.java`); this does both and more (below).
 * Serve such bodies with `X-Content-Type-Options: nosniff` as well.
 */

/** Default bound on a neutralised value, in characters (the `…` marking a cut comes on top). */
export const DEFAULT_NEUTRALISED_LENGTH = 200;
/** Appended when a value was cut to the bound. */
export const TRUNCATION_MARK = '…';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Controls that must never reach a log line or a terminal: C0 (CR, LF, TAB, ESC…), DEL, C1, the line and
 * paragraph separators U+2028/U+2029 and the bidirectional overrides/isolates (U+202A–E, U+2066–9), and
 * U+FEFF.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/;

/**
 * Makes `value` safe to echo in a `text/plain` body or a log line: each control character (see above;
 * CR and LF included) becomes `_`, `<` `>` `&` become `&lt;` `&gt;` `&amp;`, unpaired surrogates become
 * U+FFFD, and the result is cut to at most `maxLength` characters (never inside an entity or a surrogate
 * pair) followed by `…` when cut. `null`/`undefined` become `null` (as Java string concatenation shows them).
 * e.g. `neutralise('a\r\n<b>')` → `'a__&lt;b&gt;'`.
 * @throws RangeError when `maxLength` is not a non-negative integer
 */
export function neutralise(value: string | null | undefined, maxLength: number = DEFAULT_NEUTRALISED_LENGTH): string {
  if (!Number.isInteger(maxLength) || maxLength < 0) throw new RangeError('maxLength must be a non-negative integer');
  if (value === null || value === undefined) return 'null';
  let out = '';
  for (const char of String(value).toWellFormed()) {
    const piece = CONTROL.test(char) ? '_' : (ENTITIES[char] ?? char);
    if (out.length + piece.length > maxLength) return out + TRUNCATION_MARK;
    out += piece;
  }
  return out;
}
