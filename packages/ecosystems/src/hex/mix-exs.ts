import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/**
 * A reader of the `deps` list of a `mix.exs` (https://hexdocs.pm/mix/Mix.Tasks.Deps.html): a tokenizer of the Elixir
 * syntax such files use (comments, strings with escapes and `#{}` interpolation, heredocs, charlists, sigils, atoms,
 * keyword keys, module attributes) and a reader of the list's tuples. The project is not evaluated: a list built by code
 * other than a literal, or a requirement that is not a string literal or a module attribute set to one, is not read.
 */

type TokenKind = 'atom' | 'string' | 'keyword' | 'attribute' | 'ident' | 'punct' | 'other';

interface Token {
  kind: TokenKind;
  /** Atom and keyword names without `:`, an attribute's name without `@`, a string's decoded value, else the text. */
  value: string;
  /** For strings: the span of the characters between the quotes; else the token's span. */
  start: number;
  end: number;
  /** Strings: holds escapes or interpolation (the written text differs from `value`). */
  escaped?: boolean;
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

const SIGIL_CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>', '/': '/', '|': '|', '"': '"', "'": "'" };

/** Reads a quoted string or charlist from `at` (the opening quote); `#{...}` interpolation is skipped, nesting counted. */
function readQuoted(file: string, text: string, at: number, quote: string): Token {
  let value = '';
  let escaped = false;
  let i = at + 1;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === quote) return { kind: 'string', value, start: at + 1, end: i, escaped };
    if (c === '\\') {
      escaped = true;
      value += text[i + 1] ?? '';
      i += 2;
      continue;
    }
    if (c === '#' && text[i + 1] === '{') {
      escaped = true;
      let depth = 0;
      for (; i < text.length; i++) {
        if (text[i] === '{') depth++;
        else if (text[i] === '}' && --depth === 0) break;
      }
      i++;
      continue;
    }
    value += c;
    i++;
  }
  throw new ManifestParseError(file, `unterminated string at line ${lineOf(text, at)}`);
}

/** Splits the text into tokens; comments and whitespace are dropped. */
function tokenize(file: string, text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const rest = text.slice(i, i + 3);
    if (/\s/.test(c)) i++;
    else if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (rest === '"""' || rest === "'''") {
      const end = text.indexOf(rest, i + 3);
      if (end < 0) throw new ManifestParseError(file, `unterminated heredoc at line ${lineOf(text, i)}`);
      tokens.push({ kind: 'other', value: text.slice(i, end + 3), start: i, end: end + 3 });
      i = end + 3;
    } else if (c === '"' || c === "'") {
      const token = readQuoted(file, text, i, c);
      tokens.push(c === '"' ? token : { ...token, kind: 'other' });
      i = token.end + 1;
    } else if (c === '~' && /[a-zA-Z]/.test(text[i + 1] ?? '') && SIGIL_CLOSE[text[i + 2] ?? '']) {
      const open = text[i + 2] as string;
      const close = SIGIL_CLOSE[open] as string;
      let j = i + 3;
      while (j < text.length && text[j] !== close) j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw new ManifestParseError(file, `unterminated sigil at line ${lineOf(text, i)}`);
      j++;
      while (/[a-zA-Z]/.test(text[j] ?? '')) j++;
      tokens.push({ kind: 'other', value: text.slice(i, j), start: i, end: j });
      i = j;
    } else if (c === ':' && text[i + 1] === '"') {
      const token = readQuoted(file, text, i + 1, '"');
      tokens.push({ kind: 'atom', value: token.value, start: i, end: token.end + 1 });
      i = token.end + 1;
    } else if (c === ':' && /[a-zA-Z_]/.test(text[i + 1] ?? '')) {
      const match = /^:[a-zA-Z_][a-zA-Z0-9_@]*[?!]?/.exec(text.slice(i, i + 256)) as RegExpExecArray;
      tokens.push({ kind: 'atom', value: match[0].slice(1), start: i, end: i + match[0].length });
      i += match[0].length;
    } else if (c === '@' && /[a-z_]/.test(text[i + 1] ?? '')) {
      const match = /^@[a-z_][a-zA-Z0-9_]*/.exec(text.slice(i, i + 256)) as RegExpExecArray;
      tokens.push({ kind: 'attribute', value: match[0].slice(1), start: i, end: i + match[0].length });
      i += match[0].length;
    } else if (/[a-zA-Z_]/.test(c)) {
      const match = /^[a-zA-Z_][a-zA-Z0-9_]*[?!]?/.exec(text.slice(i, i + 256)) as RegExpExecArray;
      const end = i + match[0].length;
      if (text[end] === ':' && text[end + 1] !== ':') {
        tokens.push({ kind: 'keyword', value: match[0], start: i, end: end + 1 });
        i = end + 1;
      } else {
        tokens.push({ kind: 'ident', value: match[0], start: i, end });
        i = end;
      }
    } else {
      const op = /^(?:\+\+|--|\|>|->|<-|=>|==|!=|<=|>=|&&|\|\||::|\.\.|<>|[^\s])/.exec(text.slice(i, i + 3))?.[0] ?? c;
      tokens.push({ kind: 'punct', value: op, start: i, end: i + op.length });
      i += op.length;
    }
  }
  return tokens;
}

