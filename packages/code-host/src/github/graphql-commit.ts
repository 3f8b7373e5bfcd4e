import { CodeHostError } from '../errors.ts';
import type { RepoRef } from '../port.ts';
import { graphQLAnswer } from './graphql-answer.ts';

/**
 * A commit of text files through GitHub's GraphQL API (https://docs.github.com/graphql/reference/mutations): one
 * document holding `createRef` (the branch at the base commit) and then `createCommitOnBranch` (the commit on it, with
 * `expectedHeadOid` the base commit), so a new branch with its commit costs one request. Mutation fields run one after
 * the other in the order written (https://spec.graphql.org/October2021/#sec-Mutation); a field that fails is null and
 * the next one still runs (https://spec.graphql.org/October2021/#sec-Handling-Field-Errors), so a `createRef` refused
 * because the branch exists leaves `createCommitOnBranch` to run on that branch: its `expectedHeadOid` (the base) then
 * refuses it unless that branch is exactly at the base, where the commit is appended (the branch ends as a new branch
 * with the commit would have: at the commit, made on the base).
 */

/** The `fileChanges` of `createCommitOnBranch` (GitHub's `FileChanges`): each addition's `contents` base64. */
export interface GraphQLFileChanges {
  additions: Array<{ path: string; contents: string }>;
  deletions: Array<{ path: string }>;
}

/** The query that reads a repository's global node id (`createRef` takes the repository by it). */
export const REPOSITORY_ID_QUERY = 'query RepositoryId($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id } }';

/**
 * The document that makes a branch with one commit: `createRef(input: $ref)` then `createCommitOnBranch(input:
 * $commit)` (https://docs.github.com/graphql/reference/mutations#createref,
 * https://docs.github.com/graphql/reference/mutations#createcommitonbranch).
 */
export const CREATE_BRANCH_WITH_COMMIT_MUTATION =
  'mutation CreateBranchWithCommit($ref: CreateRefInput!, $commit: CreateCommitOnBranchInput!) {\n' +
  '  createRef(input: $ref) { ref { name } }\n' +
  '  createCommitOnBranch(input: $commit) { commit { oid } }\n' +
  '}';

/** The document that appends one commit to an existing branch while its head is `expectedHeadOid` (a compare-and-swap). */
export const COMMIT_ON_BRANCH_MUTATION =
  'mutation CommitOnBranch($commit: CreateCommitOnBranchInput!) {\n  createCommitOnBranch(input: $commit) { commit { oid } }\n}';

/**
 * `fileChanges` of `createCommitOnBranch` for `files` (path → UTF-8 text, or null to delete): additions with their text
 * base64-encoded (GitHub's `Base64String`), deletions by path.
 */
export function fileChangesOf(files: ReadonlyArray<readonly [string, string | null]>): GraphQLFileChanges {
  const additions: GraphQLFileChanges['additions'] = [];
  const deletions: GraphQLFileChanges['deletions'] = [];
  for (const [path, content] of files) {
    if (content === null) deletions.push({ path });
    else additions.push({ path, contents: Buffer.from(content, 'utf8').toString('base64') });
  }
  return { additions, deletions };
}

/**
 * GitHub's `CommitMessage` of `message`: its first line the `headline`, the rest (after the blank line) the `body`,
 * as git splits a message.
 */
export function commitMessageOf(message: string): { headline: string; body?: string } {
  const newline = message.indexOf('\n');
  if (newline < 0) return { headline: message };
  const body = message
    .slice(newline + 1)
    .replace(/^\n+/, '')
    .trimEnd();
  return body === '' ? { headline: message.slice(0, newline) } : { headline: message.slice(0, newline), body };
}

/** What a commit request's variables hold (see {@link commitRequest}). */
export interface CommitRequestInput {
  repo: RepoRef;
  branch: string;
  /** The branch's head as expected (`expectedHeadOid`): the base of a new branch, or the head a move compares with. */
  expectedHeadOid: string;
  message: string;
  changes: GraphQLFileChanges;
  /** Make the branch first (`createRef` at `expectedHeadOid`), with the repository's global node id. */
  create?: { repositoryId: string };
}

/**
 * The body of `POST /graphql` for a commit: {@link CREATE_BRANCH_WITH_COMMIT_MUTATION} when the branch is to be made,
 * else {@link COMMIT_ON_BRANCH_MUTATION}; the branch named by `repositoryNameWithOwner` and `branchName`.
 */
