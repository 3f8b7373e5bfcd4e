import { filePrefix, fileSize } from '../files.ts';
import { commitPayload, type GitBlob, type GitCommit, type GitTree, type TreeEntry } from '../git/objects.ts';
import type { GitRepository } from '../git/repository-store.ts';
import { objectNodeId } from '../git/representations.ts';
import { EMULATOR_KEY_ID, signedByEmulator } from '../git/signatures.ts';
import { mergeabilityOf } from '../pulls/mergeability.ts';
import { currentBaseSha, currentHeadSha } from '../pulls/representations.ts';
import type { PullRequestRecord } from '../repo-state.ts';
import { createdAt, LARGEST_INLINE_FILE_BYTES, nodeId } from '../representations.ts';
import type { RepoAccess } from '../route-helpers.ts';
import type { EmulatedRepo, EmulatedUser } from '../world.ts';
import { type ConnectionArgs, connection } from './connections.ts';
import { type GraphQLContext, requireRead } from './context.ts';
import { GitHubGraphQLError } from './errors.ts';

/**
 * The objects of GitHub's GraphQL schema (`schema.graphql`) over the emulator's state, for graphql-js's default
 * resolvers: each is a plain object with its `__typename` (which resolves the `GitObject`, `Actor` and
 * `RepositoryOwner` interfaces) whose fields are values, or functions of the field's arguments called only when the
 * query asks for them. Git data follows the REST routes' rules (`HEAD` is the default branch, a blob's text is cut at
 * 1 MB, binary when a NUL is among its first 8,000 bytes).
 */

/** A GraphQL object: `__typename` and its fields (values, or functions of the field's arguments). */
export type GraphQLObject = { __typename: string } & Record<string, unknown>;
type Args = Record<string, unknown>;

/** Git's rule for "binary": a NUL byte among the first 8,000 bytes. */
const BINARY_SNIFF_BYTES = 8_000;
/** The length of an `abbreviatedOid`, as GitHub gives it. */
const ABBREVIATED_OID = 7;

const repoHtml = (ctx: GraphQLContext, repo: EmulatedRepo) => `${ctx.urls.htmlBase}/${repo.owner}/${repo.name}`;

/**
 * A user as GitHub's `User`, or an App's bot user as `Bot` (both `Actor`s), with their web page as `url`
 * (https://docs.github.com/graphql/reference/objects#user, https://docs.github.com/graphql/reference/objects#bot).
 */
export function actorObject(ctx: GraphQLContext, user: EmulatedUser): GraphQLObject {
  if (user.bot) {
    return {
      __typename: 'Bot',
      id: nodeId('Bot', user.id),
      databaseId: user.id,
      login: user.login,
      url: `${ctx.urls.htmlBase}/apps/${user.bot.slug}`,
    };
  }
  return {
    __typename: 'User',
    id: nodeId('User', user.id),
    databaseId: user.id,
    login: user.login,
    name: user.name ?? null,
    url: `${ctx.urls.htmlBase}/${user.login}`,
  };
}

/** The owner of `repo`: GitHub's `User` or `Organization` (`RepositoryOwner`). */
function ownerObject(ctx: GraphQLContext, repo: EmulatedRepo): GraphQLObject {
  const account = ctx.route.world.account(repo.owner);
  if (account?.kind === 'org') {
    const { org } = account;
    return {
      __typename: 'Organization',
      id: nodeId('Organization', org.id),
      databaseId: org.id,
      login: org.login,
      name: org.name ?? null,
      url: `${ctx.urls.htmlBase}/${org.login}`,
    };
  }
  if (account?.kind === 'user') return actorObject(ctx, account.user);
  throw new Error(`seed repo ${repo.owner}/${repo.name} has no owner`);
}

/**
 * GitHub's `Blob` (https://docs.github.com/graphql/reference/objects#blob): `byteSize` in bytes, `isBinary`, `isTruncated`
 * and `text` (cut at 1 MB; null when binary), read on demand.
 */
