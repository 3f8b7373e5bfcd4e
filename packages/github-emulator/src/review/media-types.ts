import type { Request, Response } from 'express';
import { type DiffFile, diffFiles } from '../diff/changed-files.ts';
import { formatPatch, type PatchCommit } from '../diff/format-patch.ts';
import { unifiedDiff } from '../diff/unified-diff.ts';
import type { GitCommit } from '../git/objects.ts';
import { sendText } from '../github-http.ts';
import type { RepoState } from '../repo-state.ts';

/**
 * GitHub's diff and patch media types (https://docs.github.com/rest/using-the-rest-api/media-types#commits-commit-comparison-and-pull-requests):
 * `Accept: application/vnd.github.diff` (or `.v3.diff`) answers a pull request, a comparison or a commit as a
 * unified diff, `application/vnd.github.patch` as `git format-patch` mails.
 */

/** The two media types of a diff. */
export type DiffMediaType = 'diff' | 'patch';

const ACCEPT = /application\/vnd\.github(?:\.v3)?\.(diff|patch)\b/i;

/** The diff media type the request's `Accept` asks for, or undefined for JSON. */
export function diffMediaType(req: Request): DiffMediaType | undefined {
  const match = ACCEPT.exec(req.headers.accept ?? '');
  return match ? (match[1]?.toLowerCase() as DiffMediaType) : undefined;
}

/** Answers 200 with `text` as `application/vnd.github.<kind>; charset=utf-8` (conditional on its `ETag`, as JSON answers are). */
export function sendDiffText(res: Response, kind: DiffMediaType, text: string): void {
  res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
  sendText(res, 200, `application/vnd.github.${kind}; charset=utf-8`, text);
}

/** The files `commit` changes from its first parent (every file of a root commit). */
export function commitFiles(state: RepoState, commit: GitCommit): DiffFile[] {
  const parent = commit.parents[0];
  const parentTree = parent === undefined ? undefined : state.git.commit(parent)?.tree;
  return diffFiles(state.git, state.diffs, parentTree, commit.tree);
}

/** The `format-patch` mails of `commits`, each against its first parent. */
export function commitsPatch(state: RepoState, commits: readonly GitCommit[]): string {
  return formatPatch(commits.map((commit): PatchCommit => ({ commit, files: commitFiles(state, commit) })));
}

/** What `kind` shows of a range: the diff of `files`, or the patches of `commits`. */
export function rangeText(state: RepoState, kind: DiffMediaType, files: readonly DiffFile[], commits: readonly GitCommit[]): string {
  return kind === 'diff' ? unifiedDiff(files) : commitsPatch(state, commits);
}
