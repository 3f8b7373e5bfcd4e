import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/** Where a gem comes from: a gem server (rubygems.org or a `source`), a git repository or a local path. */
export type GemSource = 'rubygems' | 'git' | 'path';

/** A `gem` declaration of a Gemfile. */
export interface GemDeclaration {
  name: string;
  /** The version clauses joined with `, ` (`~> 1.2, >= 1.2.3`), null when none. */
  requirement: string | null;
  /** Groups from enclosing `group ... do` blocks and `group:`/`groups:` options; empty = the default group. */
  groups: string[];
  /** `git` for `git:`/`github:`/`gitlab:`/`bitbucket:` options or blocks, `path` for `path:` ones, else `rubygems`. */
  source: GemSource;
  line: number;
  /**
   * True when some arguments of the call were not read (a version from a variable, `*opts`, `**opts`): the
   * requirement holds only the string literals, so it may miss clauses (see {@link SkippedGemCall}).
   */
  partial: boolean;
}

/** A `gem` call, or part of one, that the reader could not read without running Ruby. */
export interface SkippedGemCall {
  /** 1-based line of the call's start. */
  line: number;
  /** The call as read (continuation lines joined, comments removed). */
  text: string;
  /** Why: the name is not a string literal (the call is skipped), or which arguments were left out (the gem is kept). */
  reason: string;
}

/**
 * A `gemspec` call of a Gemfile (https://bundler.io/v2.5/man/gemfile.5.html#GEMSPEC): the gemspecs of `path` (the
 * Gemfile's directory when not given), the one named `name` when given, are the gem's.
 */
export interface GemspecCall {
  line: number;
  /** `path:` as written (`.` when not given); null when it is not a string literal. */
  path: string | null;
  /** `name:` when given as a string or symbol literal, else null. */
  name: string | null;
}

/** What {@link readGemfileContents} reads of a Gemfile. */
export interface GemfileContents {
  gems: GemDeclaration[];
  /** Calls skipped whole (no name to read) and calls read without some of their arguments, in file order. */
  skipped: SkippedGemCall[];
  /** The `gemspec` calls, in file order. */
  gemspecs: GemspecCall[];
}

/** An open block: the groups it adds (`group ... do`) and the source it sets (`git ... do`, `path ... do`). */
interface Frame {
  groups: string[];
  source: GemSource | null;
}

/** The source a `git`/`github`/`gitlab`/`bitbucket`/`path` keyword (block or gem option) stands for. */
const sourceOf = (keyword: string): GemSource => (keyword === 'path' ? 'path' : 'git');

/** Removes a `#` comment that is not inside a string literal. */
function stripComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#') return line.slice(0, i);
  }
  return line;
}

/** Splits at top-level commas (outside quotes, brackets and parentheses). */
function splitArgs(file: string, lineNo: number, text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (quote) throw new ManifestParseError(file, `line ${lineNo}: unterminated string`);
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}

