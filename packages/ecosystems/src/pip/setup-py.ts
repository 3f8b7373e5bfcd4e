import type { DependencyType, SkippedDeclaration } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/**
 * The literal requirements of a setuptools `setup.py` (https://setuptools.pypa.io/en/latest/references/keywords.html),
 * read from its tokens, never executed: `install_requires=[...]`, `setup_requires=[...]`, `tests_require=[...]` (lists
 * of string literals) and `extras_require={"extra": [...]}` (a dict of such lists), as keyword arguments or as
 * assignments (`install_requires = [...]`), and a keyword whose value is a name assigned such a literal elsewhere in the
 * file (`install_requires=REQUIRES`). dependabot-core ran setup.py with a stubbed `setup()` (helpers/lib/parser.py
 * `parse_setup`) and, when that failed, a setup.py holding only the `install_requires=[...]`-style literals it found
 * by pattern (file_parser/setup_file_parser.rb `write_sanitized_setup_file`); only the literal half is done here.
 */

/** One requirement string of setup.py with its place. */
export interface SetupRequirement {
  /** The string's value. */
  value: string;
  /** `install_requires`, `setup_requires`, `tests_require` or `extras_require:<extra>` (dependabot-core's groups). */
  group: string;
  /** `install_requires` is runtime; the others are development (dependabot-core's pip production check). */
  type: DependencyType;
  /** Span of the characters inside the quotes. */
  start: number;
  end: number;
  /** Written without escapes, prefixes or implicit concatenation: the text between the quotes is the value. */
  plain: boolean;
  /** 1-based line. */
  line: number;
}

/** What setup.py declares: its literal requirements and the keywords whose values are not literals. */
export interface SetupPyContents {
  requirements: SetupRequirement[];
  skipped: SkippedDeclaration[];
}

interface Token {
  kind: 'name' | 'string' | 'op' | 'other';
  start: number;
  end: number;
  text: string;
  /** Strings: the value (simple escapes decoded; f-strings as written). */
  value?: string;
  /** Strings: written without escapes, prefixes or triple quotes, so that the text between the quotes is the value. */
  plain?: boolean;
  /** Strings: span of the characters inside the quotes. */
  inner?: { start: number; end: number };
}

const KEYS = new Set(['install_requires', 'setup_requires', 'tests_require', 'extras_require']);
const TWO_CHAR_OPS = new Set(['==', '!=', '<=', '>=', '->', ':=', '**', '//', '<<', '>>', '+=', '-=', '*=', '/=', '|=', '&=']);

/** 1-based line of an offset. */
const lineAt = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/**
 * Python's tokens, as far as finding literals needs: names, string literals (prefixes, triple quotes, escapes), and
 * operators; comments, blank space and line continuations are skipped.
 * @throws ManifestParseError on an unterminated string
 */
