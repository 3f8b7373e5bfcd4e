import type { DependencyType } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/** A `gem` declaration of a Gemfile. */
export interface GemDeclaration {
  name: string;
  /** The version clauses joined with `, ` (`~> 1.2, >= 1.2.3`), null when none. */
  requirement: string | null;
  /** Groups from enclosing `group ... do` blocks and `group:`/`groups:` options; empty = the default group. */
  groups: string[];
  line: number;
}

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

/** Group names in `:development, :test`, `[:development, :test]`, `%i[development test]` or `"test"`. */
function groupNames(value: string): string[] {
  const words = /^%[iwIW][[(]/.test(value.trim())
    ? value.trim().slice(3, -1).split(/\s+/)
    : (value.match(/:?["']?[A-Za-z_]\w*["']?/g) ?? []);
  return words.map((w) => w.replace(/^:/, '').replace(/["']/g, '')).filter(Boolean);
}

const OPENS_BLOCK = /\bdo(\s*\|[^|]*\|)?$/;
const OPENS_KEYWORD = /^(if|unless|case|begin|while|until|def|class|module)\b/;

/**
 * Reads the `gem` declarations of a Gemfile (https://bundler.io/v2.5/man/gemfile.5.html) without running it:
 * `gem 'name'`, `gem "name", "~> 1.2", ">= 1.2.3", require: false`, `gem('name', ...)`, calls continued on
 * the next line after a trailing comma, trailing `if`/`unless` modifiers, `group :development, :test do ... end`
 * blocks (nested in `platforms`, `source ... do`, `if` blocks or not) and `group:`/`groups:`/`:group =>` options.
 * `gemspec` and Ruby logic are not evaluated.
 * @throws ManifestParseError on a `gem` call without a quoted name, an unterminated string, an `end` without
 * a block or a block left open
 */
export function readGemfile(file: string, text: string): GemDeclaration[] {
  const out: GemDeclaration[] = [];
  const frames: string[][] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    let line = stripComment(lines[i] ?? '').trim();
    while ((line.endsWith(',') || line.endsWith('\\')) && i + 1 < lines.length) {
      i++;
      line = `${line.replace(/\\$/, '')} ${stripComment(lines[i] ?? '').trim()}`;
    }
    if (line === '') continue;
    if (/^end\b/.test(line)) {
      if (frames.pop() === undefined) throw new ManifestParseError(file, `line ${lineNo}: 'end' without an open block`);
      continue;
    }
    const group = /^group\s*\(?(.*?)\)?\s+do(\s*\|[^|]*\|)?$/.exec(line);
    if (group) {
      frames.push(groupNames(group[1] ?? ''));
      continue;
    }
    if (/^gem[\s(]/.test(line)) {
      const call = line
        .replace(/^gem\s*/, '')
        .replace(/\s+(if|unless)\s+.*$/, '')
        .replace(/^\((.*)\)$/, '$1');
      const args = splitArgs(file, lineNo, call);
      const name = STRING.exec(args[0] ?? '')?.[2];
      if (!name) throw new ManifestParseError(file, `line ${lineNo}: gem without a quoted name`);
      const clauses: string[] = [];
      const groups = frames.flat();
      for (const arg of args.slice(1)) {
        const literal = STRING.exec(arg);
        if (literal) {
          clauses.push((literal[2] ?? '').trim());
          continue;
        }
        const option = /^:?(groups?)\s*(?::|=>)\s*(.*)$/.exec(arg);
        if (option) groups.push(...groupNames(option[2] ?? ''));
      }
      out.push({ name, requirement: clauses.length ? clauses.join(', ') : null, groups: [...new Set(groups)], line: lineNo });
      if (OPENS_BLOCK.test(line)) frames.push([]);
      continue;
    }
    if (OPENS_BLOCK.test(line) || OPENS_KEYWORD.test(line)) frames.push([]);
  }
  if (frames.length > 0) throw new ManifestParseError(file, `${frames.length} block(s) not closed with 'end'`);
  return out;
}

/** Gems outside any group, or in `default`/`production`, are runtime; gems only in other groups (development, test, ci, ...) development. */
export function gemType(groups: readonly string[]): DependencyType {
  if (groups.length === 0) return 'runtime';
  return groups.some((g) => ['default', 'production', 'runtime'].includes(g)) ? 'runtime' : 'development';
}
