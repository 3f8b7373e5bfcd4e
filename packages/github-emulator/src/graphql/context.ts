import type { Request, Response } from 'express';
import { APP_MESSAGES } from '../apps/messages.ts';
import { grants } from '../apps/permissions.ts';
import type { RateLimitState } from '../rate-limit.ts';
import type { Urls } from '../representations.ts';
import { type RepoAccess, type RouteContext, visible } from '../route-helpers.ts';
import type { RepoRole } from '../seed.ts';
import type { EmulatedCredential, EmulatedRepo } from '../world.ts';
import type { QueryCost } from './cost.ts';
import { GitHubGraphQLError } from './errors.ts';

/**
 * What every resolver of one `POST /graphql` request gets: the emulator's routes context, the caller's credential, the
 * URLs of the answer, the request and response (the webhooks of a mutation are sent as the REST routes send them), and
 * what the query costs with the GraphQL limit's state once it was charged (`rateLimit` answers them).
 */
export interface GraphQLContext {
  route: RouteContext;
  credential: EmulatedCredential;
  urls: Urls;
  req: Request;
  res: Response;
  cost: QueryCost;
  limit: RateLimitState;
}

/** A repository's permission an installation access token needs for a field or a mutation. */
export type RepositoryPermission = 'contents' | 'pull_requests';

const roleRank: Record<RepoRole, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** GitHub's `NOT_FOUND` for a repository named by owner and name. */
export function repositoryNotFound(nameWithOwner: string): GitHubGraphQLError {
  return new GitHubGraphQLError('NOT_FOUND', `Could not resolve to a Repository with the name '${nameWithOwner}'.`);
}

/** GitHub's `NOT_FOUND` for a global node id that names nothing the caller can see. */
export function nodeNotFound(id: string): GitHubGraphQLError {
  return new GitHubGraphQLError('NOT_FOUND', `Could not resolve to a node with the global id of '${id}'.`);
}

/**
 * The repository `owner/name` as the caller may read it, with its role and state: a repository the token cannot see is
 * GitHub's `NOT_FOUND` (`Could not resolve to a Repository with the name 'owner/name'.`); an installation access token
 * on a repository of its installation needs `contents` or `pull_requests` read (else `FORBIDDEN`, `Resource not
 * accessible by integration`); on a public one it does not cover it reads as anyone.
 * @throws GitHubGraphQLError `NOT_FOUND`, `FORBIDDEN`
 */
export function readableRepository(ctx: GraphQLContext, owner: string, name: string): RepoAccess {
  const { world, state } = ctx.route;
  const found = visible(world, ctx.credential, world.repoByName(owner, name));
  if (!found) throw repositoryNotFound(`${owner}/${name}`);
  const { grant } = ctx.credential;
  if (
    grant.kind === 'installation' &&
    grant.covers(found.repo) &&
    !grants(grant.permissions, { names: ['contents', 'pull_requests'], level: 'read' })
  ) {
    throw new GitHubGraphQLError('FORBIDDEN', APP_MESSAGES.notAccessibleByIntegration);
  }
  return { ...found, state: state.of(found.repo) };
}

/**
 * Checks that the caller may read `permission`'s part of a repository it reads (git data: `contents`; pull requests:
 * `pull_requests`): only an installation access token on a repository of its installation can lack it.
 * @throws GitHubGraphQLError `FORBIDDEN` `Resource not accessible by integration`
 */
export function requireRead(ctx: GraphQLContext, repo: EmulatedRepo, permission: RepositoryPermission): void {
  const { grant } = ctx.credential;
  if (grant.kind === 'installation' && grant.covers(repo) && !grants(grant.permissions, { names: [permission], level: 'read' })) {
    throw new GitHubGraphQLError('FORBIDDEN', APP_MESSAGES.notAccessibleByIntegration);
  }
}

/**
 * The repository a mutation named `mutation` (`CreateRef`, …) writes, checked as the REST routes check a write: it must
 * be visible to the token (else `notFound()`, the mutation's own `NOT_FOUND`); an installation access token must cover
 * it and hold `permission` write, else `FORBIDDEN` `Resource not accessible by integration`; the caller's role must be
 * write or more, else `FORBIDDEN`: `Resource not accessible by personal access token` for a fine-grained token, GitHub's
 * `<login> does not have the correct permissions to execute \`<mutation>\`` otherwise; an archived repository is
 * `FORBIDDEN` `Repository was archived so is read-only.`
 * @throws GitHubGraphQLError as above
 */
export function writableRepository(
  ctx: GraphQLContext,
  repo: EmulatedRepo | undefined,
  permission: RepositoryPermission,
  mutation: string,
  notFound: () => GitHubGraphQLError,
): RepoAccess {
  const { world, state } = ctx.route;
  const found = visible(world, ctx.credential, repo);
  if (!found) throw notFound();
  const { grant, user } = ctx.credential;
  if (grant.kind === 'installation' && !(grant.covers(found.repo) && grants(grant.permissions, { names: [permission], level: 'write' }))) {
    throw new GitHubGraphQLError('FORBIDDEN', APP_MESSAGES.notAccessibleByIntegration);
  }
  if (roleRank[found.role] < roleRank.write) {
    throw new GitHubGraphQLError(
      'FORBIDDEN',
      grant.kind === 'fine-grained'
        ? 'Resource not accessible by personal access token'
        : `${user.login} does not have the correct permissions to execute \`${mutation}\``,
    );
  }
  if (found.repo.archived) throw new GitHubGraphQLError('FORBIDDEN', 'Repository was archived so is read-only.');
  return { ...found, state: state.of(found.repo) };
}

/**
 * What a legacy global node id holds (GitHub's `base64("0<type length>:<Type><key>")`, the ids the emulator gives
 * repositories, refs and git objects): its type and key, or undefined for anything else.
 */
export function decodeNodeId(id: string): { type: string; key: string } | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return undefined;
  const match = /^0(\d{1,2}):(.*)$/s.exec(Buffer.from(id, 'base64').toString('utf8'));
  if (!match) return undefined;
  const length = Number(match[1]);
  const rest = match[2] ?? '';
  return rest.length > length ? { type: rest.slice(0, length), key: rest.slice(length) } : undefined;
}

/** The repository a `Repository` node id names (whether or not the caller may see it), or undefined. */
export function repositoryOfNodeId(ctx: GraphQLContext, id: string): EmulatedRepo | undefined {
  const decoded = decodeNodeId(id);
  if (decoded?.type !== 'Repository' || !/^\d{1,15}$/.test(decoded.key)) return undefined;
  return ctx.route.world.repoById(Number(decoded.key));
}

/** The repository and full ref name a `Ref` node id names (`<repository id>:<ref>`), or undefined. */
export function refOfNodeId(ctx: GraphQLContext, id: string): { repo: EmulatedRepo; name: string } | undefined {
  const decoded = decodeNodeId(id);
  const match = decoded?.type === 'Ref' ? /^(\d{1,15}):(refs\/.+)$/s.exec(decoded.key) : null;
  const repo = match ? ctx.route.world.repoById(Number(match[1])) : undefined;
  return repo && match?.[2] ? { repo, name: match[2] } : undefined;
}