export function commitRequest(input: CommitRequestInput): { query: string; variables: Record<string, unknown> } {
  const commit = {
    branch: { repositoryNameWithOwner: `${input.repo.owner}/${input.repo.name}`, branchName: input.branch },
    expectedHeadOid: input.expectedHeadOid,
    message: commitMessageOf(input.message),
    fileChanges: input.changes,
  };
  if (!input.create) return { query: COMMIT_ON_BRANCH_MUTATION, variables: { commit } };
  return {
    query: CREATE_BRANCH_WITH_COMMIT_MUTATION,
    variables: {
      ref: { repositoryId: input.create.repositoryId, name: `refs/heads/${input.branch}`, oid: input.expectedHeadOid },
      commit,
    },
  };
}

/**
 * The repository's global node id from an answer to {@link REPOSITORY_ID_QUERY}.
 * @throws CodeHostError `not_found` (GitHub's `NOT_FOUND`: no such repository, or one the token cannot see),
 *   `rate_limited`, `invalid` (any other error), `unavailable` (a body that is not such an answer)
 */
export function repositoryIdOf(body: unknown, headers: Record<string, string | number | undefined>, what: string): string {
  const { errors, data, said } = graphQLAnswer(body, headers, what);
  if (errors.some((error) => error?.type === 'NOT_FOUND')) {
    throw new CodeHostError('not_found', `GitHub ${what}: not found (${said})`, { status: 200 });
  }
  if (errors.length > 0) throw new CodeHostError('invalid', `GitHub ${what}: the query was refused (${said})`, { status: 200 });
  const id = (data?.repository as { id?: unknown } | null | undefined)?.id;
  if (typeof id !== 'string') throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
  return id;
}

/** Whether a commit answer's error says the repository's node id names nothing (a repository recreated: the id is stale). */
export function isUnknownNodeId(error: unknown): boolean {
  return (
    error instanceof CodeHostError && error.kind === 'not_found' && /Could not resolve to a node with the global id/i.test(error.message)
  );
}

/**
 * The new commit's oid from an answer to {@link commitRequest}'s document: `createCommitOnBranch.commit.oid` (also
 * when `createRef` failed because the branch existed exactly at the base, see the file's comment). A refusal is mapped
 * as the REST path's are (`toCodeHostError`), from GitHub's error `type`
 * (https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api for `RATE_LIMITED`):
 * - `createRef`'s `A ref named "…" already exists` (`UNPROCESSABLE`) → `conflict` (REST: 422 "Reference already exists");
 * - `STALE_DATA` (`Expected branch to point to "<oid>" but it did not.`: the head is not `expectedHeadOid`) →
 *   `conflict` (REST: 422 "Update is not a fast forward"), also when only the message says so;
 * - `NOT_FOUND` (a repository the token cannot see, a repository node id that names nothing, a base commit or branch
 *   that does not exist) → `not_found`; `FORBIDDEN` (no write access, an archived repository) → `forbidden`;
 * - `RATE_LIMITED` → `rate_limited` (seconds from `x-ratelimit-reset`, else 60);
 * - any other error (`UNPROCESSABLE`: a malformed path, a deletion of a file that does not exist; a document refused
 *   by validation) → `invalid`.
 * Every error is named in the message. All carry status 200 (GitHub answers GraphQL refusals with 200).
 * @throws CodeHostError as above; `unavailable` for a body that is not such an answer
 */
export function committedOid(body: unknown, headers: Record<string, string | number | undefined>, what: string): string {
  const { errors, data, said } = graphQLAnswer(body, headers, what);
  const oid = (data?.createCommitOnBranch as { commit?: { oid?: unknown } | null } | null | undefined)?.commit?.oid;
  if (typeof oid === 'string' && /^[0-9a-f]{40}$/i.test(oid)) return oid.toLowerCase();
  if (errors.length === 0) throw new CodeHostError('unavailable', `GitHub ${what}: unexpected response body`, { status: 200 });
  const message = `GitHub ${what}: ${said}`;
  const first = (path: string) => errors.find((error) => Array.isArray(error?.path) && error.path[0] === path);
  // The first mutation's refusal says why: the branch exists, or the repository cannot be written.
  const refusal = first('createRef') ?? first('createCommitOnBranch') ?? errors[0];
  const type = refusal?.type;
  const text = String(refusal?.message ?? '');
  if (type === 'STALE_DATA' || /already exists|Expected branch to point to/i.test(text)) {
    return throwError('conflict', `${message} (refused by the repository's state)`);
  }
  if (type === 'NOT_FOUND') return throwError('not_found', `${message} (not found)`);
  if (type === 'FORBIDDEN') return throwError('forbidden', `${message} (forbidden)`);
  return throwError('invalid', `${message} (rejected as invalid)`);
}

function throwError(kind: 'conflict' | 'not_found' | 'forbidden' | 'invalid', message: string): never {
  throw new CodeHostError(kind, message, { status: 200 });
}