export function blobObject(ctx: GraphQLContext, access: RepoAccess, blob: GitBlob): GraphQLObject {
  const size = fileSize(blob.content);
  const truncated = size > LARGEST_INLINE_FILE_BYTES;
  let head: Buffer | undefined;
  const prefix = () => {
    head ??= filePrefix(blob.content, truncated ? LARGEST_INLINE_FILE_BYTES : size);
    return head;
  };
  const binary = () => prefix().subarray(0, BINARY_SNIFF_BYTES).includes(0);
  return {
    __typename: 'Blob',
    id: objectNodeId('Blob', `${access.repo.id}:${blob.sha}`),
    oid: blob.sha,
    abbreviatedOid: blob.sha.slice(0, ABBREVIATED_OID),
    repository: () => repositoryObject(ctx, access),
    byteSize: size,
    isBinary: binary,
    isTruncated: truncated,
    text: () => (binary() ? null : prefix().toString('utf8')),
  };
}

/** GitHub's `TreeEntry` of `entry` at `path` (its full path from the root of the commit's tree). */
function treeEntryObject(ctx: GraphQLContext, access: RepoAccess, entry: Pick<TreeEntry, 'mode' | 'type' | 'sha'>, path: string) {
  const { git } = access.state;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const blob = entry.type === 'blob' ? git.blob(entry.sha) : undefined;
  const dot = name.lastIndexOf('.');
  return {
    name,
    path,
    type: entry.type,
    // GitHub answers the mode as a number: 33188 for 100644, 16384 for a directory.
    mode: Number.parseInt(entry.mode, 8),
    oid: entry.sha,
    size: blob ? fileSize(blob.content) : 0,
    extension: entry.type === 'blob' && dot > 0 ? name.slice(dot) : null,
    repository: () => repositoryObject(ctx, access),
    object: () => gitObjectById(ctx, access, entry.sha, path),
  };
}

/**
 * GitHub's `Tree` at `path` (`''`: a commit's root; https://docs.github.com/graphql/reference/objects#tree), its `entries`
 * each a `TreeEntry` with its full path.
 */
export function treeObject(ctx: GraphQLContext, access: RepoAccess, tree: GitTree, path: string): GraphQLObject {
  return {
    __typename: 'Tree',
    id: objectNodeId('Tree', `${access.repo.id}:${tree.sha}`),
    oid: tree.sha,
    abbreviatedOid: tree.sha.slice(0, ABBREVIATED_OID),
    repository: () => repositoryObject(ctx, access),
    entries: () => tree.entries.map((entry) => treeEntryObject(ctx, access, entry, path === '' ? entry.name : `${path}/${entry.name}`)),
  };
}

/** The first line of a commit message, and the rest after the blank line (GitHub's `messageHeadline`, `messageBody`). */
function messageParts(message: string): { headline: string; body: string } {
  const newline = message.indexOf('\n');
  if (newline < 0) return { headline: message, body: '' };
  return { headline: message.slice(0, newline), body: message.slice(newline + 1).replace(/^\n+/, '') };
}

/** Every commit reachable from `sha`, newest committer date first (ties in the order they were reached), as `git log` lists them. */
function history(git: GitRepository, sha: string): GitCommit[] {
  const reached = [...git.ancestors(sha)].flatMap((reachedSha) => git.commit(reachedSha) ?? []);
  const order = new Map(reached.map((commit, index) => [commit.sha, index]));
  return reached.sort(
    (a, b) => Date.parse(b.committer.date) - Date.parse(a.committer.date) || (order.get(a.sha) ?? 0) - (order.get(b.sha) ?? 0),
  );
}

/**
 * GitHub's `Commit` (https://docs.github.com/graphql/reference/objects#commit): message parts, author and committer (ISO
 * 8601 dates), tree, `file(path)`, the `parents` and `history` connections, `signature`, url.
 */
