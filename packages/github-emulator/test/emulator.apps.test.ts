import { generateKeyPairSync } from 'node:crypto';
import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_MESSAGES,
  DEMO_APP,
  loadDemoSeed,
  parseSeed,
  SeedError,
  type SeedInput,
  signAppJwt,
  startGitHubEmulator,
} from '../src/index.ts';
import { bearer, DEMO_APP_KEY, demoJwt, mintToken } from './apps.ts';
import { ALICE, auth, silentLogger } from './fixtures.ts';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { apiAs, commitThroughApi, headOf } from './writes.ts';

/** 2026-01-10 12:00:00 UTC: the emulator's clock in these tests, moved by hand. */
const START = Date.UTC(2026, 0, 10, 12, 0, 0);

/**
 * GitHub Apps (https://docs.github.com/apps): the demo App's JWT and each way GitHub refuses one, the `/app`
 * endpoints, installation access tokens (minted, narrowed, limited to their repositories and permissions, expired,
 * revoked), what an installation token does in the REST and GraphQL routes and who it acts as, checked against GitHub's
 * OpenAPI description.
 */
describe('GitHub emulator: GitHub Apps, JWTs and installation access tokens', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let clock = START;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    server = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, now: () => clock });
  }, 60_000);
  afterAll(() => server.close());

  const app = () => bearer(server.url, demoJwt(clock));
  const as = (token: string) => apiAs(server.url, token);

  function expectValid(res: TestResponse, path: string, status: number, method: HttpMethod = 'get'): void {
    expect(res.status, res.text).toBe(status);
    expect(schemaErrors(openapi.validator(path, String(status), method), res.body)).toEqual([]);
  }

  function expectRefused(res: TestResponse, status: number, message: string): void {
    expect(res.status, res.text).toBe(status);
    expect(res.body).toMatchObject({ message, status: String(status) });
  }

  it('GET /app answers the demo App to its JWT (iss the App id as a number, its digits, or the client id)', async () => {
    const res = await app().get('/app');
    expectValid(res, '/app', 200);
    expect(res.body).toMatchObject({
      id: DEMO_APP.id,
      slug: 'switchyard',
      client_id: DEMO_APP.clientId,
      owner: { login: 'switchyard-bot', type: 'User' },
      permissions: { checks: 'read', contents: 'write', metadata: 'read', pull_requests: 'write', issues: 'write', statuses: 'read' },
      events: ['check_run', 'check_suite', 'issue_comment', 'issues', 'pull_request', 'push', 'status'],
      installations_count: 4,
      html_url: 'https://github.com/apps/switchyard',
    });
    for (const iss of [String(DEMO_APP.id), DEMO_APP.clientId]) {
      expect((await bearer(server.url, demoJwt(clock, { iss })).get('/app')).status).toBe(200);
    }
    // GitHub advises backdating iat by 60 s; an iat up to 60 s ahead of the emulator's clock is still taken.
    const now = Math.floor(clock / 1000);
    expect((await bearer(server.url, demoJwt(clock, { iat: now + 59, exp: now + 600 })).get('/app')).status).toBe(200);
  });

  it('refuses a JWT as GitHub does: 401 with GitHub’s message for each fault', async () => {
    const now = Math.floor(clock / 1000);
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const cases: [string, string | undefined, string][] = [
      ['no Authorization header', undefined, APP_MESSAGES.jwtUndecodable],
      ['a personal access token', `Bearer ${ALICE}`, APP_MESSAGES.jwtUndecodable],
      ['not a JWT', 'Bearer a.b.c', APP_MESSAGES.jwtUndecodable],
      ['the token scheme (a JWT goes as Bearer)', `token ${demoJwt(clock)}`, APP_MESSAGES.jwtUndecodable],
      ['signed with another key', `Bearer ${demoJwt(clock, {}, other)}`, APP_MESSAGES.jwtUndecodable],
      [
        'HS256',
        `Bearer ${signAppJwt(DEMO_APP_KEY, { iss: DEMO_APP.id, iat: now - 60, exp: now + 540 }, { alg: 'HS256' })}`,
        APP_MESSAGES.jwtUndecodable,
      ],
      ['an unknown App id', `Bearer ${demoJwt(clock, { iss: 999_999 })}`, APP_MESSAGES.jwtUndecodable],
      ['an issuer that is no integer', `Bearer ${demoJwt(clock, { iss: 'switchyard' })}`, APP_MESSAGES.issuerNotInteger],
      ['iat 2 minutes ahead', `Bearer ${demoJwt(clock, { iat: now + 120, exp: now + 600 })}`, APP_MESSAGES.issuedAtInvalid],
      ['iat not an integer', `Bearer ${demoJwt(clock, { iat: now - 0.5 })}`, APP_MESSAGES.issuedAtInvalid],
      ['no exp', `Bearer ${demoJwt(clock, { exp: undefined as unknown as number })}`, APP_MESSAGES.expirationInvalid],
      ['expired', `Bearer ${demoJwt(clock, { iat: now - 700, exp: now - 100 })}`, APP_MESSAGES.expirationInvalid],
      ['exp 11 minutes after iat', `Bearer ${demoJwt(clock, { iat: now - 60, exp: now + 600 })}`, APP_MESSAGES.expirationTooFar],
    ];
    for (const [why, authorization, message] of cases) {
      const res = await request(server.url, 'GET', '/app', { headers: authorization === undefined ? {} : { authorization } });
      expect([why, res.status, res.body?.message]).toEqual([why, 401, message]);
    }
    // A JWT goes to the /app endpoints only: elsewhere a valid one is 403, a bad one 401 with its message.
    expectRefused(await app().get('/repos/acme/web-storefront'), 403, APP_MESSAGES.notAccessibleByIntegration);
    expectRefused(
      await bearer(server.url, demoJwt(clock, { iat: now - 700, exp: now - 100 })).get('/user'),
      401,
      APP_MESSAGES.expirationInvalid,
    );
  });

  it('lists, finds and reads its installations: /app/installations (newest first, paginated), by id, repository, organisation and user', async () => {
    const all = await app().get('/app/installations');
    expect(all.status, all.text).toBe(200);
    // The description's list item says `account` is `allOf` [simple-user, enterprise] (no account is both: an error of
    // the description); each item is checked as the single installation, whose `account` is `anyOf` the two.
    const item = openapi.validator('/app/installations/{installation_id}', '200');
    for (const entry of all.body) expect(schemaErrors(item, entry)).toEqual([]);
    expect(all.body.map((i: { id: number }) => i.id)).toEqual([5004, 5003, 5002, 5001]);
    const page = await app().get('/app/installations?per_page=3&page=2');
    expect(page.body.map((i: { id: number }) => i.id)).toEqual([5001]);
    expect(page.headers.get('link')).toMatch(/page=1>; rel="prev"/);

    const one = await app().get('/app/installations/5002');
    expectValid(one, '/app/installations/{installation_id}', 200);
    expect(one.body).toMatchObject({
      id: 5002,
      app_id: DEMO_APP.id,
      app_slug: 'switchyard',
      account: { login: 'globex', type: 'Organization' },
      target_type: 'Organization',
      repository_selection: 'selected',
      permissions: { contents: 'write', metadata: 'read' },
      access_tokens_url: `${server.url}/app/installations/5002/access_tokens`,
      suspended_at: null,
    });
    expect((await app().get('/app/installations/9999')).status).toBe(404);

    const byRepo = await app().get('/repos/globex/analytics/installation');
    expectValid(byRepo, '/repos/{owner}/{repo}/installation', 200);
    expect(byRepo.body.id).toBe(5002);
    expect((await app().get('/repos/acme/billing-api/installation')).body.id).toBe(5001);
    expect((await app().get('/repos/globex/hr-tools/installation')).status).toBe(404); // not selected
    expect((await app().get('/repos/bob/blog/installation')).status).toBe(404);
    const byOrg = await app().get('/orgs/globex/installation');
    expectValid(byOrg, '/orgs/{org}/installation', 200);
    expect(byOrg.body.id).toBe(5002);
    expect((await app().get('/orgs/alice/installation')).status).toBe(404); // a user, not an organisation
    const byUser = await app().get('/users/alice/installation');
    expectValid(byUser, '/users/{username}/installation', 200);
    expect(byUser.body.id).toBe(5003);
    expect((await app().get('/users/bob/installation')).status).toBe(404);
    expect((await app().get('/users/nobody/installation')).status).toBe(404);
  });

  it('mints an installation access token (ghs_…, one hour) that reads the installation’s repositories and no other private one', async () => {
    const res = await app().post('/app/installations/5002/access_tokens');
    expectValid(res, '/app/installations/{installation_id}/access_tokens', 201, 'post');
    expect(res.body).toEqual({
      token: expect.stringMatching(/^ghs_[A-Za-z0-9]{36}$/),
      expires_at: new Date(clock + 3_600_000).toISOString().replace('.000Z', 'Z'),
      permissions: { checks: 'read', contents: 'write', issues: 'write', metadata: 'read', pull_requests: 'write', statuses: 'read' },
      repository_selection: 'selected',
    });
    const token = as(res.body.token);
    const analytics = await token.get('/repos/globex/analytics');
    expect(analytics.status, analytics.text).toBe(200);
    expect(analytics.body.permissions).toMatchObject({ admin: false, push: true, pull: true });
    expect((await token.get('/repos/globex/analytics/contents/requirements.txt')).status).toBe(200);
    expect((await token.get('/repos/globex/hr-tools')).status).toBe(404); // private, not selected
    expect((await token.get('/repos/acme/billing-api')).status).toBe(404); // another account's
    expect((await token.get('/repos/bob/blog')).status).toBe(200); // public: anyone may read it
    expect(analytics.headers.get('x-ratelimit-limit')).toBe('5000');

    const listed = await token.get('/installation/repositories');
    expectValid(listed, '/installation/repositories', 200);
    expect(listed.body).toMatchObject({ total_count: 2, repository_selection: 'selected' });
    expect(listed.body.repositories.map((r: { full_name: string }) => r.full_name)).toEqual(['globex/analytics', 'globex/website']);
    const paged = await token.get('/installation/repositories?per_page=1');
    expect(paged.body.repositories).toHaveLength(1);
    expect(paged.headers.get('link')).toMatch(/rel="next"/);

    // An installation token is not a user: the authenticated user's endpoints refuse it.
    expectRefused(await token.get('/user'), 403, APP_MESSAGES.notAccessibleByIntegration);
    expectRefused(await token.get('/user/repos'), 403, APP_MESSAGES.notAccessibleByIntegration);
    // And a user's token is not an installation's.
    expectRefused(await as(ALICE).get('/installation/repositories'), 403, APP_MESSAGES.listNeedsInstallationToken);
    expectRefused(await as(ALICE).del('/installation/token'), 403, APP_MESSAGES.revokeNeedsInstallationToken);
  });

  it('narrows a token to repositories and permissions: outside them 404, without the permission 403', async () => {
    const res = await app().post('/app/installations/5001/access_tokens', {
      repositories: ['web-storefront'],
      permissions: { contents: 'read' },
    });
    expectValid(res, '/app/installations/{installation_id}/access_tokens', 201, 'post');
    expect(res.body).toMatchObject({ permissions: { contents: 'read', metadata: 'read' }, repository_selection: 'selected' });
    expect(res.body.repositories.map((r: { full_name: string }) => r.full_name)).toEqual(['acme/web-storefront']);
    const token = as(res.body.token);
    expect((await token.get('/repos/acme/web-storefront/contents/package.json')).status).toBe(200);
    expect((await token.get('/repos/acme/billing-api')).status).toBe(404); // the installation's, not the token's
    expectRefused(
      await token.post('/repos/acme/web-storefront/git/blobs', { content: 'x', encoding: 'utf-8' }),
      403,
      APP_MESSAGES.notAccessibleByIntegration,
    );
    expectRefused(await token.get('/repos/acme/web-storefront/pulls'), 403, APP_MESSAGES.notAccessibleByIntegration);
    expectRefused(await token.get('/repos/acme/web-storefront/issues'), 403, APP_MESSAGES.notAccessibleByIntegration);
    expect((await token.get('/installation/repositories')).body.total_count).toBe(1);

    const byId = await app().post('/app/installations/5001/access_tokens', { repository_ids: [3102] });
    expect(byId.status, byId.text).toBe(201);
    expect(byId.body.repositories.map((r: { id: number }) => r.id)).toEqual([3102]);

    const refused: [unknown, string][] = [
      [{ repositories: ['hr-tools'] }, APP_MESSAGES.repositoriesNotAccessible],
      [{ repositories: ['no-such-repo'] }, APP_MESSAGES.repositoriesNotAccessible],
      [{ repository_ids: [3501] }, APP_MESSAGES.repositoriesNotAccessible],
      [{ permissions: { administration: 'write' } }, APP_MESSAGES.permissionsNotGranted],
      [{ permissions: { statuses: 'write' } }, APP_MESSAGES.permissionsNotGranted],
      [{ permissions: { checks: 'write' } }, APP_MESSAGES.permissionsNotGranted],
      [{ permissions: { contents: 'all' } }, APP_MESSAGES.permissionActionUnsupported],
    ];
    for (const [body, message] of refused) {
      const answer = await app().post('/app/installations/5002/access_tokens', body);
      expect([JSON.stringify(body), answer.status, answer.body.message]).toEqual([JSON.stringify(body), 422, message]);
    }
    expect((await app().post('/app/installations/5002/access_tokens', { repositories: 'analytics' })).status).toBe(422);
    expect((await app().post('/app/installations/9999/access_tokens')).status).toBe(404);
  });

  it('an expired token is 401 Bad credentials; DELETE /installation/token revokes one at once', async () => {
    const minted = await mintToken(server.url, clock, 5003);
    const token = as(minted.token);
    expect((await token.get('/repos/alice/notes-app')).status).toBe(200);
    clock += 3_600_000;
    expectRefused(await token.get('/repos/alice/notes-app'), 401, 'Bad credentials');

    const other = as((await mintToken(server.url, clock, 5003)).token);
    expect((await other.get('/installation/repositories')).status).toBe(200);
    expect((await other.del('/installation/token')).status).toBe(204);
    expectRefused(await other.get('/installation/repositories'), 401, 'Bad credentials');
  });

  it('writes as the App’s bot user (switchyard[bot], type Bot): commits, pull requests, comments; a permission it lacks is 403', async () => {
    const api = as((await mintToken(server.url, clock, 5001)).token);
    const repo = 'acme/web-storefront';
    const sha = await commitThroughApi(api, repo, await headOf(api, repo, 'main'), { 'bot.txt': 'made by the app\n' }, 'Bot change');
    const commit = await api.get(`/repos/${repo}/git/commits/${sha}`);
    expect(commit.body.author).toMatchObject({
      name: 'switchyard[bot]',
      email: `${DEMO_APP.botUserId}+switchyard[bot]@users.noreply.github.com`,
    });
    expect((await api.post(`/repos/${repo}/git/refs`, { ref: 'refs/heads/app-branch', sha })).status).toBe(201);
    const pull = await api.post(`/repos/${repo}/pulls`, { title: 'From the app', head: 'app-branch', base: 'main' });
    expectValid(pull, '/repos/{owner}/{repo}/pulls', 201, 'post');
    expect(pull.body.user).toMatchObject({
      login: 'switchyard[bot]',
      id: DEMO_APP.botUserId,
      type: 'Bot',
      html_url: 'https://github.com/apps/switchyard',
      url: `${server.url}/users/switchyard%5Bbot%5D`,
    });
    const comment = await api.post(`/repos/${repo}/issues/${pull.body.number}/comments`, { body: 'Hello from the app' });
    expect(comment.status, comment.text).toBe(201);
    expect(comment.body.user).toMatchObject({ login: 'switchyard[bot]', type: 'Bot' });
    // The App may read statuses, not write them.
    expect((await api.get(`/repos/${repo}/commits/${sha}/status`)).status).toBe(200);
    expectRefused(await api.post(`/repos/${repo}/statuses/${sha}`, { state: 'success' }), 403, APP_MESSAGES.notAccessibleByIntegration);
    // Check runs need `checks` (read), which the App has; a token narrowed to `statuses` may read statuses, not check runs.
    expect((await api.get(`/repos/${repo}/commits/${sha}/check-runs`)).status).toBe(200);
    const statusesOnly = as((await mintToken(server.url, clock, 5001, { permissions: { statuses: 'read' } })).token);
    expect((await statusesOnly.get(`/repos/${repo}/commits/${sha}/status`)).status).toBe(200);
    expectRefused(await statusesOnly.get(`/repos/${repo}/commits/${sha}/check-runs`), 403, APP_MESSAGES.notAccessibleByIntegration);
    const checksOnly = as((await mintToken(server.url, clock, 5001, { permissions: { checks: 'read' } })).token);
    expect((await checksOnly.get(`/repos/${repo}/commits/${sha}/check-runs`)).status).toBe(200);
    expectRefused(await checksOnly.get(`/repos/${repo}/commits/${sha}/status`), 403, APP_MESSAGES.notAccessibleByIntegration);
    // A user sees the bot as the author.
    expect((await as(ALICE).get(`/repos/${repo}/pulls/${pull.body.number}`)).body.user.login).toBe('switchyard[bot]');
    // An installation that does not cover a public repository may read it, not write it.
    const alicesApp = as((await mintToken(server.url, clock, 5003)).token);
    expect((await alicesApp.get('/repos/alice/dotfiles')).status).toBe(200);
    expectRefused(await alicesApp.post('/repos/alice/dotfiles/issues', { title: 'x' }), 403, APP_MESSAGES.notAccessibleByIntegration);
  });

  it('POST /graphql takes an installation token: its repositories (with contents read), public ones, nothing else', async () => {
    const query = `query { repository(owner: "OWNER", name: "NAME") { f0: object(expression: "HEAD:requirements.txt") { ... on Blob { byteSize text } } } }`;
    const graphql = (token: string, owner: string, name: string) =>
      request(server.url, 'POST', '/graphql', {
        headers: auth(token),
        body: { query: query.replace('OWNER', owner).replace('NAME', name) },
      });
    const full = (await mintToken(server.url, clock, 5002)).token;
    const read = await graphql(full, 'globex', 'analytics');
    expect(read.status).toBe(200);
    expect(read.body.data.repository.f0.text).toContain('flask==');
    expect(read.headers.get('x-ratelimit-resource')).toBe('graphql');
    const hidden = await graphql(full, 'globex', 'hr-tools');
    expect(hidden.body).toMatchObject({ data: { repository: null }, errors: [{ type: 'NOT_FOUND' }] });
    const issuesOnly = (await mintToken(server.url, clock, 5002, { permissions: { issues: 'read' } })).token;
    const forbidden = await graphql(issuesOnly, 'globex', 'analytics');
    expect(forbidden.body).toMatchObject({
      data: { repository: null },
      errors: [
        { type: 'FORBIDDEN', path: ['repository'], locations: [{ line: 1, column: 9 }], message: APP_MESSAGES.notAccessibleByIntegration },
      ],
    });
  });
});

