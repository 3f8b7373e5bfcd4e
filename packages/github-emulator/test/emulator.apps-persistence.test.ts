import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { APPS_ADMIN_PATH, DEMO_APP, loadDemoSeed, parseSeed, startGitHubEmulator } from '../src/index.ts';
import { bearer, DEMO_APP_KEY, demoJwt, mintToken } from './apps.ts';
import { ALICE, silentLogger } from './fixtures.ts';
import { apiAs } from './writes.ts';

const folders: string[] = [];

async function newFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'github-emulator-apps-'));
  folders.push(folder);
  return folder;
}

describe('GitHub emulator: Apps, installations and tokens kept in the data folder; the App key file', () => {
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('installations made, suspended and re-selected, their tokens and the bot’s issues survive a restart', async () => {
    const folder = await newFolder();
    const first = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, dataDir: folder });
    let token: string;
    let before: unknown;
    let pullNumber: number;
    try {
      const admin = (method: string, path: string, body?: unknown) =>
        request(first.url, method, `${APPS_ADMIN_PATH}${path}`, body === undefined ? {} : { body });
      expect((await admin('POST', '/switchyard/installations', { account: 'bob', repositories: ['blog'] })).status).toBe(201);
      expect((await admin('PUT', '/installations/5003/suspended')).status).toBe(200);
      expect((await admin('POST', '/installations/5002/repositories', { repositories: ['hr-tools'] })).status).toBe(200);
      token = (await mintToken(first.url, Date.now(), 5001, { repositories: ['web-storefront'] })).token;
      const api = apiAs(first.url, token);
      const pull = await api.post('/repos/acme/web-storefront/issues', { title: 'Opened by the app' });
      expect(pull.status, pull.text).toBe(201);
      pullNumber = pull.body.number;
      before = (await bearer(first.url, demoJwt(Date.now())).get('/app/installations')).body;
    } finally {
      await first.close();
    }
    const saved = JSON.parse(await readFile(join(folder, 'world.json'), 'utf8'));
    expect(saved.apps).toMatchObject({ nextInstallationId: 5006, tokens: [{ token, installationId: 5001, repositoryIds: [3101] }] });

    const second = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, dataDir: folder });
    try {
      const after = (await bearer(second.url, demoJwt(Date.now())).get('/app/installations')).body;
      expect(JSON.parse(JSON.stringify(after).replaceAll(second.url, 'API'))).toEqual(
        JSON.parse(JSON.stringify(before).replaceAll(first.url, 'API')),
      );
      const ids = after.map((i: { id: number; suspended_at: string | null; repository_selection: string }) => [
        i.id,
        i.suspended_at !== null,
      ]);
      expect(ids).toEqual([
        [5005, false],
        [5004, false],
        [5003, true],
        [5002, false],
        [5001, false],
      ]);
      // The token minted before the restart still works, narrowed as it was; the bot is still the issue's author.
      const api = apiAs(second.url, token);
      expect((await api.get('/repos/acme/web-storefront')).status).toBe(200);
      expect((await api.get('/repos/acme/billing-api')).status).toBe(404);
      const issue = await apiAs(second.url, ALICE).get(`/repos/acme/web-storefront/issues/${pullNumber}`);
      expect(issue.body.user).toMatchObject({ login: 'switchyard[bot]', type: 'Bot', id: DEMO_APP.botUserId });
      expect((await apiAs(second.url, (await mintToken(second.url, Date.now(), 5002)).token).get('/repos/globex/hr-tools')).status).toBe(
        200,
      );
      // The next installation gets the next id.
      const next = await request(second.url, 'POST', `${APPS_ADMIN_PATH}/switchyard/installations`, {
        body: { account: 'switchyard-bot' },
      });
      expect(next.body.id).toBe(5006);
    } finally {
      await second.close();
    }
  });

  it('writes the demo App’s private key to appPrivateKeyFile (mode 0600), a key that signs JWTs the emulator takes', async () => {
    const file = join(await newFolder(), 'keys', 'switchyard.pem');
    const server = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, appPrivateKeyFile: file });
    try {
      const pem = await readFile(file, 'utf8');
      expect(pem).toBe(DEMO_APP_KEY.endsWith('\n') ? DEMO_APP_KEY : `${DEMO_APP_KEY}\n`);
      expect(pem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect((await bearer(server.url, demoJwt(Date.now(), {}, pem)).get('/app')).status).toBe(200);
    } finally {
      await server.close();
    }
    // A seed without an App that has a private key cannot hand one out.
    const seed = loadDemoSeed();
    const keyless = parseSeed({ ...seed, apps: seed.apps.map(({ privateKey: _dropped, ...app }) => app) });
    await expect(
      startGitHubEmulator({ seed: keyless, logger: silentLogger, appPrivateKeyFile: join(await newFolder(), 'k.pem') }),
    ).rejects.toThrow(/no App of the seed has a privateKey/);
  });
});
