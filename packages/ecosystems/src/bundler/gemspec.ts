import type { DependencyType } from '../ecosystem.ts';
import { lineIndex } from '../shared/lines.ts';
import type { SkippedGemCall } from './gemfile.ts';
import { type RubyLiteral, type RubyScan, scanRuby } from './ruby-literals.ts';

/** A requirement string of a gemspec declaration: where its content is, and how the literal is written around it. */
export interface GemspecLiteral {
  /** The content's span in the gemspec's text (inside the quotes; a word's span for `%w[]`). */
  start: number;
  end: number;
  /** Opening and closing delimiters (`'`, `%q<` and `>`); empty for a word of `%w[]`. */
  open: string;
  close: string;
  /** `.freeze` (as written) when the literal is frozen, else empty. */
  suffix: string;
  /** True for a word of a `%w[]` array (words cannot hold spaces). */
  word: boolean;
}

/** An `add_dependency`, `add_runtime_dependency` or `add_development_dependency` call of a gemspec. */
export interface GemspecDeclaration {
  name: string;
  /** The requirement strings' contents, trimmed, joined with `, ` (`>= 1.0, < 3`); null when there is none. */
  requirement: string | null;
  /** `development` for `add_development_dependency`, else `runtime`. */
  type: DependencyType;
  /** 1-based line of the method name. */
  line: number;
  /** True when some requirement arguments were not read (a constant, a variable, an interpolated string). */
  partial: boolean;
  /** The requirement literals read, in order. */
  literals: GemspecLiteral[];
}

/** What {@link readGemspecContents} reads of a gemspec. */
export interface GemspecContents {
  /** The gem's name (`spec.name = "rack"`) when it is a string literal, else null. */
  name: string | null;
  dependencies: GemspecDeclaration[];
  /** Calls skipped whole (the dependency's name is not a literal) and calls read without some arguments, in file order. */
  skipped: SkippedGemCall[];
}

const DECLARATION = /(?:&?\.\s*|^[ \t]*)(add_(?:runtime_|development_)?dependency)(?![\w?!=])/gm;
const MODIFIER = /^[ \t]+(?:if|unless|while|until|do|and|or|rescue)\b/;

type Span = { start: number; end: number };

/**
 * The arguments of a call whose name ends at `from`: inside `(...)` when a parenthesis follows, else up to the end of
 * the statement (a line break not after `,` or `\`, `;`, a closing bracket of an enclosing block, or a trailing
 * `if`/`unless`/`do` modifier). Each argument's span in the source, trimmed, and where the arguments end.
 */
function callArguments(scan: RubyScan, from: number): { args: Span[]; end: number } {
  const { code, literals } = scan;
  let pos = from;
  while (code.charAt(pos) === ' ' || code.charAt(pos) === '\t') pos++;
  const parenthesised = code.charAt(pos) === '(';
  if (parenthesised) pos++;
  else pos = from;
  const args: Span[] = [];
  let start = pos;
  let depth = 0;
  let last = '';
  const push = (end: number) => {
    const raw = code.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed !== '') args.push({ start: start + lead, end: start + lead + trimmed.length });
  };
  let i = pos;
  for (; i < code.length; i++) {
    const literal = literals.get(i);
    if (literal) {
      i = literal.end - 1;
      last = '\uE000';
      continue;
    }
    const c = code.charAt(i);
    if (!parenthesised && depth === 0) {
      if (c === '\n' && last !== ',' && last !== '\\') break;
      if (c === ';' || (/[)\]}]/.test(c) && depth === 0)) break;
      if ((c === ' ' || c === '\t') && MODIFIER.test(code.slice(i, i + 12))) break;
    }
    if (c === ',' && depth === 0) {
      push(i);
      start = i + 1;
    } else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) break; // the closing parenthesis of a parenthesised call
      depth--;
    }
    if (c === '\\' && /^\\[ \t\r]*\n/.test(code.slice(i, i + 8))) {
      last = '\\';
      continue;
    }
    if (!/\s/.test(c)) last = c;
  }
  push(i);
  return { args, end: Math.min(i + (parenthesised ? 1 : 0), code.length) };
}

/** The literal an argument is (a string or `%w[]`, optionally `.freeze`d), with the suffix as written; else undefined. */
function literalArgument(scan: RubyScan, text: string, arg: Span): { literal: RubyLiteral; suffix: string } | undefined {
  const literal = scan.literals.get(arg.start);
  if (!literal || literal.kind === 'other') return undefined;
  const rest = scan.code.slice(literal.end, arg.end);
  if (!/^\s*(?:\.\s*freeze\s*)?$/.test(rest)) return undefined;
  return { literal, suffix: text.slice(literal.end, arg.end).trim() };
}

