import type { TreeMode } from '../git/objects.ts';
import type { GitRepository, PathEntry } from '../git/repository-store.ts';

/**
 * The files that differ between two trees, as git's `diff-tree -r -M100%` pairs them and GitHub's `diff-entry`
 * names them (https://docs.github.com/rest/commits/commits#get-a-commit, `files[].status`).
 */

/**
 * GitHub's word for a file's change: `added`, `removed`, `modified` (its bytes, or a submodule's commit), `renamed`
 * (moved with the same bytes) or `changed` (its mode only, e.g. made executable).
 */
export type FileStatus = 'added' | 'removed' | 'modified' | 'renamed' | 'changed';

/** One changed file: its path (the new one), the previous path of a rename, and its entry before and after. */
export interface FileChange {
  status: FileStatus;
  path: string;
  /** The path before a rename. */
  previousPath?: string;
  /** The entry in the old tree (undefined when added). */
  before?: PathEntry;
  /** The entry in the new tree (undefined when removed). */
  after?: PathEntry;
}

const isFile = (mode: TreeMode) => mode === '100644' || mode === '100755';

/** Byte order of two paths, as git sorts them. */
export const comparePaths = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * The changes from tree `fromTree` (none: an empty tree) to tree `toTree` (none: an empty tree), sorted by path.
 * Renames are found as git finds exact ones: an added regular file whose blob is the blob of a removed regular file
 * (the first such removed path by path order; git's inexact, similarity-based renames are not looked for).
 */
export function treeChanges(git: GitRepository, fromTree: string | undefined, toTree: string | undefined): FileChange[] {
  const from = fromTree === undefined ? new Map<string, PathEntry>() : git.files(fromTree);
  const to = toTree === undefined ? new Map<string, PathEntry>() : git.files(toTree);
  const changes: FileChange[] = [];
  const removed = new Map<string, PathEntry>();
  const added: [string, PathEntry][] = [];
  for (const [path, before] of from) {
    const after = to.get(path);
    if (after === undefined) removed.set(path, before);
    else if (after.sha !== before.sha) changes.push({ status: 'modified', path, before, after });
    else if (after.mode !== before.mode) changes.push({ status: 'changed', path, before, after });
  }
  for (const [path, after] of to) if (!from.has(path)) added.push([path, after]);
  const removedBySha = new Map<string, string[]>();
  for (const [path, entry] of [...removed].sort(([a], [b]) => comparePaths(a, b))) {
    if (isFile(entry.mode)) removedBySha.set(entry.sha, [...(removedBySha.get(entry.sha) ?? []), path]);
  }
  for (const [path, after] of added) {
    const previousPath = isFile(after.mode) ? removedBySha.get(after.sha)?.shift() : undefined;
    if (previousPath === undefined) {
      changes.push({ status: 'added', path, after });
      continue;
    }
    changes.push({ status: 'renamed', path, previousPath, before: removed.get(previousPath) as PathEntry, after });
    removed.delete(previousPath);
  }
  for (const [path, before] of removed) changes.push({ status: 'removed', path, before });
  return changes.sort((a, b) => comparePaths(a.path, b.path));
}
