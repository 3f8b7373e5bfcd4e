import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareVersions, inVersionRange, parseAffects } from '../src/advisory-query.ts';
import { loadDemoSeed, parseSeed, type SeedInput } from '../src/index.ts';
import { ALICE, auth, BOB, startEmulator } from './fixtures.ts';
import { type GitHubOpenApi, loadGitHubOpenApi, schemaErrors } from './openapi.ts';

type Advisory = { ghsa_id: string; type: string; withdrawn_at: string | null; vulnerabilities: { package: { name: string } }[] };

describe('GitHub emulator: global security advisories (demo seed)', () => {
  let server: Listening;
  let openapi: GitHubOpenApi;
  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server } = await startEmulator(loadDemoSeed()));
  }, 60_000);
  afterAll(() => server.close());

  const get = (path: string, token?: string) => request(server.url, 'GET', path, { headers: token ? auth(token) : {} });
  const ids = (body: Advisory[]) => body.map((a) => a.ghsa_id);

  it('GET /advisories answers global-advisory items, reviewed ones by default, newest first, with or without a token', async () => {
    const res = await get('/advisories?per_page=100');
    expect(res.status, res.text).toBe(200);
    expect(schemaErrors(openapi.validator('/advisories', '200'), res.body)).toEqual([]);
    const body = res.body as Advisory[];
    expect(body.every((a) => a.type === 'reviewed')).toBe(true);
    expect(ids(body)).not.toContain('GHSA-5555-6666-7777'); // malware
    expect(ids(body)[0]).toBe('GHSA-qw6h-vgh9-j6wx'); // published 2024-09-10, the newest
    expect(res.headers.get('x-ratelimit-limit')).toBe('60'); // anonymous
    expect((await get('/advisories', ALICE)).headers.get('x-ratelimit-limit')).toBe('5000');
    const lodash = body.find((a) => a.ghsa_id === 'GHSA-35jh-r3h4-6jhm');
    expect(lodash).toMatchObject({
      cve_id: 'CVE-2021-23337',
      severity: 'high',
      withdrawn_at: null,
      html_url: 'https://github.com/advisories/GHSA-35jh-r3h4-6jhm',
      url: `${server.url}/advisories/GHSA-35jh-r3h4-6jhm`,
      identifiers: [
        { type: 'GHSA', value: 'GHSA-35jh-r3h4-6jhm' },
        { type: 'CVE', value: 'CVE-2021-23337' },
      ],
      vulnerabilities: [
        {
          package: { ecosystem: 'npm', name: 'lodash' },
          vulnerable_version_range: '< 4.17.21',
          first_patched_version: '4.17.21',
          vulnerable_functions: [],
        },
      ],
    });
  });

  it('filters by ecosystem, type, affects (names or name@version in the vulnerable range) and is_withdrawn', async () => {
    expect(ids((await get('/advisories?ecosystem=pip')).body).sort()).toEqual([
      'GHSA-2222-3333-4444',
      'GHSA-9wx4-h78v-vm56',
      'GHSA-j8r2-6x86-q33q',
      'GHSA-m2qf-hxjv-5gpq',
    ]);
    expect(ids((await get('/advisories?type=malware')).body)).toEqual(['GHSA-5555-6666-7777']);
    expect(ids((await get('/advisories?affects=lodash')).body)).toEqual([
      'GHSA-29mw-wpgm-hmr9',
      'GHSA-35jh-r3h4-6jhm',
      'GHSA-p6mc-m468-83gw',
    ]);
    // acme/web-storefront's lockfile has lodash 4.17.15 and express 4.17.1; its develop branch lodash 4.17.19.
    expect(ids((await get('/advisories?affects=lodash@4.17.19')).body).sort()).toEqual(['GHSA-29mw-wpgm-hmr9', 'GHSA-35jh-r3h4-6jhm']);
    expect(ids((await get('/advisories?affects=lodash@4.17.21')).body)).toEqual([]);
    expect(ids((await get('/advisories?affects=lodash@3.6.0')).body).sort()).toEqual(['GHSA-29mw-wpgm-hmr9', 'GHSA-35jh-r3h4-6jhm']);
    expect(ids((await get('/advisories?affects=express@4.17.1,requests@2.23.0')).body).sort()).toEqual([
      'GHSA-9wx4-h78v-vm56',
      'GHSA-j8r2-6x86-q33q',
      'GHSA-qw6h-vgh9-j6wx',
      'GHSA-rv95-896h-c2vc',
    ]);
    expect(ids((await get('/advisories?affects=express@5.0.0-beta.1')).body).sort()).toEqual([
      'GHSA-qw6h-vgh9-j6wx',
      'GHSA-rv95-896h-c2vc',
    ]);
    expect(ids((await get('/advisories?affects=nokogiri@1.10.9&ecosystem=rubygems')).body)).toEqual(['GHSA-vr8q-g5c7-m54m']);
    expect(ids((await get('/advisories?affects=lodash&ecosystem=pip')).body)).toEqual([]);
    expect(ids((await get('/advisories?is_withdrawn=true')).body)).toEqual(['GHSA-4444-5555-6666']);
    expect(ids((await get('/advisories?is_withdrawn=false&ecosystem=npm')).body)).not.toContain('GHSA-4444-5555-6666');
  });

  it('pages with cursors: Link rel="next" (after) and rel="prev" (before), each page once, in order', async () => {
    const all = ids((await get('/advisories?per_page=100')).body);
    expect(all.length).toBeGreaterThan(5);
    const seen: string[] = [];
    let path: string | undefined = '/advisories?per_page=5';
    let pages = 0;
    let lastLink = '';
    while (path) {
      const res = await get(path);
      expect(res.status, res.text).toBe(200);
      seen.push(...ids(res.body));
      pages++;
      lastLink = res.headers.get('link') ?? '';
      const next = /<([^>]+)>; rel="next"/.exec(lastLink)?.[1];
      if (next) expect(new URL(next).searchParams.get('after')).toBeTruthy();
      path = next ? next.slice(server.url.length) : undefined;
    }
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 5));
    const prev = /<([^>]+)>; rel="prev"/.exec(lastLink)?.[1];
    expect(prev).toBeDefined();
    const back = await get((prev as string).slice(server.url.length));
    expect(ids(back.body)).toEqual(all.slice((pages - 2) * 5, (pages - 1) * 5));
    expect((await get('/advisories?per_page=100')).headers.get('link')).toBeNull();
  });

  it('answers 422 for an unknown ecosystem, type or cursor; GET /advisories/{ghsa_id} answers one or 404', async () => {
    for (const query of ['ecosystem=cobol', 'type=everything', 'after=bm90LWEtY3Vyc29y', 'after=x&before=y']) {
      const res = await get(`/advisories?${query}`);
      expect(res.status, query).toBe(422);
      expect(schemaErrors(openapi.validator('/advisories', '422'), res.body)).toEqual([]);
      expect(res.body.message).toBe('Validation Failed');
    }
    const one = await get('/advisories/GHSA-p6mc-m468-83gw');
    expect(one.status).toBe(200);
    expect(schemaErrors(openapi.validator('/advisories/{ghsa_id}', '200'), one.body)).toEqual([]);
    expect(one.body).toMatchObject({ ghsa_id: 'GHSA-p6mc-m468-83gw', cve_id: 'CVE-2020-8203' });
    expect((await get('/advisories/GHSA-xxxx-xxxx-xxxx')).status).toBe(404);
  });
});

