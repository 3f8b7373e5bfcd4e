import { APPS_ADMIN_PATH, DEMO_APP, loadDemoSeed, startGitHubEmulator } from '@switchyard/github-emulator';
import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appInstallationTokens, createGitHubApp, createGitHubCodeHost, type GitHubApp } from '../src/index.ts';
import { codeHostError } from './code-host-error.ts';

const logger = pino({ level: 'silent' });
const demoKey = () => {
  const key = loadDemoSeed().apps.find((app) => app.id === DEMO_APP.id)?.privateKey;
  if (!key) throw new Error('the demo seed has no App key');
  return key;
};

/**
 * The worker's side of a GitHub App (`@octokit/auth-app`) against the emulator's demo App: installations listed with the
 * App's JWT, installation tokens per account that reach that account's repositories as `switchyard[bot]`, made again
 * before they expire (the emulator’s tokens live 2 s here), and the errors of accounts without a usable installation.
 */
describe('GitHub App: installations and installation tokens', () => {
  const TTL_MS = 2_000;
  let server: Listening;
  let app: GitHubApp;
  const minted: string[] = [];

  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: loadDemoSeed(), logger, installationTokenTtlMs: TTL_MS });
    app = createGitHubApp({ baseUrl: server.url, appId: String(DEMO_APP.id), privateKey: demoKey(), logger, retries: 0 });
  }, 60_000);
  afterAll(() => server?.close());

  it('lists the installations with their accounts, selection and state', async () => {
    const installations = await app.installations();
    expect(
      installations.sort((a, b) => a.id - b.id).map((i) => [i.id, i.accountLogin, i.accountType, i.repositorySelection, i.suspended]),
    ).toEqual([
      [5001, 'acme', 'org', 'all', false],
      [5002, 'globex', 'org', 'selected', false],
      [5003, 'alice', 'user', 'selected', false],
      [5004, 'initech', 'org', 'all', false],
    ]);
    expect((await app.installationOf('ACME'))?.id).toBe(5001);
    expect(await app.installationOf('nobody-here')).toBeUndefined();
  });

  it('names its bot user as GitHub does (`<slug>[bot]`, the sender of the webhooks of what it does), asking once', async () => {
    expect(await Promise.all([app.botLogin(), app.botLogin()])).toEqual(['switchyard[bot]', 'switchyard[bot]']);
    const wrongKey = createGitHubApp({ baseUrl: server.url, appId: '999999', privateKey: demoKey(), logger, retries: 0 });
    expect(await codeHostError(wrongKey.botLogin())).toMatchObject({ kind: 'unauthorized' });
  });

  it('accepts the client id as the JWT issuer too', async () => {
    const byClientId = createGitHubApp({ baseUrl: server.url, appId: DEMO_APP.clientId, privateKey: demoKey(), logger, retries: 0 });
    expect((await byClientId.installations()).length).toBe(4);
  });

  it("an account's token reaches its repositories, and only the selected ones", async () => {
    const tokens = appInstallationTokens(app);
    const host = createGitHubCodeHost({ baseUrl: server.url, logger, retries: 0 });
    const acme = await tokens.forOwner('acme');
    minted.push(acme);
    expect(acme).toMatch(/^ghs_/);
    expect((await host.listRepos(acme, { id: 0, login: 'acme', type: 'org' })).length).toBeGreaterThan(0);
    const globex = await tokens.forOwner('globex');
    const unselected = (await host.listRepos(globex, { id: 0, login: 'globex', type: 'org' })).map((r) => r.name).sort();
    expect(unselected).toEqual(['analytics', 'website']);
    expect(await codeHostError(tokens.forOwner('nobody-here'))).toMatchObject({ kind: 'not_found' });
  });

  it('hands out the same token while it is fresh and a new one before it expires, with no request refused', async () => {
    const tokens = appInstallationTokens(app);
    const first = await tokens.forOwner('initech');
    expect(await tokens.forOwner('initech')).toBe(first);
    const host = createGitHubCodeHost({ baseUrl: server.url, logger, retries: 0 });
    const seen = new Set<string>();
    const until = Date.now() + TTL_MS * 2;
    while (Date.now() < until) {
      const token = await tokens.forOwner('initech');
      seen.add(token);
      expect((await host.listRepos(token, { id: 0, login: 'initech', type: 'org' })).length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
  }, 20_000);

  it('a token held across its expiry is sent as its installation’s new one, before it expires or after a 401', async () => {
    const tokens = appInstallationTokens(app);
    const held = await tokens.forOwner('acme');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 200));
    const owner = { id: 0, login: 'acme', type: 'org' } as const;
    // As it is: the code host refuses the expired token.
    const plain = createGitHubCodeHost({ baseUrl: server.url, logger, retries: 0 });
    expect(await codeHostError(plain.listRepos(held, owner))).toMatchObject({ kind: 'unauthorized' });
    // Renewed before it is sent: no request refused.
    const renewing = createGitHubCodeHost({ baseUrl: server.url, logger, retries: 0, currentToken: (t, r) => app.currentToken(t, r) });
    expect((await renewing.listRepos(held, owner)).length).toBeGreaterThan(0);
    // Renewed only after the code host refused it (a token the worker believed fresh): sent once more, and answered.
    const stale = await tokens.forOwner('acme');
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 200));
    let refused = 0;
    const afterRefusal = createGitHubCodeHost({
      baseUrl: server.url,
      logger,
      retries: 0,
      currentToken: async (t, rejected) => {
        if (rejected) refused += 1;
        return refused > 0 ? app.currentToken(t, rejected) : t;
      },
    });
    expect((await afterRefusal.listRepos(stale, owner)).length).toBeGreaterThan(0);
    expect(refused).toBe(1);
    // A token of no installation of the App is sent as it is.
    expect(await app.currentToken('ghp_not-the-apps-token')).toBe('ghp_not-the-apps-token');
  }, 20_000);

  it('a suspended installation gives no token, and an uninstalled account is not found once the list is read again', async () => {
    const tokens = appInstallationTokens(app);
    expect((await request(server.url, 'PUT', `${APPS_ADMIN_PATH}/installations/5004/suspended`)).status).toBe(200);
    app.forget();
    expect(await codeHostError(tokens.forOwner('initech'))).toMatchObject({ kind: 'forbidden' });
    expect((await request(server.url, 'DELETE', `${APPS_ADMIN_PATH}/installations/5004`)).status).toBe(204);
    app.forget();
    expect(await codeHostError(tokens.forOwner('initech'))).toMatchObject({ kind: 'not_found' });
    expect(await tokens.anyToken()).toMatch(/^ghs_/);
  });
});
