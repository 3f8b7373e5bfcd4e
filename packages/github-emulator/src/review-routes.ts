import type { Express, Request, RequestHandler } from 'express';
import { diffFiles } from './diff/changed-files.ts';
import { fileSize, sendRawFile } from './files.ts';
import { aheadBehind, commitsBetween } from './git/history.ts';
import type { GitCommit } from './git/objects.ts';
import type { GitRepository } from './git/repository-store.ts';
import { repoCommit } from './git/representations.ts';
import { refuseEmptyRepository } from './git-routes.ts';
import { GitHubApiError, notFound, queryValue } from './github-http.ts';
import { pageOf, paginate } from './pagination.ts';
import { pullOf } from './pull-routes.ts';
import { pullDiff } from './pulls/pull-diff.ts';
import { currentBaseSha, currentHeadSha } from './pulls/representations.ts';
import { slashedParam } from './request-body.ts';
import { commitFiles, diffMediaType, rangeText, sendDiffText } from './review/media-types.ts';
import { blob, commitWithFiles, comparison, diffEntry } from './review/representations.ts';
import { type RouteContext, repoAccess, sendOne, sendPage, urlsOf } from './route-helpers.ts';

/** `documentation_url`s of the endpoints clients review changes with. */
export const REVIEW_DOCS = {
  pullFiles: 'https://docs.github.com/rest/pulls/pulls#list-pull-requests-files',
  pullCommits: 'https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request',
  compare: 'https://docs.github.com/rest/commits/commits#compare-two-commits',
  getCommit: 'https://docs.github.com/rest/commits/commits#get-a-commit',
  getBlob: 'https://docs.github.com/rest/git/blobs#get-a-blob',
} as const;

/** GitHub lists at most 3,000 files of a pull request or commit, 250 commits of a pull request or comparison, 300 files of a comparison. */
const MAX_FILES = 3_000;
const MAX_COMMITS = 250;
const MAX_COMPARE_FILES = 300;
/** A commit's files come 300 a page (https://docs.github.com/rest/commits/commits#get-a-commit). */
const COMMIT_FILE_PAGES = { perPage: 300, maxPerPage: 300 };
/** The blob API serves blobs up to 100 MB. */
const MAX_BLOB_BYTES = 100 * 1024 * 1024;
const rawAccept = /application\/vnd\.github(?:\.v3)?\.raw/i;

/**
 * The commit a compare side or a `{ref}` names: a branch, a tag, a full or abbreviated commit id, or `owner:ref` with
 * the repository's owner (another owner's fork is not there: undefined).
 */
function commitNamed(git: GitRepository, owner: string, name: string): GitCommit | undefined {
  const colon = name.indexOf(':');
  if (colon !== -1 && name.slice(0, colon).toLowerCase() !== owner.toLowerCase()) return undefined;
  const ref = colon === -1 ? name : name.slice(colon + 1);
  const sha = git.resolve(ref) ?? git.commitByPrefix(ref);
  return sha === undefined ? undefined : git.commit(sha);
}

/** True when the request names a page (`page` or `per_page`), which makes a comparison list its commits page by page. */
const paged = (req: Request) => queryValue(req, 'page') !== undefined || queryValue(req, 'per_page') !== undefined;

/**
 * Mounts what clients read to review changes, under `/repos/{owner}/{repo}` (read access; 404 for a repository the
 * token cannot see), all computed from the emulator's git objects:
 * - `GET /pulls/{n}/files`: the pull request's files (`diff-entry`, from the merge base to the head), paginated, at most 3,000;
 * - `GET /pulls/{n}/commits`: its commits (`base..head`, oldest first), paginated, at most 250;
 * - `GET /compare/{base}...{head}`: `commit-comparison` (`status`, `ahead_by`, `behind_by`, `total_commits`, the
 *   commits, at most 250 or page by page when `page`/`per_page` is given, and the files, at most 300, on the first page
 *   only); 404 for a side that names nothing and for unrelated histories (`No common ancestor between …`);
 * - `GET /commits/{ref}`: the commit with `stats` and `files` against its first parent (300 files a page); 422 `No
 *   commit found for SHA: …` when `ref` names none;
 * - `GET /git/blobs/{sha}`: `blob` (base64), or its bytes with the raw media type; 403 over 100 MB; 409 `Git Repository
 *   is empty.` on a repository without any commit (`refuseEmptyRepository`).
 *
 * The compare and commit endpoints answer `application/vnd.github.diff` and `.patch` too (`review/media-types.ts`;
 * `GET /pulls/{n}` does in `pull-routes.ts`). Mount after the status and check-run routes (`/commits/{ref}/status`).
 */
