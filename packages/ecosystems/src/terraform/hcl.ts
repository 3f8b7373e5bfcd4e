import { ManifestParseError } from '../errors.ts';

/**
 * A reader of HCL native syntax (https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md) that accepts what
 * HashiCorp's parser accepts and keeps what dependency updates read: blocks with labels, attributes whose value is a
 * string literal, an object (`{ source = "...", version = "..." }`) or a tuple (`hashes = [...]`), with the source
 * offsets of every literal so an update edits only those characters. Any other expression (references, function calls,
 * operators, conditionals, `for` expressions, splats, templates with `${ }` / `%{ }`, heredocs, numbers) is kept as
 * `other` with its text; the scanner still reads it whole: strings and heredocs with template sequences that nest
 * strings, comments and line breaks, comments of the three kinds, Unicode identifiers with `-`. Line breaks end an
 * attribute or object item but are ignored inside `( )`, `[ ]`, `for` expressions and template sequences, as the
 * spec says. It is more lenient than HCL where leniency cannot hide a dependency: expressions are not checked
 * (`a = 1 b` is read as the text `1 b`), nor commas between object items.
 *
 * Why not `@cdktf/hcl2json` (HashiCorp's parser compiled to WebAssembly; the tests use it as the reference) or a
 * tree-sitter grammar: both load WebAssembly asynchronously, while `Ecosystem.findDependency` is synchronous, and
 * hcl2json gives no source positions, which the updater needs.
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

/**
 * An object constructor `{ key = value, ... }`: an identifier or string key as its name (a string decoded), any other
 * key expression (`"team-${each.key}"`, `(var.key)`) as written.
 */
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
 * An identifier (the spec's `ID_Start (ID_Continue | '-')*`, with `_` allowed first as HCL's scanner does), matched
 * where `lastIndex` points.
 */
const IDENTIFIER = /[\p{ID_Start}_][\p{ID_Continue}-]*/uy;
/** A heredoc's opening line: `<<` or `<<-`, the marker, the line break. */
const HEREDOC_HEADER = /<<(-?)([\p{ID_Start}_][\p{ID_Continue}-]*)\r?\n/uy;
const NUMBER = /[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** Operators of more than one character (the spec's "Operators and Delimiters"). */
const LONG_PUNCTUATION = ['...', '==', '!=', '<=', '>=', '&&', '||', '=>'];

/** `pattern` (sticky) matched at `at`, or undefined. */
function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text) ?? undefined;
}

/** Is a template sequence (`${` or `%{`, not the escapes `$${` / `%%{`) at `at`? */
const opensTemplate = (text: string, at: number): boolean => (text[at] === '$' || text[at] === '%') && text[at + 1] === '{';
/** Is a template escape (`$${` or `%%{`, a literal `${` / `%{`) at `at`? */
const escapesTemplate = (text: string, at: number): boolean =>
  (text[at] === '$' || text[at] === '%') && text[at + 1] === text[at] && text[at + 2] === '{';

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
    if (escapesTemplate(text, i)) {
      value += `${c}{`;
      escaped = true;
      i += 3;
      continue;
    }
    if (opensTemplate(text, i)) {
      template = true;
      const end = scan(file, text, i + 2, nesting + 1, true).end;
      value += text.slice(i, end);
      i = end;
      continue;
    }
    value += c;
    i++;
  }
  throw new ManifestParseError(file, `unterminated string at line ${lineOf(text, at)}`);
}

/**
 * Reads a heredoc template starting at `at` (on `<<`, whose opening line {@link HEREDOC_HEADER} matched): its lines up
 * to the one holding only the marker (indented or not, for `<<` and `<<-` alike, as HCL's scanner allows). A `${ }` or
 * `%{ }` sequence may span lines; a marker inside one does not close the heredoc. The token ends before the line break
 * that follows the marker.
 */