export function commitObject(ctx: GraphQLContext, access: RepoAccess, commit: GitCommit): GraphQLObject {
  const { git } = access.state;
  const { headline, body } = messageParts(commit.message);
  const actor = (signature: GitCommit['author']) => ({ name: signature.name, email: signature.email, date: signature.date });
  return {
    __typename: 'Commit',
    id: objectNodeId('Commit', commit.sha),
    oid: commit.sha,
    abbreviatedOid: commit.sha.slice(0, ABBREVIATED_OID),
    repository: () => repositoryObject(ctx, access),
    message: commit.message,
    messageHeadline: headline,
    messageBody: body,
    author: actor(commit.author),
    committer: actor(commit.committer),
    authoredDate: commit.author.date,
    committedDate: commit.committer.date,
    url: `${repoHtml(ctx, access.repo)}/commit/${commit.sha}`,
    tree: () => {
      const tree = git.tree(commit.tree);
      if (!tree) throw new Error(`tree ${commit.tree} is missing`);
      return treeObject(ctx, access, tree, '');
    },
    file: (args: Args) => {
      const path = String(args.path).replace(/^\/+|\/+$/g, '');
      const entry = path === '' ? undefined : git.entryAt(commit.tree, path);
      return entry ? treeEntryObject(ctx, access, entry, path) : null;
    },
    parents: (args: Args) =>
      connection(
        commit.parents.flatMap((sha) => git.commit(sha) ?? []),
        args as ConnectionArgs,
        (parent) => commitObject(ctx, access, parent),
      ),
    history: (args: Args) => {
      const path = typeof args.path === 'string' ? args.path.replace(/^\/+|\/+$/g, '') : undefined;
      const since = typeof args.since === 'string' ? Date.parse(args.since) : undefined;
      const until = typeof args.until === 'string' ? Date.parse(args.until) : undefined;
      const touches = (candidate: GitCommit) => {
        if (path === undefined || path === '') return true;
        const here = git.entryAt(candidate.tree, path)?.sha;
        const parent = candidate.parents[0] === undefined ? undefined : git.commit(candidate.parents[0]);
        const there = parent ? git.entryAt(parent.tree, path)?.sha : undefined;
        return here !== there;
      };
      const commits = history(git, commit.sha).filter((candidate) => {
        const at = Date.parse(candidate.committer.date);
        return (since === undefined || at >= since) && (until === undefined || at <= until) && touches(candidate);
      });
      return connection(commits, args as ConnectionArgs, (found) => commitObject(ctx, access, found));
    },
    signature: () =>
      commit.gpgsig === undefined
        ? null
        : {
            __typename: 'GpgSignature',
            email: commit.committer.email,
            isValid: signedByEmulator(commit),
            keyId: signedByEmulator(commit) ? EMULATOR_KEY_ID : null,
            payload: commitPayload(commit),
            signature: commit.gpgsig,
            state: signedByEmulator(commit) ? 'VALID' : 'UNKNOWN_KEY',
            wasSignedByGitHub: signedByEmulator(commit),
          },
  };
}

/** The blob, tree or commit `sha` of the repository as its GraphQL object (`path`: where a tree is), or null. */
export function gitObjectById(ctx: GraphQLContext, access: RepoAccess, sha: string, path = ''): GraphQLObject | null {
  const { git } = access.state;
  const blob = git.blob(sha);
  if (blob) return blobObject(ctx, access, blob);
  const tree = git.tree(sha);
  if (tree) return treeObject(ctx, access, tree, path);
  const commit = git.commit(sha);
  return commit ? commitObject(ctx, access, commit) : null;
}

/**
 * The commit a revision names, as `git rev-parse` reads the part before `:`: `HEAD` (or nothing) the default branch, a
 * branch, a tag, `refs/…`, a full or abbreviated commit id, each optionally followed by `~<n>` (the n-th first-parent
 * ancestor) and `^<n>` (the n-th parent; `^0` the commit itself) suffixes. Undefined when it names nothing.
 */
export function resolveRevision(git: GitRepository, repo: EmulatedRepo, revision: string): string | undefined {
  const match = /^(.*?)((?:[~^]\d*)*)$/.exec(revision);
  const name = match?.[1] ?? revision;
  let sha = name === '' || name === 'HEAD' ? git.branch(repo.defaultBranch) : (git.resolve(name) ?? git.commitByPrefix(name));
  for (const [, op, digits] of (match?.[2] ?? '').matchAll(/([~^])(\d*)/g)) {
    const n = digits === '' ? 1 : Number(digits);
    if (op === '^') {
      if (n > 0 && sha !== undefined) sha = git.commit(sha)?.parents[n - 1];
      continue;
    }
    for (let step = 0; step < n && sha !== undefined; step += 1) sha = git.commit(sha)?.parents[0];
  }
  return sha;
}

/**
 * What `Repository.object(expression:)` answers: `<rev>` a `Commit`, `<rev>:<path>` the `Blob` or `Tree` at `path`
 * (`<rev>:` the root tree; slashes at either end of the path ignored), null when the revision or the path names nothing
 * or the path is a submodule (its commit is another repository's).
 */