/** The requirement literals an argument holds (a string, `%w[]`, or an array of strings), or undefined when it is computed. */
function requirementLiterals(scan: RubyScan, text: string, arg: Span): GemspecLiteral[] | undefined {
  const one = (span: Span): GemspecLiteral[] | undefined => {
    const found = literalArgument(scan, text, span);
    if (!found?.literal.plain) return undefined;
    const { literal, suffix } = found;
    if (literal.kind === 'words') return (literal.words ?? []).map((word) => ({ ...word, open: '', close: '', suffix: '', word: true }));
    return [{ start: literal.contentStart, end: literal.contentEnd, open: literal.open, close: literal.close, suffix, word: false }];
  };
  if (scan.code.charAt(arg.start) !== '[') return one(arg);
  if (scan.code.charAt(arg.end - 1) !== ']') return undefined;
  const out: GemspecLiteral[] = [];
  let depth = 0;
  let start = arg.start + 1;
  const element = (end: number): boolean => {
    const raw = scan.code.slice(start, end);
    if (raw.trim() === '') return true;
    const lead = raw.length - raw.trimStart().length;
    const found = one({ start: start + lead, end: start + lead + raw.trim().length });
    if (found === undefined || found.some((literal) => literal.word)) return false;
    for (const literal of found) out.push(literal);
    return true;
  };
  for (let i = arg.start + 1; i < arg.end - 1; i++) {
    const literal = scan.literals.get(i);
    if (literal) {
      i = literal.end - 1;
      continue;
    }
    const c = scan.code.charAt(i);
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      if (!element(i)) return undefined;
      start = i + 1;
    }
  }
  return element(arg.end - 1) ? out : undefined;
}

/**
 * A call's lines joined by one space, each trimmed, blank ones dropped: white space around line breaks becomes one space,
 * in linear time (a regular expression of white space around a line break backtracked on long runs of spaces).
 */
function joinLines(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' ');
}

/**
 * Reads the dependencies a gemspec declares (https://guides.rubygems.org/specification-reference/#add_runtime_dependency)
 * without running it, as dependabot-core's Bundler `GemspecDeclarationFinder` finds them (calls named `add_dependency`,
 * `add_runtime_dependency` or `add_development_dependency` on any receiver, `s.`/`spec.`/..., whose first argument is a
 * string): the name, then one or more requirement strings (`'>= 1.0', '< 3'`), an array of them (`[">= 1.0", "< 3"]`),
 * or `%w[>=1.0 <3]`; `%q<rack>`, `"rack".freeze` and `%q<rack>.freeze` (what `Gem::Specification#to_ruby` writes) are
 * literals too. `add_development_dependency` is development, the others runtime. The gem's own name is
 * `spec.name = "..."` when that is a literal.
 *
 * What only exists when Ruby runs is reported in `skipped`, never thrown (Dependabot evaluated the gemspec; this reader
 * never runs Ruby): a call whose name is not a string literal (`spec.add_dependency name` in a loop) is left out; one whose
 * requirement is computed (`"= #{VERSION}"`, a constant) keeps the literals it has, with `partial` set.
 * @throws ManifestParseError (`file`) on a string, regexp or heredoc left open
 */
export function readGemspecContents(file: string, text: string): GemspecContents {
  const scan = scanRuby(file, text);
  const lineOf = lineIndex(text);
  const dependencies: GemspecDeclaration[] = [];
  const skipped: SkippedGemCall[] = [];
  const declaration = new RegExp(DECLARATION.source, DECLARATION.flags);
  for (let match = declaration.exec(scan.code); match !== null; match = declaration.exec(scan.code)) {
    const method = match[1] ?? '';
    const nameAt = match.index + match[0].length;
    const { args, end } = callArguments(scan, nameAt);
    // The next declaration is looked for after this call's arguments: a call nested in them is not one (and scanning
    // each nested call's arguments again was quadratic on calls left open).
    declaration.lastIndex = Math.max(end, nameAt);
    const line = lineOf(nameAt - method.length);
    const lineStart = text.lastIndexOf('\n', nameAt - method.length) + 1;
    const callText = joinLines(text.slice(lineStart, end));
    const [first, ...rest] = args;
    const name = first && literalArgument(scan, text, first);
    if (name?.literal.kind !== 'string' || !name.literal.plain) {
      const written = first ? text.slice(first.start, first.end) : 'none';
      skipped.push({ line, text: callText, reason: `the dependency name (${written}) is not a string literal` });
      continue;
    }
    const gem = text.slice(name.literal.contentStart, name.literal.contentEnd);
    const literals: GemspecLiteral[] = [];
    const unread: string[] = [];
    for (const arg of rest) {
      const found = requirementLiterals(scan, text, arg);
      if (found) for (const literal of found) literals.push(literal);
      else unread.push(text.slice(arg.start, arg.end));
    }
    if (unread.length > 0) {
      skipped.push({
        line,
        text: callText,
        reason: `'${gem}': ${unread.join(', ')} ${unread.length === 1 ? 'is' : 'are'} computed when Ruby runs and not read (the requirement holds the string literals only)`,
      });
    }
    const clauses = literals.map((literal) => text.slice(literal.start, literal.end).trim());
    dependencies.push({
      name: gem,
      requirement: clauses.length > 0 ? clauses.join(', ') : null,
      type: method === 'add_development_dependency' ? 'development' : 'runtime',
      line,
      partial: unread.length > 0,
      literals,
    });
  }
  let name: string | null = null;
  for (const match of scan.code.matchAll(/\.\s*name\s*=(?![=~])\s*/g)) {
    const literal = scan.literals.get(match.index + match[0].length);
    if (literal?.kind === 'string' && literal.plain) {
      name = text.slice(literal.contentStart, literal.contentEnd).trim();
      break;
    }
  }
  return { name, dependencies, skipped };
}
