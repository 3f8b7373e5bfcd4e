const SAFE = Symbol('SafeHtml');

/**
 * HTML text that is safe to send as it is. Only the {@link html} tag makes one (the symbol it carries is private to
 * this module), and it escapes every value that is not itself `SafeHtml`, so user input (titles, bodies, branch names)
 * reaches a page only escaped.
 */
export interface SafeHtml {
  readonly [SAFE]: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` with `& < > " '` replaced by their character references: safe in element content and in quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** A value the {@link html} tag accepts: text and numbers (escaped), `SafeHtml` (as is), arrays of these, nothing. */
export type HtmlValue = string | number | SafeHtml | null | undefined | readonly HtmlValue[];

function isSafe(value: unknown): value is SafeHtml {
  return typeof value === 'object' && value !== null && SAFE in value;
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined) return '';
  if (isSafe(value)) return value[SAFE];
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template tag for HTML: the literal parts are kept, every interpolated value is escaped with {@link escapeHtml}
 * unless it is `SafeHtml` (the result of another `html` template); arrays are joined, `null`/`undefined` left out.
 * Values belong in element content or double-quoted attributes, never in a tag name, an unquoted attribute, a
 * `<script>` or a `<style>`; a URL attribute must be given a URL the caller built (a path of its own), not user input.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return { [SAFE]: text };
}

/** The text of a {@link SafeHtml}, to send. */
export function htmlText(value: SafeHtml): string {
  return value[SAFE];
}
