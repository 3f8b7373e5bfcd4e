import { type CodeHost, createGitHubCodeHost } from '@switchyard/code-host';
import { loadDemoSeed, startGitHubEmulator } from '@switchyard/github-emulator';
import { createLogger, startService } from '@switchyard/service-kit';
import { createTestDatabase, request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadReleaseConfig } from '../src/config.ts';
import { startReleaseApi } from '../src/start.ts';
import { ALICE } from './harness.ts';

/**
 * release-svc's API shares config-svc's authentication (`@switchyard/code-host`) and start-up
 * (`@switchyard/dependency-api`): its configuration reaches the same limits. The API alone (no worker), with an
 * in-process bus, on the GitHub emulator, behind a proxy it trusts (`TRUST_PROXY=1`).
 */
describe("release-svc's API against brute force", () => {
  const tokens: string[] = [];
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const running = await startService(async (scope) => {
      const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
      const emulator = scope.use(await startGitHubEmulator({ seed: loadDemoSeed(), logger }));
      const database = await createTestDatabase(inject('databaseUrl'), 'release_auth_limits');
      scope.defer(() => database.drop());
      const inner = createGitHubCodeHost({ baseUrl: emulator.url, logger });
      // Every code-host call the API makes, by the token it is made with.
      const counted = (token: string) => {
        tokens.push(token);
        return inner;
      };
      const codeHost: CodeHost = {
        currentUser: (token) => counted(token).currentUser(token),
        organisations: (token) => counted(token).organisations(token),
        organisationRole: (token, org) => counted(token).organisationRole(token, org),
        listRepos: (token, account) => counted(token).listRepos(token, account),
        getRepo: (token, id) => counted(token).getRepo(token, id),
        readFile: (token, repo, path, ref) => counted(token).readFile(token, repo, path, ref),
      };
      const config = loadReleaseConfig({
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: database.url,
        CODE_HOST_API_URL: emulator.url,
        TRUST_PROXY: '1',
        AUTH_FAILURE_LIMIT: '5',
      });
      const api = scope.use(await startReleaseApi(config, logger, { codeHost }));
      return { url: api.url };
    });
    url = running.url;
    close = () => running.close();
  });
  afterAll(() => close?.());

  const jobs = (address: string, authorization?: string) =>
    request(url, 'GET', '/pull_request_jobs', {
      headers: { 'x-forwarded-for': address, ...(authorization === undefined ? {} : { authorization }) },
    });

  it('answers a rejected token again from memory, without a code-host call', async () => {
    expect((await jobs('198.51.100.1', 'Personal release-rejected')).status).toBe(401);
    const calls = tokens.filter((token) => token === 'release-rejected').length;
    expect(calls).toBeGreaterThan(0);
    const again = await jobs('198.51.100.1', 'Personal release-rejected');
    expect(again.status).toBe(401);
    expect(again.body.errors[0].detail).toMatch(/Bad credentials/);
    expect(tokens.filter((token) => token === 'release-rejected').length).toBe(calls);
  });

  it('answers the failure after AUTH_FAILURE_LIMIT from one address 429 with Retry-After, and a known token still works there', async () => {
    const address = '198.51.100.2';
    expect((await jobs(address, `Personal ${ALICE}`)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await jobs(address, `Personal release-bad-${i}`)).status).toBe(401);
    const calls = tokens.length;
    const limited = await jobs(address, 'Personal release-bad-5');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.body.errors).toEqual([
      { status: 429, title: 'Too Many Requests', detail: expect.stringMatching(/failed authentications/) },
    ]);
    expect(tokens.length).toBe(calls);
    expect((await jobs(address, `Personal ${ALICE}`)).status).toBe(200);
  });
});
