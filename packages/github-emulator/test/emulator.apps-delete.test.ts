import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_MESSAGES, APPS_ADMIN_PATH, DEMO_APP, loadDemoSeed } from '../src/index.ts';
import type { WebhookSender } from '../src/webhooks.ts';
import { bearer, demoJwt, mintToken } from './apps.ts';
import { startEmulatorWithWebhooks } from './emulator-with-webhooks.ts';
import { ALICE } from './fixtures.ts';
import { type GitHubOpenApi, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';
import { apiAs } from './writes.ts';

const DELETE_DOCS = 'https://docs.github.com/rest/apps/apps#delete-an-installation-for-the-authenticated-app';

/**
 * `DELETE /app/installations/{installation_id}` (https://docs.github.com/rest/apps/apps#delete-an-installation-for-the-authenticated-app):
 * the App uninstalls itself with its JWT (`iss` its id as a number or digits, or its client id), as the account would.
 */
describe('GitHub emulator: an App deleting its installation (DELETE /app/installations/{id})', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let receiver: WebhookReceiver;
  let webhooks: WebhookSender;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server, receiver, webhooks } = await startEmulatorWithWebhooks(loadDemoSeed()));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('answers 204, delivers installation deleted (the App’s bot the sender), and its tokens and id are gone', async () => {
    const token = apiAs(server.url, (await mintToken(server.url, Date.now(), 5003)).token);
    expect((await token.get('/repos/alice/notes-app')).status).toBe(200);

    const res = await bearer(server.url, demoJwt(Date.now())).del('/app/installations/5003');
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    await webhooks.settled();
    const [deleted] = receiver.of('installation', 'deleted');
    expect(schemaErrors(openapi.webhookValidator('installation-deleted'), deleted)).toEqual([]);
    expect(deleted).toMatchObject({
      action: 'deleted',
      installation: { id: 5003, account: { login: 'alice' }, repository_selection: 'selected' },
      requester: null,
      sender: { login: `${DEMO_APP.slug}[bot]`, type: 'Bot' },
    });
    expect(deleted.repositories.map((r: { full_name: string }) => r.full_name)).toEqual(['alice/notes-app']);

    const refused = await token.get('/repos/alice/notes-app');
    expect([refused.status, refused.body.message]).toEqual([401, 'Bad credentials']);
    expect((await bearer(server.url, demoJwt(Date.now())).get('/app/installations/5003')).status).toBe(404);
    expect((await request(server.url, 'GET', APPS_ADMIN_PATH)).body.apps[0].installations).toEqual([5001, 5002, 5004]);

    // Repository webhooks of the repositories it covered no longer name it.
    expect((await apiAs(server.url, ALICE).post('/repos/alice/notes-app/issues', { title: 'After' })).status).toBe(201);
    await webhooks.settled();
    const opened = receiver.of('issues', 'opened').filter((p) => p.repository.full_name === 'alice/notes-app');
    expect(opened).toHaveLength(1);
    expect(opened[0]).not.toHaveProperty('installation');
  });

  it('answers 404 for an installation it does not have (deleted, unknown, not a number)', async () => {
    const app = bearer(server.url, demoJwt(Date.now()));
    for (const id of ['5003', '999999', 'abc']) {
      const res = await app.del(`/app/installations/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: 'Not Found', documentation_url: DELETE_DOCS, status: '404' });
    }
  });

  it('takes the App id as a JSON number or string, or the client id, as iss; refuses other issuers and tokens with GitHub’s 401', async () => {
    const now = Date.now();
    for (const [auth, message] of [
      [`Bearer ${demoJwt(now, { iss: 'switchyard' })}`, APP_MESSAGES.issuerNotInteger],
      [`Bearer ${demoJwt(now, { iss: 999_999 })}`, APP_MESSAGES.jwtUndecodable],
      [`Bearer ${demoJwt(now, { iss: 'Iv23liAbCdEf01234567' })}`, APP_MESSAGES.issuerNotInteger],
      [`token ${ALICE}`, APP_MESSAGES.jwtUndecodable],
    ] as const) {
      const res = await request(server.url, 'DELETE', '/app/installations/5004', { headers: { authorization: auth } });
      expect(res.status, auth).toBe(401);
      expect(res.body.message).toBe(message);
    }
    expect((await request(server.url, 'DELETE', '/app/installations/5004')).status).toBe(401);
    expect((await bearer(server.url, demoJwt(now)).get('/app/installations/5004')).status).toBe(200);

    expect((await bearer(server.url, demoJwt(now, { iss: DEMO_APP.clientId })).del('/app/installations/5004')).status).toBe(204);
    expect((await bearer(server.url, demoJwt(now, { iss: String(DEMO_APP.id) })).del('/app/installations/5002')).status).toBe(204);
    await webhooks.settled();
    expect(receiver.of('installation', 'deleted').map((p) => p.installation.id)).toEqual([5003, 5004, 5002]);
  });
});
