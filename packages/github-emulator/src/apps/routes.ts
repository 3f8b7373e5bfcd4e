import type { Express, Request, RequestHandler, Response } from 'express';
import { GitHubApiError, notFound, queryValue, sendJson } from '../github-http.ts';
import { paginate } from '../pagination.ts';
import { repository } from '../representations.ts';
import { bodyOf, invalidRequest } from '../request-body.ts';
import { credentialOf, ownerOf, type RouteContext, sendOne, urlsOf } from '../route-helpers.ts';
import type { EmulatedApp } from '../seed-apps.ts';
import type { EmulatedRepo } from '../world.ts';
import { installationCovers, tokenRepos } from './access.ts';
import { type InstallationRecord, newInstallationToken } from './installations.ts';
import { verifyAppJwt } from './jwt.ts';
import { APP_DOCS, APP_MESSAGES, installationSuspended, jwtRefused } from './messages.ts';
import { installationRole, narrowPermissions } from './permissions.ts';
import { installation, installationToken, integration } from './representations.ts';
import { uninstallInstallation } from './uninstall.ts';

/**
 * The GitHub App endpoints (https://docs.github.com/rest/apps): those an App calls with its JWT (`/app`, its
 * installations, minting installation access tokens, finding the installation of a repository, organisation or user)
 * and those an installation access token calls (`/installation/repositories`, `DELETE /installation/token`).
 */

/** The App a request's JWT authenticated ({@link authenticateApp}). */
const appOf = (res: Response): EmulatedApp => res.locals.app as EmulatedApp;

/**
 * Authenticates an App's JWT, `Authorization: Bearer <jwt>` (GitHub takes a JWT with no other scheme), with
 * `verifyAppJwt` at the emulator's clock; anything else (no header, another kind of token, a bad JWT) → 401 with
 * GitHub's message (`A JSON web token could not be decoded`, or the claim's). These endpoints are not counted against
 * a rate limit, as GitHub does not count them.
 */
export function authenticateApp(context: RouteContext): RequestHandler {
  return (req, res, next) => {
    const match = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (!match?.[1]) throw jwtRefused(APP_MESSAGES.jwtUndecodable);
    const check = verifyAppJwt(match[1], context.world.apps(), context.state.now());
    if ('error' in check) throw jwtRefused(check.error);
    res.locals.app = check.app;
    next();
  };
}

const idParam = (req: Request, name: string): number => {
  const raw = String(req.params[name]);
  return /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
};

/** The installation `:installation_id` of the App, or 404. */
function ownInstallation(req: Request, res: Response, context: RouteContext, docs: string): InstallationRecord {
  const record = context.state.apps.installation(idParam(req, 'installation_id'));
  if (!record || record.appId !== appOf(res).id) throw notFound(docs);
  return record;
}

/** An optional array field of a token request whose items are all of `type`. @throws GitHubApiError 422 otherwise */
function arrayOf<T extends 'string' | 'number'>(body: Record<string, unknown>, field: string, type: T, docs: string) {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  const typeName = type === 'string' ? 'string' : 'integer';
  if (!Array.isArray(value)) throw invalidRequest(`For 'properties/${field}', ${JSON.stringify(value)} is not an array.`, docs);
  const bad = value.find((item) => (type === 'string' ? typeof item !== 'string' : !Number.isSafeInteger(item)));
  if (bad !== undefined) throw invalidRequest(`For 'items', ${JSON.stringify(bad)} is not a ${typeName}.`, docs);
  return value as (T extends 'string' ? string : number)[];
}

/**
 * The repositories a token request names (`repositories` by name, `repository_ids` by id), each covered by the
 * installation: undefined when it names none. @throws GitHubApiError 422 `There is at least one repository that does not
 * exist or is not accessible to the parent installation.`
 */
