import { ManifestParseError } from '../errors.ts';

/**
 * A small reader of HCL native syntax (https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md), enough for the
 * parts of Terraform files dependency updates read: blocks with labels, attributes whose value is a string literal, an
 * object (`{ source = "...", version = "..." }`) or a tuple of strings (`hashes = [...]`), with the source offsets of
 * every literal so an update edits only those characters. Any other expression (references, templates with `${...}`,
 * function calls, heredocs, numbers) is kept as `other` with its text.
 *
 * Why not `@cdktf/hcl2json`: its `parse` is asynchronous (a Go WebAssembly module answering through callbacks, loaded
 * when the module is imported) and gives no source positions, while `Ecosystem.findDependency` is synchronous and the
 * updater needs the literal's offsets.
 */

/** A string literal: its decoded value and the span of its characters between the quotes (`[start, end)`, UTF-16 units). */
export interface HclString {
  kind: 'string';
  value: string;
  start: number;
  end: number;
  /** True when the literal holds escapes, so the written characters differ from `value`. */
  escaped: boolean;
}

/** An object constructor `{ key = value, ... }` (keys as written, unquoted). */
export interface HclObject {
  kind: 'object';
  entries: HclAttribute[];
  start: number;
  end: number;
}

/** A tuple constructor `[a, b]`: its items, and the offsets just inside its brackets. */
export interface HclTuple {
  kind: 'tuple';
  items: HclValue[];
  /** Offset just after `[`. */
  start: number;
  /** Offset of `]`. */
  end: number;
}

/** Any other expression, as written. */
export interface HclOther {
  kind: 'other';
  text: string;
  start: number;
  end: number;
}

/** An expression as this reader keeps it. */
export type HclValue = HclString | HclObject | HclTuple | HclOther;

/** `name = value` in a body, or `key = value` / `key: value` in an object. */
export interface HclAttribute {
  name: string;
  value: HclValue;
}

/** A block `type "label" ... { body }`. */
export interface HclBlock {
  type: string;
  labels: string[];
  body: HclBody;
}

/** A body: its attributes and blocks, in file order. */
export interface HclBody {
  attributes: HclAttribute[];
  blocks: HclBlock[];
}

type TokenKind = 'ident' | 'string' | 'template' | 'heredoc' | 'number' | 'punct' | 'newline';

interface Token {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  /** For strings: the decoded value, and whether escapes were present. */
  value?: string;
  escaped?: boolean;
}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** How deep blocks, objects, tuples and templates within strings may nest before a file is refused. */
const MAX_DEPTH = 256;

const tooDeep = (file: string, where: string): never => {
  throw new ManifestParseError(file, `nesting too deep (more than ${MAX_DEPTH} levels) at ${where}`);
};

/**
 * Skips a `${ ... }` / `%{ ... }` template sequence starting at `at` (on `$`/`%`); returns the offset after `}`. `nesting`
 * counts the strings and templates it is within.
 */
function skipInterpolation(file: string, text: string, at: number, nesting: number): number {
  if (nesting > MAX_DEPTH) tooDeep(file, `line ${lineOf(text, at)}`);
  let depth = 0;
  let i = at + 1;
  for (; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === '"') i = readString(file, text, i, nesting + 1).end - 1;
  }
  throw new ManifestParseError(file, `unterminated template interpolation at offset ${at}`);
}

/** Reads a quoted string starting at `at` (on `"`); `nesting` counts the strings and templates it is within. */
function readString(file: string, text: string, at: number, nesting = 0): Token {
  let value = '';
  let escaped = false;
  let template = false;
  let i = at + 1;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '"') return { kind: template ? 'template' : 'string', text: text.slice(at, i + 1), start: at, end: i + 1, value, escaped };
    if (c === '\n') break;
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      escaped = true;
      if (next === 'u' || next === 'U') {
        const length = next === 'u' ? 4 : 8;
        const hex = text.slice(i + 2, i + 2 + length);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== length) throw new ManifestParseError(file, `bad \\${next} escape at offset ${i}`);
        const codePoint = Number.parseInt(hex, 16);
        if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
          throw new ManifestParseError(file, `\\${next}${hex} at offset ${i} is not a Unicode character`);
        }
        value += String.fromCodePoint(codePoint);
        i += 2 + length;
        continue;
      }
      const decoded = ESCAPES[next];
      if (decoded === undefined) throw new ManifestParseError(file, `unknown escape '\\${next}' at offset ${i}`);
      value += decoded;
      i += 2;
      continue;
    }
    if ((c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') {
      // `$${` / `%%{` is a literal `${` / `%{`
      value += `${c}{`;
      escaped = true;
      i += 3;
      continue;
    }
    if ((c === '$' || c === '%') && text[i + 1] === '{') {
      template = true;
      const end = skipInterpolation(file, text, i, nesting);
      value += text.slice(i, end);
      i = end;
      continue;
    }
    value += c;
    i++;
  }
  throw new ManifestParseError(file, `unterminated string at line ${lineOf(text, at)}`);
}