describe('GitHub emulator: the installation token lifetime option', () => {
  it('installationTokenTtlMs shortens a token’s life, so a test can cross its expiry', async () => {
    let clock = START;
    const server = await startGitHubEmulator({
      seed: loadDemoSeed(),
      logger: silentLogger,
      now: () => clock,
      installationTokenTtlMs: 60_000,
    });
    try {
      const minted = await mintToken(server.url, clock, 5002);
      expect(minted.expires_at).toBe(new Date(START + 60_000).toISOString().replace('.000Z', 'Z'));
      const token = apiAs(server.url, minted.token);
      clock += 59_000;
      expect((await token.get('/installation/repositories')).status).toBe(200);
      clock += 1_000;
      expect((await token.get('/installation/repositories')).status).toBe(401);
      // A fresh token works again.
      expect((await apiAs(server.url, (await mintToken(server.url, clock, 5002)).token).get('/installation/repositories')).status).toBe(
        200,
      );
    } finally {
      await server.close();
    }
  });
});

describe('seed: GitHub Apps are checked', () => {
  const keys = () => {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKey: pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    };
  };
  const base = (): SeedInput => ({
    users: [{ id: 1, login: 'owner', token: 't' }],
    repos: [{ id: 10, owner: 'owner', name: 'r', private: true, fork: false, defaultBranch: 'main', language: null }],
  });

  it('reads an App: metadata read always, client id and bot user id derived, installations default to its permissions', () => {
    const { publicKey } = keys();
    const seed = parseSeed({
      ...base(),
      apps: [{ id: 77, slug: 'helper', name: 'Helper', owner: 'owner', permissions: { contents: 'read' }, publicKey }],
      installations: [{ id: 1, account: 'owner', repositorySelection: 'all', appId: 77 }],
    });
    expect(seed.apps[0]?.permissions).toEqual({ metadata: 'read', contents: 'read' });
    expect(seed.installations[0]?.appSlug).toBeUndefined();
  });

  it('lists every problem of Apps and their installations', () => {
    const first = keys();
    const second = keys();
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const attempt = () =>
      parseSeed({
        ...base(),
        apps: [
          {
            id: 77,
            slug: 'helper',
            name: 'Helper',
            owner: 'owner',
            permissions: { contents: 'read' },
            ...first,
            privateKey: second.privateKey,
          },
          { id: 77, slug: 'helper', name: 'Twin', owner: 'ghost', publicKey: small, botUserId: 1 },
        ],
        installations: [
          { id: 1, account: 'owner', repositorySelection: 'all', appId: 78 },
          { id: 2, account: 'owner', repositorySelection: 'all', appId: 77, appSlug: 'other', permissions: { contents: 'write' } },
        ],
      });
    expect(attempt).toThrow(SeedError);
    try {
      attempt();
    } catch (error) {
      const text = (error as SeedError).problems.join('\n');
      for (const expected of [
        'apps.0.privateKey: does not match publicKey',
        'apps.1.id: duplicate app id 77',
        'apps.1.slug: duplicate app slug helper',
        'apps.1.botUserId: bot user id 1 is taken',
        'apps.1.owner: no user or organisation ghost',
        'apps.1.publicKey: must be an RSA key of at least 2048 bits',
        'installations.0.appId: no app 78 in apps',
        'installations.1.appSlug: must be helper',
        'installations.1.permissions.contents: app 77 asks for no contents: write permission',
      ]) {
        expect(text).toContain(expected);
      }
    }
  });
});
