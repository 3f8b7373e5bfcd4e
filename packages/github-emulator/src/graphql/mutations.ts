import type { TreeChange } from '../git/repository-store.ts';
import { signedCommit, webFlowCommitter } from '../git/signatures.ts';
import { MAX_BLOB_BYTES, notifyPush, userSignature, validRefName } from '../git-routes.ts';
import { checkPullRequest, openPullRequest } from '../pulls/open-pull.ts';
import { sendRepositoryEvent } from '../repository-webhooks.ts';
import { pullRequestPayload } from '../webhook-payloads.ts';
import { type GraphQLContext, nodeNotFound, refOfNodeId, repositoryNotFound, repositoryOfNodeId, writableRepository } from './context.ts';
import { GitHubGraphQLError } from './errors.ts';
import { commitObject, pullRequestObject, refObject } from './objects.ts';

/**
 * GitHub's mutations the emulator serves (https://docs.github.com/graphql/reference/mutations): `createRef`,
 * `createCommitOnBranch` and `createPullRequest`. Each changes what the REST routes change (refs, commits, pull
 * requests) and sends the webhooks they send (`push`, `pull_request` `synchronize` and `opened`), with the permission
 * they need (`writableRepository`: write access; an installation access token `contents` or `pull_requests` write on a
 * repository of its installation). A refusal is a {@link GitHubGraphQLError}: the mutation's field is null and the
 * answer carries the error with its `type`.
 */

/** GitHub's `CreateRefInput`. */
interface CreateRefInput {
  repositoryId: string;
  name: string;
  oid: string;
  clientMutationId?: string | null;
}

/** GitHub's `CreateCommitOnBranchInput`, `fileChanges` with its defaults applied by graphql-js. */
interface CreateCommitOnBranchInput {
  branch: { id?: string | null; repositoryNameWithOwner?: string | null; branchName?: string | null };
  expectedHeadOid: string;
  message: { headline: string; body?: string | null };
  fileChanges?: {
    additions?: { path: string; contents: string }[] | null;
    deletions?: { path: string }[] | null;
  } | null;
  clientMutationId?: string | null;
}

/** GitHub's `CreatePullRequestInput`. */
interface CreatePullRequestInput {
  repositoryId: string;
  baseRefName: string;
  headRefName: string;
  title: string;
  body?: string | null;
  draft?: boolean | null;
  maintainerCanModify?: boolean | null;
  headRepositoryId?: string | null;
  clientMutationId?: string | null;
}

const unprocessable = (message: string) => new GitHubGraphQLError('UNPROCESSABLE', message);

/**
 * `createRef(input: { repositoryId, name, oid, clientMutationId })` → `{ clientMutationId, ref }`
 * (https://docs.github.com/graphql/reference/mutations#createref): creates the fully qualified ref `name`
 * (`refs/heads/x`, `refs/tags/x`) at commit `oid` and sends the `push` webhook of a created ref, as
 * `POST /repos/{owner}/{repo}/git/refs` does.
 * @throws GitHubGraphQLError `NOT_FOUND` `Could not resolve to a node with the global id of '<id>'.` for a repository
 *   the token cannot see, or `Could not resolve to a Commit with the oid '<oid>'.`; `FORBIDDEN` without write access
 *   (see `writableRepository`); `UNPROCESSABLE` for a name that is no ref name (`Reference name must start with 'refs/'
 *   and have at least two slashes.`) or is taken (`A ref named "<name>" already exists in the repository.`, GitHub's
 *   words)
 */
export function createRef(args: { input: CreateRefInput }, ctx: GraphQLContext) {
  const { input } = args;
  const repo = repositoryOfNodeId(ctx, input.repositoryId);
  const access = writableRepository(ctx, repo, 'contents', 'CreateRef', () => nodeNotFound(input.repositoryId));
  const { git } = access.state;
  const { name } = input;
  if (!validRefName(name)) throw unprocessable(`Reference name must start with 'refs/' and have at least two slashes.`);
  const oid = input.oid.toLowerCase();
  if (!git.commit(oid)) throw new GitHubGraphQLError('NOT_FOUND', `Could not resolve to a Commit with the oid '${input.oid}'.`);
  if (git.ref(name) !== undefined) throw unprocessable(`A ref named "${name}" already exists in the repository.`);
  git.setRef(name, oid);
  notifyPush(ctx.req, ctx.res, ctx.route, access, name, undefined, oid);
  return { clientMutationId: input.clientMutationId ?? null, ref: refObject(ctx, access, name) };
}

/**
 * A path of `fileChanges`, slashes at either end dropped.
 * @throws GitHubGraphQLError `UNPROCESSABLE` for an empty path or one with an empty, `.`, `..` or `.git` component
 */
