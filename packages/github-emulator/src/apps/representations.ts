import { createdAt, identity, nodeId, simpleUser, type Urls } from '../representations.ts';
import { clientIdOf, type EmulatedApp } from '../seed-apps.ts';
import type { EmulatedAccount, EmulatedRepo, World } from '../world.ts';
import type { InstallationRecord, InstallationTokenRecord } from './installations.ts';

/**
 * Builders of GitHub's App objects (https://docs.github.com/rest/apps): the App (`integration`), an `installation`, an
 * `installation-token`, and the short repository objects of the `installation` webhooks, with every field GitHub's
 * OpenAPI description requires.
 */

/** The account of `login`. @throws Error when the seed lacks it (parseSeed and the admin hooks rule that out) */
export function accountOf(world: World, login: string): EmulatedAccount {
  const account = world.account(login);
  if (!account) throw new Error(`seed account ${login} is missing`);
  return account;
}

const dayAfter = (iso: string) => new Date(Date.parse(iso) + 86_400_000).toISOString().replace('.000Z', 'Z');

/**
 * GitHub's `integration` object, what `GET /app` answers: id, slug, client id, owner, name, description, the pages'
 * URLs, permissions and events it asks for, and `installations_count` (shown only to the App itself, as here).
 */
export function integration(urls: Urls, world: World, app: EmulatedApp, installationsCount: number) {
  const created = createdAt(app);
  return {
    id: app.id,
    slug: app.slug,
    node_id: nodeId('Integration', app.id),
    client_id: clientIdOf(app),
    owner: simpleUser(urls, accountOf(world, app.owner)),
    name: app.name,
    description: app.description,
    external_url: `${urls.htmlBase}/apps/${app.slug}`,
    html_url: `${urls.htmlBase}/apps/${app.slug}`,
    created_at: created,
    updated_at: dayAfter(created),
    permissions: { ...app.permissions },
    events: [...app.events],
    installations_count: installationsCount,
  };
}

/**
 * GitHub's `installation` object (https://docs.github.com/rest/apps/apps#get-an-installation-for-the-authenticated-app),
 * as the App endpoints, `GET /user/installations` and the `installation` webhooks show it: its account, repository
 * selection, URLs, App, target, the permissions and events granted, dates, and who suspended it when.
 */
export function installation(urls: Urls, world: World, record: InstallationRecord) {
  const account = accountOf(world, record.account);
  const { id, login, type } = identity(account);
  const settings = type === 'Organization' ? `${urls.htmlBase}/organizations/${login}/settings` : `${urls.htmlBase}/settings`;
  const suspender = record.suspendedBy === null ? undefined : world.userById(record.suspendedBy);
  const app = world.app(record.appId);
  return {
    id: record.id,
    account: simpleUser(urls, account),
    repository_selection: record.repositorySelection,
    access_tokens_url: `${urls.apiBase}/app/installations/${record.id}/access_tokens`,
    repositories_url: `${urls.apiBase}/installation/repositories`,
    html_url: `${settings}/installations/${record.id}`,
    app_id: record.appId,
    ...(app ? { client_id: clientIdOf(app) } : {}),
    app_slug: record.appSlug,
    target_id: id,
    target_type: type,
    permissions: { ...record.permissions },
    events: [...record.events],
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [] as string[],
    suspended_by: suspender ? simpleUser(urls, { kind: 'user', user: suspender }) : null,
    suspended_at: record.suspendedAt,
  };
}

/**
 * GitHub's `installation-token` (https://docs.github.com/rest/apps/apps#create-an-installation-access-token-for-an-app):
 * `token`, `expires_at`, `permissions`, `repository_selection` (`selected` when the token was narrowed to
 * repositories), and `repositories` (`repository` objects, rendered by the caller) only when it was asked for some.
 */
export function installationToken(record: InstallationTokenRecord, installationRecord: InstallationRecord, repositories?: unknown[]) {
  return {
    token: record.token,
    expires_at: record.expiresAt,
    permissions: { ...record.permissions },
    repository_selection: record.repositoryIds === null ? installationRecord.repositorySelection : 'selected',
    ...(repositories === undefined ? {} : { repositories }),
  };
}

/**
 * GitHub's `simple-installation`, the `installation` key of the webhooks an App gets for its installation's
 * repositories ("Webhook payloads contain the `installation` property when the event is configured for and sent to a
 * GitHub App", https://docs.github.com/apps/creating-github-apps/registering-a-github-app/using-webhooks-with-github-apps):
 * `id` and `node_id` (the legacy global id of an `IntegrationInstallation`, as GitHub's payloads carry it).
 */
export function simpleInstallation(record: Pick<InstallationRecord, 'id'>) {
  return { id: record.id, node_id: nodeId('IntegrationInstallation', record.id) };
}

/** The repository of an `installation` / `installation_repositories` webhook: `id`, `node_id`, `name`, `full_name`, `private`. */
export function webhookRepository(repo: EmulatedRepo) {
  return {
    id: repo.id,
    node_id: nodeId('Repository', repo.id),
    name: repo.name,
    full_name: `${repo.owner}/${repo.name}`,
    private: repo.private,
  };
}
