import { ManifestParseError } from '../errors.ts';

/**
 * A reader of `go.mod` files (https://go.dev/ref/mod#go-mod-file; the grammar of golang.org/x/mod/modfile's `read.go`)
 * that keeps the position of every token, so that an updater can replace a version in place.
 */

/** A token of a go.mod line: its value (unquoted) and its span in the file's text (quotes included). */
export interface GoModToken {
  value: string;
  start: number;
  end: number;
  /** Written as an interpreted (`"..."`) or raw (`` `...` ``) string. */
  quoted: boolean;
}

/** One directive line (a single-line directive, or one line of a `verb ( ... )` block) with its tokens after the verb. */
export interface GoModLine {
  verb: string;
  args: GoModToken[];
  /** 1-based line number. */
  line: number;
  /** The text of its `//` comment without the slashes and surrounding blanks, or null. */
  comment: string | null;
  /** Offset of the comment's `//`, or null. */
  commentStart: number | null;
  /** Offset just after the last token. */
  argsEnd: number;
}

/** A `require` of a module. */
export interface GoRequire {
  path: string;
  version: GoModToken;
  /** Marked `// indirect` (https://go.dev/ref/mod#go-mod-file-require): not imported by the main module's packages. */
  indirect: boolean;
  line: GoModLine;
}

/** A `replace` directive (https://go.dev/ref/mod#go-mod-file-replace). */
export interface GoReplace {
  path: string;
  /** The version it applies to, or null for every version. */
  version: string | null;
  newPath: string;
  /** The replacement's version; null for a local directory. */
  newVersion: string | null;
  /** The replacement is a directory (`./x`, `../x`, an absolute path). */
  local: boolean;
}

/** A `retract` directive: one version, or an inclusive interval `[low, high]`. */
export interface GoRetract {
  low: string;
  high: string;
  rationale: string | null;
}

/** What a go.mod declares. */
export interface GoMod {
  module: string | null;
  go: string | null;
  toolchain: string | null;
  requires: GoRequire[];
  replaces: GoReplace[];
  /** `exclude` directives: module path and version. */
  excludes: { path: string; version: string }[];
  retracts: GoRetract[];
  /** Every directive line, in file order. */
  lines: GoModLine[];
}

const fail = (file: string, line: number, reason: string): never => {
  throw new ManifestParseError(file, `line ${line}: ${reason}`);
};

/** The tokens and comment of one line of text (without its line break), offsets relative to the file. */
function tokenize(
  file: string,
  text: string,
  offset: number,
  lineNumber: number,
): { tokens: GoModToken[]; comment: string | null; commentStart: number | null } {
  const tokens: GoModToken[] = [];
  let pos = 0;
  while (pos < text.length) {
    const c = text.charAt(pos);
    // Every white space character (JavaScript's `\s`, which includes a byte order mark and no-break spaces) is a blank,
    // as the token loop below stops on all of them.
    if (/\s/.test(c)) {
      pos++;
      continue;
    }
    if (text.startsWith('//', pos)) {
      return { tokens, comment: text.slice(pos + 2).trim(), commentStart: offset + pos };
    }
    if (c === '"' || c === '`') {
      const start = pos++;
      let value = '';
      while (pos < text.length && text.charAt(pos) !== c) {
        if (c === '"' && text.charAt(pos) === '\\') {
          const escaped = text.charAt(pos + 1);
          if (escaped === '') break;
          value += escaped === 'n' ? '\n' : escaped === 't' ? '\t' : escaped;
          pos += 2;
          continue;
        }
        value += text.charAt(pos++);
      }
      if (pos >= text.length) fail(file, lineNumber, 'unterminated string');
      pos++;
      tokens.push({ value, start: offset + start, end: offset + pos, quoted: true });
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ value: c, start: offset + pos, end: offset + pos + 1, quoted: false });
      pos++;
      continue;
    }
    const start = pos;
    while (pos < text.length && !/[\s"`()]/.test(text.charAt(pos)) && !text.startsWith('//', pos)) pos++;
    if (pos === start) fail(file, lineNumber, `unexpected character ${JSON.stringify(c)}`);
    tokens.push({ value: text.slice(start, pos), start: offset + start, end: offset + pos, quoted: false });
  }
  return { tokens, comment: null, commentStart: null };
}

