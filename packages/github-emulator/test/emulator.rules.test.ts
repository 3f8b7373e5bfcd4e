import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmulatorFault, generateRepos, loadDemoSeed, type SeedInput, startGitHubEmulator } from '../src/index.ts';
import { ALICE, auth, BOB, silentLogger, startEmulator } from './fixtures.ts';

type Repo = { id: number; full_name: string; private: boolean; permissions: Record<string, boolean> };

describe('GitHub emulator: visibility and permissions (demo seed)', () => {
  let server: Listening;
  beforeAll(async () => {
    ({ server } = await startEmulator(loadDemoSeed()));
  });
  afterAll(() => server.close());

  const get = (path: string, token: string) => request(server.url, 'GET', path, { headers: auth(token) });
  const names = (repos: Repo[]) => repos.map((r) => r.full_name).sort();
  const permissionsByName = (repos: Repo[]) => Object.fromEntries(repos.map((r) => [r.full_name, r.permissions]));
  const ADMIN = { admin: true, maintain: true, push: true, triage: true, pull: true };
  const WRITE = { admin: false, maintain: false, push: true, triage: true, pull: true };
  const READ = { admin: false, maintain: false, push: false, triage: false, pull: true };

  it('each user sees their own account and only their organisations', async () => {
    expect((await get('/user', ALICE)).body).toMatchObject({ login: 'alice', id: 1001 });
    expect((await get('/user', BOB)).body).toMatchObject({ login: 'bob', id: 1002 });
    expect((await get('/user/orgs', ALICE)).body.map((o: { login: string }) => o.login)).toEqual(['acme', 'globex']);
    expect((await get('/user/orgs', BOB)).body.map((o: { login: string }) => o.login)).toEqual(['initech']);
  });

  it("GET /user/repos lists own, collaborator and member repos with the caller's permissions, never the other user's private ones", async () => {
    const alice: Repo[] = (await get('/user/repos?per_page=100', ALICE)).body;
    expect(names(alice)).toEqual([
      'acme/acme-cli',
      'acme/billing-api',
      'acme/data-pipeline',
      'acme/legacy-portal',
      'acme/polyglot',
      'acme/web-storefront',
      'alice/dotfiles',
      'alice/left-pad',
      'alice/notes-app',
      'globex/analytics',
      'globex/hr-tools',
      'globex/website',
    ]);
    const perms = permissionsByName(alice);
    expect(perms['alice/notes-app']).toEqual(ADMIN); // owner
    expect(perms['acme/web-storefront']).toEqual(ADMIN); // org admin
    expect(perms['globex/analytics']).toEqual(WRITE); // collaborator write beats the org's read
    expect(perms['globex/hr-tools']).toEqual(READ); // org default
    const bob: Repo[] = (await get('/user/repos?per_page=100', BOB)).body;
    expect(names(bob)).toEqual(['bob/blog', 'bob/bob-scripts', 'initech/office-space', 'initech/printer-driver', 'initech/tps-reports']);
    expect(permissionsByName(bob)['initech/tps-reports']).toEqual(WRITE); // org default write
    expect(alice.some((r) => r.full_name.startsWith('initech/') || r.full_name.startsWith('bob/'))).toBe(false);
  });

  it('GET /user/repos filters by affiliation, visibility and type, sorted by full_name', async () => {
    const owned: Repo[] = (await get('/user/repos?affiliation=owner', ALICE)).body;
    expect(owned.map((r) => r.full_name)).toEqual(['alice/dotfiles', 'alice/left-pad', 'alice/notes-app']);
    expect(names((await get('/user/repos?affiliation=collaborator', ALICE)).body)).toEqual(['globex/analytics']);
    expect(names((await get('/user/repos?visibility=public&affiliation=owner,organization_member', ALICE)).body)).toEqual([
      'acme/acme-cli',
      'alice/dotfiles',
      'alice/left-pad',
      'globex/website',
    ]);
    expect(names((await get('/user/repos?type=private', BOB)).body)).toEqual([
      'bob/bob-scripts',
      'initech/printer-driver',
      'initech/tps-reports',
    ]);
    expect((await get('/user/repos?type=member', BOB)).body.every((r: Repo) => r.full_name.startsWith('initech/'))).toBe(true);
    expect((await get('/user/repos?visibility=secret', BOB)).status).toBe(422);
    expect((await get('/user/repos?affiliation=friend', BOB)).status).toBe(422);
  });

  it("GET /orgs/{org}/repos shows a non-member only the org's public repos, read-only; members everything, newest first", async () => {
    const asAlice: Repo[] = (await get('/orgs/initech/repos', ALICE)).body;
    expect(asAlice.map((r) => [r.full_name, r.permissions])).toEqual([['initech/office-space', READ]]);
    const asBob: Repo[] = (await get('/orgs/initech/repos?type=all', BOB)).body;
    expect(asBob.map((r) => r.full_name)).toEqual(['initech/office-space', 'initech/printer-driver', 'initech/tps-reports']);
    expect(asBob.every((r) => r.permissions.push && !r.permissions.admin)).toBe(true);
    expect(names((await get('/orgs/acme/repos?type=private', ALICE)).body)).toEqual([
      'acme/billing-api',
      'acme/data-pipeline',
      'acme/legacy-portal',
      'acme/polyglot',
      'acme/web-storefront',
    ]);
    expect(names((await get('/orgs/ACME/repos?type=public', ALICE)).body)).toEqual(['acme/acme-cli']);
    expect(names((await get('/orgs/acme/repos?type=forks', ALICE)).body)).toEqual([]);
    expect((await get('/orgs/acme/repos?sort=full_name', ALICE)).body.map((r: Repo) => r.full_name)).toEqual([
      'acme/acme-cli',
      'acme/billing-api',
      'acme/data-pipeline',
      'acme/legacy-portal',
      'acme/polyglot',
      'acme/web-storefront',
    ]);
    const archived = (await get('/orgs/acme/repos', ALICE)).body.find((r: Repo) => r.full_name === 'acme/legacy-portal');
    expect(archived).toMatchObject({ archived: true, private: true, default_branch: 'master', language: 'PHP' });
  });

  it('hides private repos and their files from users without access (404), shows public ones read-only', async () => {
    expect((await get('/repositories/3002', BOB)).status).toBe(404); // alice/notes-app
    expect((await get('/repos/alice/notes-app/contents/package.json', BOB)).status).toBe(404);
    expect((await get('/repositories/3401', ALICE)).status).toBe(404); // bob/bob-scripts
    expect((await get('/repositories/3301', ALICE)).status).toBe(404); // initech/tps-reports
    const publicRepo = await get('/repositories/3001', BOB);
    expect(publicRepo.body).toMatchObject({ full_name: 'alice/dotfiles', permissions: READ, owner: { login: 'alice', type: 'User' } });
    expect((await get('/repositories/3003', ALICE)).body).toMatchObject({ fork: true, permissions: ADMIN, default_branch: 'master' });
    expect((await get('/repos/initech/office-space/contents/Gemfile', ALICE)).status).toBe(200);
  });

  it('serves files by ref (default branch when absent) with paths given with / or %2F, and directory listings', async () => {
    const decode = (body: { content: string }) => Buffer.from(body.content, 'base64').toString('utf8');
    const main = await get('/repos/acme/web-storefront/contents/package.json', ALICE);
    expect(JSON.parse(decode(main.body)).dependencies.lodash).toBe('^4.17.15');
    expect(main.body.content).toMatch(/^([A-Za-z0-9+/=]{1,60}\n)+$/);
    const develop = await get('/repos/acme/web-storefront/contents/package.json?ref=develop', ALICE);
    expect(JSON.parse(decode(develop.body)).dependencies.lodash).toBe('^4.17.19');
    expect(develop.body.sha).not.toBe(main.body.sha);
    const nested = await get('/repos/acme/web-storefront/contents/src%2Findex.ts', ALICE);
    expect(decode(nested.body)).toBe('export {};\n');
    expect((await get('/repos/acme/web-storefront/contents/src/index.ts', ALICE)).body.sha).toBe(nested.body.sha);
    const root = await get('/repos/acme/web-storefront/contents', ALICE);
    expect(root.body.map((e: { name: string; type: string }) => `${e.type}:${e.name}`)).toEqual([
      'file:package-lock.json',
      'file:package.json',
      'dir:src',
    ]);
    expect((await get('/repos/acme/web-storefront/contents/src/', ALICE)).body.map((e: { path: string }) => e.path)).toEqual([
      'src/index.ts',
    ]);
    const raw = await request(server.url, 'GET', '/repos/acme/data-pipeline/contents/requirements.txt', {
      headers: { ...auth(ALICE), accept: 'application/vnd.github.raw+json' },
    });
    expect(raw.text).toMatch(/^requests==2\.23\.0\n/);
    const missingRef = await get('/repos/acme/web-storefront/contents/package.json?ref=nope', ALICE);
    expect([missingRef.status, missingRef.body.message]).toEqual([404, 'No commit found for the ref nope']);
    const empty = await get('/repos/acme/acme-cli/contents/README.md', ALICE);
    expect([empty.status, empty.body.message]).toEqual([404, 'This repository is empty.']);
  });

  it('accepts `token` and `Bearer` schemes, case-insensitively, and treats logins and repo names case-insensitively', async () => {
    for (const authorization of [`token ${ALICE}`, `Bearer ${ALICE}`, `TOKEN ${ALICE}`]) {
      expect((await request(server.url, 'GET', '/user', { headers: { authorization } })).status).toBe(200);
    }
    expect((await get('/repos/ACME/Web-Storefront/contents/package.json', ALICE)).status).toBe(200);
  });
});

