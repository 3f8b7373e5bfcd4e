import type { Express, Request, Response } from 'express';
import { GitHubApiError, notFound, sendJson } from '../github-http.ts';
import type { EmulatorState } from '../repo-state.ts';
import { bodyOf, invalidRequest, optionalString } from '../request-body.ts';
import { type RouteContext, urlsOf } from '../route-helpers.ts';
import { AppPermissions, clientIdOf, type EmulatedApp } from '../seed-apps.ts';
import type { EmulatedRepo, EmulatedUser, World } from '../world.ts';
import { installationRepos } from './access.ts';
import type { InstallationRecord } from './installations.ts';
import { type InstallationAction, installationPayload, installationRepositoriesPayload } from './payloads.ts';
import { installation } from './representations.ts';
import { uninstallInstallation } from './uninstall.ts';

/**
 * Test hooks (not GitHub's; no token needed, like `/_emulator/requests`) that do what an account owner does on
 * github.com to a GitHub App: install it, uninstall it, suspend and unsuspend it, add and remove repositories of a
 * `selected` installation, accept the permissions it asks for. Each changes the world (kept with it, see
 * `persistence/`) and delivers the webhook GitHub sends: `installation` (`created`, `deleted`, `suspend`,
 * `unsuspend`, `new_permissions_accepted`) or `installation_repositories` (`added`, `removed`). Bodies may name the
 * `sender`, a user login (default: the account itself when it is a user, else the organisation's first admin).
 */

/** The root of the App test hooks. */
export const APPS_ADMIN_PATH = '/_emulator/apps';

const DOCS = 'https://docs.github.com/apps/using-github-apps/installing-your-own-github-app';

const unprocessable = (message: string) => new GitHubApiError(422, message, DOCS);

/** The App `:app` (its id or slug), or 404. */
function appParam(world: World, req: Request): EmulatedApp {
  const key = String(req.params.app);
  const found = world.apps().find((app) => String(app.id) === key || app.slug === key.toLowerCase());
  if (!found) throw notFound(DOCS);
  return found;
}

/** The installation `:installation_id`, or 404. */
function installationParam(state: EmulatorState, req: Request): InstallationRecord {
  const raw = String(req.params.installation_id);
  const found = /^\d{1,15}$/.test(raw) ? state.apps.installation(Number(raw)) : undefined;
  if (!found) throw notFound(DOCS);
  return found;
}

/** Who acts: the body's `sender` (a user login), else the account when it is a user, else its organisation's first admin (or member). */
function senderOf(world: World, body: Record<string, unknown>, account: string): EmulatedUser {
  const login = optionalString(body, 'sender', DOCS);
  if (login !== undefined) {
    const found = world.account(login);
    if (found?.kind !== 'user') throw unprocessable(`sender: no user ${login}`);
    return found.user;
  }
  const owner = world.account(account);
  if (owner?.kind === 'user') return owner.user;
  const members = owner?.kind === 'org' ? owner.org.members : [];
  const first = members.find((member) => member.role === 'admin') ?? members[0];
  const user = first === undefined ? undefined : world.account(first.login);
  if (user?.kind !== 'user') throw unprocessable(`sender: ${account} has no member to act; name one`);
  return user.user;
}

/** The account's repositories named in `body.repositories` (names, without the owner). @throws GitHubApiError 422 for a name it lacks */
function namedRepos(world: World, body: Record<string, unknown>, account: string, required: boolean): EmulatedRepo[] | undefined {
  const value = body.repositories;
  if (value === undefined || value === null) {
    if (required) throw invalidRequest(`"repositories" wasn't supplied.`, DOCS);
    return undefined;
  }
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) {
    throw invalidRequest(`For 'properties/repositories', ${JSON.stringify(value)} is not an array of repository names.`, DOCS);
  }
  return (value as string[]).map((name) => {
    const repo = world.repoByName(account, name);
    if (!repo) throw unprocessable(`repositories: no repository ${account}/${name}`);
    return repo;
  });
}

/** `permissions` and `events` of a body, each defaulting to the App's. @throws GitHubApiError 422 when malformed or beyond the App's */
function grantOf(body: Record<string, unknown>, app: EmulatedApp): { permissions: AppPermissions; events: string[] } {
  const parsed = AppPermissions.safeParse(body.permissions ?? app.permissions);
  if (!parsed.success) throw unprocessable('permissions: must map permission names to read, write or admin');
  const rank = { read: 1, write: 2, admin: 3 };
  for (const [name, level] of Object.entries(parsed.data)) {
    const asked = app.permissions[name];
    if (asked === undefined || rank[level] > rank[asked]) throw unprocessable(`permissions: app ${app.slug} asks for no ${name}: ${level}`);
  }
  const events = body.events ?? app.events;
  if (!Array.isArray(events) || events.some((event) => typeof event !== 'string'))
    throw unprocessable('events: must be a list of event names');
  return { permissions: parsed.data, events: events as string[] };
}

