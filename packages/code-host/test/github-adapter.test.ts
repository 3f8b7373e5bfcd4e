import {
  DEMO_TOKEN_ALICE as ALICE,
  DEMO_TOKENS_ALICE as ALICE_TOKENS,
  DEMO_TOKEN_BOB as BOB,
  createGitHubEmulator,
  type EmulatorFault,
  LARGE_FILE,
  scaleTestSeed as testSeed,
} from '@switchyard/github-emulator';
import { type Listening, listen } from '@switchyard/service-kit';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodeHost, type CodeHostAccount, createGitHubCodeHost } from '../src/index.ts';
import { codeHostError } from './code-host-error.ts';

const account = (id: number, login: string, type: CodeHostAccount['type']): CodeHostAccount => ({ id, login, type });
const ALICE_ACCOUNT = account(1001, 'alice', 'user');
const ACME = account(2001, 'acme', 'org');

describe('GitHub adapter against the emulator', () => {
  const logLines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) });
  const requests: string[] = [];
  const faults: EmulatorFault[] = [];
  let server: Listening;
  let host: CodeHost;

  beforeAll(async () => {
    const app = createGitHubEmulator({ seed: testSeed(), logger, faults });
    server = await listen(
      (req, res) => {
        requests.push(req.url ?? '');
        app(req, res);
      },
      0,
      '127.0.0.1',
    );
    host = createGitHubCodeHost({ baseUrl: server.url, userAgent: 'code-host-tests', timeoutMs: 2_000, retryBaseDelayMs: 1, logger });
  });
  afterAll(() => server.close(100));

  /** The request paths the emulator received while `work` ran. */
  async function requestsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const start = requests.length;
    await work();
    return requests.slice(start);
  }

  it("currentUser: the user and the token's scopes; organisations: every organisation of the user", async () => {
    expect(await host.currentUser(ALICE)).toEqual({ account: ALICE_ACCOUNT, capability: { kind: 'scopes', scopes: ['repo', 'read:org'] } });
    expect(await host.organisations(ALICE)).toEqual([
      ACME,
      account(2002, 'globex', 'org'),
      account(2101, 'bigco', 'org'),
      account(2102, 'hugeco', 'org'),
    ]);
    expect(await host.organisations(BOB)).toEqual([account(2003, 'initech', 'org')]);
  });

  it('organisationRole: admin or member of an organisation, undefined for one the user is not in', async () => {
    expect(await host.organisationRole(ALICE, ACME)).toBe('admin');
    expect(await host.organisationRole(ALICE, account(2002, 'globex', 'org'))).toBe('member');
    expect(await host.organisationRole(BOB, ACME)).toBeUndefined();
  });

  it('currentUser reads what the token may do: classic scopes from X-OAuth-Scopes, none for a fine-grained token', async () => {
    const capability = async (token: string) => (await host.currentUser(token)).capability;
    expect(await capability(ALICE_TOKENS.readOrg)).toEqual({ kind: 'scopes', scopes: ['read:org'] });
    expect(await capability(ALICE_TOKENS.publicRepo)).toEqual({ kind: 'scopes', scopes: ['public_repo', 'read:org'] });
    expect(await capability(ALICE_TOKENS.contentsRead)).toEqual({ kind: 'per-repo' });
    expect(await capability(ALICE_TOKENS.contentsWrite)).toEqual({ kind: 'per-repo' });
  });

  it('a repo as a narrower token sees it: private ones hidden without `repo`, read-only contents capped at read', async () => {
    // acme/web-storefront (3101) is private, acme/acme-cli (3104) public; alice is an admin of acme.
    expect(await host.getRepo(ALICE_TOKENS.publicRepo, 3101)).toBeUndefined();
    expect((await host.getRepo(ALICE_TOKENS.publicRepo, 3104))?.permission).toBe('admin');
    expect((await host.getRepo(ALICE_TOKENS.readOrg, 3104))?.permission).toBe('admin');
    expect((await host.getRepo(ALICE_TOKENS.contentsRead, 3101))?.permission).toBe('read');
    expect((await host.getRepo(ALICE_TOKENS.contentsWrite, 3101))?.permission).toBe('admin');
    expect((await host.listRepos(ALICE_TOKENS.publicRepo, ACME)).map((r) => r.id)).toEqual([3104]);
  });

  it("listRepos of the user: their own repos, mapped, with admin permission; another user's account yields none", async () => {
    const repos = await host.listRepos(ALICE, ALICE_ACCOUNT);
    expect(repos.map((r) => r.fullName)).toEqual(['alice/big-files', 'alice/dotfiles', 'alice/left-pad', 'alice/notes-app']);
    expect(repos.find((r) => r.name === 'left-pad')).toEqual({
      id: 3003,
      name: 'left-pad',
      fullName: 'alice/left-pad',
      owner: ALICE_ACCOUNT,
      private: false,
      fork: true,
      archived: false,
      htmlUrl: 'https://github.com/alice/left-pad',
      language: 'JavaScript',
      defaultBranch: 'master',
      permission: 'admin',
    });
    expect(repos.every((r) => r.permission === 'admin')).toBe(true);
    expect(await host.listRepos(ALICE, account(1002, 'bob', 'user'))).toEqual([]);
  });

  it("listRepos of an organisation: every visible repo with the caller's permission", async () => {
    const acme = await host.listRepos(ALICE, ACME);
    expect(acme.map((r) => [r.name, r.permission, r.private, r.archived])).toEqual([
      ['polyglot', 'admin', true, false],
      ['legacy-portal', 'admin', true, true],
      ['acme-cli', 'admin', false, false],
      ['data-pipeline', 'admin', true, false],
      ['billing-api', 'admin', true, false],
      ['web-storefront', 'admin', true, false],
    ]);
    expect(acme[0]?.owner).toEqual(ACME);
    const globex = await host.listRepos(ALICE, account(2002, 'globex', 'org'));
    expect(Object.fromEntries(globex.map((r) => [r.name, r.permission]))).toEqual({
      analytics: 'write',
      website: 'read',
      'hr-tools': 'read',
    });
    const initech = account(2003, 'initech', 'org');
    expect((await host.listRepos(ALICE, initech)).map((r) => [r.name, r.permission])).toEqual([['office-space', 'read']]);
    expect((await host.listRepos(BOB, initech)).map((r) => r.permission)).toEqual(['write', 'write', 'write']);
    const missing = await codeHostError(host.listRepos(ALICE, account(9, 'no-such-org', 'org')));
    expect([missing.kind, missing.status]).toEqual(['not_found', 404]);
  });

  it('follows every page at per_page=100: 250 repos in 3 requests, 5,000 in 50', async () => {
    let repos: Awaited<ReturnType<CodeHost['listRepos']>> = [];
    const paths = await requestsDuring(async () => {
      repos = await host.listRepos(ALICE, account(2101, 'bigco', 'org'));
    });
    expect(repos).toHaveLength(250);
    expect(new Set(repos.map((r) => r.id)).size).toBe(250);
    expect(repos.every((r) => r.permission === 'read')).toBe(true);
    expect(paths).toEqual([
      '/orgs/bigco/repos?type=all&per_page=100',
      '/orgs/bigco/repos?type=all&per_page=100&page=2',
      '/orgs/bigco/repos?type=all&per_page=100&page=3',
    ]);
    const hugePaths = await requestsDuring(async () => {
      repos = await host.listRepos(ALICE, account(2102, 'hugeco', 'org'));
    });
    expect(repos).toHaveLength(5_000);
    expect(hugePaths).toHaveLength(50);
  }, 30_000);

  it('getRepo: a visible repo by id; undefined when missing or invisible', async () => {
    expect(await host.getRepo(ALICE, 3201)).toMatchObject({
      fullName: 'globex/analytics',
      permission: 'write',
      private: true,
      language: 'Python',
    });
    expect(await host.getRepo(BOB, 3001)).toMatchObject({ fullName: 'alice/dotfiles', permission: 'read' });
    expect(await host.getRepo(BOB, 3002)).toBeUndefined();
    expect(await host.getRepo(ALICE, 3401)).toBeUndefined();
    expect(await host.getRepo(ALICE, 987_654)).toBeUndefined();
    expect(await requestsDuring(async () => expect(await host.getRepo(ALICE, -1)).toBeUndefined())).toEqual([]);
  });

  it('readFile: text at the default branch or a ref; undefined for missing files, refs, repos, directories', async () => {
    const repo = { owner: 'acme', name: 'web-storefront' };
    expect(JSON.parse((await host.readFile(ALICE, repo, 'package.json')) ?? '').dependencies.lodash).toBe('^4.17.15');
    expect(JSON.parse((await host.readFile(ALICE, repo, 'package.json', 'develop')) ?? '').dependencies.lodash).toBe('^4.17.19');
    expect(await host.readFile(ALICE, repo, '/src/index.ts')).toBe('export {};\n');
    expect(await host.readFile(ALICE, { owner: 'acme', name: 'billing-api' }, 'Gemfile.lock')).toMatch(/^GEM\n/);
    expect(await host.readFile(ALICE, { owner: 'alice', name: 'big-files' }, 'with space/a b.txt')).toBe('spaced\n');
    expect(await host.readFile(ALICE, repo, 'missing.json')).toBeUndefined();
    expect(await host.readFile(ALICE, repo, 'package.json', 'no-such-branch')).toBeUndefined();
    expect(await host.readFile(ALICE, repo, 'src')).toBeUndefined();
    expect(await host.readFile(ALICE, repo, '')).toBeUndefined();
    expect(await host.readFile(ALICE, { owner: 'bob', name: 'bob-scripts' }, 'requirements.txt')).toBeUndefined();
    expect(await host.readFile(BOB, { owner: 'bob', name: 'bob-scripts' }, 'requirements.txt')).toBe('click==7.1.2\n');
    expect(await host.readFile(ALICE, { owner: 'acme', name: 'nothing-here' }, 'a.txt')).toBeUndefined();
  });

  it('readFile: a file over 1 MB (sent without content) is fetched raw', async () => {
    const paths = await requestsDuring(async () => {
      expect(await host.readFile(ALICE, { owner: 'alice', name: 'big-files' }, 'data/huge.txt')).toBe(LARGE_FILE);
    });
    expect(paths).toEqual(['/repos/alice/big-files/contents/data%2Fhuge.txt', '/repos/alice/big-files/contents/data%2Fhuge.txt']);
  });

  it('a rejected token is `unauthorized` (401) on every method; a malformed one without a request', async () => {
    const calls: Array<() => Promise<unknown>> = [
      () => host.currentUser('revoked-token'),
      () => host.organisations('revoked-token'),
      () => host.listRepos('revoked-token', ACME),
      () => host.listRepos('revoked-token', ALICE_ACCOUNT),
      () => host.getRepo('revoked-token', 3001),
      () => host.readFile('revoked-token', { owner: 'alice', name: 'dotfiles' }, 'x'),
    ];
    for (const call of calls) {
      const error = await codeHostError(call());
      expect([error.kind, error.status]).toEqual(['unauthorized', 401]);
      expect(error.message).not.toContain('revoked-token');
    }
    for (const token of ['', 'two words', 'line\nbreak']) {
      const paths = await requestsDuring(async () => {
        const error = await codeHostError(host.currentUser(token));
        expect([error.kind, error.status]).toEqual(['unauthorized', 0]);
      });
      expect(paths).toEqual([]);
    }
  });

  it('a primary rate limit with a long wait is `rate_limited` at once, with the seconds until the reset', async () => {
    for (const status of [403, 429] as const) {
      faults.push({ kind: 'rate-limit', resetInSeconds: 3_600, status });
      const started = Date.now();
      const error = await codeHostError(host.currentUser(ALICE));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect([error.kind, error.status]).toEqual(['rate_limited', status]);
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(3_598);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(3_601);
    }
  });

  it('a secondary rate limit is `rate_limited` with its retry-after', async () => {
    faults.push({ kind: 'secondary-rate-limit', retryAfterSeconds: 120 });
    const error = await codeHostError(host.getRepo(ALICE, 3001));
    expect([error.kind, error.status, error.retryAfterSeconds]).toEqual(['rate_limited', 403, 120]);
  });

  it('a rate limit on a later page fails the whole list', async () => {
    faults.push({ kind: 'pass' }, { kind: 'rate-limit', resetInSeconds: 900 });
    const paths = await requestsDuring(async () => {
      const error = await codeHostError(host.listRepos(ALICE, account(2101, 'bigco', 'org')));
      expect([error.kind, error.status]).toEqual(['rate_limited', 403]);
    });
    expect(paths).toEqual(['/orgs/bigco/repos?type=all&per_page=100', '/orgs/bigco/repos?type=all&per_page=100&page=2']);
  });

  it('a short rate-limit wait is waited out once, then the call succeeds', async () => {
    faults.push({ kind: 'rate-limit', resetInSeconds: 0 });
    const paths = await requestsDuring(async () => expect((await host.currentUser(ALICE)).account).toEqual(ALICE_ACCOUNT));
    expect(paths).toEqual(['/user', '/user']);
  }, 10_000);

  it('5xx answers are retried (2 retries), then `unavailable` with the status', async () => {
    faults.push({ kind: 'status', status: 502 });
    expect(await requestsDuring(async () => expect((await host.currentUser(ALICE)).account).toEqual(ALICE_ACCOUNT))).toHaveLength(2);
    faults.push({ kind: 'status', status: 502 }, { kind: 'status', status: 500 }, { kind: 'status', status: 503, retryAfterSeconds: 30 });
    const paths = await requestsDuring(async () => {
      const error = await codeHostError(host.currentUser(ALICE));
      expect([error.kind, error.status, error.retryAfterSeconds]).toEqual(['unavailable', 503, 30]);
    });
    expect(paths).toEqual(['/user', '/user', '/user']);
    faults.push({ kind: 'status', status: 403, message: 'Resource not accessible by personal access token' });
    const forbidden = await codeHostError(host.getRepo(ALICE, 3001));
    expect([forbidden.kind, forbidden.status]).toEqual(['forbidden', 403]);
  });

  it('a hanging server is `unavailable` after the timeout, not retried', async () => {
    const quick = createGitHubCodeHost({ baseUrl: server.url, timeoutMs: 300, logger });
    faults.push({ kind: 'hang' });
    const started = Date.now();
    const paths = await requestsDuring(async () => {
      const error = await codeHostError(quick.getRepo(ALICE, 3001));
      expect([error.kind, error.status]).toEqual(['unavailable', 0]);
      expect(error.message).toMatch(/no answer within 300 ms/);
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(paths).toEqual(['/repositories/3001']);
  });

  it('an answer whose body stalls is `unavailable`, never a short or empty list', async () => {
    const stalled = await listen(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.write('[{"id":1,');
      },
      0,
      '127.0.0.1',
    );
    try {
      const quick = createGitHubCodeHost({ baseUrl: stalled.url, timeoutMs: 300, logger });
      const error = await codeHostError(quick.listRepos(ALICE, ACME));
      expect([error.kind, error.status]).toEqual(['unavailable', 0]);
    } finally {
      await stalled.close(50);
    }
  });

  it('an unreachable server is `unavailable` with status 0', async () => {
    const closed = await listen((_req, res) => res.end(), 0, '127.0.0.1');
    await closed.close();
    const nowhere = createGitHubCodeHost({ baseUrl: closed.url, retries: 0, logger });
    const error = await codeHostError(nowhere.currentUser(ALICE));
    expect([error.kind, error.status]).toEqual(['unavailable', 0]);
  });

  it('never logs a token', () => {
    const log = logLines.join('');
    expect(log).toContain('GET /user');
    expect(log).toContain('"authorization":"[redacted]"'); // the emulator's request log, redacted
    for (const token of [ALICE, BOB, 'revoked-token']) expect(log).not.toContain(token);
  });
});

describe('GitHub adapter with a GitHub Enterprise style base URL', () => {
  let server: Listening;
  beforeAll(async () => {
    const parent = express();
    parent.use('/api/v3', createGitHubEmulator({ seed: testSeed(), logger: pino({ level: 'silent' }) }));
    server = await listen(parent, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('calls and paginates under the /api/v3 prefix', async () => {
    const host = createGitHubCodeHost({ baseUrl: `${server.url}/api/v3/`, logger: pino({ level: 'silent' }) });
    expect((await host.currentUser(ALICE)).account).toEqual(ALICE_ACCOUNT);
    expect(await host.listRepos(ALICE, account(2101, 'bigco', 'org'))).toHaveLength(250);
    expect(await host.readFile(ALICE, { owner: 'acme', name: 'data-pipeline' }, 'requirements.txt')).toMatch(/^requests==/);
  });
});