describe('GitHub emulator: organisation base permissions and collaborators', () => {
  const seed: SeedInput = {
    users: [
      { id: 1, login: 'owner', token: 't-owner' },
      { id: 2, login: 'member', token: 't-member' },
      { id: 3, login: 'outsider', token: 't-outsider' },
    ],
    organizations: [
      {
        id: 10,
        login: 'closed',
        members: [
          { login: 'owner', role: 'admin' },
          { login: 'member', role: 'member' },
        ],
        defaultRepoPermission: 'none',
      },
    ],
    repos: [
      { id: 100, owner: 'closed', name: 'secret', private: true, fork: false, defaultBranch: 'main', language: 'Go' },
      {
        id: 101,
        owner: 'closed',
        name: 'shared',
        private: true,
        fork: false,
        defaultBranch: 'main',
        language: 'Go',
        collaborators: { member: 'maintain', outsider: 'triage' },
      },
      { id: 102, owner: 'closed', name: 'open', private: false, fork: false, defaultBranch: 'main', language: null },
    ],
  };
  let server: Listening;
  beforeAll(async () => {
    ({ server } = await startEmulator(seed));
  });
  afterAll(() => server.close());

  const repos = async (token: string) =>
    (await request(server.url, 'GET', '/orgs/closed/repos?sort=full_name', { headers: auth(token) })).body.map(
      (r: Repo) =>
        `${r.full_name}:${Object.entries(r.permissions)
          .filter(([, on]) => on)
          .map(([name]) => name)
          .join('+')}`,
    );

  it('a base permission of none shows members only public repos and those granted; admins see all', async () => {
    expect(await repos('t-owner')).toEqual([
      'closed/open:admin+maintain+push+triage+pull',
      'closed/secret:admin+maintain+push+triage+pull',
      'closed/shared:admin+maintain+push+triage+pull',
    ]);
    expect(await repos('t-member')).toEqual(['closed/open:pull', 'closed/shared:maintain+push+triage+pull']);
    expect(await repos('t-outsider')).toEqual(['closed/open:pull', 'closed/shared:triage+pull']);
    const memberRepos = (await request(server.url, 'GET', '/user/repos?affiliation=organization_member', { headers: auth('t-member') }))
      .body;
    expect(memberRepos).toEqual([]);
  });
});

