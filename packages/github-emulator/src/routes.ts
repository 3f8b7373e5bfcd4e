import type { Express, Request, RequestHandler, Response } from 'express';
import { type SeedFileContent, sendRawFile } from './files.ts';
import {
  apiBaseOf,
  badCredentials,
  DOCS,
  GitHubApiError,
  notFound,
  queryValue,
  sendJson,
  tokenOf,
  validationFailed,
} from './github-http.ts';
import { paginate } from './pagination.ts';
import type { RateLimiter } from './rate-limit.ts';
import { rateLimitHeaders } from './rate-limit.ts';
import {
  contentFile,
  createdAt,
  directoryEntry,
  fullRepository,
  minimalRepository,
  organizationSimple,
  orgMembership,
  privateUser,
  repository,
  type Urls,
} from './representations.ts';
import type { RepoRole } from './seed.ts';
import type { Affiliation, EmulatedAccount, EmulatedCredential, EmulatedRepo, EmulatedUser, World } from './world.ts';

/** What the routes need: the indexed seed, the rate limiters and the web root for `html_url`s. */
export interface RouteContext {
  world: World;
  /** Per authenticated user (the seed's `rateLimit`). */
  limiter: RateLimiter;
  /** Per client address for requests without valid credentials (GitHub: 60 an hour). */
  anonymousLimiter: RateLimiter;
  htmlBaseUrl: string;
}

const credentialOf = (res: Response): EmulatedCredential => res.locals.credential as EmulatedCredential;
const userOf = (res: Response): EmulatedUser => credentialOf(res).user;

/**
 * What GitHub says an endpoint accepts, for the headers of an authenticated answer: `X-Accepted-OAuth-Scopes` to a
 * classic token, `X-Accepted-GitHub-Permissions` to a fine-grained one
 * (https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api#insufficient-permission-errors).
 */
function acceptedBy(path: string): { scopes: string; permissions: string } {
  if (path === '/user') return { scopes: '', permissions: '' };
  if (path === '/user/orgs' || path.startsWith('/user/memberships/orgs/')) {
    return { scopes: 'admin:org, read:org, repo, user, write:org', permissions: '' };
  }
  if (/^\/repos\/[^/]+\/[^/]+\/contents/.test(path)) return { scopes: '', permissions: 'contents=read' };
  return { scopes: '', permissions: 'metadata=read' };
}
const urlsOf = (req: Request, context: RouteContext): Urls => ({ apiBase: apiBaseOf(req), htmlBase: context.htmlBaseUrl });

/**
 * Authenticates `Authorization: token <t>` / `Bearer <t>` against the seed's tokens (missing or unknown → 401
 * `Bad credentials`), counts the request against the user's rate limit (over it → 403 `API rate limit exceeded`),
 * and sets the `x-ratelimit-*` headers either way, as GitHub does.
 */
function authenticate(context: RouteContext): RequestHandler {
  return (req, res, next) => {
    const token = tokenOf(req);
    const credential = token === undefined ? undefined : context.world.credential(token);
    if (!credential) {
      res.set(rateLimitHeaders(context.anonymousLimiter.take(`ip:${req.ip}`)));
      throw badCredentials();
    }
    const { user, grant } = credential;
    const state = context.limiter.take(`user:${user.id}`);
    res.set(rateLimitHeaders(state));
    const accepted = acceptedBy(req.path);
    if (grant.kind === 'classic') {
      res.set({ 'x-oauth-scopes': grant.scopes.join(', '), 'x-accepted-oauth-scopes': accepted.scopes });
    } else if (accepted.permissions !== '') {
      res.set('x-accepted-github-permissions', accepted.permissions);
    }
    if (state.exceeded) throw new GitHubApiError(403, `API rate limit exceeded for user ID ${user.id}.`, DOCS.rateLimits);
    res.locals.credential = credential;
    next();
  };
}

/** Sends one page of `all` (each item rendered with `render`) with GitHub's `Link` header and private caching headers. */
function sendPage<T>(req: Request, res: Response, all: readonly T[], render: (item: T) => unknown): void {
  const { items, link } = paginate(req, all);
  if (link) res.setHeader('link', link);
  res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
  sendJson(res, 200, items.map(render));
}

function sendOne(res: Response, body: unknown): void {
  res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
  sendJson(res, 200, body);
}

/** A query parameter that must be one of `allowed` (422 otherwise), or undefined when absent. */
function oneOf<T extends string>(req: Request, name: string, allowed: readonly T[], docs: string): T | undefined {
  const value = queryValue(req, name);
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw validationFailed(name, `${name} must be one of ${allowed.join(', ')}`, docs);
  return value as T;
}

type Sort = 'created' | 'updated' | 'pushed' | 'full_name';