function changedPath(path: string): string {
  const clean = path.replace(/^\/+|\/+$/g, '');
  if (clean === '' || clean.split('/').some((part) => part === '' || part === '.' || part === '..' || part === '.git')) {
    throw unprocessable(`The path "${path}" contains a malformed path component.`);
  }
  return clean;
}

/**
 * `createCommitOnBranch(input: { branch: { repositoryNameWithOwner, branchName } | { id }, expectedHeadOid, message:
 * { headline, body }, fileChanges: { additions: [{ path, contents }], deletions: [{ path }] }, clientMutationId })` →
 * `{ clientMutationId, commit, ref }` (https://docs.github.com/graphql/reference/mutations#createcommitonbranch):
 * appends one commit to an existing branch whose head is `expectedHeadOid`: its tree the head's with the deletions
 * and then the additions applied (an addition adds or replaces a file; base64 `contents`), its message the headline
 * and the body after a blank line, its author the caller (an installation's App bot user), its committer GitHub
 * (`GitHub <noreply@github.com>`), signed (`git/signatures.ts`: REST answers it `verification.verified: true`). No file
 * changes make an empty commit. Moves the branch and sends the `push` webhook (and `synchronize` of open pull requests
 * from it) as a push does.
 * @throws GitHubGraphQLError `NOT_FOUND` for a repository the token cannot see (`Could not resolve to a Repository with
 *   the name '<owner/name>'.`, or the node id's message) or a branch that does not exist (`Could not resolve to a Ref
 *   with the name 'refs/heads/<branch>'.`); `FORBIDDEN` without write access; `STALE_DATA` when the head moved
 *   (`Expected branch to point to "<expectedHeadOid>" but it did not.  Pull and try again.`, GitHub's words);
 *   `UNPROCESSABLE` for a deletion of a path that is no file (`A path was requested for deletion which does not exist
 *   as of commit oid \`<head>\``, GitHub's words), a malformed path, contents that are not base64 or over 100 MB, or a
 *   branch named neither by id nor by repository and name
 */
export function createCommitOnBranch(args: { input: CreateCommitOnBranchInput }, ctx: GraphQLContext) {
  const { input } = args;
  const { branch } = input;
  let target: { repo: ReturnType<typeof repositoryOfNodeId>; branchName: string; notFound: () => GitHubGraphQLError };
  if (typeof branch.id === 'string') {
    const id = branch.id;
    const named = refOfNodeId(ctx, id);
    if (!named?.name.startsWith('refs/heads/')) throw nodeNotFound(id);
    target = { repo: named.repo, branchName: named.name.slice('refs/heads/'.length), notFound: () => nodeNotFound(id) };
  } else if (typeof branch.repositoryNameWithOwner === 'string' && typeof branch.branchName === 'string') {
    const nameWithOwner = branch.repositoryNameWithOwner;
    const [owner = '', name = ''] = nameWithOwner.split('/');
    target = {
      repo: ctx.route.world.repoByName(owner, name),
      branchName: branch.branchName.replace(/^refs\/heads\//, ''),
      notFound: () => repositoryNotFound(nameWithOwner),
    };
  } else {
    throw unprocessable('A branch must be given by its id, or by repositoryNameWithOwner and branchName.');
  }
  const access = writableRepository(ctx, target.repo, 'contents', 'CreateCommitOnBranch', target.notFound);
  const { git } = access.state;
  const ref = `refs/heads/${target.branchName}`;
  const head = git.ref(ref);
  const headCommit = head === undefined ? undefined : git.commit(head);
  if (head === undefined || !headCommit) throw new GitHubGraphQLError('NOT_FOUND', `Could not resolve to a Ref with the name '${ref}'.`);
  if (input.expectedHeadOid.toLowerCase() !== head) {
    throw new GitHubGraphQLError(
      'STALE_DATA',
      `Expected branch to point to "${input.expectedHeadOid}" but it did not.  Pull and try again.`,
    );
  }
  const changes: TreeChange[] = [];
  for (const deletion of input.fileChanges?.deletions ?? []) {
    const path = changedPath(deletion.path);
    if (git.entryAt(headCommit.tree, path)?.type !== 'blob') {
      throw unprocessable(`A path was requested for deletion which does not exist as of commit oid \`${head}\``);
    }
    changes.push({ path, entry: null });
  }
  for (const addition of input.fileChanges?.additions ?? []) {
    const path = changedPath(addition.path);
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(addition.contents))
      throw unprocessable(`The contents of "${addition.path}" are not valid base64.`);
    const bytes = Buffer.from(addition.contents, 'base64');
    if (bytes.length > MAX_BLOB_BYTES) throw unprocessable(`The contents of "${addition.path}" are over the 100 MB limit.`);
    const existing = git.entryAt(headCommit.tree, path);
    const mode = existing?.type === 'blob' ? existing.mode : '100644';
    changes.push({ path, entry: { mode, type: 'blob', sha: git.putBlob(bytes).sha } });
  }
  const tree = git.applyChanges(headCommit.tree, changes);
  const { headline, body } = input.message;
  const author = userSignature(ctx.credential.user, ctx.route.state.now());
  const commit = git.putCommit(
    signedCommit({
      tree: tree.sha,
      parents: [head],
      author,
      committer: webFlowCommitter(author),
      message: typeof body === 'string' && body !== '' ? `${headline}\n\n${body}` : headline,
    }),
  );
  git.setRef(ref, commit.sha);
  notifyPush(ctx.req, ctx.res, ctx.route, access, ref, head, commit.sha);
  return { clientMutationId: input.clientMutationId ?? null, commit: commitObject(ctx, access, commit), ref: refObject(ctx, access, ref) };
}

