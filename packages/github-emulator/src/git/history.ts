import type { GitCommit } from './objects.ts';
import type { GitRepository } from './repository-store.ts';

/**
 * Walks of a repository's commit graph as git's revision ranges read it (https://git-scm.com/docs/gitrevisions):
 * what a pull request, a comparison or a `.patch` lists.
 */

/**
 * The commits reachable from `head` but not from `base` (git's `base..head`; every commit of `head` when `base` is
 * undefined), oldest first: a commit always after its parents, and among commits whose parents are listed, the one
 * committed earliest first (ties by id), as `git rev-list --reverse --topo-order` lists a linear history.
 */
export function commitsBetween(git: GitRepository, base: string | undefined, head: string): GitCommit[] {
  const excluded = base === undefined ? new Set<string>() : git.ancestors(base);
  const included = new Map<string, GitCommit>();
  const stack = [head];
  while (stack.length > 0) {
    const sha = stack.pop() as string;
    if (included.has(sha) || excluded.has(sha)) continue;
    const commit = git.commit(sha);
    if (!commit) continue;
    included.set(sha, commit);
    stack.push(...commit.parents);
  }
  const waiting = new Map<string, number>();
  const children = new Map<string, string[]>();
  for (const commit of included.values()) {
    const parents = [...new Set(commit.parents)].filter((parent) => included.has(parent));
    waiting.set(commit.sha, parents.length);
    for (const parent of parents) children.set(parent, [...(children.get(parent) ?? []), commit.sha]);
  }
  const earlier = (a: GitCommit, b: GitCommit) => Date.parse(a.committer.date) - Date.parse(b.committer.date) || (a.sha < b.sha ? -1 : 1);
  const ready = [...included.values()].filter((commit) => waiting.get(commit.sha) === 0);
  const out: GitCommit[] = [];
  while (ready.length > 0) {
    ready.sort(earlier);
    const next = ready.shift() as GitCommit;
    out.push(next);
    for (const child of children.get(next.sha) ?? []) {
      const left = (waiting.get(child) ?? 1) - 1;
      waiting.set(child, left);
      if (left === 0) ready.push(included.get(child) as GitCommit);
    }
  }
  return out;
}

/**
 * How far `head` is ahead of and behind `base`: the counts of commits reachable from one and not the other (git's
 * `rev-list --left-right --count base...head`).
 */
export function aheadBehind(git: GitRepository, base: string, head: string): { ahead: number; behind: number } {
  const ofBase = git.ancestors(base);
  const ofHead = git.ancestors(head);
  let ahead = 0;
  for (const sha of ofHead) if (!ofBase.has(sha)) ahead += 1;
  let behind = 0;
  for (const sha of ofBase) if (!ofHead.has(sha)) behind += 1;
  return { ahead, behind };
}
