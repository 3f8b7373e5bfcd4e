import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGitHubCodeHost } from '@switchyard/code-host';
import { DEMO_APP, loadDemoSeed, startGitHubEmulator } from '@switchyard/github-emulator';
import { ConfigError, type Listening } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botLoginReader, workerCodeHostAuth } from '../src/code-host-auth.ts';
import { loadReleaseConfig } from '../src/config.ts';

const logger = pino({ level: 'silent' });

/** The worker's choice of mode from its configuration, and App mode's key given whole, with `\n`, or as a file. */
describe("the worker's code-host credentials: personal-token mode or GitHub App", () => {
  let server: Listening;
  let dir: string;
  const key = loadDemoSeed().apps.find((app) => app.id === DEMO_APP.id)?.privateKey ?? '';

  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: loadDemoSeed(), logger });
    dir = await mkdtemp(join(tmpdir(), 'app-key-'));
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const auth = (env: Record<string, string>) =>
    workerCodeHostAuth(loadReleaseConfig({ CODE_HOST_API_URL: server.url, ...env }), { baseUrl: server.url, logger });

  it('is personal-token mode with CODE_HOST_TOKEN alone, and refuses to start with neither mode', async () => {
    const personal = await auth({ CODE_HOST_TOKEN: 'demo-token-bot' });
    expect(personal.tokens.mode).toBe('personal-token');
    expect(personal.app).toBeUndefined();
    expect(await personal.tokens.forOwner('acme')).toBe('demo-token-bot');
    await expect(auth({})).rejects.toThrow(ConfigError);
    await expect(auth({})).rejects.toThrow(/CODE_HOST_TOKEN or GITHUB_APP_ID/);
  });

  it('is App mode with GITHUB_APP_ID, its key given whole, written with \\n, or as a file', async () => {
    const path = join(dir, 'app.pem');
    await writeFile(path, key, { mode: 0o600 });
    for (const given of [key, key.replaceAll('\n', '\\n'), path]) {
      const app = await auth({ GITHUB_APP_ID: String(DEMO_APP.id), GITHUB_APP_PRIVATE_KEY: given, CODE_HOST_TOKEN: 'ignored' });
      expect(app.tokens.mode).toBe('app');
      expect(await app.tokens.forOwner('acme')).toMatch(/^ghs_/);
    }
  });

  it('refuses App mode without a key, with a key file that cannot be read, or with an id that is neither an id nor a client id', async () => {
    await expect(auth({ GITHUB_APP_ID: '4242' })).rejects.toThrow(/GITHUB_APP_PRIVATE_KEY: required with GITHUB_APP_ID/);
    await expect(auth({ GITHUB_APP_ID: '4242', GITHUB_APP_PRIVATE_KEY: join(dir, 'missing.pem') })).rejects.toThrow(
      /GITHUB_APP_PRIVATE_KEY: neither a PEM key nor a readable key file/,
    );
    expect(() => loadReleaseConfig({ GITHUB_APP_ID: 'my app' })).toThrow(/GITHUB_APP_ID/);
  });

  it("reads the service's own login: the App's bot user in App mode, the token's user in personal-token mode", async () => {
    const codeHost = createGitHubCodeHost({ baseUrl: server.url, userAgent: 'test', logger });
    const app = await auth({ GITHUB_APP_ID: String(DEMO_APP.id), GITHUB_APP_PRIVATE_KEY: key });
    expect(await botLoginReader(app, codeHost)()).toBe('switchyard[bot]');
    const personal = await auth({ CODE_HOST_TOKEN: 'demo-token-bot' });
    expect(await botLoginReader(personal, codeHost)()).toBe('switchyard-bot');
  });
});
