import type { Express, Request, RequestHandler, Response } from 'express';
import { forcedUpdate, signatureEmail } from './forced-updates.ts';
import { type GitSignature, gitDate, TREE_MODES, type TreeEntryType, type TreeMode } from './git/objects.ts';
import type { GitRepository, TreeChange } from './git/repository-store.ts';
import { branchWithProtection, gitCommit, gitRef, gitTree, shortBlob, shortBranch } from './git/representations.ts';
import { GitHubApiError, notFound, queryValue, sendJson } from './github-http.ts';
import { sendRepositoryEvent } from './repository-webhooks.ts';
import { bodyOf, invalidRequest, optionalBoolean, optionalString, requiredString, slashedParam } from './request-body.ts';
import { type RepoAccess, type RouteContext, repoAccess, sendOne, sendPage, urlsOf, userOf } from './route-helpers.ts';
import { pullRequestPayload, pushPayload } from './webhook-payloads.ts';
import type { EmulatedUser } from './world.ts';

/** `documentation_url`s of the git data and branches endpoints. */
export const GIT_DOCS = {
  getRef: 'https://docs.github.com/rest/git/refs#get-a-reference',
  matchingRefs: 'https://docs.github.com/rest/git/refs#list-matching-references',
  createRef: 'https://docs.github.com/rest/git/refs#create-a-reference',
  updateRef: 'https://docs.github.com/rest/git/refs#update-a-reference',
  deleteRef: 'https://docs.github.com/rest/git/refs#delete-a-reference',
  createBlob: 'https://docs.github.com/rest/git/blobs#create-a-blob',
  createTree: 'https://docs.github.com/rest/git/trees#create-a-tree',
  getTree: 'https://docs.github.com/rest/git/trees#get-a-tree',
  createCommit: 'https://docs.github.com/rest/git/commits#create-a-commit',
  getCommit: 'https://docs.github.com/rest/git/commits#get-a-commit-object',
  getBranch: 'https://docs.github.com/rest/branches/branches#get-a-branch',
  listBranches: 'https://docs.github.com/rest/branches/branches#list-branches',
} as const;

const SHA = /^[0-9a-f]{40}$/;
/** The most bytes of one blob GitHub's API takes (100 MB). */
export const MAX_BLOB_BYTES = 100 * 1024 * 1024;

/**
 * A git signature for a commit made through the API: the body's `author`/`committer` object (`name` and `email`
 * required, `date` optional, else `fallback`'s), or `fallback` when the field is absent.
 * @throws GitHubApiError 422 `Invalid request.` when it is not an object, lacks a name or an email, or has a bad date
 */
export function signatureFrom(value: unknown, fallback: GitSignature, field: string, docs: string): GitSignature {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalidRequest(`For 'properties/${field}', ${JSON.stringify(value)} is not an object.`, docs);
  const { name, email, date } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof email !== 'string') throw invalidRequest(`"${field}" needs a name and an email.`, docs);
  if (date !== undefined && (typeof date !== 'string' || Number.isNaN(Date.parse(date)))) {
    throw invalidRequest(`For 'properties/${field}/date', ${JSON.stringify(date)} is not a date-time.`, docs);
  }
  return { name, email, date: typeof date === 'string' ? gitDate(Date.parse(date)) : fallback.date };
}

/** The caller as a git signature, dated now. */
export function userSignature(user: EmulatedUser, now: number): GitSignature {
  return { name: user.name ?? user.login, email: signatureEmail(user), date: gitDate(now) };
}

/** A full branch ref from the `{ref}` of `/git/refs/{ref}` (`heads/x`, also `refs/heads/x`). */
function fullRef(ref: string): string {
  return ref.startsWith('refs/') ? ref : `refs/${ref}`;
}

/** A valid ref name per git's rules, loosely (https://git-scm.com/docs/git-check-ref-format): `refs/<kind>/<name>`. */
export function validRefName(name: string): boolean {
  if (!/^refs\/[^/]+\/./.test(name)) return false;
  if ([...name].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f || '~^:?*[\\'.includes(c))) return false;
  return !/(^|\/)\.|\.\.|@\{|\/\/|\/$|\.lock(\/|$)|\.$/.test(name);
}

