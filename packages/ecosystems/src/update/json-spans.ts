/**
 * Positions of the string values of a JSON document (RFC 8259), so that one value can be replaced in place
 * without re-serialising the document. The text must already have passed `JSON.parse`.
 */

/** A string value: its key path (array indexes as decimal strings) and the span of its characters inside the quotes. */
export interface JsonString {
  path: readonly string[];
  start: number;
  end: number;
  /** Does the raw text hold an escape (`\n`, `\u005e`...)? Then it is not the value as written. */
  escaped: boolean;
}

/**
 * Every string value of `text` with its path, in document order. A key written twice appears twice (the last one
 * is the one `JSON.parse` keeps).
 * @throws Error on text that is not JSON (callers parse with `JSON.parse` first)
 */
export function jsonStrings(text: string): JsonString[] {
  const out: JsonString[] = [];
  let pos = 0;
  const fail = (): never => {
    throw new Error(`unexpected JSON at ${pos}`);
  };
  const skip = () => {
    while (pos < text.length && ' \t\r\n\uFEFF'.includes(text.charAt(pos))) pos++;
  };
  const string = (): { start: number; end: number; escaped: boolean } => {
    if (text.charAt(pos) !== '"') fail();
    const start = pos + 1;
    let escaped = false;
    pos = start;
    while (pos < text.length && text.charAt(pos) !== '"') {
      if (text.charAt(pos) === '\\') {
        escaped = true;
        pos++;
      }
      pos++;
    }
    if (pos >= text.length) fail();
    pos++;
    return { start, end: pos - 1, escaped };
  };
  const value = (path: readonly string[]) => {
    skip();
    const c = text.charAt(pos);
    if (c === '"') {
      out.push({ path, ...string() });
    } else if (c === '{') {
      pos++;
      skip();
      while (text.charAt(pos) !== '}') {
        const key = string();
        const name = JSON.parse(text.slice(key.start - 1, key.end + 1)) as string;
        skip();
        if (text.charAt(pos) !== ':') fail();
        pos++;
        value([...path, name]);
        skip();
        if (text.charAt(pos) === ',') {
          pos++;
          skip();
        } else if (text.charAt(pos) !== '}') fail();
      }
      pos++;
    } else if (c === '[') {
      pos++;
      skip();
      for (let index = 0; text.charAt(pos) !== ']'; index++) {
        value([...path, String(index)]);
        skip();
        if (text.charAt(pos) === ',') pos++;
        else if (text.charAt(pos) !== ']') fail();
        skip();
      }
      pos++;
    } else {
      const literal = /^(?:true|false|null|-?\d[\d.eE+-]*)/.exec(text.slice(pos));
      if (!literal) fail();
      pos += literal?.[0].length ?? 0;
    }
  };
  value([]);
  return out;
}

/**
 * The span of the string at `path` (the last one when a key is written twice, as `JSON.parse` keeps), undefined
 * when there is none or it holds an escape.
 */
export function jsonStringAt(strings: readonly JsonString[], path: readonly string[]): JsonString | undefined {
  const found = strings.findLast((s) => s.path.length === path.length && s.path.every((key, i) => key === path[i]));
  return found && !found.escaped ? found : undefined;
}
