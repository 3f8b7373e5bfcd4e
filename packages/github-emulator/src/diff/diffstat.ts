import type { DiffFile } from './changed-files.ts';

/**
 * `git diff --stat --summary` as `git format-patch` prints it (https://git-scm.com/docs/git-diff#Documentation/git-diff.txt---statltwidthgtltname-widthgtltcountgt),
 * ported from git's `diff.c` (`show_stats`, `pprint_rename`, `diff_summary`): one line per file, ` <name> | <count>
 * <+++-->`, the name column as wide as the longest name and the `+`/`-` graph scaled so that a line fits in 72
 * columns (format-patch's width), a binary file as `Bin <old> -> <new> bytes`; then ` N files changed, N
 * insertions(+), N deletions(-)`; then the `create mode`, `delete mode`, `rename` and `mode change` lines. Widths are
 * counted in UTF-16 code units rather than display columns.
 */

/** `a => b` with the common leading directories and trailing part in braces: `src/{a.ts => b.ts}`, git's `pprint_rename`. */
export function renameName(a: string, b: string): string {
  let prefix = 0;
  for (let i = 0; i < a.length && i < b.length && a[i] === b[i]; i += 1) if (a[i] === '/') prefix = i + 1;
  let suffix = 0;
  const adjust = prefix > 0 ? 1 : 0;
  for (let i = a.length - 1, j = b.length - 1; i >= prefix - adjust && j >= prefix - adjust && a[i] === b[j]; i -= 1, j -= 1) {
    if (a[i] === '/') suffix = a.length - i;
  }
  const middleA = a.slice(prefix, Math.max(prefix, a.length - suffix));
  const middleB = b.slice(prefix, Math.max(prefix, b.length - suffix));
  if (prefix + suffix === 0) return `${middleA} => ${middleB}`;
  return `${a.slice(0, prefix)}{${middleA} => ${middleB}}${a.slice(a.length - suffix)}`;
}

const decimalWidth = (n: number) => String(n).length;

/** Git's `scale_linear`: at least one mark for any change. */
const scale = (it: number, width: number, maxChange: number) => (it === 0 ? 0 : 1 + Math.floor((it * (width - 1)) / maxChange));

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The summary line: ` 1 file changed, 2 insertions(+), 1 deletion(-)` (a zero count left out unless both are zero). */
function totalsLine(files: number, insertions: number, deletions: number): string {
  let line = ` ${plural(files, 'file changed', 'files changed')}`;
  if (insertions > 0 || deletions === 0) line += `, ${plural(insertions, 'insertion(+)', 'insertions(+)')}`;
  if (deletions > 0 || insertions === 0) line += `, ${plural(deletions, 'deletion(-)', 'deletions(-)')}`;
  return line;
}

/** The `--summary` lines of one file (none for a plain modification). */
function summaryLines({ change }: DiffFile): string[] {
  const { before, after } = change;
  if (before === undefined && after !== undefined) return [` create mode ${after.mode} ${change.path}`];
  if (before !== undefined && after === undefined) return [` delete mode ${before.mode} ${change.path}`];
  const modeChange = before !== undefined && after !== undefined && before.mode !== after.mode;
  if (change.status === 'renamed') {
    const lines = [` rename ${renameName(change.previousPath ?? change.path, change.path)} (100%)`];
    if (modeChange) lines.push(` mode change ${before.mode} => ${after.mode}`);
    return lines;
  }
  return modeChange ? [` mode change ${before.mode} => ${after.mode} ${change.path}`] : [];
}

/** The stat, totals and summary lines of `files` for a `width`-column page (default 72), each ending with a newline. */
export function diffstat(files: readonly DiffFile[], width = 72): string {
  const names = files.map(({ change }) =>
    change.status === 'renamed' ? renameName(change.previousPath ?? change.path, change.path) : change.path,
  );
  let maxLen = 0;
  let maxChange = 0;
  let numberWidth = 0;
  let binWidth = 0;
  files.forEach((file, index) => {
    maxLen = Math.max(maxLen, (names[index] as string).length);
    if (file.diff.binary) {
      binWidth = Math.max(binWidth, 14 + decimalWidth(file.bytes.after) + decimalWidth(file.bytes.before));
      numberWidth = 3;
    } else maxChange = Math.max(maxChange, file.diff.additions + file.diff.deletions);
  });
  numberWidth = Math.max(numberWidth, decimalWidth(maxChange));
  const total = Math.max(width, 16 + 6 + numberWidth);
  let graphWidth = maxChange + 4 > binWidth ? maxChange : binWidth - 4;
  let nameWidth = maxLen;
  if (nameWidth + numberWidth + 6 + graphWidth > total) {
    if (graphWidth > Math.floor((total * 3) / 8) - numberWidth - 6) graphWidth = Math.max(6, Math.floor((total * 3) / 8) - numberWidth - 6);
    if (nameWidth > total - numberWidth - 6 - graphWidth) nameWidth = total - numberWidth - 6 - graphWidth;
    else graphWidth = total - numberWidth - 6 - nameWidth;
  }
  const lines: string[] = [];
  let insertions = 0;
  let deletions = 0;
  files.forEach((file, index) => {
    let name = names[index] as string;
    let prefix = '';
    let room = nameWidth;
    if (name.length > nameWidth) {
      prefix = '...';
      room = Math.max(0, nameWidth - 3);
      name = name.slice(name.length - room);
      const slash = name.indexOf('/');
      if (slash !== -1) name = name.slice(slash);
    }
    const column = ` ${prefix}${name}${' '.repeat(Math.max(0, room - name.length))} | `;
    if (file.diff.binary) {
      const sizes = file.bytes.before === 0 && file.bytes.after === 0 ? '' : ` ${file.bytes.before} -> ${file.bytes.after} bytes`;
      lines.push(`${column}${'Bin'.padStart(numberWidth)}${sizes}`);
      return;
    }
    const { additions: added, deletions: deleted } = file.diff;
    insertions += added;
    deletions += deleted;
    let add = added;
    let del = deleted;
    if (graphWidth <= maxChange) {
      let sum = scale(added + deleted, graphWidth, maxChange);
      if (sum < 2 && added > 0 && deleted > 0) sum = 2;
      if (added < deleted) {
        add = scale(added, graphWidth, maxChange);
        del = sum - add;
      } else {
        del = scale(deleted, graphWidth, maxChange);
        add = sum - del;
      }
    }
    const count = String(added + deleted).padStart(numberWidth);
    lines.push(`${column}${count}${added + deleted > 0 ? ' ' : ''}${'+'.repeat(add)}${'-'.repeat(del)}`);
  });
  lines.push(totalsLine(files.length, insertions, deletions), ...files.flatMap(summaryLines));
  return lines.map((line) => `${line}\n`).join('');
}