/** GitHub's message for the Git Database API on a repository without any commit. */
export const EMPTY_REPOSITORY_MESSAGE = 'Git Repository is empty.';

/**
 * Refuses a Git Database API request (`/repos/{owner}/{repo}/git/…`) on a repository without any commit (no ref at all),
 * as GitHub does: "Git Database API functions will return a 409 Conflict if the Git repository is empty or
 * unavailable" (https://docs.github.com/rest/guides/using-the-rest-api-to-interact-with-your-git-database), with the
 * body `{"message":"Git Repository is empty.","documentation_url":"<docs>","status":"409"}`. Called once the caller's
 * access is checked (a repository the token cannot see stays a 404, a write without push access a 403) and before the
 * request's body is read. The branches and contents endpoints are not part of that API: GitHub answers them 404
 * (`Branch not found`, `This repository is empty.`).
 * @throws GitHubApiError 409 `Git Repository is empty.` when `git` has no ref
 */
export function refuseEmptyRepository(git: GitRepository, docs: string): void {
  if (git.isEmpty()) throw new GitHubApiError(409, EMPTY_REPOSITORY_MESSAGE, docs);
}

/**
 * Sends a `push` webhook for a ref that moved from `before` to `after` (either may be absent: created, deleted), and,
 * when an existing branch moved to a new commit, a `pull_request` `synchronize` webhook for each open pull request
 * whose head it is, as GitHub does.
 */
export function notifyPush(
  req: Request,
  res: Response,
  context: RouteContext,
  access: RepoAccess,
  ref: string,
  before: string | undefined,
  after: string | undefined,
  forced = false,
): void {
  const urls = urlsOf(req, context);
  sendRepositoryEvent(context, access.repo, 'push', () =>
    pushPayload(urls, context.world, access, userOf(res), { ref, before, after, forced }),
  );
  if (before === undefined || after === undefined || !ref.startsWith('refs/heads/')) return;
  const branch = ref.slice('refs/heads/'.length);
  for (const pr of access.state.pulls) {
    if (pr.state !== 'open' || pr.head !== branch) continue;
    sendRepositoryEvent(context, access.repo, 'pull_request', () =>
      pullRequestPayload(urls, context.world, access, userOf(res), 'synchronize', pr),
    );
  }
}

