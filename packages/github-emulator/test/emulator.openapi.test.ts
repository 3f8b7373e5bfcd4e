import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorFault } from '../src/index.ts';
import { ALICE, auth, BOB, startEmulator } from './fixtures.ts';
import { type GitHubOpenApi, loadGitHubOpenApi, schemaErrors } from './openapi.ts';

/**
 * Every body the emulator sends validates against GitHub's published OpenAPI description (`@octokit/openapi`,
 * api.github.com, dereferenced): the 200 schema of each operation and the `basic-error` / `validation-error` shapes.
 */
describe('GitHub emulator responses against GitHub OpenAPI description', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let faults: EmulatorFault[];

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server, faults } = await startEmulator());
  }, 60_000);
  afterAll(() => server.close());

  const get = (path: string, token?: string, headers: Record<string, string> = {}) =>
    request(server.url, 'GET', path, { headers: { ...(token ? auth(token) : {}), ...headers } });

  /** Asserts a JSON answer with `status`, GitHub's content type and rate-limit headers, valid against `GET openapiPath`. */
  function expectValid(res: TestResponse, openapiPath: string, status = 200): void {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(schemaErrors(openapi.validator(openapiPath, String(status)), res.body)).toEqual([]);
  }

  /** Keys of `body` (an object, or each item of an array) that the schema does not document. */
  function undocumented(body: unknown, schema: Record<string, unknown>): string[] {
    type Node = { type?: string; items?: Node; properties?: Record<string, unknown>; oneOf?: Node[] };
    const propertiesOf = (node: Node): string[] =>
      node.type === 'array' && node.items
        ? propertiesOf(node.items)
        : [...Object.keys(node.properties ?? {}), ...(node.oneOf ?? []).flatMap(propertiesOf)];
    const documented = new Set(propertiesOf(schema as Node));
    const items = Array.isArray(body) ? body : [body];
    return [...new Set(items.flatMap((item) => Object.keys(item as object)))].filter((key) => !documented.has(key));
  }

  function expectRateLimitHeaders(res: TestResponse): void {
    for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-ratelimit-used']) {
      expect(res.headers.get(name), name).toMatch(/^\d+$/);
    }
    expect(res.headers.get('x-ratelimit-resource')).toBe('core');
  }

  it('the validators reject bodies that break the schema (so passing means something)', async () => {
    const repo = (await get('/repositories/3101', ALICE)).body;
    const validate = openapi.validator('/repos/{owner}/{repo}', '200');
    expect(schemaErrors(validate, repo)).toEqual([]);
    const { node_id: _dropped, ...withoutNodeId } = repo;
    expect(schemaErrors(validate, withoutNodeId).join()).toMatch(/node_id/);
    expect(schemaErrors(validate, { ...repo, private: 'yes' }).join()).toMatch(/\/private must be boolean/);
    expect(schemaErrors(validate, { ...repo, owner: { ...repo.owner, id: 'x' } }).join()).toMatch(/\/owner\/id/);
    expect(schemaErrors(validate, { ...repo, description: null, license: null })).toEqual([]);
    expect(schemaErrors(validate, { ...repo, language: 7 }).join()).toMatch(/\/language/);
  });

  it('GET /user answers a private-user', async () => {
    const res = await get('/user', ALICE);
    expectValid(res, '/user');
    expectRateLimitHeaders(res);
    expect(res.body).toMatchObject({ login: 'alice', id: 1001, type: 'User', name: 'Alice Example', two_factor_authentication: true });
    expect(undocumented(res.body, openapi.schema('/user', '200'))).toEqual([]);
    // Private User, not Public User: the oneOf matches exactly one branch.
    expect(res.body.total_private_repos).toBe(2);
  });

  it('GET /user/orgs answers organization-simple items', async () => {
    for (const token of [ALICE, BOB]) {
      const res = await get('/user/orgs', token);
      expectValid(res, '/user/orgs');
      expectRateLimitHeaders(res);
      expect(res.body.length).toBeGreaterThan(0);
      expect(undocumented(res.body, openapi.schema('/user/orgs', '200'))).toEqual([]);
    }
  });

  it('GET /user/memberships/orgs/{org} answers an org-membership, 404 for an organisation the user is not in', async () => {
    const openapiPath = '/user/memberships/orgs/{org}';
    const admin = await get('/user/memberships/orgs/acme', ALICE);
    expectValid(admin, openapiPath);
    expect(admin.body).toMatchObject({ state: 'active', role: 'admin', organization: { login: 'acme' }, user: { login: 'alice' } });
    expect(undocumented(admin.body, openapi.schema(openapiPath, '200'))).toEqual([]);
    expect((await get('/user/memberships/orgs/GLOBEX', ALICE)).body).toMatchObject({ role: 'member' });
    const stranger = await get('/user/memberships/orgs/acme', BOB);
    expect(stranger.status).toBe(404);
  });

  it('GET /user/repos answers repository items on every page', async () => {
    const first = await get('/user/repos?per_page=100', ALICE);
    expectValid(first, '/user/repos');
    expect(undocumented(first.body, openapi.schema('/user/repos', '200'))).toEqual([]);
    const last = Number(/[?&]page=(\d+)>; rel="last"/.exec(first.headers.get('link') ?? '')?.[1]);
    expect(last).toBeGreaterThan(1);
    for (let page = 2; page <= last; page += 1) expectValid(await get(`/user/repos?per_page=100&page=${page}`, ALICE), '/user/repos');
    const owned = await get('/user/repos?affiliation=owner&per_page=100', BOB);
    expectValid(owned, '/user/repos');
    expect(owned.body.map((r: { full_name: string }) => r.full_name)).toEqual(['bob/blog', 'bob/bob-scripts']);
  }, 30_000);

  it('GET /orgs/{org}/repos answers minimal-repository items on all three pages of 250 repos', async () => {
    let total = 0;
    for (const page of [1, 2, 3]) {
      const res = await get(`/orgs/bigco/repos?type=all&per_page=100&page=${page}`, ALICE);
      expectValid(res, '/orgs/{org}/repos');
      expect(undocumented(res.body, openapi.schema('/orgs/{org}/repos', '200'))).toEqual([]);
      total += res.body.length;
    }
    expect(total).toBe(250);
    for (const org of ['acme', 'globex', 'initech']) expectValid(await get(`/orgs/${org}/repos`, ALICE), '/orgs/{org}/repos');
  });

  it('GET /repositories/{id} answers a full-repository (the schema of GET /repos/{owner}/{repo})', async () => {
    // 3001 user repo, 3003 fork, 3101 org repo with `organization`, 3105 archived, 3201 collaborator, 3303 other org's public repo
    for (const id of [3001, 3003, 3101, 3105, 3201, 3303]) {
      const res = await get(`/repositories/${id}`, ALICE);
      expectValid(res, '/repos/{owner}/{repo}');
      expect(undocumented(res.body, openapi.schema('/repos/{owner}/{repo}', '200'))).toEqual([]);
      expect(res.body.id).toBe(id);
    }
    expect((await get('/repositories/3101', ALICE)).body.organization).toMatchObject({ login: 'acme', type: 'Organization' });
  });

  it('GET /repos/{owner}/{repo}/contents/{path} answers content-file objects and directory arrays', async () => {
    const openapiPath = '/repos/{owner}/{repo}/contents/{path}';
    const file = await get('/repos/acme/web-storefront/contents/package.json', ALICE);
    expectValid(file, openapiPath);
    expect(file.body).toMatchObject({ type: 'file', encoding: 'base64', name: 'package.json', path: 'package.json' });
    expect(undocumented(file.body, openapi.schema(openapiPath, '200'))).toEqual([]);
    for (const path of ['', 'src', 'data']) {
      const repo = path === 'data' ? 'alice/big-files' : 'acme/web-storefront';
      const dir = await get(`/repos/${repo}/contents/${path}`, ALICE);
      expectValid(dir, openapiPath);
      expect(Array.isArray(dir.body)).toBe(true);
    }
    const large = await get('/repos/alice/big-files/contents/data/huge.txt', ALICE);
    expectValid(large, openapiPath);
    expect(large.body).toMatchObject({ type: 'file', encoding: 'none', content: '' });
  });

  it('answers 401 Bad credentials as basic-error on every endpoint, without or with an unknown token', async () => {
    const paths = [
      '/user',
      '/user/orgs',
      '/user/memberships/orgs/acme',
      '/user/repos',
      '/orgs/acme/repos',
      '/repositories/3001',
      '/repos/alice/dotfiles/contents/README.md',
    ];
    for (const path of paths) {
      for (const headers of [{}, { authorization: 'token not-a-token' }, { authorization: 'Basic YWxpY2U6eA==' }] as Record<
        string,
        string
      >[]) {
        const res = await get(path, undefined, headers);
        expectValid(res, '/user', 401);
        expect(res.body).toEqual({ message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
        expectRateLimitHeaders(res);
        expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      }
    }
  });

  it('answers 404 Not Found as basic-error for invisible or missing repos, orgs, files and routes', async () => {
    const paths = [
      '/repositories/3401',
      '/repositories/99999999',
      '/repositories/abc',
      '/orgs/no-such-org/repos',
      '/orgs/bob/repos',
      '/repos/bob/bob-scripts/contents/requirements.txt',
      '/repos/acme/web-storefront/contents/missing.txt',
      '/repos/acme/web-storefront/contents/package.json?ref=no-such-branch',
      '/no/such/route',
    ];
    for (const path of paths) {
      const res = await get(path, ALICE);
      expectValid(res, '/repos/{owner}/{repo}/contents/{path}', 404);
      expect(res.body).toMatchObject({ documentation_url: expect.stringMatching(/^https:\/\/docs\.github\.com\/rest/), status: '404' });
      expect(res.body.message, path).toMatch(/^(Not Found|No commit found for the ref no-such-branch)$/);
    }
  });

  it('answers 422 Validation Failed as validation-error', async () => {
    const res = await get('/user/repos?type=owner&affiliation=owner', ALICE);
    expectValid(res, '/user/repos', 422);
    expect(res.body).toMatchObject({ message: 'Validation Failed', status: '422' });
  });

  it('answers rate limits as basic-error 403', async () => {
    faults.push({ kind: 'rate-limit', resetInSeconds: 60 }, { kind: 'secondary-rate-limit', retryAfterSeconds: 30 });
    const primary = await get('/user', ALICE);
    expectValid(primary, '/user', 403);
    expect(primary.body.message).toMatch(/^API rate limit exceeded/);
    expect(primary.headers.get('x-ratelimit-remaining')).toBe('0');
    const secondary = await get('/user', ALICE);
    expectValid(secondary, '/user', 403);
    expect(secondary.body.message).toMatch(/secondary rate limit/);
    expect(secondary.headers.get('retry-after')).toBe('30');
  });
});