describe('GitHub emulator: GitHub App installations (demo seed)', () => {
  let server: Listening;
  let openapi: GitHubOpenApi;
  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server } = await startEmulator(loadDemoSeed()));
  }, 60_000);
  afterAll(() => server.close());

  const get = (path: string, token?: string) => request(server.url, 'GET', path, { headers: token ? auth(token) : {} });

  it('GET /user/installations lists the installations on the accounts the user reaches, as the installation schema', async () => {
    const res = await get('/user/installations', ALICE);
    expect(res.status, res.text).toBe(200);
    expect(schemaErrors(openapi.validator('/user/installations', '200'), res.body)).toEqual([]);
    expect(res.body.total_count).toBe(3);
    expect(
      res.body.installations.map((i: { id: number; account: { login: string }; repository_selection: string; target_type: string }) => [
        i.id,
        i.account.login,
        i.repository_selection,
        i.target_type,
      ]),
    ).toEqual([
      [5001, 'acme', 'all', 'Organization'],
      [5002, 'globex', 'selected', 'Organization'],
      [5003, 'alice', 'selected', 'User'],
    ]);
    expect(res.body.installations[0]).toMatchObject({
      app_id: 4242,
      app_slug: 'switchyard',
      target_id: 2001,
      account: { id: 2001, type: 'Organization' },
    });
    const bob = await get('/user/installations', BOB);
    expect(bob.body.installations.map((i: { id: number }) => i.id)).toEqual([5004]);
    expect((await get('/user/installations')).status).toBe(401);
  });

  it('pages GET /user/installations with page/per_page and a Link header', async () => {
    const first = await get('/user/installations?per_page=2', ALICE);
    expect(first.body.total_count).toBe(3);
    expect(first.body.installations).toHaveLength(2);
    expect(first.headers.get('link')).toMatch(/page=2>; rel="next"/);
    const second = await get('/user/installations?per_page=2&page=2', ALICE);
    expect(second.body.installations.map((i: { id: number }) => i.id)).toEqual([5003]);
  });

  it('GET /user/installations/{id}/repositories lists what the installation covers and the user sees; 404 for others', async () => {
    const names = (body: { repositories: { full_name: string }[] }) => body.repositories.map((r) => r.full_name).sort();
    const acme = await get('/user/installations/5001/repositories?per_page=100', ALICE);
    expect(acme.status, acme.text).toBe(200);
    expect(schemaErrors(openapi.validator('/user/installations/{installation_id}/repositories', '200'), acme.body)).toEqual([]);
    expect(acme.body.repository_selection).toBe('all');
    expect(names(acme.body)).toEqual([
      'acme/acme-cli',
      'acme/billing-api',
      'acme/data-pipeline',
      'acme/legacy-portal',
      'acme/polyglot',
      'acme/web-storefront',
    ]);
    const globex = await get('/user/installations/5002/repositories', ALICE);
    expect(globex.body).toMatchObject({ total_count: 2, repository_selection: 'selected' });
    expect(names(globex.body)).toEqual(['globex/analytics', 'globex/website']);
    expect((await get('/user/installations/5004/repositories', ALICE)).status).toBe(404); // initech: not alice's
    expect((await get('/user/installations/5003/repositories', BOB)).status).toBe(404);
    expect((await get('/user/installations/nope/repositories', ALICE)).status).toBe(404);
  });
});