const STRING = /^(["'])(.*)\1$/;

/** A plain string literal's content: single-quoted, or double-quoted without `#{}` interpolation; else undefined. */
function literal(arg: string): string | undefined {
  const match = STRING.exec(arg);
  if (!match || (match[1] === '"' && (match[2] ?? '').includes('#{'))) return undefined;
  return match[2];
}

/** A keyword option (`require: false`, `:git => "..."`, `"group" => :test`). */
const OPTION = /^(?::?[A-Za-z_]\w*[?!]?\s*(?::(?!:)|=>)|(["'])[^"']*\1\s*=>|[A-Za-z_]\w*:\s)/;

/** Group names in `:development, :test`, `[:development, :test]`, `%i[development test]` or `"test"`. */
function groupNames(value: string): string[] {
  const words = /^%[iwIW][[(]/.test(value.trim())
    ? value.trim().slice(3, -1).split(/\s+/)
    : (value.match(/:?["']?[A-Za-z_]\w*["']?/g) ?? []);
  return words.map((w) => w.replace(/^:/, '').replace(/["']/g, '')).filter(Boolean);
}

/**
 * A call without its trailing `if`/`unless` modifier (`gem "x" if y` → `gem "x"`): what `.replace(/\s+(if|unless)\s+.*$/, '')`
 * gives, found without backtracking over runs of spaces (that expression was quadratic on them).
 */
function withoutModifier(call: string): string {
  const modifier = /\s(?:if|unless)\s/.exec(call);
  return modifier ? call.slice(0, modifier.index).trimEnd() : call;
}

/**
 * The text before a trailing ` do` (with or without block parameters `|x|`) of a line, trimmed; undefined when the line
 * does not end so. What `/^(.*?)\s+do(\s*\|[^|]*\|)?$/` reads, in linear time.
 */
function beforeDo(line: string): string | undefined {
  let rest = line.trimEnd();
  if (rest.endsWith('|')) {
    const open = rest.lastIndexOf('|', rest.length - 2);
    if (open < 0) return undefined;
    rest = rest.slice(0, open).trimEnd();
  }
  if (!rest.endsWith('do')) return undefined;
  const before = rest.slice(0, -2);
  return /\s$/.test(before) ? before.trimEnd() : undefined;
}

/**
 * The groups text of a `group ... do` line (`group :development, :test do` → `:development, :test`, parentheses
 * dropped), undefined for any other line.
 */
function groupBlock(line: string): string | undefined {
  if (!line.startsWith('group')) return undefined;
  const before = beforeDo(line);
  if (before === undefined || before.length < 5) return undefined;
  let inner = before.slice(5).trimStart();
  if (inner.startsWith('(')) inner = inner.slice(1);
  return inner.endsWith(')') ? inner.slice(0, -1) : inner;
}

/**
 * Reads a `gemspec` line's options (`path: "engines/x"`, `:name => "x"`, `name: :x`); a `path` that is not a string
 * literal is reported in `skipped` and read as null.
 */
function gemspecCall(file: string, lineNo: number, line: string, skipped: SkippedGemCall[]): GemspecCall {
  const call = withoutModifier(line.replace(/^gemspec\s*/, '')).replace(/^\((.*)\)$/, '$1');
  let path: string | null = '.';
  let name: string | null = null;
  for (const arg of splitArgs(file, lineNo, call)) {
    const option = /^:?["']?(path|name)["']?\s*(?::|=>)\s*(.*)$/.exec(arg);
    if (!option) continue;
    const value = option[2] ?? '';
    const read = literal(value) ?? /^:([A-Za-z_][\w-]*)$/.exec(value)?.[1];
    if (option[1] === 'name') name = read ?? null;
    else if (read === undefined) {
      path = null;
      skipped.push({ line: lineNo, text: line, reason: `the gemspec path (${value}) is not a string literal: its gemspecs are not read` });
    } else path = read;
  }
  return { line: lineNo, path, name };
}

const OPENS_BLOCK = /\bdo(\s*\|[^|]*\|)?$/;
const SOURCE_BLOCK = /^(path|git|github|gitlab|bitbucket)\b.*\bdo(\s*\|[^|]*\|)?$/;
const SOURCE_OPTION = /^:?(path|git|github|gitlab|bitbucket)\s*(?::|=>)/;
const OPENS_KEYWORD = /^(if|unless|case|begin|while|until|def|class|module)\b/;

/**
 * Reads the `gem` declarations of a Gemfile (https://bundler.io/v2.5/man/gemfile.5.html) without running it:
 * `gem 'name'`, `gem "name", "~> 1.2", ">= 1.2.3", require: false`, `gem('name', ...)`, calls continued on
 * the next line after a trailing comma, trailing `if`/`unless` modifiers, `group :development, :test do ... end`
 * blocks (nested in `platforms`, `source ... do`, `if` blocks or not) and `group:`/`groups:`/`:group =>` options
 * (a symbol, a string or a list of them).
 * Gems in `git ... do`/`path ... do` blocks or with `git:`, `github:`, `gitlab:`, `bitbucket:`, `path:` options
 * get that source. `gemspec` calls are read for their `path:` and `name:` (`gemspecs`); Ruby logic is not evaluated.
 *
 * What only exists when Ruby runs is skipped and reported in `skipped`, never thrown: a call whose gem name is not a
 * string literal (`gem(*args)`, `gem name, *opts`, `gem "rails-#{x}"`) is left out; a call whose name is a literal
 * but some other argument is not (`gem "rack", rack_version`, `gem "x", *opts`, `**opts`) keeps the gem, its
 * requirement read from the literals only, with `partial` set.
 * @throws ManifestParseError on text Ruby itself could not parse: an unterminated string, an `end` without a block
 * or a block left open
 */
export function readGemfileContents(file: string, text: string): GemfileContents {
  const out: GemDeclaration[] = [];
  const skipped: SkippedGemCall[] = [];
  const gemspecs: GemspecCall[] = [];
  const frames: Frame[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    // The continued lines are gathered, then joined once: joining them one by one copied the call so far each time.
    const parts = [stripComment(lines[i] ?? '').trim()];
    for (let last = parts[0] ?? ''; (last.endsWith(',') || last.endsWith('\\')) && i + 1 < lines.length; last = parts.at(-1) ?? '') {
      if (last.endsWith('\\')) parts[parts.length - 1] = last.slice(0, -1);
      i++;
      parts.push(stripComment(lines[i] ?? '').trim());
    }
    const line = parts.join(' ');
    if (line === '') continue;
    if (/^end\b/.test(line)) {
      if (frames.pop() === undefined) throw new ManifestParseError(file, `line ${lineNo}: 'end' without an open block`);
      continue;
    }
    const group = groupBlock(line);
    if (group !== undefined) {
      frames.push({ groups: groupNames(group), source: null });
      continue;
    }
    const sourceBlock = SOURCE_BLOCK.exec(line);
    if (sourceBlock) {
      frames.push({ groups: [], source: sourceOf(sourceBlock[1] ?? '') });
      continue;
    }
    if (/^gemspec\b/.test(line)) {
      gemspecs.push(gemspecCall(file, lineNo, line, skipped));
      continue;
    }
    if (/^gem[\s(]/.test(line)) {
      const withoutIf = withoutModifier(line.replace(/^gem\s*/, ''));
      const call = (beforeDo(withoutIf) ?? withoutIf).replace(/^\((.*)\)$/, '$1');
      const args = splitArgs(file, lineNo, call);
      const opensBlock = OPENS_BLOCK.test(line);
      const name = literal(args[0] ?? '');
      if (!name) {
        const reason = args[0]?.startsWith('*')
          ? `the arguments (${args[0]}) only exist when Ruby runs: no gem name to read`
          : `the gem name (${args[0] ?? 'none'}) is not a string literal`;
        skipped.push({ line: lineNo, text: line, reason });
        if (opensBlock) frames.push({ groups: [], source: null });
        continue;
      }
      const clauses: string[] = [];
      const unread: string[] = [];
      const groups = frames.flatMap((frame) => frame.groups);
      let source = frames.findLast((frame) => frame.source !== null)?.source ?? 'rubygems';
      for (const arg of args.slice(1)) {
        const clause = literal(arg);
        if (clause !== undefined) {
          clauses.push(clause.trim());
          continue;
        }
        if (arg.startsWith('*') || !OPTION.test(arg)) {
          unread.push(arg);
          continue;
        }
        const option = /^:?["']?(groups?)["']?\s*(?::|=>)\s*(.*)$/.exec(arg);
        if (option) for (const name of groupNames(option[2] ?? '')) groups.push(name);
        const sourceOption = SOURCE_OPTION.exec(arg);
        if (sourceOption) source = sourceOf(sourceOption[1] ?? '');
      }
      if (unread.length > 0) {
        skipped.push({
          line: lineNo,
          text: line,
          reason: `'${name}': ${unread.join(', ')} ${unread.length === 1 ? 'is' : 'are'} computed when Ruby runs and not read (the requirement holds the string literals only)`,
        });
      }
      out.push({
        name,
        requirement: clauses.length ? clauses.join(', ') : null,
        groups: [...new Set(groups)],
        source,
        line: lineNo,
        partial: unread.length > 0,
      });
      if (opensBlock) frames.push({ groups: [], source: null });
      continue;
    }
    if (OPENS_BLOCK.test(line) || OPENS_KEYWORD.test(line)) frames.push({ groups: [], source: null });
  }
  if (frames.length > 0) throw new ManifestParseError(file, `${frames.length} block(s) not closed with 'end'`);
  return { gems: out, skipped, gemspecs };
}

/**
 * The `gem` declarations of a Gemfile, as {@link readGemfileContents} reads them (calls it cannot read are left out).
 * @throws ManifestParseError like {@link readGemfileContents}
 */
export function readGemfile(file: string, text: string): GemDeclaration[] {
  return readGemfileContents(file, text).gems;
}

/** Gems outside any group, or in `default`/`production`, are runtime; gems only in other groups (development, test, ci, ...) development. */
export function gemType(groups: readonly string[]): DependencyType {
  if (groups.length === 0) return 'runtime';
  return groups.some((g) => ['default', 'production', 'runtime'].includes(g)) ? 'runtime' : 'development';
}
