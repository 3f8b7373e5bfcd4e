import { APPS_ADMIN_PATH, DEMO_APP, loadDemoSeed } from '@switchyard/github-emulator';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReleaseHarness, startReleaseHarness } from './harness.ts';

const DEMO_KEY = loadDemoSeed().apps.find((app) => app.id === DEMO_APP.id)?.privateKey ?? '';

/**
 * App mode's reconciliation of installations: the worker, acting as the emulator's demo App, records every installation
 * at start (`GET /app/installations`, and each selected one's repositories) and publishes `app_installation.changed`;
 * changes whose webhooks never came (this emulator sends none) are recorded at the next round, every second here.
 */
describe('App installations reconciled with the code host (missed webhooks heal)', () => {
  let h: ReleaseHarness;

  beforeAll(async () => {
    h = await startReleaseHarness('app_installations', {
      workerEnv: { GITHUB_APP_ID: String(DEMO_APP.id), GITHUB_APP_PRIVATE_KEY: DEMO_KEY, GITHUB_APP_RECONCILE_INTERVAL_MS: '1000' },
    });
  }, 120_000);
  afterAll(() => h?.close());

  const installation = (id: number) => h.db.selectFrom('app_installation').selectAll().where('id', '=', id).executeTakeFirst();
  const published = (id: number, revision: number) =>
    h.waitForEvent(
      (event) =>
        event.type === 'app_installation.changed' &&
        (event.data as { id: number; revision: number }).id === id &&
        (event.data as { revision: number }).revision === revision,
    );
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await request(h.codeHostUrl, method, `${APPS_ADMIN_PATH}${path}`, body === undefined ? {} : { body });
    expect(res.status, res.text).toBeLessThan(300);
  };

  it('records every installation at start, with its account, selection and selected repositories, and publishes each', async () => {
    const globex = await published(5002, 1);
    expect(globex.data).toEqual({
      id: 5002,
      accountId: 2002,
      accountLogin: 'globex',
      accountType: 'org',
      repositorySelection: 'selected',
      repositoryIds: [3201, 3202],
      suspended: false,
      removed: false,
      revision: 1,
    });
    expect((await published(5001, 1)).data).toMatchObject({ accountLogin: 'acme', repositorySelection: 'all', repositoryIds: null });
    expect((await published(5003, 1)).data).toMatchObject({ accountLogin: 'alice', accountType: 'user', repositorySelection: 'selected' });
  });

  it("records the App's bot user as the service's own account (the webhooks' sender of what it does)", async () => {
    const login = await waitFor(async () => (await h.db.selectFrom('bot_account').select('login').executeTakeFirst())?.login);
    expect(login).toBe(`${DEMO_APP.slug}[bot]`);
  });

  it('a repository removed, an installation suspended and one uninstalled without webhooks are recorded at the next round', async () => {
    await admin('DELETE', '/installations/5002/repositories', { repositories: ['website'] });
    expect((await published(5002, 2)).data).toMatchObject({ repositoryIds: [3201], removed: false });
    await admin('PUT', '/installations/5003/suspended');
    expect((await published(5003, 2)).data).toMatchObject({ suspended: true, removed: false });
    await admin('DELETE', '/installations/5004');
    expect((await published(5004, 2)).data).toMatchObject({ accountLogin: 'initech', removed: true });
    expect(await installation(5004)).toMatchObject({ removed: true, revision: 2 });
    // Nothing changes while the code host says the same: no new revision, no new event.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await installation(5002))?.revision).toBe(2);
    expect(
      h.events.filter((event) => event.type === 'app_installation.changed' && (event.data as { id: number }).id === 5001),
    ).toHaveLength(1);
  });

  it('an installation made again is recorded with its new id', async () => {
    const made = await request(h.codeHostUrl, 'POST', `${APPS_ADMIN_PATH}/switchyard/installations`, { body: { account: 'initech' } });
    expect(made.status, made.text).toBe(201);
    const id = (made.body as { id: number }).id;
    expect((await published(id, 1)).data).toMatchObject({ accountLogin: 'initech', repositorySelection: 'all', removed: false });
    expect(await waitFor(async () => (await installation(id)) ?? undefined, 10_000)).toMatchObject({ removed: false });
  });
});