function readHeredoc(file: string, text: string, at: number, header: RegExpExecArray, nesting: number): Token {
  const marker = header[2] as string;
  let line = at + header[0].length;
  for (;;) {
    const lineEnd = text.indexOf('\n', line);
    const end = lineEnd < 0 ? text.length : lineEnd;
    if (text.slice(line, end).trim() === marker) return { kind: 'heredoc', text: text.slice(at, end), start: at, end };
    let i = line;
    while (i < text.length && text[i] !== '\n') {
      if (escapesTemplate(text, i)) i += 3;
      else if (opensTemplate(text, i)) i = scan(file, text, i + 2, nesting + 1, true).end;
      else i++;
    }
    if (i >= text.length) throw new ManifestParseError(file, `unterminated heredoc '${marker}' at line ${lineOf(text, at)}`);
    line = i + 1;
  }
}

/** The 1-based line of an offset. */
function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/**
 * Splits HCL text into tokens from `from`; comments are dropped (a line comment keeps its line break). With `template`,
 * `from` is just inside a `${` / `%{` sequence and scanning stops after its closing `}` (braces of object constructors
 * and `for` expressions within it are counted); `end` is then the offset after that `}`. `nesting` counts the strings
 * and templates the text is within.
 * @throws ManifestParseError on unterminated strings, comments, heredocs or template sequences, bad escapes, or
 *   templates nested more than {@link MAX_DEPTH} deep
 */