/** Mounts the App test hooks under {@link APPS_ADMIN_PATH} (see the README, "GitHub Apps"). */
export function mountAppAdminRoutes(app: Express, context: RouteContext): void {
  const { world, state } = context;
  const now = () => state.timestamp();
  const body = (req: Request) => (req.body === undefined ? {} : bodyOf(req, DOCS));
  const answer = (req: Request, res: Response, status: number, record: InstallationRecord) =>
    sendJson(res, status, installation(urlsOf(req, context), world, record));
  const deliver = (req: Request, action: InstallationAction, record: InstallationRecord, sender: EmulatedUser) => {
    const urls = urlsOf(req, context);
    context.webhooks.send('installation', () => installationPayload(urls, world, action, record, sender));
  };

  // The seed's Apps and their installations now: { apps: [{ id, slug, name, owner, client_id, installations: [ids] }] }.
  app.get(APPS_ADMIN_PATH, (_req, res) => {
    const installations = state.apps.installations();
    sendJson(res, 200, {
      apps: world.apps().map((entry) => ({
        id: entry.id,
        slug: entry.slug,
        name: entry.name,
        owner: entry.owner,
        client_id: clientIdOf(entry),
        installations: installations.filter((record) => record.appId === entry.id).map((record) => record.id),
      })),
    });
  });

  // Installs the App on an account: { account, repositories?: [names] (selected; all when absent), permissions?, events?, sender? } → 201 installation.
  app.post(`${APPS_ADMIN_PATH}/:app/installations`, (req, res) => {
    const entry = appParam(world, req);
    const given = body(req);
    const login = optionalString(given, 'account', DOCS);
    if (login === undefined) throw invalidRequest(`"account" wasn't supplied.`, DOCS);
    const account = world.account(login);
    if (!account) throw unprocessable(`account: no user or organisation ${login}`);
    const accountLogin = account.kind === 'user' ? account.user.login : account.org.login;
    if (state.apps.installationOn(entry.id, accountLogin)) throw unprocessable(`app ${entry.slug} is already installed on ${accountLogin}`);
    const repos = namedRepos(world, given, accountLogin, false);
    if (repos !== undefined && repos.length === 0) throw unprocessable('repositories: a selected installation needs at least one');
    const sender = senderOf(world, given, accountLogin);
    const record = state.apps.install(
      {
        appId: entry.id,
        appSlug: entry.slug,
        account: accountLogin,
        repositorySelection: repos === undefined ? 'all' : 'selected',
        repositoryIds: [...new Set((repos ?? []).map((repo) => repo.id))],
        ...grantOf(given, entry),
      },
      now(),
    );
    deliver(req, 'created', record, sender);
    answer(req, res, 201, record);
  });

  // Uninstalls: its tokens stop working at once → 204.
  app.delete(`${APPS_ADMIN_PATH}/installations/:installation_id`, (req, res) => {
    const record = installationParam(state, req);
    uninstallInstallation(req, context, record, senderOf(world, body(req), record.account));
    res.status(204).end();
  });

  // Suspends (its tokens are refused, and none is minted, until unsuspended) → 200 installation.
  app.put(`${APPS_ADMIN_PATH}/installations/:installation_id/suspended`, (req, res) => {
    const record = installationParam(state, req);
    const sender = senderOf(world, body(req), record.account);
    if (record.suspendedAt !== null) throw unprocessable('the installation is suspended already');
    state.apps.setSuspended(record, sender.id, now());
    deliver(req, 'suspend', record, sender);
    answer(req, res, 200, record);
  });

  // Unsuspends → 200 installation.
  app.delete(`${APPS_ADMIN_PATH}/installations/:installation_id/suspended`, (req, res) => {
    const record = installationParam(state, req);
    const sender = senderOf(world, body(req), record.account);
    if (record.suspendedAt === null) throw unprocessable('the installation is not suspended');
    state.apps.setSuspended(record, null, now());
    deliver(req, 'unsuspend', record, sender);
    answer(req, res, 200, record);
  });

  /** Adds (`added`) or removes (`removed`) repositories of a selected installation, with `installation_repositories` when any changed. */
  const changeRepositories = (action: 'added' | 'removed') => (req: Request, res: Response) => {
    const record = installationParam(state, req);
    const given = body(req);
    const repos = namedRepos(world, given, record.account, true) ?? [];
    const sender = senderOf(world, given, record.account);
    if (record.repositorySelection === 'all') throw unprocessable('This installation is on all repositories, please update in the Web UI.');
    const covered = new Set(installationRepos(world, record).map((repo) => repo.id));
    const changed = [...new Map(repos.map((repo) => [repo.id, repo])).values()].filter(
      (repo) => covered.has(repo.id) === (action === 'removed'),
    );
    if (action === 'removed' && changed.length > 0 && changed.length >= covered.size) {
      throw unprocessable('Cannot remove the last repository from this installation.');
    }
    if (changed.length > 0) {
      const ids = changed.map((repo) => repo.id);
      state.apps.changeRepositories(record, action === 'added' ? ids : [], action === 'removed' ? ids : [], now());
      const urls = urlsOf(req, context);
      context.webhooks.send('installation_repositories', () =>
        installationRepositoriesPayload(urls, world, action, record, changed, sender),
      );
    }
    answer(req, res, 200, record);
  };
  // { repositories: [names], sender? } → 200 installation.
  app.post(`${APPS_ADMIN_PATH}/installations/:installation_id/repositories`, changeRepositories('added'));
  app.delete(`${APPS_ADMIN_PATH}/installations/:installation_id/repositories`, changeRepositories('removed'));

  // The account accepts what the App asks for now: { permissions?, events? } (default the App's), sender? → 200 installation.
  app.post(`${APPS_ADMIN_PATH}/installations/:installation_id/permissions`, (req, res) => {
    const record = installationParam(state, req);
    const entry = world.app(record.appId);
    if (!entry) throw unprocessable(`app ${record.appId} is not in the seed's apps`);
    const given = body(req);
    const sender = senderOf(world, given, record.account);
    const { permissions, events } = grantOf(given, entry);
    state.apps.acceptPermissions(record, permissions, events, now());
    deliver(req, 'new_permissions_accepted', record, sender);
    answer(req, res, 200, record);
  });
}