function requestedRepos(
  context: RouteContext,
  record: InstallationRecord,
  body: Record<string, unknown>,
  docs: string,
): EmulatedRepo[] | undefined {
  const names = arrayOf(body, 'repositories', 'string', docs);
  const ids = arrayOf(body, 'repository_ids', 'number', docs);
  if (names === undefined && ids === undefined) return undefined;
  const { world } = context;
  const found: (EmulatedRepo | undefined)[] = [
    ...(names ?? []).map((name) => world.repoByName(record.account, name)),
    ...(ids ?? []).map((id) => world.repoById(id)),
  ];
  if (found.some((repo) => repo === undefined || !installationCovers(record, repo))) {
    throw new GitHubApiError(422, APP_MESSAGES.repositoriesNotAccessible, docs);
  }
  const unique = new Map((found as EmulatedRepo[]).map((repo) => [repo.id, repo]));
  return [...unique.values()].sort((a, b) => a.id - b.id);
}

/**
 * Mounts the App endpoints: with the App's JWT ({@link authenticateApp}) `GET /app`, `GET /app/installations`
 * (paginated, newest first, `since`), `GET` and `DELETE /app/installations/{id}` (uninstalling: 204, an `installation`
 * `deleted` webhook), `POST /app/installations/{id}/access_tokens`,
 * `GET /repos/{owner}/{repo}/installation`, `GET /orgs/{org}/installation`, `GET /users/{username}/installation`; with an
 * installation access token (`auth`, the shared authentication) `GET /installation/repositories` and
 * `DELETE /installation/token`.
 */
