import { type FileStatus, treeChanges } from '../diff/tree-changes.ts';
import { currentBaseSha, currentHeadSha } from '../pulls/representations.ts';
import type { PullRequestRecord, RepoState } from '../repo-state.ts';
import type { EmulatedRepo } from '../world.ts';

/**
 * What the web pages show, read from the seed and the emulator's state: plain values, not yet escaped (the pages
 * escape them).
 */

/** A repository as a page names it. */
export interface RepoSummary {
  owner: string;
  name: string;
  private: boolean;
}

/** A pull request as the repository page lists it. */
export interface PullListItem {
  number: number;
  title: string;
  head: string;
  base: string;
  author: string;
  /** ISO 8601. */
  createdAt: string;
  draft: boolean;
}

/** The repository page: the repository and its open pull requests, newest first. */
export interface RepoPageView {
  repo: RepoSummary;
  description: string | null;
  defaultBranch: string;
  archived: boolean;
  fork: boolean;
  openPulls: PullListItem[];
}

/** A pull request's state as its page shows it: `merged` rather than `closed` once merged. */
export type PullPageState = 'open' | 'closed' | 'merged';

/** A path the pull request changes since the merge base, with GitHub's file `status` words (and a rename's old path). */
export interface ChangedFile {
  path: string;
  status: FileStatus;
  previousPath?: string;
}

/** The pull request page. */
export interface PullPageView {
  repo: RepoSummary;
  number: number;
  title: string;
  body: string | null;
  state: PullPageState;
  draft: boolean;
  head: string;
  base: string;
  author: string;
  /** ISO 8601. */
  createdAt: string;
  closedAt: string | null;
  mergedAt: string | null;
  mergedBy: string | null;
  /** The changed paths, by path, at most {@link MAX_LISTED_FILES}; undefined when the commits are not known. */
  files: ChangedFile[] | undefined;
  /** How many more paths changed than `files` lists. */
  filesNotListed: number;
}

/** The most changed files a pull request page lists. */
export const MAX_LISTED_FILES = 300;

function summaryOf(repo: EmulatedRepo): RepoSummary {
  return { owner: repo.owner, name: repo.name, private: repo.private };
}

/** The repository page of `repo` with `state` (its pull requests). */
export function repoPageView(repo: EmulatedRepo, state: RepoState): RepoPageView {
  const openPulls = state.pulls
    .filter((pr) => pr.state === 'open')
    .sort((a, b) => b.number - a.number)
    .map((pr) => ({
      number: pr.number,
      title: pr.title,
      head: pr.head,
      base: pr.base,
      author: pr.user.login,
      createdAt: pr.createdAt,
      draft: pr.draft,
    }));
  return {
    repo: summaryOf(repo),
    description: repo.description ?? null,
    defaultBranch: repo.defaultBranch,
    archived: repo.archived,
    fork: repo.fork,
    openPulls,
  };
}

/**
 * The files that differ between the merge base of base and head and the head, as the API's `changed_files` counts
 * them (an exact rename is one file); undefined when a commit is missing.
 */
function changedFiles(state: RepoState, pr: PullRequestRecord): ChangedFile[] | undefined {
  const { git } = state;
  const headSha = currentHeadSha(state, pr);
  const headTree = git.commit(headSha)?.tree;
  if (headTree === undefined) return undefined;
  const mergeBase = git.mergeBase(currentBaseSha(state, pr), headSha);
  const baseTree = mergeBase === undefined ? undefined : git.commit(mergeBase)?.tree;
  return treeChanges(git, baseTree, headTree).map(({ path, status, previousPath }) => ({
    path,
    status,
    ...(previousPath === undefined ? {} : { previousPath }),
  }));
}

/** The page of pull request `pr` of `repo`. */
export function pullPageView(repo: EmulatedRepo, state: RepoState, pr: PullRequestRecord): PullPageView {
  const files = changedFiles(state, pr);
  return {
    repo: summaryOf(repo),
    number: pr.number,
    title: pr.title,
    body: pr.body,
    state: pr.mergedAt !== null ? 'merged' : pr.state,
    draft: pr.draft,
    head: pr.head,
    base: pr.base,
    author: pr.user.login,
    createdAt: pr.createdAt,
    closedAt: pr.closedAt,
    mergedAt: pr.mergedAt,
    mergedBy: pr.mergedBy?.login ?? null,
    files: files?.slice(0, MAX_LISTED_FILES),
    filesNotListed: files === undefined ? 0 : Math.max(0, files.length - MAX_LISTED_FILES),
  };
}