/** A dependency tuple of the `deps` list. */
export interface MixDependency {
  /** The dependency's app name (the tuple's atom). */
  app: string;
  /** The Hex package name: `hex: :name` when given, else the app name. */
  name: string;
  type: DependencyType;
  /** The requirement as written (after resolving a module attribute), null when there is none. */
  requirement: string | null;
  /** Where the requirement's characters are (the string literal's, or the module attribute's), when it is a literal. */
  span: { start: number; end: number; escaped: boolean; attribute: string | null } | undefined;
  /** The module attribute named as the requirement when it is not set to a string literal, else null. */
  unresolved: string | null;
  /** `git`, `github` or `path` when the tuple names one (not a Hex package then). */
  source: 'hex' | 'git' | 'path';
  /** The tuple's keyword options that are atoms, strings or lists of atoms, e.g. `{ only: ['test'], hex: 'x' }`. */
  options: Record<string, string | string[] | boolean>;
}

/** The index just after the bracket matching the one at `open`. */
function closing(file: string, text: string, tokens: readonly Token[], open: number): number {
  const pairs: Record<string, string> = { '[': ']', '{': '}', '(': ')' };
  const stack: string[] = [];
  for (let i = open; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.kind !== 'punct') continue;
    if (pairs[token.value]) stack.push(pairs[token.value] as string);
    else if (token.value === ']' || token.value === '}' || token.value === ')') {
      if (stack.pop() !== token.value)
        throw new ManifestParseError(file, `unbalanced '${token.value}' at line ${lineOf(text, token.start)}`);
      if (stack.length === 0) return i + 1;
    }
  }
  throw new ManifestParseError(file, `unclosed '${tokens[open]?.value}' at line ${lineOf(text, tokens[open]?.start ?? 0)}`);
}

/** Splits tokens `[from, to)` at top-level commas. */
function splitTopLevel(tokens: readonly Token[], from: number, to: number): Token[][] {
  const out: Token[][] = [[]];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const token = tokens[i] as Token;
    if (token.kind === 'punct' && '[{('.includes(token.value)) depth++;
    else if (token.kind === 'punct' && ']})'.includes(token.value)) depth--;
    if (depth === 0 && token.kind === 'punct' && token.value === ',') out.push([]);
    else out.at(-1)?.push(token);
  }
  return out.filter((part) => part.length > 0);
}

/** The index of the `[` opening the deps list: the body of `def(p) deps`, else the `deps:` keyword of the project. */
function depsListStart(tokens: readonly Token[]): number | undefined {
  for (let i = 0; i < tokens.length - 2; i++) {
    const [a, b] = [tokens[i], tokens[i + 1]];
    if (a?.kind === 'ident' && (a.value === 'def' || a.value === 'defp') && b?.kind === 'ident' && b.value === 'deps') {
      for (let j = i + 2; j < tokens.length && j < i + 8; j++) {
        const token = tokens[j] as Token;
        if (token.kind === 'punct' && token.value === '[') return j;
      }
    }
  }
  for (let i = 0; i < tokens.length - 1; i++) {
    const [a, b] = [tokens[i], tokens[i + 1]];
    if (a?.kind === 'keyword' && a.value === 'deps' && b?.kind === 'punct' && b.value === '[') return i + 1;
  }
  return undefined;
}

/** Module attributes set to a string literal (`@jason_version "~> 1.4"`), by name; the first definition wins. */
function stringAttributes(tokens: readonly Token[]): Map<string, Token> {
  const out = new Map<string, Token>();
  for (let i = 0; i < tokens.length - 1; i++) {
    const [a, b] = [tokens[i], tokens[i + 1]];
    if (a?.kind === 'attribute' && b?.kind === 'string' && !out.has(a.value)) out.set(a.value, b);
  }
  return out;
}