/** The 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** Splits HCL text into tokens; comments are dropped (a line comment keeps its line break). */
function tokenize(file: string, text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '\n') {
      tokens.push({ kind: 'newline', text: c, start: i, end: i + 1 });
      i++;
    } else if (c === ' ' || c === '\t' || c === '\r' || c === '\uFEFF') i++;
    else if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) throw new ManifestParseError(file, `unterminated comment at line ${lineOf(text, i)}`);
      i = end + 2;
    } else if (c === '"') {
      const token = readString(file, text, i);
      tokens.push(token);
      i = token.end;
    } else if (c === '<' && text[i + 1] === '<' && /^<<-?[A-Za-z_][A-Za-z0-9_-]*\r?\n/.test(text.slice(i, i + 200))) {
      const header = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)\r?\n/.exec(text.slice(i)) as RegExpExecArray;
      const marker = header[1] as string;
      let at = i + header[0].length;
      let end = -1;
      while (at <= text.length) {
        const lineEnd = text.indexOf('\n', at);
        const line = text.slice(at, lineEnd < 0 ? text.length : lineEnd).trim();
        if (line === marker) {
          end = lineEnd < 0 ? text.length : lineEnd;
          break;
        }
        if (lineEnd < 0) break;
        at = lineEnd + 1;
      }
      if (end < 0) throw new ManifestParseError(file, `unterminated heredoc '${marker}' at line ${lineOf(text, i)}`);
      tokens.push({ kind: 'heredoc', text: text.slice(i, end), start: i, end });
      i = end;
    } else if (/[A-Za-z_]/.test(c)) {
      const match = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i, i + 256)) as RegExpExecArray;
      tokens.push({ kind: 'ident', text: match[0], start: i, end: i + match[0].length });
      i += match[0].length;
    } else if (/[0-9]/.test(c)) {
      const match = /^[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 64)) as RegExpExecArray;
      tokens.push({ kind: 'number', text: match[0], start: i, end: i + match[0].length });
      i += match[0].length;
    } else {
      const two = text.slice(i, i + 2);
      const length = ['==', '!=', '<=', '>=', '&&', '||', '=>', '...'].includes(text.slice(i, i + 3))
        ? 3
        : ['==', '!=', '<=', '>=', '&&', '||', '=>'].includes(two)
          ? 2
          : 1;
      tokens.push({ kind: 'punct', text: text.slice(i, i + length), start: i, end: i + length });
      i += length;
    }
  }
  return tokens;
}

const OPEN: Record<string, string> = { '{': '}', '[': ']', '(': ')' };

/** A recursive-descent reader over the tokens. */
class Reader {
  private at = 0;
  private readonly file: string;
  private readonly text: string;
  private readonly tokens: Token[];

  constructor(file: string, text: string, tokens: Token[]) {
    this.file = file;
    this.text = text;
    this.tokens = tokens;
  }

  private peek(offset = 0): Token | undefined {
    return this.tokens[this.at + offset];
  }

  private fail(message: string, token = this.peek()): never {
    const where = token ? `line ${lineOf(this.text, token.start)}` : 'end of file';
    throw new ManifestParseError(this.file, `${message} at ${where}`);
  }

  /** How many blocks, objects and tuples are open. */
  private depth = 0;

  /** Runs `read` one level deeper, refusing more than {@link MAX_DEPTH} levels. */
  private nest<T>(read: () => T): T {
    if (++this.depth > MAX_DEPTH) this.fail(`nesting too deep (more than ${MAX_DEPTH} levels)`);
    try {
      return read();
    } finally {
      this.depth--;
    }
  }

  private skipNewlines(): void {
    while (this.peek()?.kind === 'newline') this.at++;
  }

  /** A body up to `}` (when `nested`) or the end of the file. */
  body(nested: boolean): HclBody {
    const body: HclBody = { attributes: [], blocks: [] };
    for (;;) {
      this.skipNewlines();
      const token = this.peek();
      if (token === undefined) {
        if (nested) this.fail("missing '}'");
        return body;
      }
      if (token.kind === 'punct' && token.text === '}') {
        if (!nested) this.fail("unexpected '}'");
        this.at++;
        return body;
      }
      if (token.kind !== 'ident') this.fail(`expected an attribute or block name, found '${token.text}'`);
      this.at++;
      const next = this.peek();
      if (next?.kind === 'punct' && next.text === '=') {
        this.at++;
        body.attributes.push({ name: token.text, value: this.expression(['newline', '}']) });
        const after = this.peek();
        if (after !== undefined && after.kind !== 'newline' && !(after.kind === 'punct' && after.text === '}'))
          this.fail(`unexpected '${after.text}' after attribute '${token.text}'`);
        continue;
      }
      const labels: string[] = [];
      for (;;) {
        const label = this.peek();
        if (label?.kind === 'string' || label?.kind === 'ident') {
          labels.push(label.kind === 'string' ? (label.value ?? '') : label.text);
          this.at++;
        } else if (label?.kind === 'punct' && label.text === '{') {
          this.at++;
          body.blocks.push({ type: token.text, labels, body: this.nest(() => this.body(true)) });
          break;
        } else this.fail(`expected a block label or '{' after '${token.text}'`, label);
      }
    }
  }

