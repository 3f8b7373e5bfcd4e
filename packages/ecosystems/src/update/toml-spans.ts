/**
 * Positions of the single-line string values of a TOML 1.0 document (https://toml.io/en/v1.0.0), so that one
 * value can be replaced in place without re-serialising the document. The text must already have passed the
 * TOML parser; this scanner only follows its structure: comments, `[table]` and `[[array]]` headers, dotted and
 * quoted keys, inline tables and (multi-line) arrays.
 */

/** A string value: its full key path (array indexes as decimal strings) and the span of its characters inside the quotes. */
export interface TomlString {
  path: readonly string[];
  start: number;
  end: number;
  /** A basic string holding an escape: the raw text is not the value. */
  escaped: boolean;
}

/**
 * Every single-line string value of `text` with its path, in document order. Multi-line strings (`"""`, `'''`)
 * are skipped. `[[name]]` tables get the index of their occurrence in the path (`['package', '0', 'name']`).
 * A leading byte order mark is skipped (offsets stay those of `text`).
 * @throws Error on text the scanner cannot follow (callers parse the TOML first)
 */
export function tomlStrings(text: string): TomlString[] {
  const out: TomlString[] = [];
  const arrayTables = new Map<string, number>();
  let pos = text.startsWith('\uFEFF') ? 1 : 0; // a byte order mark, which TOML parsers skip
  let table: string[] = [];
  const fail = (): never => {
    throw new Error(`unexpected TOML at ${pos}`);
  };
  const at = (s: string) => text.startsWith(s, pos);
  /** Skips spaces and tabs, and also newlines and comments when `lines`. */
  const skip = (lines: boolean) => {
    while (pos < text.length) {
      const c = text.charAt(pos);
      if (c === ' ' || c === '\t') pos++;
      else if (lines && (c === '\n' || c === '\r')) pos++;
      else if (lines && c === '#') {
        while (pos < text.length && text.charAt(pos) !== '\n') pos++;
      } else break;
    }
  };
  const basic = (): { start: number; end: number; escaped: boolean } => {
    const start = ++pos;
    let escaped = false;
    while (pos < text.length && text.charAt(pos) !== '"') {
      if (text.charAt(pos) === '\n') fail();
      if (text.charAt(pos) === '\\') {
        escaped = true;
        pos++;
      }
      pos++;
    }
    if (pos >= text.length) fail();
    return { start, end: pos++, escaped };
  };
  const literal = (): { start: number; end: number } => {
    const start = ++pos;
    const end = text.indexOf("'", start);
    if (end < 0 || text.slice(start, end).includes('\n')) fail();
    pos = end + 1;
    return { start, end };
  };
  const key = (): string[] => {
    const keys: string[] = [];
    for (;;) {
      skip(false);
      if (at('"')) {
        const s = basic();
        keys.push(JSON.parse(`"${text.slice(s.start, s.end)}"`) as string);
      } else if (at("'")) {
        const s = literal();
        keys.push(text.slice(s.start, s.end));
      } else {
        const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(pos, pos + 200));
        if (!bare) fail();
        keys.push(bare?.[0] ?? '');
        pos += bare?.[0].length ?? 0;
      }
      skip(false);
      if (!at('.')) return keys;
      pos++;
    }
  };
  const value = (path: readonly string[]) => {
    skip(false);
    if (at('"""') || at("'''")) {
      const quote = text.slice(pos, pos + 3);
      let end = text.indexOf(quote, pos + 3);
      while (end >= 0 && quote === '"""' && text.charAt(end - 1) === '\\') end = text.indexOf(quote, end + 1);
      if (end < 0) fail();
      pos = end + 3;
      while (text.charAt(pos) === quote.charAt(0)) pos++; // up to two quotes may end the content
    } else if (at('"')) {
      out.push({ path, ...basic() });
    } else if (at("'")) {
      out.push({ path, ...literal(), escaped: false });
    } else if (at('[')) {
      pos++;
      for (let index = 0; ; index++) {
        skip(true);
        if (at(']')) break;
        value([...path, String(index)]);
        skip(true);
        if (at(',')) pos++;
        else if (!at(']')) fail();
      }
      pos++;
    } else if (at('{')) {
      pos++;
      for (;;) {
        skip(true);
        if (at('}')) break;
        const keys = key();
        if (!at('=')) fail();
        pos++;
        value([...path, ...keys]);
        skip(true);
        if (at(',')) pos++;
        else if (!at('}')) fail();
      }
      pos++;
    } else {
      const scalar = /^[^,\]}\r\n#]+/.exec(text.slice(pos, pos + 200));
      if (!scalar) fail();
      pos += scalar?.[0].trimEnd().length ?? 0;
    }
  };
  for (;;) {
    skip(true);
    if (pos >= text.length) break;
    if (at('[[')) {
      pos += 2;
      const keys = key();
      if (!at(']]')) fail();
      pos += 2;
      const name = JSON.stringify(keys);
      const index = arrayTables.get(name) ?? 0;
      arrayTables.set(name, index + 1);
      table = [...keys, String(index)];
    } else if (at('[')) {
      pos++;
      table = key();
      if (!at(']')) fail();
      pos++;
    } else {
      const keys = key();
      if (!at('=')) fail();
      pos++;
      value([...table, ...keys]);
    }
    skip(false);
    if (at('#')) skip(true);
    else if (pos < text.length && !at('\n') && !at('\r')) fail();
  }
  return out;
}

/** The span of the single-line string at `path`, undefined when there is none or it holds an escape. */
export function tomlStringAt(strings: readonly TomlString[], path: readonly string[]): TomlString | undefined {
  const found = strings.find((s) => s.path.length === path.length && s.path.every((k, i) => k === path[i]));
  return found && !found.escaped ? found : undefined;
}