export function objectAtExpression(ctx: GraphQLContext, access: RepoAccess, expression: string): GraphQLObject | null {
  const { git } = access.state;
  const colon = expression.indexOf(':');
  const sha = resolveRevision(git, access.repo, colon < 0 ? expression : expression.slice(0, colon));
  const commit = sha === undefined ? undefined : git.commit(sha);
  if (!commit) return null;
  if (colon < 0) return commitObject(ctx, access, commit);
  const path = expression.slice(colon + 1).replace(/^\/+|\/+$/g, '');
  const entry = git.entryAt(commit.tree, path);
  if (entry?.type !== 'blob' && entry?.type !== 'tree') return null;
  return gitObjectById(ctx, access, entry.sha, path);
}

/** The prefix of a full ref name that GitHub's `Ref.prefix` gives (`refs/heads/`, `refs/tags/`, else `refs/`). */
function prefixOf(name: string): string {
  return name.startsWith('refs/heads/') ? 'refs/heads/' : name.startsWith('refs/tags/') ? 'refs/tags/' : 'refs/';
}

/**
 * GitHub's `Ref` of the full ref `name` (https://docs.github.com/graphql/reference/objects#ref): its `name` without
 * `prefix`, its target the commit it points at, its `associatedPullRequests` (those whose head it is).
 */
export function refObject(ctx: GraphQLContext, access: RepoAccess, name: string, prefix = prefixOf(name)): GraphQLObject {
  const { git } = access.state;
  return {
    __typename: 'Ref',
    id: objectNodeId('Ref', `${access.repo.id}:${name}`),
    name: name.slice(prefix.length),
    prefix,
    repository: () => repositoryObject(ctx, access),
    target: () => {
      const sha = git.ref(name);
      return sha === undefined ? null : gitObjectById(ctx, access, sha);
    },
    associatedPullRequests: (args: Args) => {
      requireRead(ctx, access.repo, 'pull_requests');
      const branch = name.startsWith('refs/heads/') ? name.slice('refs/heads/'.length) : undefined;
      return pullRequestConnection(
        ctx,
        access,
        access.state.pulls.filter((pr) => pr.head === branch),
        args,
      );
    },
  };
}

/** GitHub's `PullRequestState` of a pull request. */
function pullState(pr: PullRequestRecord): 'OPEN' | 'CLOSED' | 'MERGED' {
  if (pr.mergedAt !== null) return 'MERGED';
  return pr.state === 'open' ? 'OPEN' : 'CLOSED';
}

/**
 * The pull requests of `pulls` matching `args` (`states`, `headRefName`, `baseRefName`), ordered by `orderBy`
 * (`CREATED_AT`, the default, `UPDATED_AT`, `COMMENTS`; ascending by default), as a connection page.
 */
function pullRequestConnection(ctx: GraphQLContext, access: RepoAccess, pulls: readonly PullRequestRecord[], args: Args) {
  const states = Array.isArray(args.states) ? (args.states as string[]) : undefined;
  const order = (args.orderBy ?? { field: 'CREATED_AT', direction: 'ASC' }) as { field: string; direction: string };
  const key = (pr: PullRequestRecord): string | number =>
    order.field === 'UPDATED_AT' ? pr.updatedAt : order.field === 'COMMENTS' ? pr.comments : pr.createdAt;
  const matching = pulls
    .filter((pr) => states === undefined || states.includes(pullState(pr)))
    .filter((pr) => typeof args.headRefName !== 'string' || pr.head === args.headRefName)
    .filter((pr) => typeof args.baseRefName !== 'string' || pr.base === args.baseRefName)
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      const compared = x < y ? -1 : x > y ? 1 : a.number - b.number;
      return order.direction === 'DESC' ? -compared : compared;
    });
  return connection(matching, args as ConnectionArgs, (pr) => pullRequestObject(ctx, access, pr));
}

/**
 * GitHub's `PullRequest` (https://docs.github.com/graphql/reference/objects#pullrequest): its branches, their current
 * heads while open, state, mergeability (`mergeability.ts`), author, urls.
 */