  /** Is the token one that ends an expression in the current context? */
  private ends(token: Token | undefined, terminators: readonly string[]): boolean {
    if (token === undefined) return true;
    if (token.kind === 'newline') return terminators.includes('newline');
    return token.kind === 'punct' && terminators.includes(token.text);
  }

  /** An expression up to one of `terminators` (`newline`, `,`, `}`, `]`) at depth 0, not consumed. */
  expression(terminators: readonly string[]): HclValue {
    const first = this.peek();
    if (first === undefined || this.ends(first, terminators)) this.fail('expected an expression', first);
    let value: HclValue | undefined;
    if (first.kind === 'string') {
      this.at++;
      value = { kind: 'string', value: first.value ?? '', start: first.start + 1, end: first.end - 1, escaped: first.escaped ?? false };
    } else if (first.kind === 'punct' && first.text === '{' && !this.isForExpression()) value = this.nest(() => this.object());
    else if (first.kind === 'punct' && first.text === '[') value = this.nest(() => this.tuple());
    if (value !== undefined && this.ends(this.peek(), terminators)) return value;
    // anything else: everything up to a terminator at depth 0
    const start = first.start;
    const stack: string[] = [];
    let end = value === undefined ? first.start : (this.tokens[this.at - 1] as Token).end;
    for (;;) {
      const token = this.peek();
      if (token === undefined) break;
      if (stack.length === 0 && this.ends(token, terminators)) break;
      if (token.kind === 'punct' && OPEN[token.text]) stack.push(OPEN[token.text] as string);
      else if (token.kind === 'punct' && (token.text === '}' || token.text === ']' || token.text === ')')) {
        if (stack.pop() !== token.text) this.fail(`unbalanced '${token.text}'`, token);
      }
      end = token.end;
      this.at++;
    }
    if (stack.length > 0) this.fail(`missing '${stack.at(-1)}'`);
    return { kind: 'other', text: this.text.slice(start, end), start, end };
  }

  /** Does the `{` at the current token open a `for` expression (`{for k, v in x : k => v}`) rather than an object? */
  private isForExpression(): boolean {
    let i = this.at + 1;
    while (this.tokens[i]?.kind === 'newline') i++;
    const token = this.tokens[i];
    return token?.kind === 'ident' && token.text === 'for';
  }

  private object(): HclObject {
    const open = this.peek() as Token;
    this.at++;
    const entries: HclAttribute[] = [];
    for (;;) {
      this.skipNewlines();
      const key = this.peek();
      if (key === undefined) this.fail("missing '}'");
      if (key.kind === 'punct' && key.text === '}') {
        this.at++;
        return { kind: 'object', entries, start: open.start, end: key.end };
      }
      let name: string;
      if (key.kind === 'punct' && key.text === '(') {
        // a computed key `(expression) = value`
        const expression = this.expression(['=', ':']);
        name = expression.kind === 'other' ? expression.text : '';
      } else if (key.kind === 'ident' || key.kind === 'number' || key.kind === 'string') {
        name = key.kind === 'string' ? (key.value ?? '') : key.text;
        this.at++;
      } else this.fail(`expected an object key, found '${key.text}'`);
      const separator = this.peek();
      if (!(separator?.kind === 'punct' && (separator.text === '=' || separator.text === ':')))
        this.fail(`expected '=' after key '${name}'`);
      this.at++;
      entries.push({ name, value: this.expression(['newline', ',', '}']) });
      const after = this.peek();
      if (after?.kind === 'punct' && after.text === ',') this.at++;
    }
  }

  private tuple(): HclTuple {
    const open = this.peek() as Token;
    this.at++;
    const items: HclValue[] = [];
    for (;;) {
      this.skipNewlines();
      const token = this.peek();
      if (token === undefined) this.fail("missing ']'");
      if (token.kind === 'punct' && token.text === ']') {
        this.at++;
        return { kind: 'tuple', items, start: open.end, end: token.start };
      }
      items.push(this.expression([',', ']', 'newline']));
      this.skipNewlines();
      const after = this.peek();
      if (after?.kind === 'punct' && after.text === ',') this.at++;
      else if (!(after?.kind === 'punct' && after.text === ']')) this.fail("expected ',' or ']'", after);
    }
  }
}

/**
 * Reads an HCL file's top-level body (see the module comment for what is kept).
 * @throws ManifestParseError naming `file` on unbalanced brackets, unterminated strings, comments or heredocs, unknown
 *   escapes or `\u`/`\U` escapes that are not a Unicode character, a body item that is neither an attribute nor a block,
 *   or blocks, objects, tuples or templates in strings nested more than 256 levels deep
 */
export function parseHcl(file: string, text: string): HclBody {
  return new Reader(file, text, tokenize(file, text)).body(false);
}

/** The attribute `name` of a body or object, the last one when repeated; undefined when absent. */
export function attribute(entries: readonly HclAttribute[], name: string): HclValue | undefined {
  return entries.findLast((entry) => entry.name === name)?.value;
}
