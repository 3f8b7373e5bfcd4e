import { type DiffFile, diffFiles } from '../diff/changed-files.ts';
import { commitsBetween } from '../git/history.ts';
import type { GitCommit } from '../git/objects.ts';
import type { RepoState } from '../repo-state.ts';

/**
 * What a pull request changes, as GitHub shows it (https://docs.github.com/rest/pulls/pulls#list-pull-requests-files):
 * its commits (on the head, not on the base: git's `base..head`, oldest first) and its files (from the merge base of
 * base and head to the head: git's `base...head`).
 */
export interface PullDiff {
  /** The nearest common ancestor of base and head; undefined for unrelated histories (every head file is then added). */
  mergeBase: string | undefined;
  commits: GitCommit[];
  files: DiffFile[];
}

/** The {@link PullDiff} of head commit `headSha` against base commit `baseSha` (both commits of `state.git`). */
export function pullDiff(state: RepoState, baseSha: string, headSha: string): PullDiff {
  const { git } = state;
  const mergeBase = git.mergeBase(baseSha, headSha);
  const baseTree = mergeBase === undefined ? undefined : git.commit(mergeBase)?.tree;
  const headTree = git.commit(headSha)?.tree;
  return {
    mergeBase,
    commits: commitsBetween(git, baseSha, headSha),
    files: headTree === undefined ? [] : diffFiles(git, state.diffs, baseTree, headTree),
  };
}