/** Orders repos as GitHub does: by `sort`; `direction` defaults to asc for full_name and desc otherwise; ties by id. */
function sortRepos<T extends { repo: EmulatedRepo }>(entries: T[], sort: Sort, direction: 'asc' | 'desc' | undefined): T[] {
  const dir = (direction ?? (sort === 'full_name' ? 'asc' : 'desc')) === 'asc' ? 1 : -1;
  const key = (repo: EmulatedRepo) => (sort === 'full_name' ? `${repo.owner}/${repo.name}`.toLowerCase() : Date.parse(createdAt(repo)));
  return entries.sort((a, b) => {
    const ka = key(a.repo);
    const kb = key(b.repo);
    return (ka < kb ? -1 : ka > kb ? 1 : a.repo.id - b.repo.id) * dir;
  });
}

function ownerOf(world: World, repo: EmulatedRepo): EmulatedAccount {
  const owner = world.account(repo.owner);
  if (!owner) throw new Error(`seed repo ${repo.owner}/${repo.name} has no owner`);
  return owner;
}

/** A repo with the role the caller's token has on it, or undefined when the token cannot see it. */
function visible(
  world: World,
  credential: EmulatedCredential,
  repo: EmulatedRepo | undefined,
): { repo: EmulatedRepo; role: RepoRole } | undefined {
  if (!repo) return undefined;
  const role = world.roleThrough(credential, repo);
  return role === undefined ? undefined : { repo, role };
}

const SORTS = ['created', 'updated', 'pushed', 'full_name'] as const;
const DIRECTIONS = ['asc', 'desc'] as const;

/** Media types that ask the contents endpoint for the raw file (https://docs.github.com/rest/repos/contents#get-repository-content). */
const rawAccept = /application\/vnd\.github(?:\.v3)?\.raw/i;

/**
 * Mounts GitHub's REST endpoints the port uses (GET and HEAD only):
 * `GET /user`, `GET /user/orgs`, `GET /user/repos`, `GET /orgs/{org}/repos`, `GET /repositories/{id}` and
 * `GET /repos/{owner}/{repo}/contents/{path}`.
 */
