import { type EmulatorState, nextIssueNumber, type PullRequestRecord, type RepoState } from '../repo-state.ts';
import type { EmulatedUser } from '../world.ts';

/**
 * What opening a pull request from branch `head` into branch `base` of one repository finds (the rules both
 * `POST /repos/{owner}/{repo}/pulls` and GraphQL's `createPullRequest` apply, each answering in its own words): the
 * branches' heads (undefined when the name is no branch: `head` undefined is a head of another owner, no forks here),
 * whether the head has no commit the base lacks (`noCommits`, also when either is missing), and whether an open pull
 * request of that head into that base exists.
 */
export interface PullRequestCheck {
  headSha: string | undefined;
  baseSha: string | undefined;
  noCommits: boolean;
  exists: boolean;
}

/** The {@link PullRequestCheck} of a pull request from `head` into `base` in `state`. */
export function checkPullRequest(state: RepoState, head: string | undefined, base: string): PullRequestCheck {
  const { git } = state;
  const headSha = head === undefined ? undefined : git.branch(head);
  const baseSha = git.branch(base);
  const noCommits = headSha === undefined || baseSha === undefined || git.isAncestor(headSha, baseSha);
  const exists = state.pulls.some((pr) => pr.state === 'open' && pr.head === head && pr.base === base);
  return { headSha, baseSha, noCommits, exists };
}

/** A pull request to open, its branches checked ({@link checkPullRequest}) and their heads known. */
export interface PullRequestOpening {
  title: string;
  body: string | null;
  draft: boolean;
  head: string;
  base: string;
  headSha: string;
  baseSha: string;
}

/**
 * Opens a pull request in `state` (of a repository of `emulator`'s world) by `user`: the next issue number of the
 * repository, new ids, now as its creation and update time; appends it to the repository's pull requests and returns it.
 * Sends nothing: the caller sends the `pull_request` `opened` webhook.
 */
export function openPullRequest(
  emulator: EmulatorState,
  state: RepoState,
  user: EmulatedUser,
  opening: PullRequestOpening,
): PullRequestRecord {
  const now = emulator.timestamp();
  const pr: PullRequestRecord = {
    ...emulator.nextObject('PullRequest'),
    number: nextIssueNumber(state),
    title: opening.title,
    body: opening.body,
    state: 'open',
    draft: opening.draft,
    head: opening.head,
    base: opening.base,
    headSha: opening.headSha,
    baseSha: opening.baseSha,
    user,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    mergedAt: null,
    mergedBy: null,
    mergeCommitSha: null,
    comments: 0,
    closedBy: null,
    assignees: [],
    requestedReviewers: [],
    milestone: null,
  };
  state.pulls.push(pr);
  return pr;
}