export function mountAppRoutes(app: Express, context: RouteContext, auth: RequestHandler): void {
  const { world } = context;
  const jwt = authenticateApp(context);
  const state = () => context.state.apps;
  const ownInstallations = (res: Response) =>
    state()
      .installations()
      .filter((record) => record.appId === appOf(res).id);

  // https://docs.github.com/rest/apps/apps#get-the-authenticated-app
  app.get('/app', jwt, (req, res) => {
    sendOne(res, integration(urlsOf(req, context), world, appOf(res), ownInstallations(res).length));
  });

  // https://docs.github.com/rest/apps/apps#list-installations-for-the-authenticated-app
  app.get('/app/installations', jwt, (req, res) => {
    const since = queryValue(req, 'since');
    const sinceMs = since === undefined ? undefined : Date.parse(since);
    if (sinceMs !== undefined && Number.isNaN(sinceMs))
      throw invalidRequest(`For 'since', ${JSON.stringify(since)} is not a timestamp.`, APP_DOCS.listInstallations);
    const all = ownInstallations(res)
      .filter((record) => sinceMs === undefined || Date.parse(record.updatedAt) >= sinceMs)
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
    const { items, link } = paginate(req, all);
    if (link) res.setHeader('link', link);
    const urls = urlsOf(req, context);
    sendOne(
      res,
      items.map((record) => installation(urls, world, record)),
    );
  });

  // https://docs.github.com/rest/apps/apps#get-an-installation-for-the-authenticated-app
  app.get('/app/installations/:installation_id', jwt, (req, res) => {
    sendOne(res, installation(urlsOf(req, context), world, ownInstallation(req, res, context, APP_DOCS.getInstallation)));
  });

  // https://docs.github.com/rest/apps/apps#delete-an-installation-for-the-authenticated-app: uninstalls as the account
  // would (tokens refused, `installation` `deleted`), the App's bot user the webhook's sender (it is the App that acts).
  app.delete('/app/installations/:installation_id', jwt, (req, res) => {
    const record = ownInstallation(req, res, context, APP_DOCS.deleteInstallation);
    const bot = world.botOf(record.appId);
    if (!bot) throw new Error(`app ${record.appId} has no bot user`);
    uninstallInstallation(req, context, record, bot);
    res.status(204).end();
  });

  // https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app
  app.post('/app/installations/:installation_id/access_tokens', jwt, (req, res) => {
    const docs = APP_DOCS.createToken;
    const record = ownInstallation(req, res, context, docs);
    if (record.suspendedAt !== null) throw installationSuspended(docs);
    const body = req.body === undefined ? {} : bodyOf(req, docs);
    const repos = requestedRepos(context, record, body, docs);
    const permissions = narrowPermissions(record.permissions, body.permissions);
    if ('error' in permissions) throw new GitHubApiError(422, permissions.error as string, docs);
    const now = context.state.now();
    const at = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const token = {
      token: newInstallationToken(),
      installationId: record.id,
      createdAt: at(now),
      expiresAt: at(now + context.installationTokenTtlMs),
      permissions,
      repositoryIds: repos === undefined ? null : repos.map((repo) => repo.id),
    };
    state().addToken(token, now);
    const urls = urlsOf(req, context);
    const role = installationRole(permissions);
    sendJson(
      res,
      201,
      installationToken(
        token,
        record,
        repos?.map((repo) => repository(urls, repo, ownerOf(world, repo), role)),
      ),
    );
  });

  // https://docs.github.com/rest/apps/apps#get-a-repository-installation-for-the-authenticated-app
  app.get('/repos/:owner/:repo/installation', jwt, (req, res) => {
    const repo = world.repoByName(String(req.params.owner), String(req.params.repo));
    const record = repo && ownInstallations(res).find((candidate) => installationCovers(candidate, repo));
    if (!record) throw notFound(APP_DOCS.repoInstallation);
    sendOne(res, installation(urlsOf(req, context), world, record));
  });

  // https://docs.github.com/rest/apps/apps#get-an-organization-installation-for-the-authenticated-app
  app.get('/orgs/:org/installation', jwt, (req, res) => {
    const account = world.account(String(req.params.org));
    const record = account?.kind === 'org' ? state().installationOn(appOf(res).id, account.org.login) : undefined;
    if (!record) throw notFound(APP_DOCS.orgInstallation);
    sendOne(res, installation(urlsOf(req, context), world, record));
  });

  // https://docs.github.com/rest/apps/apps#get-a-user-installation-for-the-authenticated-app
  app.get('/users/:username/installation', jwt, (req, res) => {
    const record = world.account(String(req.params.username)) && state().installationOn(appOf(res).id, String(req.params.username));
    if (!record) throw notFound(APP_DOCS.userInstallation);
    sendOne(res, installation(urlsOf(req, context), world, record));
  });

  // https://docs.github.com/rest/apps/installations#list-repositories-accessible-to-the-app-installation
  app.get('/installation/repositories', auth, (req, res) => {
    const { grant } = credentialOf(res);
    if (grant.kind !== 'installation') throw new GitHubApiError(403, APP_MESSAGES.listNeedsInstallationToken, APP_DOCS.installationRepos);
    const record = state().installation(grant.installationId);
    const token = state().token(grant.token);
    if (!record || !token) throw notFound(APP_DOCS.installationRepos);
    const repos = tokenRepos(world, record, token).sort((a, b) => a.id - b.id);
    const { items, link } = paginate(req, repos);
    if (link) res.setHeader('link', link);
    const urls = urlsOf(req, context);
    const role = installationRole(token.permissions);
    sendOne(res, {
      total_count: repos.length,
      repository_selection: token.repositoryIds === null ? record.repositorySelection : 'selected',
      repositories: items.map((repo) => repository(urls, repo, ownerOf(world, repo), role)),
    });
  });

  // https://docs.github.com/rest/apps/installations#revoke-an-installation-access-token
  app.delete('/installation/token', auth, (_req, res) => {
    const { grant } = credentialOf(res);
    if (grant.kind !== 'installation') throw new GitHubApiError(403, APP_MESSAGES.revokeNeedsInstallationToken, APP_DOCS.revokeToken);
    state().revoke(grant.token);
    res.status(204).end();
  });
}
