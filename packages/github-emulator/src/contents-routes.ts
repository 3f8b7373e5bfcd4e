import type { Express, Request, RequestHandler } from 'express';
import type { GitCommit } from './git/objects.ts';
import type { TreeChange } from './git/repository-store.ts';
import { gitCommit } from './git/representations.ts';
import { MAX_BLOB_BYTES, notifyPush, signatureFrom, userSignature } from './git-routes.ts';
import { GitHubApiError, notFound, sendJson } from './github-http.ts';
import { directoryEntry } from './representations.ts';
import { bodyOf, invalidRequest, optionalString, requiredString } from './request-body.ts';
import { type RepoAccess, type RouteContext, repoAccess, urlsOf, userOf } from './route-helpers.ts';

/** `documentation_url`s of the file write endpoints. */
export const CONTENTS_DOCS = {
  put: 'https://docs.github.com/rest/repos/contents#create-or-update-file-contents',
  delete: 'https://docs.github.com/rest/repos/contents#delete-a-file',
} as const;

/**
 * The file path of `/contents/{path}`, slashes at either end dropped.
 * @throws GitHubApiError 404 when empty; 422 `path contains a malformed path component` for an empty, `.`, `..` or
 *   `.git` component
 */
function filePathOf(req: Request, docs: string): string {
  const segments = (req.params as { path?: string[] | string }).path ?? [];
  const path = (Array.isArray(segments) ? segments.join('/') : segments).replace(/^\/+|\/+$/g, '');
  if (path === '') throw notFound(docs);
  if (path.split('/').some((part) => part === '' || part === '.' || part === '..' || part === '.git')) {
    throw new GitHubApiError(422, 'path contains a malformed path component', docs);
  }
  return path;
}

/**
 * The head commit of the branch a file write goes to (undefined: the repository is empty and it is the default
 * branch, which the write then creates, as GitHub does).
 * @throws GitHubApiError 404 `Branch <name> not found`
 */
function branchHead(access: RepoAccess, branch: string, docs: string): GitCommit | undefined {
  const { git } = access.state;
  const sha = git.branch(branch);
  const commit = sha === undefined ? undefined : git.commit(sha);
  if (commit) return commit;
  if (git.isEmpty() && branch === access.repo.defaultBranch) return undefined;
  throw new GitHubApiError(404, `Branch ${branch} not found`, docs);
}

/**
 * Commits `change` on top of `head` (none: a root commit) on `branch`, moves the branch, and sends the `push` webhook
 * (and `pull_request` `synchronize` for open pull requests whose head it is) as a git push does. The committer is the
 * body's `committer` or the caller, the author the body's `author` or the committer, as GitHub fills them in.
 */
function commitChange(
  req: Request,
  res: Parameters<RequestHandler>[1],
  context: RouteContext,
  access: RepoAccess,
  commit: { branch: string; head: GitCommit | undefined; change: TreeChange; message: string; body: Record<string, unknown> },
  docs: string,
): GitCommit {
  const { git } = access.state;
  const committer = signatureFrom(commit.body.committer, userSignature(userOf(res), context.state.now()), 'committer', docs);
  const author = signatureFrom(commit.body.author, committer, 'author', docs);
  const tree = git.applyChanges(commit.head?.tree, [commit.change]);
  const made = git.putCommit({
    tree: tree.sha,
    parents: commit.head ? [commit.head.sha] : [],
    author,
    committer,
    message: commit.message,
  });
  const ref = `refs/heads/${commit.branch}`;
  git.setRef(ref, made.sha);
  notifyPush(req, res, context, access, ref, commit.head?.sha, made.sha);
  return made;
}

/**
 * Mounts GitHub's file write endpoints under `/repos/{owner}/{repo}` (https://docs.github.com/rest/repos/contents):
 * `PUT /contents/{path}` (create or update one file: `message`, `content` in Base64, `sha` of the blob it replaces,
 * `branch` (default: the default branch), `committer`, `author`) → 201 when created, 200 when updated, and
 * `DELETE /contents/{path}` (`message`, `sha`, `branch`, `committer`, `author`) → 200; both answer GitHub's
 * `file-commit` (`{content, commit}`; `content` null after a delete). Each makes one commit on the branch and sends
 * a `push` webhook listing the path it added, modified or removed. Needs write access (403), as GitHub's `contents`
 * write. Errors as GitHub's: 422 `Invalid request.` for a missing field (`"sha" wasn't supplied.` for an existing
 * file without `sha`), 409 `<path> does not match <sha>` for a stale `sha`, 404 `Branch <name> not found`, 404 when
 * the file to delete is not there.
 */
export function mountContentsRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const path = '/repos/:owner/:repo/contents{/*path}';

  // https://docs.github.com/rest/repos/contents#create-or-update-file-contents
  app.put(path, auth, (req, res) => {
    const docs = CONTENTS_DOCS.put;
    const access = repoAccess(req, res, context, 'write', docs);
    const filePath = filePathOf(req, docs);
    const body = bodyOf(req, docs);
    const message = requiredString(body, 'message', docs);
    const content = requiredString(body, 'content', docs);
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(content)) throw invalidRequest('content is not valid Base64', docs);
    const bytes = Buffer.from(content, 'base64');
    if (bytes.length > MAX_BLOB_BYTES) throw new GitHubApiError(422, 'content is over the 100 MB limit', docs);
    const sha = optionalString(body, 'sha', docs)?.toLowerCase();
    const branch = optionalString(body, 'branch', docs) ?? access.repo.defaultBranch;
    const head = branchHead(access, branch, docs);
    const { git } = access.state;
    const existing = head === undefined ? undefined : git.entryAt(head.tree, filePath);
    if (existing) {
      if (sha === undefined) throw invalidRequest(`"sha" wasn't supplied.`, docs);
      if (sha !== existing.sha) throw new GitHubApiError(409, `${filePath} does not match ${sha}`, docs);
    }
    const blob = git.putBlob(bytes);
    const mode = existing?.type === 'blob' ? existing.mode : '100644';
    const commit = commitChange(
      req,
      res,
      context,
      access,
      { branch, head, change: { path: filePath, entry: { mode, type: 'blob', sha: blob.sha } }, message, body },
      docs,
    );
    const urls = urlsOf(req, context);
    sendJson(res, existing ? 200 : 201, {
      content: directoryEntry(urls, access.repo, branch, filePath, { kind: 'file', blob }),
      commit: gitCommit(urls, access.repo, commit),
    });
  });

  // https://docs.github.com/rest/repos/contents#delete-a-file
  app.delete(path, auth, (req, res) => {
    const docs = CONTENTS_DOCS.delete;
    const access = repoAccess(req, res, context, 'write', docs);
    const filePath = filePathOf(req, docs);
    const body = bodyOf(req, docs);
    const message = requiredString(body, 'message', docs);
    const sha = requiredString(body, 'sha', docs).toLowerCase();
    const branch = optionalString(body, 'branch', docs) ?? access.repo.defaultBranch;
    const head = branchHead(access, branch, docs);
    const existing = head === undefined ? undefined : access.state.git.entryAt(head.tree, filePath);
    if (existing?.type !== 'blob') throw notFound(docs);
    if (sha !== existing.sha) throw new GitHubApiError(409, `${filePath} does not match ${sha}`, docs);
    const commit = commitChange(req, res, context, access, { branch, head, change: { path: filePath, entry: null }, message, body }, docs);
    sendJson(res, 200, { content: null, commit: gitCommit(urlsOf(req, context), access.repo, commit) });
  });
}
