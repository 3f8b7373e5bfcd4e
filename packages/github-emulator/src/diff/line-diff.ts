import { diffArrays } from 'diff';
import { type FileContent, fileBytes, filePrefix, fileSize } from '../files.ts';

/**
 * The line diff of one file as git prints it (https://git-scm.com/docs/git-diff#_combined_diff_format is the merge
 * variant; this is the plain unified format): hunks of 3 lines of context, changes closer than 6 context lines merged
 * into one hunk, `@@ -start,count +start,count @@` headers (a count of 1 left out, a start of 0 before an empty side)
 * followed by the nearest line above the hunk that starts with a letter, `_` or `$` (git's default "function name",
 * at most 80 bytes), removed lines before added ones within a change, and `\ No newline at end of file` after a last
 * line without one. The edit script comes from jsdiff's Myers diff (`diff` on npm), so on ambiguous changes it may pair
 * lines differently from git's own; counts are the same as `git diff --numstat` for any minimal diff.
 */

/** A side bigger than this (5 MiB) is not diffed line by line: the file is shown as binary. */
export const MAX_TEXT_DIFF_BYTES = 5 * 1024 * 1024;
/** Git's rule for "binary": a NUL byte among the first 8,000 bytes. */
const BINARY_SNIFF_BYTES = 8_000;
const CONTEXT_LINES = 3;
/** How long jsdiff may search for a minimal diff before the file is shown as wholly replaced (a valid, longer diff). */
const DIFF_TIMEOUT_MS = 1_000;
/** Git keeps at most 80 bytes of a hunk header's function name. */
const FUNCNAME_BYTES = 80;

/** The diff of one file's bytes: binary (no lines compared), or its added and removed lines and its hunks. */
export interface FileDiff {
  binary: boolean;
  /** Lines added and removed (0 for a binary file, as GitHub counts them). */
  additions: number;
  deletions: number;
  /** Each hunk: its `@@` header line and its lines (` `, `-`, `+`, `\`), joined by `\n`, without a final newline. */
  hunks: readonly string[];
}

/** A file's lines, each with its `\n` (the last one without when the file does not end with a newline). */
function linesOf(text: string): string[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop() as string;
  const lines = parts.map((line) => `${line}\n`);
  if (last !== '') lines.push(last);
  return lines;
}

type OpKind = ' ' | '-' | '+';
interface Op {
  kind: OpKind;
  line: string;
}

/** The edit script from `a` to `b`: common prefix and suffix as context, jsdiff's diff of the middle, `-` before `+`. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const context = (lines: readonly string[]): Op[] => lines.map((line) => ({ kind: ' ', line }));
  const removed = a.slice(start, endA);
  const added = b.slice(start, endB);
  const middle: Op[] = [];
  const changes = removed.length > 0 && added.length > 0 ? diffArrays(removed, added, { timeout: DIFF_TIMEOUT_MS }) : undefined;
  if (changes === undefined) {
    middle.push(...removed.map((line): Op => ({ kind: '-', line })), ...added.map((line): Op => ({ kind: '+', line })));
  } else {
    let minus: Op[] = [];
    let plus: Op[] = [];
    const flush = () => {
      middle.push(...minus, ...plus);
      minus = [];
      plus = [];
    };
    for (const change of changes) {
      if (change.removed) minus.push(...change.value.map((line): Op => ({ kind: '-', line })));
      else if (change.added) plus.push(...change.value.map((line): Op => ({ kind: '+', line })));
      else {
        flush();
        middle.push(...context(change.value));
      }
    }
    flush();
  }
  return [...context(a.slice(0, start)), ...middle, ...context(a.slice(endA))];
}

/** Git's default function name of a line: one starting with a letter, `_` or `$`, cut at 80 bytes, trailing spaces off. */
function funcName(line: string): string | undefined {
  if (!/^[A-Za-z_$]/.test(line)) return undefined;
  return Buffer.from(line, 'utf8').subarray(0, FUNCNAME_BYTES).toString('utf8').replace(/\s+$/, '');
}

/** `start,count` of a hunk side as git writes it: `,1` left out; a side with no lines starts at the line before. */
function range(before: number, count: number): string {
  const start = count === 0 ? before : before + 1;
  return count === 1 ? String(start) : `${start},${count}`;
}

/** The hunks of an edit script of old lines `oldLines`. */
function hunksOf(ops: readonly Op[], oldLines: readonly string[]): string[] {
  const oldBefore: number[] = [];
  const newBefore: number[] = [];
  let o = 0;
  let n = 0;
  for (const op of ops) {
    oldBefore.push(o);
    newBefore.push(n);
    if (op.kind !== '+') o += 1;
    if (op.kind !== '-') n += 1;
  }
  const changed = ops.flatMap((op, index) => (op.kind === ' ' ? [] : [index]));
  const hunks: string[] = [];
  let func: string | undefined;
  let searchedTo = 0;
  for (let at = 0; at < changed.length; ) {
    const first = changed[at] as number;
    let last = first;
    at += 1;
    while (at < changed.length && (changed[at] as number) - last - 1 <= 2 * CONTEXT_LINES) {
      last = changed[at] as number;
      at += 1;
    }
    const from = Math.max(0, first - CONTEXT_LINES);
    const to = Math.min(ops.length - 1, last + CONTEXT_LINES);
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((op) => op.kind !== '+').length;
    const newCount = slice.filter((op) => op.kind !== '-').length;
    // The nearest function line above the hunk: searched back to where the previous hunk's search started.
    const startLine = oldBefore[from] as number;
    for (let line = startLine - 1; line >= searchedTo; line -= 1) {
      const found = funcName(oldLines[line] as string);
      if (found !== undefined) {
        func = found;
        break;
      }
    }
    searchedTo = startLine;
    const header = `@@ -${range(startLine, oldCount)} +${range(newBefore[from] as number, newCount)} @@${func ? ` ${func}` : ''}`;
    const lines = [header];
    for (const op of slice) {
      if (op.line.endsWith('\n')) lines.push(`${op.kind}${op.line.slice(0, -1)}`);
      else lines.push(`${op.kind}${op.line}`, '\\ No newline at end of file');
    }
    hunks.push(lines.join('\n'));
  }
  return hunks;
}

const BINARY: FileDiff = Object.freeze({ binary: true, additions: 0, deletions: 0, hunks: Object.freeze([]) as readonly string[] });

/** Is this side binary to git (a NUL among its first 8,000 bytes), or too big to compare by lines? */
function notText(content: FileContent | undefined): boolean {
  if (content === undefined) return false;
  if (fileSize(content) > MAX_TEXT_DIFF_BYTES) return true;
  return filePrefix(content, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * The {@link FileDiff} of a file from `before` to `after` (undefined: the file is absent on that side). Binary when
 * either side has a NUL among its first 8,000 bytes or is over {@link MAX_TEXT_DIFF_BYTES}; bytes are read as UTF-8.
 */
export function diffContents(before: FileContent | undefined, after: FileContent | undefined): FileDiff {
  if (notText(before) || notText(after)) return BINARY;
  const oldLines = before === undefined ? [] : linesOf(fileBytes(before).toString('utf8'));
  const newLines = after === undefined ? [] : linesOf(fileBytes(after).toString('utf8'));
  const ops = editScript(oldLines, newLines);
  let additions = 0;
  let deletions = 0;
  for (const op of ops) {
    if (op.kind === '+') additions += 1;
    else if (op.kind === '-') deletions += 1;
  }
  return { binary: false, additions, deletions, hunks: hunksOf(ops, oldLines) };
}
