import { fileSize } from '../files.ts';
import type { GitRepository, PathEntry } from '../git/repository-store.ts';
import type { FileDiffs } from './file-diffs.ts';
import type { FileDiff } from './line-diff.ts';
import { type FileChange, treeChanges } from './tree-changes.ts';

/** A changed file with its line diff and the byte sizes of its two sides (0 for an absent side or a submodule). */
export interface DiffFile {
  change: FileChange;
  diff: FileDiff;
  bytes: { before: number; after: number };
}

const sizeOf = (git: GitRepository, entry: PathEntry | undefined) => {
  const blob = entry?.type === 'blob' ? git.blob(entry.sha) : undefined;
  return blob === undefined ? 0 : fileSize(blob.content);
};

/**
 * Every file changed from tree `fromTree` to tree `toTree` (undefined: an empty tree), by path, with its diff
 * (`diffs` keeps them): what a pull request's, a comparison's and a commit's `files`, `.diff` and `.patch` show.
 */
export function diffFiles(git: GitRepository, diffs: FileDiffs, fromTree: string | undefined, toTree: string | undefined): DiffFile[] {
  return treeChanges(git, fromTree, toTree).map((change) => ({
    change,
    diff: diffs.of(git, change.before, change.after),
    bytes: { before: sizeOf(git, change.before), after: sizeOf(git, change.after) },
  }));
}

/** The added and removed lines of `files` in all. */
export function lineTotals(files: readonly DiffFile[]): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const { diff } of files) {
    additions += diff.additions;
    deletions += diff.deletions;
  }
  return { additions, deletions };
}
