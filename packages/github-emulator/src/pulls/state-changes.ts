import { GitHubApiError } from '../github-http.ts';
import type { PullRequestRecord, RepoState } from '../repo-state.ts';
import type { EmulatedUser } from '../world.ts';
import { currentBaseSha, currentHeadSha } from './representations.ts';

/**
 * Opening and closing a pull request, shared by `PATCH /pulls/{n}` (https://docs.github.com/rest/pulls/pulls#update-a-pull-request)
 * and `PATCH /issues/{n}` on a pull request's number (https://docs.github.com/rest/issues/issues#update-an-issue).
 */

/** 422 `Validation Failed` with one error object about a pull request (GitHub's `validation-error`). */
export function pullValidation(docs: string, error: { field?: string; code: string; message?: string }): GitHubApiError {
  return new GitHubApiError(422, 'Validation Failed', docs, { errors: [{ resource: 'PullRequest', ...error }] });
}

/** Closes an open pull request unmerged at `now`, by `user`, keeping the head and base commits it had. */
export function closePull(state: RepoState, pr: PullRequestRecord, user: EmulatedUser, now: string): void {
  currentHeadSha(state, pr);
  currentBaseSha(state, pr);
  pr.state = 'closed';
  pr.closedAt = now;
  pr.closedBy = user;
}

/**
 * Reopens a closed pull request.
 * @throws GitHubApiError 422 `Validation Failed` when it was merged (`Cannot reopen a merged pull request`) or its head
 *   branch is gone (`state cannot be changed. The head branch was deleted.`), as GitHub answers
 */
export function reopenPull(state: RepoState, pr: PullRequestRecord, docs: string): void {
  if (pr.mergedAt !== null) throw pullValidation(docs, { code: 'custom', message: 'Cannot reopen a merged pull request' });
  if (state.git.branch(pr.head) === undefined) {
    throw pullValidation(docs, { field: 'state', code: 'invalid', message: 'state cannot be changed. The head branch was deleted.' });
  }
  pr.state = 'open';
  pr.closedAt = null;
  pr.closedBy = null;
}
