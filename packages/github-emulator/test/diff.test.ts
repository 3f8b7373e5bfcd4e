import { describe, expect, it } from 'vitest';
import type { DiffFile } from '../src/diff/changed-files.ts';
import { diffstat, renameName } from '../src/diff/diffstat.ts';
import { formatPatch, rfc2822Date } from '../src/diff/format-patch.ts';
import { diffContents } from '../src/diff/line-diff.ts';
import { makeCommit } from '../src/git/objects.ts';

/** Lines `  line <n>` with `function f<n>() {` every tenth line, as the hunk header's function names need. */
function numbered(count: number): string[] {
  return Array.from({ length: count }, (_, i) => ((i + 1) % 10 === 0 ? `function f${i + 1}() {` : `  line ${i + 1}`));
}

/** A file change of `before` to `after` (texts; undefined: absent), renamed when `previousPath` is given. */
function file(path: string, before: string | undefined, after: string | undefined, previousPath?: string): DiffFile {
  const entry = (sha: string) => ({ mode: '100644' as const, type: 'blob' as const, sha });
  return {
    change: {
      status: previousPath ? 'renamed' : before === undefined ? 'added' : after === undefined ? 'removed' : 'modified',
      path,
      ...(previousPath ? { previousPath } : {}),
      ...(before === undefined ? {} : { before: entry('1'.repeat(40)) }),
      ...(after === undefined ? {} : { after: entry('2'.repeat(40)) }),
    },
    diff: diffContents(before, after),
    bytes: { before: before === undefined ? 0 : Buffer.byteLength(before), after: after === undefined ? 0 : Buffer.byteLength(after) },
  };
}

// The expected texts are what git 2.39 prints for the same files (`git diff --no-index`, `--stat=72 --summary`).
describe('diffs as git prints them', () => {
  it('hunks: 3 lines of context, nearby changes merged, function names, a missing final newline', () => {
    const before = numbered(79);
    const after = [...before];
    after[4] = '  changed 5';
    after[30] = '  changed 31';
    after.splice(50, 1);
    after.splice(60, 0, '  inserted');
    after[78] = '  last changed';
    const diff = diffContents(`${before.join('\n')}\n`, after.join('\n'));
    expect(diff).toMatchObject({ binary: false, additions: 4, deletions: 4 });
    expect(`${diff.hunks.join('\n')}\n`).toBe(
      `@@ -2,7 +2,7 @@
   line 2
   line 3
   line 4
-  line 5
+  changed 5
   line 6
   line 7
   line 8
@@ -28,7 +28,7 @@ function f20() {
   line 28
   line 29
 function f30() {
-  line 31
+  changed 31
   line 32
   line 33
   line 34
@@ -48,7 +48,6 @@ function f40() {
   line 48
   line 49
 function f50() {
-  line 51
   line 52
   line 53
   line 54
@@ -59,6 +58,7 @@ function f50() {
   line 59
 function f60() {
   line 61
+  inserted
   line 62
   line 63
   line 64
@@ -76,4 +76,4 @@ function f70() {
   line 76
   line 77
   line 78
-  line 79
+  last changed
\\ No newline at end of file
`,
    );
  });

  it('a function name is cut at 80 bytes; an added file starts at 0; binary and empty sides', () => {
    const name = 'export function aVeryLongFunctionNameThatGoesOnAndOnAndOnForMoreThanEightyBytesInTotalLength(x) {';
    const lines = Array.from({ length: 10 }, (_, i) => `  ${i}\n`);
    const diff = diffContents(`${name}\n${lines.join('')}`, `${name}\n${lines.slice(0, 9).join('')}  changed\n`);
    expect(diff.hunks[0]?.split('\n')[0]).toBe(
      '@@ -8,4 +8,4 @@ export function aVeryLongFunctionNameThatGoesOnAndOnAndOnForMoreThanEightyBytesI',
    );
    expect(diffContents(undefined, 'a\nb\n').hunks).toEqual(['@@ -0,0 +1,2 @@\n+a\n+b']);
    expect(diffContents('a\n', undefined).hunks).toEqual(['@@ -1 +0,0 @@\n-a']);
    expect(diffContents(undefined, '')).toEqual({ binary: false, additions: 0, deletions: 0, hunks: [] });
    expect(diffContents('text\n', Buffer.from([0x89, 0x50, 0, 1]))).toEqual({ binary: true, additions: 0, deletions: 0, hunks: [] });
  });

  it('diffstat: names as wide as the longest, a long one cut at a slash, the graph scaled to 72 columns, binaries', () => {
    const before = `${numbered(200).join('\n')}\n`;
    const after = `${numbered(200)
      .map((line, i) => (i % 8 === 0 ? `${line}!` : line))
      .join('\n')}\n`;
    const long = 'src/deep/file-with-a-quite-long-name-indeed-to-force-truncation-of-the-name.txt';
    expect(
      diffstat([
        file('d2/src/b.bin', undefined, 'bin\0ary', '/dev/null'),
        file(`d2/${long}`, before, after, `d1/${long}`),
        file('d2/src/x.txt', 'a\nb\nc\nd\n', 'a\nB\nc\nD\ne\n', 'd1/src/x.txt'),
      ])
        .split('\n')
        .slice(0, 4),
    ).toEqual([
      ' /dev/null => d2/src/b.bin                     | Bin 0 -> 7 bytes',
      ' ...indeed-to-force-truncation-of-the-name.txt |  50 +++++++++---------',
      ' {d1 => d2}/src/x.txt                          |   5 +-',
      ' 3 files changed, 28 insertions(+), 27 deletions(-)',
    ]);
    expect(renameName('docs/guide.md', 'docs/GUIDE.md')).toBe('docs/{guide.md => GUIDE.md}');
    expect(renameName('a/b/c.txt', 'a/x/c.txt')).toBe('a/{b => x}/c.txt');
    expect(renameName('one', 'two')).toBe('one => two');
  });

  it('format-patch: RFC 2822 dates, long subjects folded at 78 columns, RFC 2047 names, merges left out', () => {
    expect(rfc2822Date('2015-01-01T00:50:01Z')).toBe('Thu, 1 Jan 2015 00:50:01 +0000');
    const who = { name: 'Zoë Example', email: 'zoe@example.com', date: '2024-03-04T10:00:00Z' };
    const subject = 'Bump the lodash dependency from 4.17.20 to 4.17.21 in the packages/app workspace and its lock file';
    const commit = makeCommit({
      tree: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      parents: [],
      author: who,
      committer: who,
      message: `${subject}\n`,
    });
    const merge = makeCommit({ tree: commit.tree, parents: [commit.sha, commit.sha], author: who, committer: who, message: 'Merge' });
    const files = [file('a.txt', undefined, 'a\n')];
    const text = formatPatch([
      { commit, files },
      { commit: merge, files },
    ]);
    expect(text.split('\n').slice(0, 7)).toEqual([
      `From ${commit.sha} Mon Sep 17 00:00:00 2001`,
      'From: =?UTF-8?q?Zo=C3=AB=20Example?= <zoe@example.com>',
      'Date: Mon, 4 Mar 2024 10:00:00 +0000',
      'Subject: [PATCH] Bump the lodash dependency from 4.17.20 to 4.17.21 in the',
      ' packages/app workspace and its lock file',
      '',
      '---',
    ]);
    expect(text.match(/^From [0-9a-f]{40} /gm)).toHaveLength(1);
    expect(text.endsWith('+a\n-- \ngithub-emulator\n\n')).toBe(true);
  });
});
