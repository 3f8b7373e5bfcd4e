import type { SkippedDeclaration } from '../ecosystem.ts';

/** The most characters of a skipped declaration's `text` kept ({@link storableSkipped}). */
export const MAX_SKIPPED_TEXT = 200;
/** The most characters of a skipped declaration's `reason` kept (it quotes arguments of the file, which may be long). */
export const MAX_SKIPPED_REASON = 500;

/**
 * `value` cut to `max` characters (the last one then `…`), with every control character but the tab (U+0000–U+0008, U+000A–U+001F, U+007F–U+009F)
 * and every lone surrogate replaced by U+FFFD: PostgreSQL's `jsonb` rejects `\u0000` and unpaired surrogates
 * (https://www.postgresql.org/docs/current/datatype-json.html), and a repository's file may hold any of them.
 */
export function storableText(value: string, max: number): string {
  const cut = value.length > max ? `${value.slice(0, max - 1)}…` : value;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  return cut.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g, '\uFFFD').toWellFormed();
}

/**
 * A skipped declaration as it may be stored (what an update run keeps): its `text` cut to {@link MAX_SKIPPED_TEXT} characters and its `reason`
 * to {@link MAX_SKIPPED_REASON}, control characters and lone surrogates replaced ({@link storableText}).
 */
export function storableSkipped(skipped: SkippedDeclaration): SkippedDeclaration {
  return { ...skipped, text: storableText(skipped.text, MAX_SKIPPED_TEXT), reason: storableText(skipped.reason, MAX_SKIPPED_REASON) };
}