function tokenize(file: string, text: string): Token[] {
  const out: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    const c = text.charAt(pos);
    if (/\s/.test(c) || (c === '\\' && /^\\\r?\n/.test(text.slice(pos, pos + 3)))) {
      pos++;
      continue;
    }
    if (c === '#') {
      const end = text.indexOf('\n', pos);
      pos = end < 0 ? text.length : end;
      continue;
    }
    const prefixed = /^([rRbBuUfF]{0,2})(['"])/.exec(text.slice(pos, pos + 4));
    if (prefixed) {
      const start = pos;
      const prefix = prefixed[1] ?? '';
      const quote = prefixed[2] ?? '"';
      const triple = text.startsWith(quote.repeat(3), pos + prefix.length);
      const delimiter = triple ? quote.repeat(3) : quote;
      const innerStart = pos + prefix.length + delimiter.length;
      let at = innerStart;
      let escaped = false;
      while (at < text.length && !text.startsWith(delimiter, at)) {
        if (text.charAt(at) === '\\') {
          escaped = true;
          at++;
        } else if (!triple && text.charAt(at) === '\n') break;
        at++;
      }
      if (at >= text.length || !text.startsWith(delimiter, at))
        throw new ManifestParseError(file, `line ${lineAt(text, start)}: unterminated string`);
      const inner = { start: innerStart, end: at };
      pos = at + delimiter.length;
      const plain = !escaped && !/[bBfF]/.test(prefix) && !triple;
      const raw = text.slice(inner.start, inner.end);
      // the value of a string with simple escapes, for reading (it is not rewritten: `plain` is false)
      const decoded = /[rR]/.test(prefix) ? raw : raw.replace(/\\([\\'"tn])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c));
      out.push({ kind: 'string', start, end: pos, text: text.slice(start, pos), inner, plain, value: decoded });
      continue;
    }
    const name = /^[\p{L}_][\p{L}\p{N}_]*/u.exec(text.slice(pos, pos + 200));
    if (name) {
      out.push({ kind: 'name', start: pos, end: pos + name[0].length, text: name[0] });
      pos += name[0].length;
      continue;
    }
    const number = /^[0-9][0-9a-zA-Z_.]*/.exec(text.slice(pos, pos + 100));
    if (number) {
      out.push({ kind: 'other', start: pos, end: pos + number[0].length, text: number[0] });
      pos += number[0].length;
      continue;
    }
    const two = text.slice(pos, pos + 2);
    const op = TWO_CHAR_OPS.has(two) ? two : c;
    out.push({ kind: 'op', start: pos, end: pos + op.length, text: op });
    pos += op.length;
  }
  return out;
}

/** A list literal of strings at `tokens[at]` (`[`): its string tokens and the index after `]`; undefined when not one. */
function stringList(tokens: readonly Token[], at: number): { strings: Token[]; next: number } | undefined {
  if (tokens[at]?.text !== '[' && tokens[at]?.text !== '(') return undefined;
  const close = tokens[at]?.text === '[' ? ']' : ')';
  const strings: Token[] = [];
  let i = at + 1;
  for (;;) {
    const token = tokens[i];
    if (!token) return undefined;
    if (token.kind === 'op' && token.text === close) return { strings, next: i + 1 };
    if (token.kind !== 'string') return undefined;
    // implicit concatenation ('a' 'b') is not one literal of the text
    if (tokens[i + 1]?.kind === 'string') return undefined;
    strings.push(token);
    i++;
    if (tokens[i]?.text === ',') i++;
    else if (tokens[i]?.text !== close) return undefined;
  }
}

/**
 * A dict literal `{"extra": [strings], ...}` at `tokens[at]` (`{`): the extras whose value is a list of strings (or one
 * string), and those whose value is something else (an expression: skipped, with the key's token); undefined when the
 * value is not a dict with string keys.
 */
function extrasDict(
  tokens: readonly Token[],
  at: number,
): { literal: { extra: string; strings: Token[] }[]; computed: Token[] } | undefined {
  if (tokens[at]?.text !== '{') return undefined;
  const literal: { extra: string; strings: Token[] }[] = [];
  const computed: Token[] = [];
  let i = at + 1;
  for (;;) {
    const token = tokens[i];
    if (!token) return undefined;
    if (token.kind === 'op' && token.text === '}') return { literal, computed };
    if (token.kind !== 'string' || token.value === undefined || tokens[i + 1]?.text !== ':') return undefined;
    const value = tokens[i + 2];
    const list = stringList(tokens, i + 2);
    const end = list ? list.next : value?.kind === 'string' ? i + 3 : undefined;
    if (end !== undefined && [',', '}'].includes(tokens[end]?.text ?? '')) {
      literal.push({ extra: token.value, strings: list ? list.strings : value ? [value] : [] });
      i = end;
    } else {
      computed.push(token);
      // skip the expression: to the next `,` or `}` outside brackets
      let depth = 0;
      i += 2;
      for (; i < tokens.length; i++) {
        const text = tokens[i]?.text ?? '';
        if (['(', '[', '{'].includes(text)) depth++;
        else if ([')', ']', '}'].includes(text)) {
          if (depth === 0) break;
          depth--;
        } else if (text === ',' && depth === 0) break;
      }
    }
    if (tokens[i]?.text === ',') i++;
    else if (tokens[i]?.text !== '}') return undefined;
  }
}

/**
 * The literal requirements of setup.py and the keywords it skipped (a value that is a call, an expression or a name
 * without a literal assignment: `install_requires=install_requires()`), each literal read once, in file order.
 * @throws ManifestParseError on text Python could not tokenize (an unterminated string)
 */
export function readSetupPy(file: string, text: string): SetupPyContents {
  const tokens = tokenize(file, text);
  const assigned = new Map<string, number>();
  for (const [i, token] of tokens.entries()) {
    if (token.kind === 'name' && tokens[i + 1]?.text === '=' && ['[', '(', '{'].includes(tokens[i + 2]?.text ?? '')) {
      if (!assigned.has(token.text)) assigned.set(token.text, i + 2);
    }
  }
  const requirements: SetupRequirement[] = [];
  const skipped: SkippedDeclaration[] = [];
  const seen = new Set<number>();
  const push = (strings: readonly Token[], group: string) => {
    for (const s of strings) {
      const inner = s.inner ?? { start: s.start, end: s.end };
      requirements.push({
        value: s.value ?? text.slice(inner.start, inner.end),
        group,
        type: group === 'install_requires' ? 'runtime' : 'development',
        start: inner.start,
        end: inner.end,
        plain: s.plain === true,
        line: lineAt(text, s.start),
      });
    }
  };
  for (const [i, token] of tokens.entries()) {
    if (token.kind !== 'name' || !KEYS.has(token.text) || tokens[i + 1]?.text !== '=' || tokens[i - 1]?.text === '.') continue;
    let at = i + 2;
    const value = tokens[at];
    if (value?.kind === 'name' && [',', ')', undefined].includes(tokens[at + 1]?.text) && assigned.has(value.text))
      at = assigned.get(value.text) as number;
    if (seen.has(at)) continue;
    const line = lineAt(text, token.start);
    const lineText = text.split('\n')[line - 1]?.trim() ?? '';
    if (token.text === 'extras_require') {
      const extras = extrasDict(tokens, at);
      if (!extras) {
        skipped.push({ file, line, text: lineText, reason: 'extras_require is not a literal dict of string lists (not evaluated)' });
        continue;
      }
      seen.add(at);
      for (const { extra, strings } of extras.literal) push(strings, `extras_require:${extra}`);
      for (const key of extras.computed) {
        const keyLine = lineAt(text, key.start);
        skipped.push({
          file,
          line: keyLine,
          text: text.split('\n')[keyLine - 1]?.trim() ?? '',
          reason: `extras_require['${key.value}'] is not a literal list of strings (not evaluated)`,
        });
      }
      continue;
    }
    const list = stringList(tokens, at);
    if (!list) {
      skipped.push({ file, line, text: lineText, reason: `${token.text} is not a literal list of strings (not evaluated)` });
      continue;
    }
    seen.add(at);
    push(list.strings, token.text);
  }
  requirements.sort((a, b) => a.start - b.start);
  return { requirements, skipped };
}
