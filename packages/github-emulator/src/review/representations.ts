import type { DiffFile } from '../diff/changed-files.ts';
import { type FileContent, fileBytes, fileSize } from '../files.ts';
import type { GitCommit } from '../git/objects.ts';
import { objectNodeId, repoCommit } from '../git/representations.ts';
import type { Urls } from '../representations.ts';
import type { EmulatedRepo } from '../world.ts';

/**
 * Builders of what clients read to review changes: GitHub's `diff-entry` (https://docs.github.com/rest/pulls/pulls#list-pull-requests-files),
 * `commit` with `stats` and `files` (https://docs.github.com/rest/commits/commits#get-a-commit), `commit-comparison`
 * (https://docs.github.com/rest/commits/commits#compare-two-commits) and `blob`
 * (https://docs.github.com/rest/git/blobs#get-a-blob), with every field GitHub's OpenAPI description requires.
 */

const repoApi = (urls: Urls, repo: EmulatedRepo) => `${urls.apiBase}/repos/${repo.owner}/${repo.name}`;
const repoHtml = (urls: Urls, repo: EmulatedRepo) => `${urls.htmlBase}/${repo.owner}/${repo.name}`;
const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

/** The commits whose trees a file list compares: `after` (the head, or the commit), `before` (the merge base, or the parent). */
export interface ComparedCommits {
  before: string | undefined;
  after: string;
}

/**
 * GitHub's `diff-entry` of one changed file: `sha` the blob after the change (before it for a removed file; null for a
 * change of mode only, as GitHub answers), `status`, the line counts, `patch` (the hunks; left out for a binary file
 * or one without hunks, e.g. an exact rename), `previous_filename` of a rename, and `blob_url`, `raw_url` and
 * `contents_url` at the commit where the file is (`after`; `before` for a removed file).
 */
export function diffEntry(urls: Urls, repo: EmulatedRepo, file: DiffFile, commits: ComparedCommits) {
  const { change, diff } = file;
  const at = change.status === 'removed' ? (commits.before ?? commits.after) : commits.after;
  const path = encodePath(change.path);
  const sha = change.status === 'changed' ? null : (change.after ?? change.before)?.sha;
  return {
    sha: sha ?? null,
    filename: change.path,
    status: change.status,
    additions: diff.additions,
    deletions: diff.deletions,
    changes: diff.additions + diff.deletions,
    blob_url: `${repoHtml(urls, repo)}/blob/${at}/${path}`,
    raw_url: `${repoHtml(urls, repo)}/raw/${at}/${path}`,
    contents_url: `${repoApi(urls, repo)}/contents/${path}?ref=${at}`,
    ...(diff.hunks.length > 0 ? { patch: diff.hunks.join('\n') } : {}),
    ...(change.previousPath === undefined ? {} : { previous_filename: change.previousPath }),
  };
}

/**
 * GitHub's `commit` of `GET /commits/{ref}`: the commits API's commit object, `stats` (lines added and removed in
 * all of `allFiles`, and their sum) and `files` (the page of them to show), compared with the first parent.
 */
export function commitWithFiles(
  urls: Urls,
  repo: EmulatedRepo,
  commit: GitCommit,
  allFiles: readonly DiffFile[],
  page: readonly DiffFile[],
) {
  let additions = 0;
  let deletions = 0;
  for (const { diff } of allFiles) {
    additions += diff.additions;
    deletions += diff.deletions;
  }
  const commits = { before: commit.parents[0], after: commit.sha };
  return {
    ...repoCommit(urls, repo, commit),
    stats: { total: additions + deletions, additions, deletions },
    files: page.map((file) => diffEntry(urls, repo, file, commits)),
  };
}

/** How `head` relates to `base`: the same commit, only ahead, only behind, or both. */
export type ComparisonStatus = 'identical' | 'ahead' | 'behind' | 'diverged';

/** What a comparison shows (see {@link comparison}). */
export interface Comparison {
  /** `base` and `head` as the request wrote them. */
  baseName: string;
  headName: string;
  base: GitCommit;
  head: GitCommit;
  mergeBase: GitCommit;
  ahead: number;
  behind: number;
  /** The commits to list (a page of them, or the first 250). */
  commits: readonly GitCommit[];
  /** The files to list (from the merge base to the head; none on pages after the first). */
  files: readonly DiffFile[];
}

/**
 * GitHub's `commit-comparison` of `base...head`: `status`, `ahead_by`, `behind_by`, `total_commits` (= `ahead_by`),
 * the base and merge base commits, `commits` and `files`, and the URLs of the comparison (`permalink_url` by commit
 * ids).
 */
export function comparison(urls: Urls, repo: EmulatedRepo, shown: Comparison) {
  const api = repoApi(urls, repo);
  const html = repoHtml(urls, repo);
  const range = `${shown.baseName}...${shown.headName}`;
  const status: ComparisonStatus =
    shown.ahead === 0 && shown.behind === 0 ? 'identical' : shown.behind === 0 ? 'ahead' : shown.ahead === 0 ? 'behind' : 'diverged';
  const commits = { before: shown.mergeBase.sha, after: shown.head.sha };
  return {
    url: `${api}/compare/${range}`,
    html_url: `${html}/compare/${range}`,
    permalink_url: `${html}/compare/${repo.owner}:${shown.base.sha}...${repo.owner}:${shown.head.sha}`,
    diff_url: `${html}/compare/${range}.diff`,
    patch_url: `${html}/compare/${range}.patch`,
    base_commit: repoCommit(urls, repo, shown.base),
    merge_base_commit: repoCommit(urls, repo, shown.mergeBase),
    status,
    ahead_by: shown.ahead,
    behind_by: shown.behind,
    total_commits: shown.ahead,
    commits: shown.commits.map((commit) => repoCommit(urls, repo, commit)),
    files: shown.files.map((file) => diffEntry(urls, repo, file, commits)),
  };
}

/**
 * GitHub's `blob`: `content` the base64 of its bytes in lines of 60 characters each ending with `\n` (as GitHub sends
 * it), `encoding: "base64"`, `size` in bytes.
 */
export function blob(urls: Urls, repo: EmulatedRepo, found: { sha: string; content: FileContent }) {
  const base64 = fileBytes(found.content).toString('base64');
  return {
    sha: found.sha,
    node_id: objectNodeId('Blob', `${repo.id}:${found.sha}`),
    size: fileSize(found.content),
    url: `${repoApi(urls, repo)}/git/blobs/${found.sha}`,
    content: (base64.match(/.{1,60}/g) ?? []).map((line) => `${line}\n`).join(''),
    encoding: 'base64',
  };
}