describe('seed: installations and advisories are checked', () => {
  const demo = (): SeedInput => loadDemoSeed();
  const problems = (seed: SeedInput): string => {
    try {
      parseSeed(seed);
      return '';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('refuses unknown accounts and repositories, selections on `all`, duplicate ids and malformed advisories', () => {
    const base = demo();
    expect(problems(base)).toBe('');
    expect(problems({ ...base, installations: [{ id: 1, account: 'nobody', repositorySelection: 'all' }] })).toMatch(
      /no user or organisation nobody/,
    );
    expect(
      problems({ ...base, installations: [{ id: 1, account: 'acme', repositorySelection: 'selected', repositories: ['missing'] }] }),
    ).toMatch(/no repository acme\/missing/);
    expect(
      problems({ ...base, installations: [{ id: 1, account: 'acme', repositorySelection: 'all', repositories: ['acme-cli'] }] }),
    ).toMatch(/must be empty when repositorySelection is all/);
    const installation = { id: 7, account: 'acme', repositorySelection: 'all' as const };
    expect(problems({ ...base, installations: [installation, installation] })).toMatch(/duplicate installation id 7/);
    const advisory = base.advisories?.[0];
    if (!advisory) throw new Error('the demo seed has advisories');
    expect(problems({ ...base, advisories: [advisory, advisory] })).toMatch(/duplicate advisory GHSA-35jh-r3h4-6jhm/);
    expect(problems({ ...base, advisories: [{ ...advisory, ghsaId: 'GHSA-1234' }] })).toMatch(/GHSA id/);
    const vulnerability = { ecosystem: 'npm' as const, package: 'x', vulnerableVersionRange: 'below 2', firstPatchedVersion: '2' };
    expect(problems({ ...base, advisories: [{ ...advisory, vulnerabilities: [vulnerability] }] })).toMatch(/comparators/);
    expect(
      problems({
        ...base,
        advisories: [{ ...advisory, vulnerabilities: [{ ...vulnerability, vulnerableVersionRange: '< 2', ecosystem: 'cobol' as never }] }],
      }),
    ).toMatch(/ecosystem/);
  });
});

describe('advisory version ranges', () => {
  it('orders versions part by part and reads GitHub range comparators', () => {
    expect(compareVersions('4.17.15', '4.17.21')).toBeLessThan(0);
    expect(compareVersions('4.17.21', '4.17.21')).toBe(0);
    expect(compareVersions('1.10.9', '1.9.0')).toBeGreaterThan(0);
    expect(compareVersions('1.11.0.rc4', '1.11.0')).toBeLessThan(0);
    expect(compareVersions('2.2', '2.2.0')).toBe(0);
    expect(compareVersions('5.0.0-beta.1', '5.0.0-beta.3')).toBeLessThan(0);
    expect(inVersionRange('4.17.15', '< 4.17.21')).toBe(true);
    expect(inVersionRange('3.6.0', '>= 3.7.0, < 4.17.19')).toBe(false);
    expect(inVersionRange('6.0.3.2', '>= 6.0.0, < 6.0.3.5')).toBe(true);
    expect(inVersionRange('1.0.0', '= 1.0.0')).toBe(true);
    expect(inVersionRange('1.0.0', 'garbage')).toBe(false);
    expect(parseAffects('lodash@4.17.15, @babel/core@7.0.0,express,,')).toEqual([
      { name: 'lodash', version: '4.17.15' },
      { name: '@babel/core', version: '7.0.0' },
      { name: 'express', version: undefined },
    ]);
  });
});