export function mountGitHubRoutes(app: Express, context: RouteContext): void {
  const { world } = context;
  const auth = authenticate(context);

  // https://docs.github.com/rest/users/users#get-the-authenticated-user
  app.get('/user', auth, (req, res) => {
    const user = userOf(res);
    const owned = world.reposOf(user.login);
    sendOne(
      res,
      privateUser(urlsOf(req, context), user, {
        publicRepos: owned.filter((r) => !r.private).length,
        privateRepos: owned.filter((r) => r.private).length,
      }),
    );
  });

  // https://docs.github.com/rest/orgs/orgs#list-organizations-for-the-authenticated-user
  app.get('/user/orgs', auth, (req, res) => {
    const urls = urlsOf(req, context);
    sendPage(req, res, world.orgsOf(userOf(res)), (org) => organizationSimple(urls, org));
  });

  // https://docs.github.com/rest/orgs/members#get-an-organization-membership-for-the-authenticated-user
  app.get('/user/memberships/orgs/:org', auth, (req, res) => {
    const user = userOf(res);
    const login = String(req.params.org);
    const role = world.orgRole(user, login);
    const org = world.orgsOf(user).find((candidate) => candidate.login.toLowerCase() === login.toLowerCase());
    if (role === undefined || org === undefined) throw notFound(DOCS.orgMembership);
    sendOne(res, orgMembership(urlsOf(req, context), org, user, role));
  });

  // https://docs.github.com/rest/repos/repos#list-repositories-for-the-authenticated-user
  app.get('/user/repos', auth, (req, res) => {
    const user = userOf(res);
    const docs = DOCS.userRepos;
    const type = oneOf(req, 'type', ['all', 'owner', 'public', 'private', 'member'] as const, docs);
    let visibility = oneOf(req, 'visibility', ['all', 'public', 'private'] as const, docs);
    const affiliationParam = queryValue(req, 'affiliation');
    if (type !== undefined && (visibility !== undefined || affiliationParam !== undefined)) {
      throw validationFailed('type', 'If you specify visibility or affiliation, you cannot specify type.', docs);
    }
    const allAffiliations: Affiliation[] = ['owner', 'collaborator', 'organization_member'];
    let affiliations = new Set<Affiliation>(allAffiliations);
    if (affiliationParam !== undefined) {
      const listed = affiliationParam.split(',').map((a) => a.trim());
      const bad = listed.find((a) => !(allAffiliations as string[]).includes(a));
      if (bad !== undefined) throw validationFailed('affiliation', `affiliation must be a list of ${allAffiliations.join(', ')}`, docs);
      affiliations = new Set(listed as Affiliation[]);
    }
    if (type === 'owner') affiliations = new Set(['owner']);
    if (type === 'member') affiliations = new Set(['collaborator', 'organization_member']);
    if (type === 'public' || type === 'private') visibility = type;
    const sort = oneOf(req, 'sort', SORTS, docs) ?? 'full_name';
    const direction = oneOf(req, 'direction', DIRECTIONS, docs);
    const entries = world
      .repos()
      .filter((repo) => [...world.affiliations(user, repo)].some((a) => affiliations.has(a)))
      .filter((repo) => visibility === undefined || visibility === 'all' || repo.private === (visibility === 'private'))
      .flatMap((repo) => visible(world, credentialOf(res), repo) ?? []);
    const urls = urlsOf(req, context);
    sendPage(req, res, sortRepos(entries, sort, direction), ({ repo, role }) => repository(urls, repo, ownerOf(world, repo), role));
  });

  // https://docs.github.com/rest/repos/repos#list-organization-repositories
  app.get('/orgs/:org/repos', auth, (req, res) => {
    const user = userOf(res);
    const docs = DOCS.orgRepos;
    const account = world.account(String(req.params.org));
    if (account?.kind !== 'org') throw notFound(docs);
    const type = oneOf(req, 'type', ['all', 'public', 'private', 'forks', 'sources', 'member'] as const, docs) ?? 'all';
    const sort = oneOf(req, 'sort', SORTS, docs) ?? 'created';
    const direction = oneOf(req, 'direction', DIRECTIONS, docs);
    const entries = world
      .reposOf(account.org.login)
      .flatMap((repo) => visible(world, credentialOf(res), repo) ?? [])
      .filter(({ repo }) => {
        switch (type) {
          case 'public':
            return !repo.private;
          case 'private':
            return repo.private;
          case 'forks':
            return repo.fork;
          case 'sources':
            return !repo.fork;
          case 'member':
            return world.affiliations(user, repo).size > 0;
          default:
            return true;
        }
      });
    const urls = urlsOf(req, context);
    sendPage(req, res, sortRepos(entries, sort, direction), ({ repo, role }) => minimalRepository(urls, repo, account, role));
  });

  // Undocumented but stable: the repository by id, as `GET /repos/{owner}/{repo}` returns it (full-repository).
  app.get('/repositories/:id', auth, (req, res) => {
    const id = /^\d{1,15}$/.test(String(req.params.id)) ? Number(req.params.id) : Number.NaN;
    const found = visible(world, credentialOf(res), world.repoById(id));
    if (!found) throw notFound(DOCS.repo);
    sendOne(res, fullRepository(urlsOf(req, context), found.repo, ownerOf(world, found.repo), found.role));
  });

  // https://docs.github.com/rest/repos/contents#get-repository-content
  app.get('/repos/:owner/:repo/contents{/*path}', auth, (req, res) => {
    const docs = DOCS.contents;
    const found = visible(world, credentialOf(res), world.repoByName(String(req.params.owner), String(req.params.repo)));
    if (!found) throw notFound(docs);
    const { repo } = found;
    const segments = (req.params as { path?: string[] | string }).path ?? [];
    const path = (Array.isArray(segments) ? segments.join('/') : segments).replace(/^\/+|\/+$/g, '');
    const ref = queryValue(req, 'ref') || repo.defaultBranch;
    const files = repo.files[ref];
    if (!files) {
      if (ref === repo.defaultBranch && Object.keys(repo.files).length === 0)
        throw new GitHubApiError(404, 'This repository is empty.', docs);
      throw new GitHubApiError(404, `No commit found for the ref ${ref}`, docs);
    }
    const urls = urlsOf(req, context);
    const file = path === '' ? undefined : files[path];
    if (file !== undefined) {
      if (rawAccept.test(req.headers.accept ?? '')) {
        res.setHeader('cache-control', 'private, max-age=60, s-maxage=60');
        sendRawFile(res, file);
        return;
      }
      sendOne(res, contentFile(urls, repo, ref, path, file));
      return;
    }
    const prefix = path === '' ? '' : `${path}/`;
    const children = new Map<string, SeedFileContent | undefined>();
    for (const [filePath, text] of Object.entries(files)) {
      if (!filePath.startsWith(prefix)) continue;
      const rest = filePath.slice(prefix.length);
      const slash = rest.indexOf('/');
      const child = `${prefix}${slash === -1 ? rest : rest.slice(0, slash)}`;
      children.set(child, slash === -1 ? text : undefined);
    }
    if (children.size === 0 && path !== '') throw notFound(docs);
    const entries = [...children.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([childPath, text]) => directoryEntry(urls, repo, ref, childPath, text));
    sendOne(res, entries);
  });
}
