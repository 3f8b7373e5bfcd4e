import { createsContent } from '@switchyard/contracts';
import type { Request, RequestHandler, Response } from 'express';
import { installationCredential } from './apps/access.ts';
import { looksLikeJwt, verifyAppJwt } from './apps/jwt.ts';
import { jwtRefused, notAccessibleByIntegration } from './apps/messages.ts';
import { grants, installationPermissionFor } from './apps/permissions.ts';
import { apiBaseOf, badCredentials, DOCS, GitHubApiError, notFound, sendJson, setRateLimitRefund, tokenOf } from './github-http.ts';
import { paginate } from './pagination.ts';
import type { RateLimiter, RateLimitState } from './rate-limit.ts';
import { rateLimitHeaders } from './rate-limit.ts';
import type { EmulatorState, RepoState } from './repo-state.ts';
import type { Urls } from './representations.ts';
import { noteLimited } from './request-counter.ts';
import { secondaryLimitRefusal } from './secondary-limits/enforce.ts';
import type { SecondaryLimiter } from './secondary-limits/limiter.ts';
import type { RepoRole } from './seed.ts';
import type { WebhookSender } from './webhooks.ts';
import type { EmulatedAccount, EmulatedCredential, EmulatedRepo, EmulatedUser, World } from './world.ts';

/** What the routes need: the indexed seed, the writable state, the rate limiters and the web root for `html_url`s. */
export interface RouteContext {
  world: World;
  /** Git data, pull requests, issues, milestones, labels, comments and statuses of this emulator instance. */
  state: EmulatorState;
  /** Per authenticated user (the seed's `rateLimit`). */
  limiter: RateLimiter;
  /** Per authenticated user for `POST /graphql`, a separate budget as on GitHub (the seed's `rateLimit` too). */
  graphqlLimiter: RateLimiter;
  /** Per client address for requests without valid credentials (GitHub: 60 an hour). */
  anonymousLimiter: RateLimiter;
  htmlBaseUrl: string;
  /** Where webhook events go (a no-op without a configured URL). */
  webhooks: WebhookSender;
  /** How long an installation access token lives, in ms (GitHub: one hour). */
  installationTokenTtlMs: number;
  /** GitHub's secondary limits per caller (`secondary-limits/`), or undefined: off (the default). */
  secondaryLimiter: SecondaryLimiter | undefined;
}

/** The credential {@link authenticate} found for this request. */
export const credentialOf = (res: Response): EmulatedCredential => res.locals.credential as EmulatedCredential;
/** The user of the request's token. */
export const userOf = (res: Response): EmulatedUser => credentialOf(res).user;

/**
 * What GitHub says an endpoint accepts, for the headers of an authenticated answer: `X-Accepted-OAuth-Scopes` to a
 * classic token, `X-Accepted-GitHub-Permissions` to a fine-grained one
 * (https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api#insufficient-permission-errors).
 */
function acceptedBy(method: string, path: string): { scopes: string; permissions: string } {
  if (path === '/user') return { scopes: '', permissions: '' };
  if (path === '/user/orgs' || path.startsWith('/user/memberships/orgs/')) {
    return { scopes: 'admin:org, read:org, repo, user, write:org', permissions: '' };
  }
  const reading = method === 'GET' || method === 'HEAD';
  if (/^\/repos\/[^/]+\/[^/]+\/(statuses|commits\/.+\/(status|check-runs)$)/.test(path))
    return { scopes: '', permissions: reading ? 'statuses=read' : 'statuses=write' };
  if (/^\/repos\/[^/]+\/[^/]+\/(contents|git|branches|compare|commits)/.test(path)) {
    return { scopes: '', permissions: reading ? 'contents=read' : 'contents=write' };
  }
  if (/^\/repos\/[^/]+\/[^/]+\/pulls/.test(path))
    return { scopes: '', permissions: reading ? 'pull_requests=read' : 'pull_requests=write' };
  if (/^\/repos\/[^/]+\/[^/]+\/(issues|labels|milestones|assignees)/.test(path))
    return { scopes: '', permissions: reading ? 'issues=read' : 'issues=write' };
  if (path.startsWith('/advisories') || path.startsWith('/user/installations')) return { scopes: '', permissions: '' };
  return { scopes: '', permissions: 'metadata=read' };
}

/** The emulator's REST root as this request reached it, and the web root. */
export const urlsOf = (req: Request, context: RouteContext): Urls => ({ apiBase: apiBaseOf(req), htmlBase: context.htmlBaseUrl });