describe('GitHub emulator: pagination, headers, rate limits and faults', () => {
  let server: Listening;
  let faults: EmulatorFault[];
  let clock = Date.UTC(2024, 0, 1);
  const seed: SeedInput = {
    users: [
      { id: 1, login: 'pat', token: 't-pat' },
      { id: 2, login: 'sam', token: 't-sam' },
    ],
    organizations: [{ id: 10, login: 'many', members: [{ login: 'pat', role: 'member' }], defaultRepoPermission: 'read' }],
    repos: generateRepos('many', 250, 1_000),
    rateLimit: { limit: 5, windowSeconds: 60 },
  };
  beforeAll(async () => {
    faults = [];
    server = await startGitHubEmulator({ seed, logger: silentLogger, faults, now: () => clock });
  });
  afterAll(() => server.close(100));

  const get = (path: string, token = 't-pat') => request(server.url, 'GET', path, { headers: auth(token) });

  it('pages with page/per_page (default 30, at most 100) and a Link header with prev, next, last and first', async () => {
    clock += 61_000;
    const base = `${server.url}/orgs/many/repos`;
    const first = await get('/orgs/many/repos?type=all&per_page=100');
    expect(first.body).toHaveLength(100);
    expect(first.headers.get('link')).toBe(
      `<${base}?type=all&per_page=100&page=2>; rel="next", <${base}?type=all&per_page=100&page=3>; rel="last"`,
    );
    const middle = await get('/orgs/many/repos?type=all&per_page=100&page=2');
    expect(middle.headers.get('link')).toBe(
      `<${base}?type=all&per_page=100&page=1>; rel="prev", <${base}?type=all&per_page=100&page=3>; rel="next", ` +
        `<${base}?type=all&per_page=100&page=3>; rel="last", <${base}?type=all&per_page=100&page=1>; rel="first"`,
    );
    const last = await get('/orgs/many/repos?type=all&per_page=100&page=3');
    expect(last.body).toHaveLength(50);
    expect(last.headers.get('link')).not.toMatch(/rel="next"/);
    const ids = new Set([...first.body, ...middle.body, ...last.body].map((r: Repo) => r.id));
    expect(ids.size).toBe(250);
    clock += 61_000;
    expect((await get('/orgs/many/repos')).body).toHaveLength(30);
    expect((await get('/orgs/many/repos?per_page=500')).body).toHaveLength(100);
    expect((await get('/orgs/many/repos?per_page=100&page=9')).body).toEqual([]);
    expect((await get('/orgs/many/repos?per_page=300&page=abc')).headers.get('link')).toMatch(/per_page=100&page=2>; rel="next"/);
    const single = await get('/user/orgs');
    expect(single.headers.get('link')).toBeNull();
  });

  it('counts requests per user and answers 403 with x-ratelimit-remaining 0 when the window is used up, until it resets', async () => {
    clock += 61_000;
    const states: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await get('/user');
      expect(res.status).toBe(200);
      states.push(`${res.headers.get('x-ratelimit-remaining')}/${res.headers.get('x-ratelimit-used')}`);
    }
    expect(states).toEqual(['4/1', '3/2', '2/3', '1/4', '0/5']);
    const limited = await get('/user');
    expect(limited.status).toBe(403);
    expect(limited.body).toEqual({
      message: 'API rate limit exceeded for user ID 1.',
      documentation_url: 'https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api',
      status: '403',
    });
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(clock / 1000) + 60);
    expect((await get('/user', 't-sam')).status).toBe(200); // another user has their own budget
    clock += 60_000;
    expect((await get('/user')).status).toBe(200);
  });

  it('plays queued faults once each, in order', async () => {
    clock += 61_000;
    faults.push(
      { kind: 'status', status: 502 },
      { kind: 'status', status: 503, message: 'Unicorns', retryAfterSeconds: 7 },
      { kind: 'rate-limit', resetInSeconds: 120, status: 429 },
    );
    const bad = await get('/user');
    expect([bad.status, bad.body.message]).toEqual([502, 'Server Error']);
    const unicorns = await get('/user');
    expect([unicorns.status, unicorns.body.message, unicorns.headers.get('retry-after')]).toEqual([503, 'Unicorns', '7']);
    const limited = await get('/user');
    expect([limited.status, limited.headers.get('x-ratelimit-remaining'), limited.headers.get('x-ratelimit-reset')]).toEqual([
      429,
      '0',
      String(Math.ceil(clock / 1000) + 120),
    ]);
    expect((await get('/user')).status).toBe(200);
    expect(faults).toEqual([]);
  });

  it('sends GitHub headers on every answer', async () => {
    clock += 61_000;
    const res = await get('/user');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-github-media-type')).toBe('github.v3; format=json');
    expect(res.headers.get('x-github-request-id')).toMatch(/^[0-9A-F]{4}(:[0-9A-F]{4}){3}$/);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    expect(res.headers.get('x-ratelimit-resource')).toBe('core');
  });
});
