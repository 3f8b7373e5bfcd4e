import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MESSAGES, APPS_ADMIN_PATH, DEMO_APP, loadDemoSeed, webhookSignature } from '../src/index.ts';
import type { WebhookSender } from '../src/webhooks.ts';
import { bearer, demoJwt, mintToken } from './apps.ts';
import { startEmulatorWithWebhooks } from './emulator-with-webhooks.ts';
import { type GitHubOpenApi, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';
import { apiAs } from './writes.ts';

const SECRET = 'app-hook-secret';

/**
 * The App test hooks under `/_emulator/apps` (what an account owner does on github.com): install, uninstall, suspend,
 * unsuspend, select repositories, accept new permissions, each changing what the App's tokens reach and delivering the
 * `installation` / `installation_repositories` webhook GitHub sends, signed, valid against GitHub's webhook schemas.
 */
describe('GitHub emulator: installing, suspending and selecting repositories of the App (test hooks and webhooks)', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let receiver: WebhookReceiver;
  let webhooks: WebhookSender;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server, receiver, webhooks } = await startEmulatorWithWebhooks(loadDemoSeed(), { secret: SECRET }));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  const admin = (method: string, path: string, body?: unknown): Promise<TestResponse> =>
    request(server.url, method, `${APPS_ADMIN_PATH}${path}`, body === undefined ? {} : { body });
  const app = () => bearer(server.url, demoJwt(Date.now()));

  /** The last delivery of `event`/`action`, after every delivery so far settled; checked against GitHub's webhook schema `schema`. */
  async function delivered(event: string, action: string, schema: string) {
    await webhooks.settled();
    const found = receiver.deliveries.filter((d) => d.event === event && d.body.action === action).at(-1);
    if (!found) throw new Error(`no ${event} ${action} delivery`);
    expect(schemaErrors(openapi.webhookValidator(schema), found.body)).toEqual([]);
    expect(found.headers['x-hub-signature-256']).toBe(webhookSignature(SECRET, JSON.stringify(found.body)));
    return found.body;
  }

  it('lists the seed’s Apps and their installations', async () => {
    const res = await admin('GET', '');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      apps: [
        {
          id: DEMO_APP.id,
          slug: 'switchyard',
          name: 'Switchyard (emulator demo)',
          owner: 'switchyard-bot',
          client_id: DEMO_APP.clientId,
          installations: [5001, 5002, 5003, 5004],
        },
      ],
    });
  });

  it('installs the App on an account (installation created) and uninstalls it (installation deleted): its tokens stop working', async () => {
    const installed = await admin('POST', '/switchyard/installations', { account: 'bob' });
    expect(installed.status, installed.text).toBe(201);
    expect(installed.body).toMatchObject({
      id: 5005,
      account: { login: 'bob', type: 'User' },
      repository_selection: 'all',
      app_id: DEMO_APP.id,
    });
    const created = await delivered('installation', 'created', 'installation-created');
    expect(created).toMatchObject({
      action: 'created',
      installation: {
        id: 5005,
        account: { login: 'bob' },
        permissions: { contents: 'write' },
        events: ['check_run', 'check_suite', 'issue_comment', 'issues', 'pull_request', 'push', 'status'],
      },
      requester: null,
      sender: { login: 'bob', type: 'User' },
    });
    expect(created.repositories.map((r: { full_name: string }) => r.full_name)).toEqual(['bob/bob-scripts', 'bob/blog']);
    expect(created.repositories[0]).toEqual({
      id: 3401,
      node_id: expect.any(String),
      name: 'bob-scripts',
      full_name: 'bob/bob-scripts',
      private: true,
    });

    expect((await app().get('/users/bob/installation')).body.id).toBe(5005);
    const token = apiAs(server.url, (await mintToken(server.url, Date.now(), 5005)).token);
    expect((await token.get('/repos/bob/bob-scripts/contents/requirements.txt')).status).toBe(200);
    expect((await admin('POST', '/switchyard/installations', { account: 'bob' })).status).toBe(422); // one per account

    expect((await admin('DELETE', '/installations/5005')).status).toBe(204);
    const deleted = await delivered('installation', 'deleted', 'installation-deleted');
    expect(deleted).toMatchObject({ installation: { id: 5005 }, sender: { login: 'bob' } });
    expect((await token.get('/repos/bob/bob-scripts')).status).toBe(401);
    expect((await app().get('/app/installations/5005')).status).toBe(404);
    expect((await app().post('/app/installations/5005/access_tokens')).status).toBe(404);
    expect((await admin('DELETE', '/installations/5005')).status).toBe(404);
  });

  it('installs on selected repositories, then adds and removes some (installation_repositories added, removed)', async () => {
    const installed = await admin('POST', '/4242/installations', { account: 'switchyard-bot', repositories: [] });
    expect(installed.status).toBe(422); // a selected installation needs a repository
    expect((await admin('POST', '/switchyard/installations', { account: 'ghost' })).status).toBe(422);
    expect((await admin('POST', '/nope/installations', { account: 'bob' })).status).toBe(404);

    const token = apiAs(server.url, (await mintToken(server.url, Date.now(), 5002)).token);
    expect((await token.get('/repos/globex/hr-tools')).status).toBe(404);
    const added = await admin('POST', '/installations/5002/repositories', { repositories: ['hr-tools', 'analytics'], sender: 'alice' });
    expect(added.status, added.text).toBe(200);
    const addedHook = await delivered('installation_repositories', 'added', 'installation-repositories-added');
    expect(addedHook).toMatchObject({
      repository_selection: 'selected',
      repositories_removed: [],
      requester: null,
      sender: { login: 'alice' },
    });
    // Only what was not there already.
    expect(addedHook.repositories_added.map((r: { full_name: string }) => r.full_name)).toEqual(['globex/hr-tools']);
    // A token minted before sees what its installation covers now.
    expect((await token.get('/repos/globex/hr-tools')).status).toBe(200);

    expect((await admin('DELETE', '/installations/5002/repositories', { repositories: ['analytics'], sender: 'alice' })).status).toBe(200);
    const removedHook = await delivered('installation_repositories', 'removed', 'installation-repositories-removed');
    expect(removedHook.repositories_removed.map((r: { full_name: string }) => r.full_name)).toEqual(['globex/analytics']);
    expect((await token.get('/repos/globex/analytics')).status).toBe(404);
    expect((await token.get('/installation/repositories')).body.repositories.map((r: { name: string }) => r.name)).toEqual([
      'website',
      'hr-tools',
    ]);

    const last = await admin('DELETE', '/installations/5003/repositories', { repositories: ['notes-app'] });
    expect([last.status, last.body.message]).toEqual([422, 'Cannot remove the last repository from this installation.']);
    expect((await admin('POST', '/installations/5001/repositories', { repositories: ['web-storefront'] })).status).toBe(422); // all repositories
    expect((await admin('POST', '/installations/5002/repositories', { repositories: ['nope'] })).status).toBe(422);
    expect((await admin('POST', '/installations/5002/repositories', {})).status).toBe(422);
  });

  it('suspends an installation (installation suspend): no token is minted and its tokens are refused until unsuspended', async () => {
    const token = apiAs(server.url, (await mintToken(server.url, Date.now(), 5003)).token);
    const suspended = await admin('PUT', '/installations/5003/suspended');
    expect(suspended.status, suspended.text).toBe(200);
    expect(suspended.body).toMatchObject({ suspended_by: { login: 'alice' }, suspended_at: expect.stringMatching(/Z$/) });
    const hook = await delivered('installation', 'suspend', 'installation-suspend');
    expect(hook.installation).toMatchObject({ id: 5003, suspended_by: { login: 'alice' } });
    expect(hook).not.toHaveProperty('repositories');

    const refused = await app().post('/app/installations/5003/access_tokens');
    expect([refused.status, refused.body.message]).toEqual([403, APP_MESSAGES.suspended]);
    const used = await token.get('/repos/alice/notes-app');
    expect([used.status, used.body.message]).toEqual([403, APP_MESSAGES.suspended]);
    expect((await app().get('/app/installations/5003')).body.suspended_at).not.toBeNull();
    expect((await admin('PUT', '/installations/5003/suspended')).status).toBe(422);

    expect((await admin('DELETE', '/installations/5003/suspended')).status).toBe(200);
    const back = await delivered('installation', 'unsuspend', 'installation-unsuspend');
    expect(back.installation).toMatchObject({ suspended_by: null, suspended_at: null });
    expect((await token.get('/repos/alice/notes-app')).status).toBe(200);
    expect((await app().post('/app/installations/5003/access_tokens')).status).toBe(201);
  });

  it('accepts new permissions (installation new_permissions_accepted): tokens minted after carry them', async () => {
    const accepted = await admin('POST', '/installations/5004/permissions', {
      permissions: { contents: 'read', metadata: 'read' },
      sender: 'bob',
    });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body.permissions).toEqual({ contents: 'read', metadata: 'read' });
    const hook = await delivered('installation', 'new_permissions_accepted', 'installation-new-permissions-accepted');
    expect(hook).toMatchObject({ installation: { id: 5004, permissions: { contents: 'read' } }, sender: { login: 'bob' } });
    const minted = await mintToken(server.url, Date.now(), 5004);
    expect(minted.permissions).toEqual({ contents: 'read', metadata: 'read' });
    const token = apiAs(server.url, minted.token);
    expect((await token.post('/repos/initech/tps-reports/git/blobs', { content: 'x', encoding: 'utf-8' })).status).toBe(403);
    // Back to everything the App asks for.
    expect((await admin('POST', '/installations/5004/permissions', {})).body.permissions).toMatchObject({
      contents: 'write',
      pull_requests: 'write',
    });
    expect((await admin('POST', '/installations/5004/permissions', { permissions: { administration: 'write' } })).status).toBe(422);
  });
});