/**
 * Counts a request against `limiter` under `key` (a user's or a client address's), sets the `x-ratelimit-*` headers to
 * match, and arranges for the count to be given back, headers too, when the answer is a `304 Not Modified`.
 * @returns the limit's state after the count (`exceeded` when the request is over it)
 */
export function countRequest(res: Response, limiter: RateLimiter, key: string): RateLimitState {
  const state = limiter.take(key);
  res.set(rateLimitHeaders(state));
  setRateLimitRefund(res, () => res.set(rateLimitHeaders(limiter.refund(key))));
  return state;
}

/**
 * The one place a token becomes a caller: a seed user's token (its user and grant), else an installation access token
 * that is valid now (the App's bot user and the installation's grant, see `apps/access.ts`). Undefined for anything
 * else (GitHub's 401 `Bad credentials`: unknown, revoked, expired); a {@link GitHubApiError} to throw for a token of a
 * suspended installation.
 */
export function resolveCredential(context: RouteContext, token: string | undefined): EmulatedCredential | GitHubApiError | undefined {
  if (token === undefined) return undefined;
  return context.world.credential(token) ?? installationCredential(context.world, context.state.apps, token, context.state.now());
}

/** The rate-limit key of a credential: per user, or per installation for an installation access token (as GitHub counts). */
export function rateLimitKeyOf(credential: EmulatedCredential): { key: string; exceeded: string } {
  const { grant, user } = credential;
  return grant.kind === 'installation'
    ? { key: `installation:${grant.installationId}`, exceeded: `API rate limit exceeded for installation ID ${grant.installationId}.` }
    : { key: `user:${user.id}`, exceeded: `API rate limit exceeded for user ID ${user.id}.` };
}

/**
 * GitHub's message of a primary rate limit refusal for the caller of `req`
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit): `API rate
 * limit exceeded for user ID <id>.` for a user's token, `… for installation ID <id>.` for an installation access token
 * ({@link rateLimitKeyOf}), and `… for <address>.` for a request without a token or with one that names no caller now.
 */
export function primaryLimitMessage(context: RouteContext, req: Request): string {
  const credential = resolveCredential(context, tokenOf(req));
  return credential === undefined || credential instanceof GitHubApiError
    ? `API rate limit exceeded for ${req.ip}.`
    : rateLimitKeyOf(credential).exceeded;
}

/**
 * The caller key of a request's token for the rate limits ({@link rateLimitKeyOf}: `user:<id>`, `installation:<id>`),
 * or undefined when it names no caller now (no token, an unknown, expired or suspended one, an App's JWT).
 */
export function callerKeyOf(context: RouteContext, req: Request): string | undefined {
  const credential = resolveCredential(context, tokenOf(req));
  return credential === undefined || credential instanceof GitHubApiError ? undefined : rateLimitKeyOf(credential).key;
}

/**
 * Authenticates `Authorization: token <t>` / `Bearer <t>` ({@link resolveCredential}: a seed user's token or an
 * installation access token; missing, unknown or expired → 401 `Bad credentials`), applies GitHub's secondary limits
 * when they are on (`secondary-limits/`: over one → 403 `You have exceeded a secondary rate limit…` with
 * `retry-after`, not counted against the primary limit, no `x-ratelimit-*` headers), counts the request against the
 * user's (or the installation's) rate limit (over it → 403 `API rate limit exceeded`; given back when the answer is a
 * `304 Not Modified`), and sets the `x-ratelimit-*` headers either way, as GitHub does. An App's JWT here (these are not
 * the `/app` endpoints) is refused: one GitHub cannot decode with its messages (401), a valid one 403 `Resource not
 * accessible by integration`; so is an installation access token on the authenticated user's endpoints (`/user…`).
 */
export function authenticate(context: RouteContext): RequestHandler {
  return (req, res, next) => {
    const token = tokenOf(req);
    const credential = resolveCredential(context, token);
    if (credential instanceof GitHubApiError) throw credential;
    if (!credential) {
      res.set(rateLimitHeaders(context.anonymousLimiter.take(`ip:${req.ip}`)));
      if (token !== undefined && looksLikeJwt(token)) {
        const check = verifyAppJwt(token, context.world.apps(), context.state.now());
        throw 'error' in check ? jwtRefused(check.error) : notAccessibleByIntegration();
      }
      throw badCredentials();
    }
    const { grant } = credential;
    const limit = rateLimitKeyOf(credential);
    const refusal = secondaryLimitRefusal(res, context.secondaryLimiter, limit.key, createsContent(req.method, req.path));
    if (refusal) throw refusal;
    const state = countRequest(res, context.limiter, limit.key);
    const accepted = acceptedBy(req.method, req.path);
    if (grant.kind === 'classic') {
      res.set({ 'x-oauth-scopes': grant.scopes.join(', '), 'x-accepted-oauth-scopes': accepted.scopes });
    } else if (accepted.permissions !== '') {
      res.set('x-accepted-github-permissions', accepted.permissions);
    }
    if (state.exceeded) {
      noteLimited(res, 'primary');
      throw new GitHubApiError(403, limit.exceeded, DOCS.rateLimits);
    }
    if (grant.kind === 'installation' && (req.path === '/user' || req.path.startsWith('/user/'))) throw notAccessibleByIntegration();
    res.locals.credential = credential;
    next();
  };
}