/** Is a replacement path a directory (https://go.dev/ref/mod#go-mod-file-replace: starts with `./`, `../` or is absolute)? */
export const isLocalPath = (path: string) => /^(?:\.\.?(?:[/\\]|$)|\/|[A-Za-z]:[/\\])/.test(path);

/** Is the comment Go's `// indirect` mark (`indirect`, or `indirect; other text`)? */
const isIndirect = (comment: string | null) => comment !== null && /^indirect(?:;|$)/.test(comment);

const KNOWN = new Set(['module', 'go', 'toolchain', 'godebug', 'require', 'replace', 'exclude', 'retract', 'tool', 'ignore']);

/** Options of {@link readGoMod}. */
export interface ReadGoModOptions {
  /**
   * Skip what cannot be read instead of throwing: a line that does not tokenize, an unknown directive (and the lines
   * of its block), a directive with the wrong arguments, a stray parenthesis, text after a block's `)` (the block still
   * closes) and an unclosed block at the end. For a go.mod that is someone else's (a module's, as a proxy serves it),
   * where what can be read is still wanted. Default false.
   */
  lenient?: boolean;
}

/**
 * Reads a go.mod: `module`, `go`, `toolchain`, `require` (single lines and `require ( ... )` blocks, with the `// indirect`
 * mark), `replace`, `exclude`, `retract` (versions and `[low, high]` intervals); `godebug`, `tool` and `ignore` are
 * accepted and not interpreted. Tokens may be quoted (`"..."`, `` `...` ``).
 * @throws ManifestParseError naming `file` and the line: an unknown directive, a directive with the wrong number of
 *   arguments, an unterminated string or block, a `)` outside a block (never with `options.lenient`)
 */
export function readGoMod(file: string, text: string, options: ReadGoModOptions = {}): GoMod {
  const lenient = options.lenient ?? false;
  const out: GoMod = { module: null, go: null, toolchain: null, requires: [], replaces: [], excludes: [], retracts: [], lines: [] };
  out.lines = readDirectiveLines(file, text, KNOWN, lenient);
  for (const line of out.lines) stepOf(lenient)(() => interpret(file, out, line));
  return out;
}

/** Runs one line's step; with `lenient`, a line that does not read (a ManifestParseError) is skipped. */
const stepOf =
  (lenient: boolean) =>
  (read: () => void): void => {
    try {
      read();
    } catch (error) {
      if (!lenient || !(error instanceof ManifestParseError)) throw error;
    }
  };

/**
 * The directive lines of a go.mod or go.work file (modfile's shared grammar: single-line directives and `verb ( ... )`
 * blocks, `//` comments, quoted tokens), in file order, each line of a block under the block's verb.
 * @throws ManifestParseError naming `file` and the line: a verb not in `known`, an unterminated string or block, a stray
 *   parenthesis, text after a block's `)` (never with `lenient`, which skips such lines)
 */
export function readDirectiveLines(file: string, text: string, known: ReadonlySet<string>, lenient: boolean): GoModLine[] {
  const step = stepOf(lenient);
  const lines: GoModLine[] = [];
  let block: string | null = null;
  let blockLine = 0;
  let offset = 0;
  const rawLines = text.split('\n');
  for (const [index, raw] of rawLines.entries()) {
    const lineNumber = index + 1;
    const lineOffset = offset;
    offset += raw.length + 1;
    step(() => {
      const { tokens, comment, commentStart } = tokenize(file, raw, lineOffset, lineNumber);
      const [first] = tokens;
      if (!first) return;
      if (block !== null) {
        if (first.value === ')' && !first.quoted) {
          block = null;
          if (tokens.length > 1) fail(file, lineNumber, "unexpected text after ')'");
          return;
        }
        lines.push({ verb: block, args: tokens, line: lineNumber, comment, commentStart, argsEnd: tokens.at(-1)?.end ?? first.end });
        return;
      }
      const rest = tokens.slice(1);
      const opensBlock = rest.length === 1 && rest[0]?.value === '(' && !rest[0].quoted;
      // An unknown block is still a block: leniently, its lines are kept under its verb and not interpreted.
      if (opensBlock && !first.quoted) {
        block = first.value;
        blockLine = lineNumber;
      }
      if (!known.has(first.value) || first.quoted) fail(file, lineNumber, `unknown directive: ${first.value}`);
      if (opensBlock) return;
      if (rest.some((t) => (t.value === '(' || t.value === ')') && !t.quoted)) fail(file, lineNumber, `unexpected parenthesis`);
      lines.push({ verb: first.value, args: rest, line: lineNumber, comment, commentStart, argsEnd: tokens.at(-1)?.end ?? first.end });
    });
  }
  if (block !== null && !lenient) fail(file, blockLine, `'${block} (' block is not closed`);
  return lines;
}