/**
 * `createPullRequest(input: { repositoryId, baseRefName, headRefName, title, body, draft, maintainerCanModify,
 * headRepositoryId, clientMutationId })` → `{ clientMutationId, pullRequest }`
 * (https://docs.github.com/graphql/reference/mutations#createpullrequest): opens a pull request from branch
 * `headRefName` (or `<owner>:<branch>` of the repository's owner; no forks here, so a `headRepositoryId` of another
 * repository names no branch) into `baseRefName`, by the caller, with the same rules and state as
 * `POST /repos/{owner}/{repo}/pulls`, and sends the `pull_request` `opened` webhook. `maintainerCanModify` is not kept
 * (the emulator's pull requests are never cross-repository).
 * @throws GitHubGraphQLError `NOT_FOUND` `Could not resolve to a node with the global id of '<id>'.`; `FORBIDDEN`
 *   without write access (an installation: `pull_requests` write); `UNPROCESSABLE` with GitHub's words, joined by `, `
 *   as GitHub joins them: `Title can't be blank`; for a head or base that is no branch `Head sha can't be blank, Base
 *   sha can't be blank, No commits between <base> and <head>, Head ref must be a branch` (`Base ref must be a branch`);
 *   `No commits between <base> and <head>`; `A pull request already exists for <owner>:<head>.`
 */
export function createPullRequest(args: { input: CreatePullRequestInput }, ctx: GraphQLContext) {
  const { input } = args;
  const repo = repositoryOfNodeId(ctx, input.repositoryId);
  const access = writableRepository(ctx, repo, 'pull_requests', 'CreatePullRequest', () => nodeNotFound(input.repositoryId));
  if (input.title.trim() === '') throw unprocessable("Title can't be blank");
  const otherHeadRepository =
    typeof input.headRepositoryId === 'string' && repositoryOfNodeId(ctx, input.headRepositoryId)?.id !== access.repo.id;
  const colon = input.headRefName.indexOf(':');
  const sameOwner = colon < 0 || input.headRefName.slice(0, colon).toLowerCase() === access.repo.owner.toLowerCase();
  const head = otherHeadRepository || !sameOwner ? undefined : input.headRefName.slice(colon + 1);
  const check = checkPullRequest(access.state, head, input.baseRefName);
  const problems: string[] = [];
  if (check.headSha === undefined || check.baseSha === undefined) problems.push("Head sha can't be blank", "Base sha can't be blank");
  if (check.noCommits) problems.push(`No commits between ${input.baseRefName} and ${input.headRefName}`);
  if (check.headSha === undefined) problems.push('Head ref must be a branch');
  if (check.baseSha === undefined) problems.push('Base ref must be a branch');
  if (problems.length > 0) throw unprocessable(problems.join(', '));
  if (head === undefined || check.headSha === undefined || check.baseSha === undefined) throw unprocessable('Head ref must be a branch');
  if (check.exists) throw unprocessable(`A pull request already exists for ${access.repo.owner}:${head}.`);
  const { user } = ctx.credential;
  const pr = openPullRequest(ctx.route.state, access.state, user, {
    title: input.title,
    body: input.body ?? null,
    draft: input.draft ?? false,
    head,
    base: input.baseRefName,
    headSha: check.headSha,
    baseSha: check.baseSha,
  });
  sendRepositoryEvent(ctx.route, access.repo, 'pull_request', () =>
    pullRequestPayload(ctx.urls, ctx.route.world, access, user, 'opened', pr),
  );
  return { clientMutationId: input.clientMutationId ?? null, pullRequest: pullRequestObject(ctx, access, pr) };
}