/** Sends one page of `all` (each item rendered with `render`) with GitHub's `Link` header and private caching headers. */
export function sendPage<T>(req: Request, res: Response, all: readonly T[], render: (item: T) => unknown): void {
  const { items, link } = paginate(req, all);
  if (link) res.setHeader('link', link);
  res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
  sendJson(res, 200, items.map(render));
}

/** Sends `body` with 200 and private caching headers. */
export function sendOne(res: Response, body: unknown): void {
  res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
  sendJson(res, 200, body);
}

/** The owner account of a seed repo. @throws Error when the seed lacks it (parseSeed rules that out) */
export function ownerOf(world: World, repo: EmulatedRepo): EmulatedAccount {
  const owner = world.account(repo.owner);
  if (!owner) throw new Error(`seed repo ${repo.owner}/${repo.name} has no owner`);
  return owner;
}

/** A repo with the role the caller's token has on it, or undefined when the token cannot see it. */
export function visible(
  world: World,
  credential: EmulatedCredential,
  repo: EmulatedRepo | undefined,
): { repo: EmulatedRepo; role: RepoRole } | undefined {
  if (!repo) return undefined;
  const role = world.roleThrough(credential, repo);
  return role === undefined ? undefined : { repo, role };
}

const roleRank: Record<RepoRole, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

/** A repository the request may act on, with the caller's role and the repository's writable state. */
export interface RepoAccess {
  repo: EmulatedRepo;
  role: RepoRole;
  state: RepoState;
}

/**
 * 403 for a caller whose role does not allow a write: `Resource not accessible by personal access token` for a
 * fine-grained token, `Resource not accessible by integration` for an installation access token, `Must have push
 * access to repository` otherwise (or `message` when given), as GitHub answers.
 */
export function forbidden(res: Response, docs: string, message = 'Must have push access to repository'): GitHubApiError {
  const { kind } = credentialOf(res).grant;
  if (kind === 'installation') return notAccessibleByIntegration(docs);
  return new GitHubApiError(403, kind === 'fine-grained' ? 'Resource not accessible by personal access token' : message, docs);
}

/**
 * The repository `:owner/:repo` of the request, checked as GitHub does: 404 `Not Found` when the token cannot see it;
 * 403 when the caller's role through the token is below `needed` (`Resource not accessible by personal access token`
 * for a fine-grained token, `Must have push access to repository` otherwise), and when a write reaches an archived
 * repository (`Repository was archived so is read-only.`). An installation access token must also hold the permission
 * the request needs on a repository it covers (`installationPermissionFor` of `apps/permissions.ts`: `contents`,
 * `pull_requests`, `issues`, `statuses`, …), and may only read (GET, HEAD) a public one it does not cover, else 403
 * `Resource not accessible by integration`.
 */
export function repoAccess(req: Request, res: Response, context: RouteContext, needed: RepoRole, docs: string): RepoAccess {
  const credential = credentialOf(res);
  const found = visible(context.world, credential, context.world.repoByName(String(req.params.owner), String(req.params.repo)));
  if (!found) throw notFound(docs);
  const { grant } = credential;
  if (grant.kind === 'installation') {
    const permission = installationPermissionFor(req.method, req.path);
    // A public repository outside the installation is only read; one it covers needs the request's permission.
    const reading = req.method === 'GET' || req.method === 'HEAD';
    if (grant.covers(found.repo) ? !grants(grant.permissions, permission) : !reading) {
      throw notAccessibleByIntegration(docs);
    }
  }
  if (roleRank[found.role] < roleRank[needed]) throw forbidden(res, docs);
  const access = { ...found, state: context.state.of(found.repo) };
  if (needed !== 'read') refuseArchived(access, docs);
  return access;
}

/**
 * Refuses a write to an archived repository as GitHub does, for writes any reader may make (an issue, a comment).
 * @throws GitHubApiError 403 `Repository was archived so is read-only.`
 */
export function refuseArchived(access: { repo: EmulatedRepo }, docs: string): void {
  if (access.repo.archived) throw new GitHubApiError(403, 'Repository was archived so is read-only.', docs);
}