/**
 * The `replace` of a directive line (https://go.dev/ref/mod#go-mod-file-replace, the same in go.work).
 * @throws ManifestParseError when the line is not `replace module/path [v1.2.3] => other/module v1.4.5 | ./local/dir`
 */
export function readReplace(file: string, line: GoModLine): GoReplace {
  const values = line.args.map((t) => t.value);
  const arrow = values.indexOf('=>');
  const usage = 'usage: replace module/path [v1.2.3] => other/module v1.4.5 | ./local/dir';
  if (arrow !== 1 && arrow !== 2) fail(file, line.line, usage);
  const left = values.slice(0, arrow);
  const right = values.slice(arrow + 1);
  const newPath = right[0] ?? '';
  const local = isLocalPath(newPath);
  if (right.length === 0 || right.length > 2 || (right.length === 1 && !local) || (right.length === 2 && local))
    fail(file, line.line, usage);
  return { path: left[0] ?? '', version: left[1] ?? null, newPath, newVersion: right[1] ?? null, local };
}

/** Fills `out` from one directive line. */
function interpret(file: string, out: GoMod, line: GoModLine): void {
  const values = line.args.map((t) => t.value);
  const want = (n: number, form: string) => {
    if (values.length !== n) fail(file, line.line, `usage: ${form}`);
  };
  switch (line.verb) {
    case 'module':
      want(1, 'module module/path');
      out.module = values[0] ?? null;
      break;
    case 'go':
      want(1, 'go 1.23');
      out.go = values[0] ?? null;
      break;
    case 'toolchain':
      want(1, 'toolchain go1.23.1');
      out.toolchain = values[0] ?? null;
      break;
    case 'require': {
      want(2, 'require module/path v1.2.3');
      const [path, version] = line.args as [GoModToken, GoModToken];
      out.requires.push({ path: path.value, version, indirect: isIndirect(line.comment), line });
      break;
    }
    case 'exclude':
      want(2, 'exclude module/path v1.2.3');
      out.excludes.push({ path: values[0] ?? '', version: values[1] ?? '' });
      break;
    case 'replace':
      out.replaces.push(readReplace(file, line));
      break;
    case 'retract': {
      const joined = values.join(' ');
      const interval = /^\[\s*(\S+?)\s*,\s*(\S+?)\s*\]$/.exec(joined);
      if (interval) out.retracts.push({ low: interval[1] ?? '', high: interval[2] ?? '', rationale: line.comment });
      else if (values.length === 1) out.retracts.push({ low: values[0] ?? '', high: values[0] ?? '', rationale: line.comment });
      else fail(file, line.line, 'usage: retract v1.2.3 | retract [v1.2.3, v1.2.5]');
      break;
    }
    default:
      break; // godebug, tool, ignore: not about dependency versions
  }
}

/**
 * The `replace` that applies to `path` at `version` (https://go.dev/ref/mod#go-mod-file-replace): one naming that
 * version wins over one for every version; undefined when none does.
 */
export function replacementOf(mod: GoMod, path: string, version: string): GoReplace | undefined {
  const forPath = mod.replaces.filter((r) => r.path === path);
  return forPath.find((r) => r.version === version) ?? forPath.find((r) => r.version === null);
}