export function pullRequestObject(ctx: GraphQLContext, access: RepoAccess, pr: PullRequestRecord): GraphQLObject {
  const { state } = access;
  const url = `${repoHtml(ctx, access.repo)}/pull/${pr.number}`;
  const liveRef = (branch: string) =>
    state.git.branch(branch) === undefined ? null : refObject(ctx, access, `refs/heads/${branch}`, 'refs/heads/');
  return {
    __typename: 'PullRequest',
    id: pr.nodeId,
    databaseId: pr.id,
    number: pr.number,
    title: pr.title,
    body: pr.body ?? '',
    url,
    permalink: url,
    state: pullState(pr),
    closed: pr.state === 'closed',
    merged: pr.mergedAt !== null,
    mergedAt: pr.mergedAt,
    closedAt: pr.closedAt,
    createdAt: pr.createdAt,
    updatedAt: pr.updatedAt,
    isDraft: pr.draft,
    isCrossRepository: false,
    maintainerCanModify: false,
    headRefName: pr.head,
    baseRefName: pr.base,
    headRefOid: () => currentHeadSha(state, pr),
    baseRefOid: () => currentBaseSha(state, pr),
    headRef: () => liveRef(pr.head),
    baseRef: () => liveRef(pr.base),
    author: () => actorObject(ctx, pr.user),
    repository: () => repositoryObject(ctx, access),
    mergeable: () => {
      if (pr.state !== 'open') return 'UNKNOWN';
      return mergeabilityOf(state.git, currentBaseSha(state, pr), currentHeadSha(state, pr)).mergeable ? 'MERGEABLE' : 'CONFLICTING';
    },
  };
}

/**
 * GitHub's `Repository` (https://docs.github.com/graphql/reference/objects#repository) of a repository the caller reads
 * (checked by `readableRepository`): what it is (names, owner, visibility, dates), its git data
 * (`defaultBranchRef`, `object`, `ref`, `refs`: an installation access token needs `contents` read) and its pull
 * requests (`pullRequest`, `pullRequests`: `pull_requests` read).
 */
export function repositoryObject(ctx: GraphQLContext, access: RepoAccess): GraphQLObject {
  const { repo, state } = access;
  const { git } = state;
  const contents = () => requireRead(ctx, repo, 'contents');
  return {
    __typename: 'Repository',
    id: nodeId('Repository', repo.id),
    databaseId: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner}/${repo.name}`,
    description: repo.description ?? null,
    owner: () => ownerObject(ctx, repo),
    url: repoHtml(ctx, repo),
    createdAt: createdAt(repo),
    isPrivate: repo.private,
    isArchived: repo.archived,
    isFork: repo.fork,
    isEmpty: () => git.isEmpty(),
    visibility: repo.private ? 'PRIVATE' : 'PUBLIC',
    defaultBranchRef: () => {
      contents();
      const name = `refs/heads/${repo.defaultBranch}`;
      return git.ref(name) === undefined ? null : refObject(ctx, access, name);
    },
    object: (args: Args) => {
      contents();
      if (typeof args.oid === 'string') return gitObjectById(ctx, access, args.oid.toLowerCase());
      if (typeof args.expression === 'string') return objectAtExpression(ctx, access, args.expression);
      return null;
    },
    ref: (args: Args) => {
      contents();
      const wanted = String(args.qualifiedName);
      const candidates = wanted.startsWith('refs/') ? [wanted] : [`refs/heads/${wanted}`, `refs/tags/${wanted}`];
      const found = candidates.find((name) => git.ref(name) !== undefined);
      return found === undefined ? null : refObject(ctx, access, found);
    },
    refs: (args: Args) => {
      contents();
      const prefix = String(args.refPrefix);
      const query = typeof args.query === 'string' ? args.query : '';
      const order = (args.orderBy ?? { field: 'ALPHABETICAL', direction: args.direction ?? 'ASC' }) as { field: string; direction: string };
      const dateOf = (sha: string) => Date.parse(git.commit(sha)?.committer.date ?? '') || 0;
      const refs = git
        .allRefs()
        .filter(({ name }) => name.startsWith(prefix) && name.slice(prefix.length).includes(query))
        .sort((a, b) => {
          const compared =
            order.field === 'TAG_COMMIT_DATE' ? dateOf(a.sha) - dateOf(b.sha) || (a.name < b.name ? -1 : 1) : a.name < b.name ? -1 : 1;
          return order.direction === 'DESC' ? -compared : compared;
        });
      return connection(refs, args as ConnectionArgs, ({ name }) => refObject(ctx, access, name, prefix));
    },
    pullRequest: (args: Args) => {
      requireRead(ctx, repo, 'pull_requests');
      const pr = state.pulls.find((candidate) => candidate.number === args.number);
      if (!pr) throw new GitHubGraphQLError('NOT_FOUND', `Could not resolve to a PullRequest with the number of ${String(args.number)}.`);
      return pullRequestObject(ctx, access, pr);
    },
    pullRequests: (args: Args) => {
      requireRead(ctx, repo, 'pull_requests');
      return pullRequestConnection(ctx, access, state.pulls, args);
    },
  };
}