function scan(file: string, text: string, from: number, nesting: number, template: boolean): { tokens: Token[]; end: number } {
  if (nesting > MAX_DEPTH) tooDeep(file, `line ${lineOf(text, from)}`);
  const tokens: Token[] = [];
  let braces = 0;
  let i = from;
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
      const token = readString(file, text, i, nesting);
      tokens.push(token);
      i = token.end;
    } else if (c === '<' && text[i + 1] === '<' && matchAt(HEREDOC_HEADER, text, i)) {
      const token = readHeredoc(file, text, i, matchAt(HEREDOC_HEADER, text, i) as RegExpExecArray, nesting);
      tokens.push(token);
      i = token.end;
    } else if (/[0-9]/.test(c)) {
      const match = matchAt(NUMBER, text, i) as RegExpExecArray;
      tokens.push({ kind: 'number', text: match[0], start: i, end: i + match[0].length });
      i += match[0].length;
    } else {
      const identifier = matchAt(IDENTIFIER, text, i);
      if (identifier) {
        tokens.push({ kind: 'ident', text: identifier[0], start: i, end: i + identifier[0].length });
        i += identifier[0].length;
        continue;
      }
      const length = LONG_PUNCTUATION.find((operator) => text.startsWith(operator, i))?.length ?? 1;
      if (template && c === '{') braces++;
      else if (template && c === '}') {
        if (braces === 0) return { tokens, end: i + 1 };
        braces--;
      }
      tokens.push({ kind: 'punct', text: text.slice(i, i + length), start: i, end: i + length });
      i += length;
    }
  }
  if (template) throw new ManifestParseError(file, `unterminated template sequence at line ${lineOf(text, from)}`);
  return { tokens, end: i };
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

  /** The next token that is not a line break, consuming nothing. */
  private peekPastNewlines(): Token | undefined {
    let i = this.at;
    while (this.tokens[i]?.kind === 'newline') i++;
    return this.tokens[i];
  }

  /**
   * An expression up to one of `terminators` (`newline`, `,`, `}`, `]`) outside brackets, not consumed. Without
   * `newline` among them (within a tuple's brackets, where HCL ignores line breaks) line breaks are skipped.
   */
  expression(terminators: readonly string[]): HclValue {
    const significant = terminators.includes('newline');
    if (!significant) this.skipNewlines();
    const first = this.peek();
    if (first === undefined || this.ends(first, terminators)) this.fail('expected an expression', first);
    let value: HclValue | undefined;
    if (first.kind === 'string') {
      this.at++;
      value = { kind: 'string', value: first.value ?? '', start: first.start + 1, end: first.end - 1, escaped: first.escaped ?? false };
    } else if (first.kind === 'punct' && first.text === '{' && !this.isForExpression()) value = this.nest(() => this.object());
    else if (first.kind === 'punct' && first.text === '[' && !this.isForExpression()) value = this.nest(() => this.tuple());
    if (value !== undefined && this.ends(significant ? this.peek() : this.peekPastNewlines(), terminators)) return value;
    // anything else: everything up to a terminator outside brackets
    const start = first.start;
    const stack: string[] = [];
    let end = value === undefined ? first.start : (this.tokens[this.at - 1] as Token).end;
    for (;;) {
      const token = this.peek();
      if (token === undefined) break;
      if (stack.length === 0 && this.ends(token, terminators)) break;
      this.at++;
      if (token.kind === 'newline') continue;
      this.balance(stack, token);
      end = token.end;
    }
    if (stack.length > 0) this.fail(`missing '${stack.at(-1)}'`);
    return { kind: 'other', text: this.text.slice(start, end), start, end };
  }

  /** Keeps `stack` of the closing brackets expected as `token` opens or closes one. */
  private balance(stack: string[], token: Token): void {
    if (token.kind !== 'punct') return;
    const closing = OPEN[token.text];
    if (closing) stack.push(closing);
    else if ((token.text === '}' || token.text === ']' || token.text === ')') && stack.pop() !== token.text) {
      this.fail(`unbalanced '${token.text}'`, token);
    }
  }

  /**
   * Does the `{` or `[` at the current token open a `for` expression (`{for k, v in x : k => v}`, `[for s in x : s]`)
   * rather than an object or a tuple? (HCL decides on the keyword `for` after the bracket, line breaks skipped.)
   */
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
      const name = this.objectKey();
      this.at++;
      entries.push({ name, value: this.expression(['newline', ',', '}']) });
      const after = this.peek();
      if (after?.kind === 'punct' && after.text === ',') this.at++;
    }
  }

  /**
   * An object key up to its `=` or `:` (left as the current token). HCL reads a key as any expression
   * (https://github.com/hashicorp/hcl/blob/main/hclsyntax/spec.md#collection-values): an identifier or a string is
   * the key itself (the string decoded); any other expression (a template `"team-${each.key}"`, `(var.key)`, a
   * reference, a conditional) is kept as written. A `:` that a `?` of the key is waiting for belongs to the key.
   */
  private objectKey(): string {
    const first = this.peek() as Token;
    const next = this.peek(1);
    if ((first.kind === 'ident' || first.kind === 'string') && next?.kind === 'punct' && (next.text === '=' || next.text === ':')) {
      this.at++;
      return first.kind === 'string' ? (first.value ?? '') : first.text;
    }
    const stack: string[] = [];
    let questions = 0;
    let end = first.start;
    for (;;) {
      const token = this.peek();
      if (token === undefined) this.fail("missing '}'");
      if (stack.length === 0) {
        if (token.kind === 'newline' || (token.kind === 'punct' && (token.text === ',' || token.text === '}'))) {
          this.fail(`expected '=' after the object key '${this.text.slice(first.start, end)}'`, token);
        }
        if (token.kind === 'punct' && token.text === '=') break;
        if (token.kind === 'punct' && token.text === ':') {
          if (questions === 0) break;
          questions--;
        }
        if (token.kind === 'punct' && token.text === '?') questions++;
      }
      this.at++;
      if (token.kind === 'newline') continue;
      this.balance(stack, token);
      end = token.end;
    }
    return this.text.slice(first.start, end);
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
      items.push(this.expression([',', ']']));
      this.skipNewlines();
      const after = this.peek();
      if (after?.kind === 'punct' && after.text === ',') this.at++;
      else if (!(after?.kind === 'punct' && after.text === ']')) this.fail("expected ',' or ']'", after);
    }
  }
}

/**
 * Reads an HCL file's top-level body (see the module comment for what is kept).
 * @throws ManifestParseError naming `file` on unbalanced brackets, unterminated strings, comments, heredocs or template
 *   sequences, unknown escapes or `\u`/`\U` escapes that are not a Unicode character, a body item that is neither an
 *   attribute nor a block, an object item without `=`/`:`, a template in a block label, or blocks, objects, tuples or
 *   templates in strings nested more than 256 levels deep
 */
export function parseHcl(file: string, text: string): HclBody {
  return new Reader(file, text, scan(file, text, 0, 0, false).tokens).body(false);
}

/** The attribute `name` of a body or object, the last one when repeated; undefined when absent. */
export function attribute(entries: readonly HclAttribute[], name: string): HclValue | undefined {
  return entries.findLast((entry) => entry.name === name)?.value;
}