/** Reads the tree entries of `POST /git/trees`, storing `content` entries as blobs. @throws GitHubApiError 422 on a bad entry */
function treeChanges(git: GitRepository, value: unknown, docs: string): TreeChange[] {
  if (!Array.isArray(value)) throw invalidRequest(`"tree" wasn't supplied.`, docs);
  return value.map((raw, index) => {
    const at = `tree[${index}]`;
    if (typeof raw !== 'object' || raw === null) throw invalidRequest(`For 'items', ${JSON.stringify(raw)} is not an object.`, docs);
    const item = raw as Record<string, unknown>;
    const path = requiredString(item, 'path', docs).replace(/^\/+|\/+$/g, '');
    if (path === '' || path.split('/').some((part) => part === '' || part === '.' || part === '..' || part === '.git')) {
      throw new GitHubApiError(422, `${at}.path contains a malformed path component`, docs);
    }
    const mode = (item.mode ?? '100644') as TreeMode;
    if (!TREE_MODES.includes(mode))
      throw invalidRequest(`For 'properties/mode', ${JSON.stringify(item.mode)} is not one of ${TREE_MODES.join(', ')}.`, docs);
    const type = (item.type ?? (mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob')) as TreeEntryType;
    if (!['blob', 'tree', 'commit'].includes(type))
      throw invalidRequest(`For 'properties/type', ${JSON.stringify(item.type)} is not one of blob, tree, commit.`, docs);
    // A gitlink (submodule) is mode 160000 and type commit together; a directory 040000 and tree.
    if ((mode === '160000') !== (type === 'commit') || (mode === '040000') !== (type === 'tree')) {
      throw new GitHubApiError(422, `${at}: mode ${mode} does not go with type ${type}`, docs);
    }
    const { content, sha } = item;
    const hasSha = Object.hasOwn(item, 'sha');
    if (content !== undefined && hasSha) throw new GitHubApiError(422, `${at}: only one of content or sha may be given`, docs);
    if (content !== undefined) {
      if (typeof content !== 'string') throw invalidRequest(`For 'properties/content', ${JSON.stringify(content)} is not a string.`, docs);
      if (type !== 'blob') throw new GitHubApiError(422, `${at}: content is only allowed for blobs`, docs);
      return { path, entry: { mode, type, sha: git.putBlob(Buffer.from(content, 'utf8')).sha } };
    }
    if (!hasSha) throw new GitHubApiError(422, `${at}: one of content or sha must be given`, docs);
    if (sha === null) return { path, entry: null };
    if (typeof sha !== 'string' || !SHA.test(sha)) throw new GitHubApiError(422, `${at}.sha ${String(sha)} is not a valid object id`, docs);
    const exists = type === 'blob' ? git.blob(sha) : type === 'tree' ? git.tree(sha) : true;
    if (!exists) throw new GitHubApiError(422, `${at}.sha ${sha} is not a valid ${type}`, docs);
    return { path, entry: { mode, type, sha } };
  });
}

/**
 * Mounts GitHub's git data endpoints (https://docs.github.com/rest/git) and the branches reads, on the emulator's
 * in-memory git data: `GET /git/ref/{ref}`, `GET /git/matching-refs/{ref}`, `POST /git/refs` (a branch or a tag), `PATCH` and `DELETE /git/refs/{ref}`, `POST /git/blobs`,
 * `POST /git/trees` (gitlinks too), `GET /git/trees/{sha}` (`?recursive=1`), `POST /git/commits`, `GET /git/commits/{sha}`, `GET /branches` and
 * `GET /branches/{branch}` (all under `/repos/{owner}/{repo}`). Reads need read access, writes write access (404 for a
 * repository the token cannot see, 403 without write). On a repository without any commit every `/git/…` endpoint
 * answers 409 `Git Repository is empty.` ({@link refuseEmptyRepository}), as GitHub does; `GET /branches/{branch}`
 * answers 404 `Branch not found` and `GET /branches` `[]`. Moving, creating or deleting a branch sends a `push` webhook; a
 * forced update that is not a fast forward is recorded with the commits it discarded (`forced-updates.ts`).
 */
export function mountGitRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const { state } = context;
  const base = '/repos/:owner/:repo';

  // https://docs.github.com/rest/git/refs#get-a-reference
  app.get(`${base}/git/ref/*ref`, auth, (req, res) => {
    const docs = GIT_DOCS.getRef;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseEmptyRepository(access.state.git, docs);
    const name = fullRef(slashedParam(req, 'ref'));
    const sha = access.state.git.ref(name);
    if (sha === undefined) throw notFound(docs);
    sendOne(res, gitRef(urlsOf(req, context), access.repo, name, sha));
  });

  // https://docs.github.com/rest/git/refs#list-matching-references: every ref whose name starts with `refs/{ref}`.
  app.get(`${base}/git/matching-refs/*ref`, auth, (req, res) => {
    const access = repoAccess(req, res, context, 'read', GIT_DOCS.matchingRefs);
    refuseEmptyRepository(access.state.git, GIT_DOCS.matchingRefs);
    const prefix = fullRef(slashedParam(req, 'ref'));
    const urls = urlsOf(req, context);
    const refs = access.state.git.allRefs().filter(({ name }) => name.startsWith(prefix));
    sendOne(
      res,
      refs.map(({ name, sha }) => gitRef(urls, access.repo, name, sha)),
    );
  });

  // https://docs.github.com/rest/git/refs#create-a-reference
  app.post(`${base}/git/refs`, auth, (req, res) => {
    const docs = GIT_DOCS.createRef;
    const access = repoAccess(req, res, context, 'write', docs);
    refuseEmptyRepository(access.state.git, docs);
    const body = bodyOf(req, docs);
    const name = requiredString(body, 'ref', docs);
    const sha = requiredString(body, 'sha', docs).toLowerCase();
    if (!validRefName(name)) throw new GitHubApiError(422, `Reference name must start with 'refs/' and have at least two slashes.`, docs);
    const { git } = access.state;
    if (!git.commit(sha)) throw new GitHubApiError(422, 'Object does not exist', docs);
    if (git.ref(name) !== undefined) throw new GitHubApiError(422, 'Reference already exists', docs);
    git.setRef(name, sha);
    notifyPush(req, res, context, access, name, undefined, sha);
    sendJson(res, 201, gitRef(urlsOf(req, context), access.repo, name, sha));
  });

  // https://docs.github.com/rest/git/refs#update-a-reference
  app.patch(`${base}/git/refs/*ref`, auth, (req, res) => {
    const docs = GIT_DOCS.updateRef;
    const access = repoAccess(req, res, context, 'write', docs);
    refuseEmptyRepository(access.state.git, docs);
    const body = bodyOf(req, docs);
    const sha = requiredString(body, 'sha', docs).toLowerCase();
    const force = optionalBoolean(body, 'force', docs) ?? false;
    const name = fullRef(slashedParam(req, 'ref'));
    const { git } = access.state;
    const current = git.ref(name);
    if (current === undefined) throw new GitHubApiError(422, 'Reference does not exist', docs);
    if (!git.commit(sha)) throw new GitHubApiError(422, 'Object does not exist', docs);
    const fastForward = git.isAncestor(current, sha);
    if (!force && !fastForward) throw new GitHubApiError(422, 'Update is not a fast forward', docs);
    git.setRef(name, sha);
    if (!fastForward) {
      access.state.forcedUpdates.push(
        forcedUpdate(git, { ref: name, before: current, after: sha, pusher: userOf(res), at: state.timestamp() }),
      );
    }
    if (current !== sha) notifyPush(req, res, context, access, name, current, sha, !fastForward);
    sendOne(res, gitRef(urlsOf(req, context), access.repo, name, sha));
  });

  // https://docs.github.com/rest/git/refs#delete-a-reference
  app.delete(`${base}/git/refs/*ref`, auth, (req, res) => {
    const docs = GIT_DOCS.deleteRef;
    const access = repoAccess(req, res, context, 'write', docs);
    refuseEmptyRepository(access.state.git, docs);
    const name = fullRef(slashedParam(req, 'ref'));
    const current = access.state.git.ref(name);
    if (current === undefined) throw new GitHubApiError(422, 'Reference does not exist', docs);
    access.state.git.deleteRef(name);
    notifyPush(req, res, context, access, name, current, undefined);
    res.status(204).end();
  });

  // https://docs.github.com/rest/git/blobs#create-a-blob
  app.post(`${base}/git/blobs`, auth, (req, res) => {
    const docs = GIT_DOCS.createBlob;
    const access = repoAccess(req, res, context, 'write', docs);
    refuseEmptyRepository(access.state.git, docs);
    const body = bodyOf(req, docs);
    const content = requiredString(body, 'content', docs);
    const encoding = optionalString(body, 'encoding', docs) ?? 'utf-8';
    if (encoding !== 'utf-8' && encoding !== 'utf8' && encoding !== 'base64') {
      throw invalidRequest(`For 'properties/encoding', ${JSON.stringify(encoding)} is not one of utf-8, base64.`, docs);
    }
    if (encoding === 'base64' && !/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(content)) throw invalidRequest('content is not valid Base64', docs);
    const bytes = Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8');
    if (bytes.length > MAX_BLOB_BYTES) throw new GitHubApiError(422, 'content is over the 100 MB limit', docs);
    const blob = access.state.git.putBlob(bytes);
    sendJson(res, 201, shortBlob(urlsOf(req, context), access.repo, blob.sha));
  });

  // https://docs.github.com/rest/git/trees#create-a-tree
  app.post(`${base}/git/trees`, auth, (req, res) => {
    const docs = GIT_DOCS.createTree;
    const access = repoAccess(req, res, context, 'write', docs);
    refuseEmptyRepository(access.state.git, docs);
    const body = bodyOf(req, docs);
    const { git } = access.state;
    const baseTree = optionalString(body, 'base_tree', docs)?.toLowerCase();
    if (baseTree !== undefined && !git.tree(baseTree)) {
      // GitHub also takes a commit id as base_tree (its tree).
      const asCommit = git.commit(baseTree);
      if (!asCommit) throw new GitHubApiError(422, 'base_tree is not a valid tree oid', docs);
    }
    const baseTreeSha = baseTree === undefined ? undefined : (git.commit(baseTree)?.tree ?? baseTree);
    const tree = git.applyChanges(baseTreeSha, treeChanges(git, body.tree, docs));
    sendJson(res, 201, gitTree(urlsOf(req, context), access.repo, tree, git));
  });

  // https://docs.github.com/rest/git/trees#get-a-tree: `recursive` set to any value (even 0 or false) walks the sub-trees.
  app.get(`${base}/git/trees/:sha`, auth, (req, res) => {
    const docs = GIT_DOCS.getTree;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseEmptyRepository(access.state.git, docs);
    const { git } = access.state;
    const key = String(req.params.sha);
    const commit = git.resolve(key);
    const tree = git.tree(key.toLowerCase()) ?? (commit === undefined ? undefined : git.tree(git.commit(commit)?.tree ?? ''));
    if (!tree) throw notFound(docs);
    sendOne(res, gitTree(urlsOf(req, context), access.repo, tree, git, queryValue(req, 'recursive') !== undefined));
  });

  // https://docs.github.com/rest/git/commits#create-a-commit
  app.post(`${base}/git/commits`, auth, (req, res) => {
    const docs = GIT_DOCS.createCommit;
    const access = repoAccess(req, res, context, 'write', docs);
    refuseEmptyRepository(access.state.git, docs);
    const body = bodyOf(req, docs);
    const { git } = access.state;
    const message = requiredString(body, 'message', docs);
    const tree = requiredString(body, 'tree', docs).toLowerCase();
    if (!git.tree(tree)) throw new GitHubApiError(422, 'Tree SHA does not exist', docs);
    const parents = body.parents ?? [];
    if (!Array.isArray(parents) || parents.some((p) => typeof p !== 'string')) {
      throw invalidRequest(`For 'properties/parents', ${JSON.stringify(parents)} is not an array of strings.`, docs);
    }
    const parentShas = (parents as string[]).map((p) => p.toLowerCase());
    if (parentShas.some((p) => !git.commit(p))) throw new GitHubApiError(422, 'Parent SHA does not exist or is not a commit object', docs);
    const caller = userSignature(userOf(res), state.now());
    const author = signatureFrom(body.author, caller, 'author', docs);
    const committer = signatureFrom(body.committer, body.author === undefined ? caller : author, 'committer', docs);
    const commit = git.putCommit({ tree, parents: parentShas, author, committer, message });
    sendJson(res, 201, gitCommit(urlsOf(req, context), access.repo, commit));
  });

  // https://docs.github.com/rest/git/commits#get-a-commit-object
  app.get(`${base}/git/commits/:sha`, auth, (req, res) => {
    const docs = GIT_DOCS.getCommit;
    const access = repoAccess(req, res, context, 'read', docs);
    refuseEmptyRepository(access.state.git, docs);
    const commit = access.state.git.commit(String(req.params.sha).toLowerCase());
    if (!commit) throw notFound(docs);
    sendOne(res, gitCommit(urlsOf(req, context), access.repo, commit));
  });

  // https://docs.github.com/rest/branches/branches#list-branches
  app.get(`${base}/branches`, auth, (req, res) => {
    const access = repoAccess(req, res, context, 'read', GIT_DOCS.listBranches);
    const urls = urlsOf(req, context);
    sendPage(req, res, access.state.git.branches(), ({ name, sha }) => shortBranch(urls, access.repo, name, sha));
  });

  // https://docs.github.com/rest/branches/branches#get-a-branch
  app.get(`${base}/branches/*branch`, auth, (req, res) => {
    const docs = GIT_DOCS.getBranch;
    const access = repoAccess(req, res, context, 'read', docs);
    const name = slashedParam(req, 'branch');
    const sha = access.state.git.branch(name);
    const commit = sha === undefined ? undefined : access.state.git.commit(sha);
    if (!commit) throw new GitHubApiError(404, 'Branch not found', docs);
    sendOne(res, branchWithProtection(urlsOf(req, context), access.repo, name, commit));
  });
}
