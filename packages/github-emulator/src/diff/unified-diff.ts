import type { DiffFile } from './changed-files.ts';

/**
 * A diff as `git diff` prints it (https://git-scm.com/docs/diff-format#generate_patch_text_with_p), GitHub's
 * `application/vnd.github.diff` media type: per file `diff --git a/<old> b/<new>`, the extended headers (`new file
 * mode`, `deleted file mode`, `old mode`/`new mode`, `similarity index 100%` with `rename from`/`rename to`), `index
 * <old>..<new>[ <mode>]` with ids abbreviated to 7 digits when the bytes changed, then `---`/`+++` and the hunks, or
 * `Binary files … differ`. Paths are written as they are (git's quoting of unusual characters is not done).
 */

const ZERO_ID = '0000000';
const abbrev = (sha: string) => sha.slice(0, 7);

/** The part of a diff for one file, ending with a newline. */
function fileSection({ change, diff }: DiffFile): string {
  const oldPath = change.previousPath ?? change.path;
  const newPath = change.path;
  const { before, after } = change;
  const lines = [`diff --git a/${oldPath} b/${newPath}`];
  if (before === undefined && after !== undefined) lines.push(`new file mode ${after.mode}`);
  else if (before !== undefined && after === undefined) lines.push(`deleted file mode ${before.mode}`);
  else if (before !== undefined && after !== undefined && before.mode !== after.mode)
    lines.push(`old mode ${before.mode}`, `new mode ${after.mode}`);
  if (change.status === 'renamed') lines.push('similarity index 100%', `rename from ${oldPath}`, `rename to ${newPath}`);
  if (before?.sha !== after?.sha) {
    const index = `index ${before === undefined ? ZERO_ID : abbrev(before.sha)}..${after === undefined ? ZERO_ID : abbrev(after.sha)}`;
    lines.push(before !== undefined && after !== undefined && before.mode === after.mode ? `${index} ${before.mode}` : index);
    const from = before === undefined ? '/dev/null' : `a/${oldPath}`;
    const to = after === undefined ? '/dev/null' : `b/${newPath}`;
    if (diff.binary) lines.push(`Binary files ${from} and ${to} differ`);
    else if (diff.hunks.length > 0) lines.push(`--- ${from}`, `+++ ${to}`, ...diff.hunks);
  }
  return `${lines.join('\n')}\n`;
}

/** The whole diff of `files` (in their order); empty when there are none. */
export function unifiedDiff(files: readonly DiffFile[]): string {
  return files.map(fileSection).join('');
}