export function mountReviewRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const base = '/repos/:owner/:repo';

  // https://docs.github.com/rest/pulls/pulls#list-pull-requests-files
  app.get(`${base}/pulls/:number/files`, auth, (req, res) => {
    const docs = REVIEW_DOCS.pullFiles;
    const access = repoAccess(req, res, context, 'read', docs);
    const pr = pullOf(req, access, docs);
    const headSha = currentHeadSha(access.state, pr);
    const changes = pullDiff(access.state, currentBaseSha(access.state, pr), headSha);
    const urls = urlsOf(req, context);
    const commits = { before: changes.mergeBase, after: headSha };
    sendPage(req, res, changes.files.slice(0, MAX_FILES), (file) => diffEntry(urls, access.repo, file, commits));
  });

  // https://docs.github.com/rest/pulls/pulls#list-commits-on-a-pull-request
  app.get(`${base}/pulls/:number/commits`, auth, (req, res) => {
    const docs = REVIEW_DOCS.pullCommits;
    const access = repoAccess(req, res, context, 'read', docs);
    const pr = pullOf(req, access, docs);
    const commits = commitsBetween(access.state.git, currentBaseSha(access.state, pr), currentHeadSha(access.state, pr));
    const urls = urlsOf(req, context);
    sendPage(req, res, commits.slice(0, MAX_COMMITS), (commit) => repoCommit(urls, access.repo, commit));
  });

  // https://docs.github.com/rest/commits/commits#compare-two-commits
  app.get(`${base}/compare/*basehead`, auth, (req, res) => {
    const docs = REVIEW_DOCS.compare;
    const access = repoAccess(req, res, context, 'read', docs);
    const { git } = access.state;
    const basehead = slashedParam(req, 'basehead');
    const dots = basehead.indexOf('...');
    if (dots <= 0 || dots + 3 >= basehead.length) throw notFound(docs);
    const baseName = basehead.slice(0, dots);
    const headName = basehead.slice(dots + 3);
    const baseCommit = commitNamed(git, access.repo.owner, baseName);
    const headCommit = commitNamed(git, access.repo.owner, headName);
    if (!baseCommit || !headCommit) throw notFound(docs);
    const mergeBaseSha = git.mergeBase(baseCommit.sha, headCommit.sha);
    const mergeBase = mergeBaseSha === undefined ? undefined : git.commit(mergeBaseSha);
    if (!mergeBase) throw new GitHubApiError(404, `No common ancestor between ${baseName} and ${headName}.`, docs);
    const commits = commitsBetween(git, baseCommit.sha, headCommit.sha);
    const kind = diffMediaType(req);
    const files = () => diffFiles(git, access.state.diffs, mergeBase.tree, headCommit.tree);
    if (kind) {
      sendDiffText(res, kind, rangeText(access.state, kind, kind === 'diff' ? files() : [], commits));
      return;
    }
    let shownCommits = commits.slice(0, MAX_COMMITS);
    let firstPage = true;
    if (paged(req)) {
      const page = paginate(req, commits);
      if (page.link) res.setHeader('link', page.link);
      shownCommits = page.items;
      firstPage = pageOf(req).page === 1;
    }
    const { ahead, behind } = aheadBehind(git, baseCommit.sha, headCommit.sha);
    sendOne(
      res,
      comparison(urlsOf(req, context), access.repo, {
        baseName,
        headName,
        base: baseCommit,
        head: headCommit,
        mergeBase,
        ahead,
        behind,
        commits: shownCommits,
        files: firstPage ? files().slice(0, MAX_COMPARE_FILES) : [],
      }),
    );
  });

  // https://docs.github.com/rest/commits/commits#get-a-commit
  app.get(`${base}/commits/*ref`, auth, (req, res) => {
    const docs = REVIEW_DOCS.getCommit;
    const access = repoAccess(req, res, context, 'read', docs);
    const ref = slashedParam(req, 'ref');
    const commit = commitNamed(access.state.git, access.repo.owner, ref);
    if (!commit) throw new GitHubApiError(422, `No commit found for SHA: ${ref}`, docs);
    const kind = diffMediaType(req);
    const files = commitFiles(access.state, commit);
    if (kind) {
      sendDiffText(res, kind, rangeText(access.state, kind, files, [commit]));
      return;
    }
    const page = paginate(req, files.slice(0, MAX_FILES), COMMIT_FILE_PAGES);
    if (page.link) res.setHeader('link', page.link);
    sendOne(res, commitWithFiles(urlsOf(req, context), access.repo, commit, files, page.items));
  });

  // https://docs.github.com/rest/git/blobs#get-a-blob
  app.get(`${base}/git/blobs/:sha`, auth, (req, res) => {
    const docs = REVIEW_DOCS.getBlob;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseEmptyRepository(access.state.git, docs);
    const found = access.state.git.blob(String(req.params.sha).toLowerCase());
    if (!found) throw notFound(docs);
    if (rawAccept.test(req.headers.accept ?? '')) {
      res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
      sendRawFile(res, found.content);
      return;
    }
    if (fileSize(found.content) > MAX_BLOB_BYTES) {
      throw new GitHubApiError(
        403,
        'This API returns blobs up to 100 MB in size. The requested blob is too large to fetch via the API.',
        docs,
        {
          errors: [{ resource: 'Blob', field: 'data', code: 'too_large' }],
        },
      );
    }
    sendOne(res, blob(urlsOf(req, context), access.repo, found));
  });
}
