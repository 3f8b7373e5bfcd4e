import type { GitSignature } from '../git/objects.ts';
import type { GitRepository } from '../git/repository-store.ts';

/**
 * Whether a pull request's head can be merged into its base, by a simple rule instead of a real three-way merge:
 * it merges cleanly unless a path changed on the base since the merge base (the nearest common ancestor) was also
 * changed, differently, on the head. `mergeable_state` as GitHub names it:
 * - `clean`: the base has not moved since the merge base (the head contains the base's head);
 * - `behind`: the base moved, but none of its changed paths were changed differently on the head (mergeable);
 * - `dirty`: some path changed on both sides differently, or the histories are unrelated (not mergeable).
 */
export interface Mergeability {
  mergeable: boolean;
  state: 'clean' | 'behind' | 'dirty';
  /** The nearest common ancestor of base and head, or undefined for unrelated histories. */
  mergeBase: string | undefined;
}

/** The {@link Mergeability} of `headSha` into `baseSha` (both commits of `git`). */
export function mergeabilityOf(git: GitRepository, baseSha: string, headSha: string): Mergeability {
  const mergeBase = git.mergeBase(baseSha, headSha);
  if (mergeBase === undefined) return { mergeable: false, state: 'dirty', mergeBase };
  if (mergeBase === baseSha) return { mergeable: true, state: 'clean', mergeBase };
  const baseTree = treeOf(git, mergeBase);
  const onBase = new Map(git.diff(baseTree, treeOf(git, baseSha)).map((change) => [change.path, change.entry?.sha ?? null]));
  const conflict = git.diff(baseTree, treeOf(git, headSha)).some((change) => {
    if (!onBase.has(change.path)) return false;
    return onBase.get(change.path) !== (change.entry?.sha ?? null);
  });
  return conflict ? { mergeable: false, state: 'dirty', mergeBase } : { mergeable: true, state: 'behind', mergeBase };
}

function treeOf(git: GitRepository, commitSha: string): string {
  const commit = git.commit(commitSha);
  if (!commit) throw new Error(`commit ${commitSha} is missing`);
  return commit.tree;
}

/** The tree of merging `theirs` into `ours` (merge base `mergeBase`): `ours`'s tree with `theirs`'s changes since the base. */
export function mergedTree(git: GitRepository, mergeBase: string, ours: string, theirs: string): string {
  const changes = git.diff(treeOf(git, mergeBase), treeOf(git, theirs));
  return git.applyChanges(treeOf(git, ours), changes).sha;
}

/** The commits of `head` since `mergeBase` along first parents, oldest first (what a rebase merge replays). */
export function commitsSince(git: GitRepository, mergeBase: string, head: string): string[] {
  const out: string[] = [];
  const reachable = git.ancestors(mergeBase);
  for (let at: string | undefined = head; at !== undefined && !reachable.has(at); at = git.commit(at)?.parents[0]) out.push(at);
  return out.reverse();
}

/** How a pull request is merged (https://docs.github.com/rest/pulls/pulls#merge-a-pull-request). */
export type MergeMethod = 'merge' | 'squash' | 'rebase';

/** What {@link mergeCommits} needs: the branch heads, their merge base, the method, messages and the committer. */
export interface MergePlan {
  method: MergeMethod;
  baseSha: string;
  headSha: string;
  mergeBase: string;
  /** The merge or squash commit's message. */
  message: string;
  committer: GitSignature;
}

/**
 * Writes the commits of a merge and returns the new head of the base branch: `merge` one commit with parents
 * (base, head); `squash` one commit with parent base holding the merged tree; `rebase` each head commit since the
 * merge base replayed on the base (its own changes applied, its author kept, `committer` as committer).
 */
export function mergeCommits(git: GitRepository, plan: MergePlan): string {
  const tree = mergedTree(git, plan.mergeBase, plan.baseSha, plan.headSha);
  const author = plan.committer;
  if (plan.method === 'merge') {
    return git.putCommit({ tree, parents: [plan.baseSha, plan.headSha], author, committer: plan.committer, message: plan.message }).sha;
  }
  if (plan.method === 'squash') {
    return git.putCommit({ tree, parents: [plan.baseSha], author, committer: plan.committer, message: plan.message }).sha;
  }
  let tip = plan.baseSha;
  for (const sha of commitsSince(git, plan.mergeBase, plan.headSha)) {
    const commit = git.commit(sha);
    if (!commit) continue;
    const parent = commit.parents[0];
    const changes = git.diff(parent === undefined ? undefined : treeOf(git, parent), commit.tree);
    const next = git.applyChanges(treeOf(git, tip), changes).sha;
    tip = git.putCommit({ tree: next, parents: [tip], author: commit.author, committer: plan.committer, message: commit.message }).sha;
  }
  return tip;
}