/** A keyword option's value when it is a literal the reader keeps. */
function optionValue(tokens: readonly Token[]): string | string[] | boolean | undefined {
  const [first] = tokens;
  if (tokens.length === 1 && first) {
    if (first.kind === 'atom' || first.kind === 'string') return first.value;
    if (first.kind === 'ident' && (first.value === 'true' || first.value === 'false')) return first.value === 'true';
  }
  if (first?.kind === 'punct' && first.value === '[' && tokens.at(-1)?.value === ']') {
    const atoms = tokens.slice(1, -1).filter((t) => !(t.kind === 'punct' && t.value === ','));
    if (atoms.every((t) => t.kind === 'atom')) return atoms.map((t) => t.value);
  }
  return undefined;
}

/**
 * The dependencies of a `mix.exs`: the tuples of the list its `deps` function returns (or of the project's `deps:`
 * keyword), in file order: `{:app, "requirement"}`, `{:app, "requirement", options}`, `{:app, options}`. A requirement
 * may be a module attribute set to a string (`@version "~> 1.0"`). `only:` without `:prod` makes a dependency
 * `development`; `hex: :name` names the Hex package; `git:`, `github:`, `path:` and `in_umbrella: true` are not Hex
 * packages. Tuples not starting with an atom are skipped; so is a file without a deps list.
 * @throws ManifestParseError on unbalanced brackets or unterminated strings, heredocs or sigils
 */
export function readMixExs(file: string, text: string): MixDependency[] {
  const tokens = tokenize(file, text);
  const start = depsListStart(tokens);
  if (start === undefined) return [];
  const end = closing(file, text, tokens, start) - 1;
  const attributes = stringAttributes(tokens);
  const out: MixDependency[] = [];
  for (const element of splitTopLevel(tokens, start + 1, end)) {
    const [open] = element;
    if (!(open?.kind === 'punct' && open.value === '{' && element.at(-1)?.value === '}')) continue;
    const inner = tokens.indexOf(open) + 1;
    const parts = splitTopLevel(tokens, inner, tokens.indexOf(element.at(-1) as Token));
    const [appPart, second] = parts;
    const app = appPart?.length === 1 && appPart[0]?.kind === 'atom' ? appPart[0].value : undefined;
    if (app === undefined) continue;
    let requirementToken: Token | undefined;
    let attribute: string | null = null;
    let optionParts = parts.slice(1);
    if (second?.length === 1 && second[0]?.kind === 'string') {
      requirementToken = second[0];
      optionParts = parts.slice(2);
    } else if (second?.length === 1 && second[0]?.kind === 'attribute') {
      attribute = second[0].value;
      requirementToken = attributes.get(attribute);
      optionParts = parts.slice(2);
    }
    // options: keyword pairs, or one keyword list `[only: :test]`
    const flat = optionParts.flatMap((part) =>
      part[0]?.kind === 'punct' && part[0].value === '[' && part[1]?.kind === 'keyword' ? splitTopLevel(part, 1, part.length - 1) : [part],
    );
    const options: MixDependency['options'] = {};
    for (const option of flat) {
      const [key, ...value] = option;
      if (key?.kind !== 'keyword') continue;
      const read = optionValue(value);
      if (read !== undefined) options[key.value] = read;
      else options[key.value] = true;
    }
    const only = options.only;
    const onlyList = typeof only === 'string' ? [only] : Array.isArray(only) ? only : undefined;
    const source = 'path' in options || options.in_umbrella === true ? 'path' : 'git' in options || 'github' in options ? 'git' : 'hex';
    out.push({
      app,
      name: typeof options.hex === 'string' ? options.hex : app,
      type: onlyList && !onlyList.includes('prod') ? 'development' : 'runtime',
      requirement: requirementToken ? requirementToken.value.trim() || null : null,
      span: requirementToken
        ? { start: requirementToken.start, end: requirementToken.end, escaped: requirementToken.escaped ?? false, attribute }
        : undefined,
      unresolved: attribute !== null && requirementToken === undefined ? attribute : null,
      source,
      options,
    });
  }
  return out;
}

/**
 * Whether a `mix.exs` gives Hex package metadata: a `package:` keyword (the project's `package: package()` or
 * `package: [...]`), which `mix hex.publish` publishes from (https://hex.pm/docs/publish, "Adding metadata to
 * mix.exs"). Comments and strings do not count.
 * @throws ManifestParseError on unterminated strings, heredocs or sigils
 */
export function declaresHexPackage(file: string, text: string): boolean {
  return tokenize(file, text).some((token) => token.kind === 'keyword' && token.value === 'package');
}
