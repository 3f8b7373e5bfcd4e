import { type CodeHost, CodeHostError } from '@switchyard/code-host';
import { AccountsDocument, ReposDocument, UpdateConfigDocument } from '@switchyard/contracts';
import { DEMO_TOKENS_ALICE as ALICE_TOKENS } from '@switchyard/github-emulator';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BIGCO, BOB, type ConfigHarness, startConfigHarness } from './harness.ts';

/** What the code host's directory and tree listings fail with while set (undefined: they answer). */
let listingFailure: CodeHostError | undefined;

/** `inner` whose `listDirectory` and `listTree` fail with {@link listingFailure} while it is set. */
function failingListings(inner: CodeHost): CodeHost {
  const { listDirectory, listTree } = inner;
  return {
    ...inner,
    ...(listDirectory && {
      listDirectory: (...args: Parameters<typeof listDirectory>) =>
        listingFailure ? Promise.reject(listingFailure) : listDirectory(...args),
    }),
    ...(listTree && {
      listTree: (...args: Parameters<typeof listTree>) => (listingFailure ? Promise.reject(listingFailure) : listTree(...args)),
    }),
  };
}

describe('config-svc on PostgreSQL and RabbitMQ, with the GitHub emulator', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    h = await startConfigHarness('config_api', { wrapCodeHost: failingListings });
  });
  afterAll(() => h?.close());

  const as = (token: string | undefined, scheme = 'Personal'): Record<string, string> =>
    token ? { authorization: `${scheme} ${token}` } : {};
  const call = (method: string, path: string, token: string | undefined, body?: unknown) =>
    request(h.url, method, path, { headers: as(token), ...(body === undefined ? {} : { body }) });
  const newConfig = (repoId: number | string, accountId: number | string, extra: Record<string, unknown> = {}) => ({
    'repo-id': repoId,
    'account-id': accountId,
    'account-type': 'org',
    directory: '/',
    'update-schedule': 'daily',
    'package-manager': 'npm_and_yarn',
    ...extra,
  });

  function expectEnvelope(res: Awaited<ReturnType<typeof call>>, status: number, detail?: RegExp) {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Array.isArray(res.body.errors) && res.body.errors.length > 0).toBe(true);
    for (const error of res.body.errors) expect(error).toMatchObject({ status, title: expect.any(String) });
    if (detail) expect(res.body.errors.map((e: { detail: string }) => e.detail).join(' | ')).toMatch(detail);
  }

  describe('authentication', () => {
    it("answers a request without a token 403 with the original's envelope", async () => {
      const res = await call('GET', '/accounts', undefined);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [{ status: 403, title: 'Forbidden', detail: "No access token provided in 'Authorization' header" }],
      });
    });

    it('answers 401 to a token the code host rejects and to another scheme', async () => {
      expectEnvelope(await call('GET', '/accounts', 'not-a-real-token'), 401, /Bad credentials/);
      const basic = await request(h.url, 'GET', '/accounts', { headers: { authorization: 'Basic YWxpY2U6cHc=' } });
      expectEnvelope(basic, 401, /Personal <token>/);
    });

    it('accepts Bearer as the original dashboard sent it', async () => {
      const res = await request(h.url, 'GET', '/accounts', { headers: as(ALICE, 'Bearer') });
      expect(res.status).toBe(200);
    });
  });

  describe('GET /accounts', () => {
    it("lists the caller's user and organisations with every attribute of the seed", async () => {
      const res = await call('GET', '/accounts', ALICE);
      expect(res.status).toBe(200);
      const doc = AccountsDocument.parse(res.body);
      expect(doc.data.map((a) => [a.id, a.attributes['github-login'], a.attributes['github-account-type']])).toEqual([
        ['1001', 'alice', 'user'],
        ['2001', 'acme', 'org'],
        ['2002', 'globex', 'org'],
        [String(BIGCO.id), 'bigco', 'org'],
      ]);
      expect(doc.data[1]?.attributes).toMatchObject({
        'github-id': 2001,
        // From the code host's app installation on acme (the emulator's 5001, on all repositories).
        'current-installation-id': 5001,
        'access-granted-to-all-repos': true,
        'update-run-time': '05:00',
        'weekly-update-run-day': 'monday',
        'plan-name': 'free',
        'free-trial-end-date': null,
      });
    });

    it('never shows one user the accounts of another', async () => {
      const bob = AccountsDocument.parse((await call('GET', '/accounts', BOB)).body);
      expect(bob.data.map((a) => a.attributes['github-login'])).toEqual(['bob', 'initech']);
    });

    it('publishes account.created with the full state, once', async () => {
      const event = await h.waitForEvent((e) => e.type === 'account.created' && (e.data as { login: string }).login === 'acme');
      expect(event).toMatchObject({
        source: 'config-svc',
        data: { id: 2001, type: 'org', revision: 1, settings: { updateRunTime: '05:00' } },
      });
      await call('GET', '/accounts', ALICE);
      expect(h.events.filter((e) => e.type === 'account.created' && (e.data as { id: number }).id === 2001)).toHaveLength(1);
    });
  });

  describe('PATCH /accounts/:id', () => {
    it("lets an admin change an organisation's settings: validated, written with revision + 1 and account.updated", async () => {
      await call('GET', '/accounts', ALICE);
      const res = await call('PATCH', '/accounts/2001', ALICE, {
        'update-run-time': '07:30',
        'weekly-update-run-day': 'thursday',
        'time-zone': 'Europe/Paris',
        'limit-initial-update-runs': true,
        'current-installation-id': 42,
      });
      expect(res.status, res.text).toBe(200);
      expect(res.body.data.attributes).toMatchObject({
        'github-id': 2001,
        'update-run-time': '07:30',
        'weekly-update-run-day': 'thursday',
        'time-zone': 'Europe/Paris',
        'limit-initial-update-runs': true,
      });
      // What the code host decides is not the caller's to set: ignored.
      expect(res.body.data.attributes['current-installation-id']).toBe(5001);
      const updated = await h.waitForEvent((e) => e.type === 'account.updated' && (e.data as { id: number }).id === 2001);
      expect(updated.data).toMatchObject({
        revision: 2,
        settings: { updateRunTime: '07:30', weeklyUpdateRunDay: 'thursday', timeZone: 'Europe/Paris', limitInitialUpdateRuns: true },
      });
      // GET /accounts shows it; the same body again changes nothing (no revision, no event).
      const listed = AccountsDocument.parse((await call('GET', '/accounts', ALICE)).body);
      expect(listed.data.find((a) => a.id === '2001')?.attributes['time-zone']).toBe('Europe/Paris');
      expect((await call('PATCH', '/accounts/2001', ALICE, { 'update-run-time': '07:30' })).status).toBe(200);
      expect(h.events.filter((e) => e.type === 'account.updated' && (e.data as { id: number }).id === 2001)).toHaveLength(1);
    });

    it('lets a user change their own account, and refuses a member (403) and an account the token does not reach (404)', async () => {
      const own = await call('PATCH', '/accounts/1001', ALICE, { 'automatically-rebase-prs': false });
      expect(own.status, own.text).toBe(200);
      expect(own.body.data.attributes['automatically-rebase-prs']).toBe(false);
      expectEnvelope(
        await call('PATCH', '/accounts/2002', ALICE, { 'update-run-time': '09:00' }),
        403,
        /Only admins of the organisation globex/,
      );
      expectEnvelope(await call('PATCH', '/accounts/2001', BOB, { 'update-run-time': '09:00' }), 404);
      expect(
        AccountsDocument.parse((await call('GET', '/accounts', ALICE)).body).data.find((a) => a.id === '2002')?.attributes[
          'update-run-time'
        ],
      ).toBe('05:00');
    });

    it('names each invalid setting with 400, and answers 405 to other methods', async () => {
      expectEnvelope(
        await call('PATCH', '/accounts/2001', ALICE, {
          'update-run-time': '24:00',
          'weekly-update-run-day': 'someday',
          'time-zone': 'Mars/Olympus',
        }),
        400,
        /update-run-time.*weekly-update-run-day.*time-zone|update-run-time|time-zone/,
      );
      const bad = await call('PATCH', '/accounts/2001', ALICE, { 'time-zone': 'Mars/Olympus', 'create-merge-commits': 'yes' });
      expectEnvelope(bad, 400, /time-zone/);
      expectEnvelope(bad, 400, /create-merge-commits/);
      expectEnvelope(await call('PATCH', '/accounts/abc', ALICE, {}), 400, /id/);
      const other = await call('GET', '/accounts/2001', ALICE);
      expectEnvelope(other, 405);
      expect(other.headers.get('allow')).toBe('PATCH');
    });
  });

  describe('GET /repos', () => {
    const bigcoInactive = (page?: number) =>
      `/repos?account-id=${BIGCO.id}&account-type=org&installation-state=inactive${page === undefined ? '' : `&page=${page}`}`;

    it('pages 250 inactive repos 100 at a time with meta.pages.next', async () => {
      const pages = [];
      for (const page of [1, 2, 3]) {
        const res = await call('GET', bigcoInactive(page), ALICE);
        expect(res.status).toBe(200);
        pages.push(ReposDocument.parse(res.body));
      }
      expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
      expect(pages.map((p) => p.meta.pages.next)).toEqual([2, 3, null]);
      const ids = pages.flatMap((p) => p.data.map((r) => r.id));
      expect(new Set(ids).size).toBe(250);
      const first = pages[0]?.data[0];
      expect(first?.attributes['installation-state']).toBe('inactive');
      expect(first?.relationships).toEqual({
        'update-configs': { data: [] },
        account: { data: { id: String(BIGCO.id), type: 'accounts' } },
      });
      const beyond = ReposDocument.parse((await call('GET', bigcoInactive(9), ALICE)).body);
      expect(beyond).toEqual({ data: [], included: [], meta: { pages: { next: null } } });
    });

    it('defaults to page 1 and refuses bad pages and states with 400', async () => {
      expect(ReposDocument.parse((await call('GET', bigcoInactive(), ALICE)).body).meta.pages.next).toBe(2);
      for (const bad of ['0', '-1', 'two']) expectEnvelope(await call('GET', `${bigcoInactive()}&page=${bad}`, ALICE), 400, /page/);
      expectEnvelope(
        await call('GET', `/repos?account-id=${BIGCO.id}&account-type=org&installation-state=all`, ALICE),
        400,
        /installation-state/,
      );
      expectEnvelope(await call('GET', `/repos?account-type=org&installation-state=active`, ALICE), 400, /account-id/);
    });

    it("answers 404 for an account the token does not reach, never that account's repos", async () => {
      const res = await call('GET', '/repos?account-id=2001&account-type=org&installation-state=inactive', BOB);
      expectEnvelope(res, 404);
      expect(res.text).not.toContain('web-storefront');
    });

    it('moves a repo to the active listing once it has an update config, with the config in included', async () => {
      const created = await call('POST', '/update_configs', ALICE, newConfig(3103, 2001, { 'package-manager': 'pip' }));
      expect(created.status, created.text).toBe(201);
      const active = ReposDocument.parse(
        (await call('GET', '/repos?account-id=2001&account-type=org&installation-state=active&page=1', ALICE)).body,
      );
      const repo = active.data.find((r) => r.id === '3103');
      expect(repo?.attributes).toMatchObject({
        name: 'data-pipeline',
        'installation-state': 'active',
        private: true,
        'primary-language': 'python',
      });
      expect(repo?.relationships['update-configs'].data).toEqual([{ id: created.body.data.id, type: 'update-configs' }]);
      expect(active.included).toContainEqual(created.body.data);
      expect(active.meta.pages.next).toBeNull();
      const inactive = ReposDocument.parse(
        (await call('GET', '/repos?account-id=2001&account-type=org&installation-state=inactive', ALICE)).body,
      );
      expect(inactive.data.map((r) => r.id)).not.toContain('3103');
    });
  });

  describe('POST /update_configs', () => {
    it('creates a config with defaults, a language, a string id and target-branch null (201)', async () => {
      const res = await call('POST', '/update_configs', ALICE, newConfig(3101, '2001'));
      expect(res.status).toBe(201);
      const doc = UpdateConfigDocument.parse(res.body);
      expect(doc.data.attributes).toEqual({
        language: 'javascript',
        'package-manager': 'npm_and_yarn',
        'update-schedule': 'daily',
        directory: '/',
        'automerge-rule-runtime-deps': 'never',
        'automerge-rule-development-deps': 'never',
        'target-branch': null,
        'lockfile-only': false,
        'security-updates-only': false,
        'next-run-at': expect.any(String),
        source: 'api',
        ignores: [],
        groups: [],
      });
      // Daily: the next weekday at the account's run time (another test may have changed it), within the coming four days.
      const next = new Date(doc.data.attributes['next-run-at'] as string);
      expect(next.getTime() - Date.now()).toBeGreaterThan(0);
      expect(next.getTime() - Date.now()).toBeLessThanOrEqual(4 * 86_400_000);
      expect(doc.data.relationships.repo.data).toEqual({ id: '3101', type: 'repos' });
      expect(res.headers.get('location')).toBe(`/update_configs/${doc.data.id}`);
      const event = await h.waitForEvent(
        (e) => e.type === 'update_config.created' && (e.data as { id: number }).id === Number(doc.data.id),
      );
      expect(event.data).toMatchObject({ repoId: 3101, accountId: 2001, packageManager: 'npm_and_yarn', targetBranch: null, revision: 1 });
      await h.waitForEvent((e) => e.type === 'repo.created' && (e.data as { id: number }).id === 3101);
    });

    it('answers 400 "already exists" for the same repo, package manager, directory and target branch', async () => {
      const body = newConfig(3101, 2001, { 'package-manager': 'bundler', directory: '/app' });
      expect((await call('POST', '/update_configs', ALICE, body)).status).toBe(201);
      const again = await call('POST', '/update_configs', ALICE, { ...body, directory: 'app/' });
      expectEnvelope(again, 400, /already exists/);
      expect((await call('POST', '/update_configs', ALICE, { ...body, 'target-branch': 'develop' })).status).toBe(201);
    });

    it('needs write permission on the repo (403) and a repo of the named account (400)', async () => {
      expectEnvelope(await call('POST', '/update_configs', ALICE, newConfig(3203, 2002)), 403, /write or admin/);
      // globex/analytics holds requirements.txt.
      expect((await call('POST', '/update_configs', ALICE, newConfig(3201, 2002, { 'package-manager': 'pip' }))).status).toBe(201);
      expectEnvelope(await call('POST', '/update_configs', ALICE, newConfig(3201, 2001)), 400, /does not belong/);
    });

    it('checks what the token may do, not only its user: classic scopes and fine-grained permissions (403 naming what is missing)', async () => {
      // alice is an admin of acme: acme/acme-cli (3104) is public, acme/web-storefront (3101) private.
      expectEnvelope(
        await call('POST', '/update_configs', ALICE_TOKENS.readOrg, newConfig(3104, 2001)),
        403,
        /^This access token lacks the 'repo' scope, which changing update configs of acme\/acme-cli needs$/,
      );
      const seen = ReposDocument.parse(
        (await call('GET', '/repos?account-id=2001&account-type=org&installation-state=inactive', ALICE_TOKENS.readOrg)).body,
      );
      expect(seen.data.map((r) => r.id)).toEqual(['3104']);
      expectEnvelope(await call('POST', '/update_configs', ALICE_TOKENS.publicRepo, newConfig(3101, 2001)), 404, /No repo 3101/);
      const publicRepo = await call('POST', '/update_configs', ALICE_TOKENS.publicRepo, newConfig(3104, 2001, { directory: '/scopes' }));
      expect(publicRepo.status, publicRepo.text).toBe(201);
      expectEnvelope(
        await call('POST', '/update_configs', ALICE_TOKENS.contentsRead, newConfig(3101, 2001, { directory: '/scopes' })),
        403,
        /with this access token the permission is read \(a fine-grained token needs the Contents: write permission\)/,
      );
      const configId = publicRepo.body.data.id;
      expect((await call('GET', `/update_configs/${configId}`, ALICE_TOKENS.contentsRead)).status).toBe(200);
      expectEnvelope(
        await call('PATCH', `/update_configs/${configId}`, ALICE_TOKENS.readOrg, { 'update-schedule': 'weekly' }),
        403,
        /lacks the 'repo' scope/,
      );
      expectEnvelope(await call('DELETE', `/update_configs/${configId}`, ALICE_TOKENS.contentsRead), 403, /Contents: write/);
      const written = await call('POST', '/update_configs', ALICE_TOKENS.contentsWrite, newConfig(3101, 2001, { directory: '/scopes' }));
      expect(written.status, written.text).toBe(201);
    });

    it("never lets one user configure another's repos", async () => {
      expectEnvelope(await call('POST', '/update_configs', BOB, newConfig(3101, 2001)), 404);
      expectEnvelope(await call('POST', '/update_configs', BOB, newConfig(3101, 2003)), 404, /No repo 3101/);
    });

    it('names each invalid attribute with 400', async () => {
      const res = await call('POST', '/update_configs', ALICE, { 'repo-id': 'x', 'package-manager': 'npm', 'update-schedule': 'hourly' });
      expectEnvelope(res, 400);
      expect(res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer)).toEqual([
        '/repo-id',
        '/account-id',
        '/account-type',
        '/directory',
        '/update-schedule',
        '/package-manager',
      ]);
      expectEnvelope(await call('POST', '/update_configs', ALICE, '{"repo-id": 1,'), 400, /not valid JSON/);
      expectEnvelope(await call('POST', '/update_configs', ALICE, [1, 2]), 400, /JSON object/);
      expectEnvelope(await call('POST', '/update_configs', ALICE, { ...newConfig(3101, 2001), directory: 'x'.repeat(20_000) }), 413);
    });
  });

  describe("the config's directory must hold its package manager's files on its branch (asked of the code host as the caller)", () => {
    /** Checks a 422 in the API's envelope: one error, on `pointer`, with exactly `detail`. */
    function expectUnprocessable(res: Awaited<ReturnType<typeof call>>, pointer: string, detail: string) {
      expect(res.status, res.text).toBe(422);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({ errors: [{ status: 422, title: 'Unprocessable Entity', detail, source: { pointer } }] });
    }
    const create = (repoId: number, extra: Record<string, unknown>, token = ALICE) =>
      call('POST', '/update_configs', token, newConfig(repoId, 2001, extra));
    const listings = () => h.codeHostCalls.filter((c) => c.method === 'listDirectory' || c.method === 'listTree').length;

    it('answers 422 naming /directory and the file looked for when the directory does not exist, and stores nothing', async () => {
      expectUnprocessable(await create(3101, { directory: '/nope' }), '/directory', 'directory /nope has no package.json on branch main');
      expectUnprocessable(
        await create(3101, { directory: 'nope/deeper/' }),
        '/directory',
        'directory /nope/deeper has no package.json on branch main',
      );
      const active = ReposDocument.parse(
        (await call('GET', '/repos?account-id=2001&account-type=org&installation-state=active', ALICE)).body,
      );
      expect(active.included.map((c) => c.attributes.directory)).not.toContain('/nope');
      expect(h.events.filter((e) => e.type === 'update_config.created' && (e.data as { directory: string }).directory === '/nope')).toEqual(
        [],
      );
    });

    it("answers 422 for a directory that holds another package manager's files, naming every alternative", async () => {
      // acme/billing-api holds a Gemfile, acme/web-storefront a package.json.
      expectUnprocessable(await create(3102, {}), '/directory', 'directory / has no package.json on branch main');
      expectUnprocessable(
        await create(3101, { 'package-manager': 'pip' }),
        '/directory',
        'directory / has no requirements.txt or pyproject.toml or Pipfile or setup.py or setup.cfg or requirements.in or *.txt or *.in or requirements/*.txt or requirements/*.in on branch main',
      );
    });

    it('matches the patterns of github_actions (in .github/workflows) and nuget (*.csproj)', async () => {
      expectUnprocessable(
        await create(3101, { 'package-manager': 'github_actions' }),
        '/directory',
        'directory / has no .github/workflows/*.yml or .github/workflows/*.yaml or action.yml or action.yaml on branch main',
      );
      // acme/polyglot: .github/workflows/ci.yml, .github/actions/local/action.yml and nuget/App.csproj.
      expect((await create(3106, { 'package-manager': 'github_actions' })).status).toBe(201);
      expect((await create(3106, { 'package-manager': 'github_actions', directory: '/.github/actions/local' })).status).toBe(201);
      expectUnprocessable(
        await create(3106, { 'package-manager': 'nuget', directory: '/go' }),
        '/directory',
        'directory /go has no *.csproj or *.fsproj or *.vbproj or packages.config or Directory.Packages.props or *.sln or *.slnx or *.proj on branch main',
      );
      expect((await create(3106, { 'package-manager': 'nuget', directory: '/nuget' })).status).toBe(201);
    });

    it('looks in the directory asked for, however deep: 201 where the files are, 422 beside them', async () => {
      const gradle = await create(3106, { 'package-manager': 'gradle', directory: 'gradle/' });
      expect(gradle.status, gradle.text).toBe(201);
      expect(gradle.body.data.attributes.directory).toBe('/gradle');
      expectUnprocessable(
        await create(3106, { 'package-manager': 'gradle', directory: '/go' }),
        '/directory',
        'directory /go has no build.gradle or build.gradle.kts on branch main',
      );
      expect((await create(3101, { directory: '/services/api' })).status).toBe(201);
      expectUnprocessable(
        await create(3101, { directory: '/services' }),
        '/directory',
        'directory /services has no package.json on branch main',
      );
    });

    it('looks on the target branch when there is one', async () => {
      // acme/web-storefront's develop holds a package.json; acme/billing-api has no develop branch.
      expect((await create(3101, { 'target-branch': 'develop' })).status).toBe(201);
      expectUnprocessable(
        await create(3102, { 'package-manager': 'bundler', 'target-branch': 'develop' }),
        '/directory',
        'directory / has no Gemfile or gems.rb or *.gemspec on branch develop',
      );
    });

    it('PATCH: a new target branch without the files in the directory is 422 naming /target-branch; the directory is not moved', async () => {
      const created = await create(3106, { 'package-manager': 'terraform', directory: '/terraform' });
      expect(created.status, created.text).toBe(201);
      const path = `/update_configs/${created.body.data.id}`;
      expectUnprocessable(
        await call('PATCH', path, ALICE, { 'target-branch': 'develop', 'update-schedule': 'weekly' }),
        '/target-branch',
        'target-branch develop has no *.tf or *.tf.json in /terraform',
      );
      expect((await call('GET', path, ALICE)).body).toEqual(created.body);
      // The directory is the config's identity: a PATCH ignores it, so moving it to /nope changes nothing and is not refused.
      const ignored = await call('PATCH', path, ALICE, { directory: '/nope', 'update-schedule': 'weekly' });
      expect(ignored.status, ignored.text).toBe(200);
      expect(ignored.body.data.attributes).toMatchObject({ directory: '/terraform', 'update-schedule': 'weekly', 'target-branch': null });
      const onMain = await call('PATCH', path, ALICE, { 'target-branch': 'main' });
      expect(onMain.status, onMain.text).toBe(200);
      expect(onMain.body.data.attributes['target-branch']).toBe('main');
    });

    it('answers a code host that is down or rate-limited as before (502, 429), never 422', async () => {
      // bob's own bob-scripts (requirements.txt), which nothing listed before with his token.
      const body = newConfig(3401, 1002, { 'account-type': 'user', 'package-manager': 'pip' });
      try {
        listingFailure = new CodeHostError('unavailable', 'GitHub GET /repos/bob/bob-scripts/contents/: 503', { status: 503 });
        expectEnvelope(await call('POST', '/update_configs', BOB, body), 502, /The code host did not answer/);
        listingFailure = new CodeHostError('rate_limited', 'GitHub: rate limit', { status: 403, retryAfterSeconds: 30 });
        const limited = await call('POST', '/update_configs', BOB, body);
        expectEnvelope(limited, 429, /rate limit/);
        expect(limited.headers.get('retry-after')).toBe('30');
      } finally {
        listingFailure = undefined;
      }
      const created = await call('POST', '/update_configs', BOB, body);
      expect(created.status, created.text).toBe(201);
      const path = `/update_configs/${created.body.data.id}`;
      try {
        listingFailure = new CodeHostError('unavailable', 'GitHub: 503', { status: 503 });
        expectEnvelope(await call('PATCH', path, BOB, { 'target-branch': 'develop' }), 502, /The code host did not answer/);
      } finally {
        listingFailure = undefined;
      }
      expect((await call('GET', path, BOB)).body.data.attributes['target-branch']).toBeNull();
    });

    it('lists a repo at a branch once for configs made together, and asks again before refusing', async () => {
      // A token of its own, so that nothing this file listed before is in its cache.
      const token = ALICE_TOKENS.contentsWrite;
      const before = listings();
      for (const [packageManager, directory] of [
        ['github_actions', '/'],
        ['submodules', '/'],
        ['docker', '/docker'],
      ]) {
        const res = await create(3106, { 'package-manager': packageManager, directory, 'target-branch': 'main' }, token);
        expect(res.status, `${packageManager}: ${res.text}`).toBe(201);
      }
      // One tree of acme/polyglot at main: github_actions needs it, .gitmodules and docker/Dockerfile are read from it.
      expect(listings() - before).toBe(1);
      // A refusal is not decided on a cached listing: the directory is listed afresh first.
      expectUnprocessable(
        await create(3106, { directory: '/docker', 'target-branch': 'main' }, token),
        '/directory',
        'directory /docker has no package.json on branch main',
      );
      expect(listings() - before).toBe(2);
    });
  });

  describe('live schedules', () => {
    it('are offered only where the registry can be watched: 400 naming update-schedule on create and on patch otherwise', async () => {
      for (const pm of ['docker', 'submodules', 'dep', 'github_actions']) {
        const res = await call(
          'POST',
          '/update_configs',
          ALICE,
          newConfig(3101, 2001, { 'package-manager': pm, 'update-schedule': 'live' }),
        );
        expectEnvelope(res, 400, new RegExp(`live is not offered for ${pm}`));
        expect(res.body.errors[0].source.pointer).toBe('/update-schedule');
      }
      // acme/polyglot's directories of hex and docker.
      const live = await call(
        'POST',
        '/update_configs',
        ALICE,
        newConfig(3106, 2001, { 'package-manager': 'hex', 'update-schedule': 'live', directory: '/hex' }),
      );
      expect(live.status).toBe(201);
      const daily = await call(
        'POST',
        '/update_configs',
        ALICE,
        newConfig(3106, 2001, { 'package-manager': 'docker', directory: '/docker' }),
      );
      expect(daily.status).toBe(201);
      expectEnvelope(
        await call('PATCH', `/update_configs/${daily.body.data.id}`, ALICE, { 'update-schedule': 'live' }),
        400,
        /live is not offered for docker/,
      );
      expect((await call('GET', `/update_configs/${daily.body.data.id}`, ALICE)).body.data.attributes['update-schedule']).toBe('daily');
      for (const created of [live, daily])
        expect((await call('DELETE', `/update_configs/${created.body.data.id}`, ALICE)).status).toBe(204);
    });
  });

  describe('groups (our extension)', () => {
    /** The `update_config.*` events of config `id` so far, in arrival order. */
    const eventsOf = (id: string) =>
      h.events.filter((e) => e.type.startsWith('update_config.') && (e.data as { id: number }).id === Number(id));
    const groupsBody = [
      {
        name: 'elm-core',
        patterns: ['elm/*'],
        'exclude-patterns': ['elm/http'],
        'dependency-type': 'production',
        'update-types': ['minor', 'patch'],
        'group-by': 'dependency-name',
      },
      { name: 'everything-else' },
    ];

    it('stores them on create, shows them dasherized, and publishes them in the settings of update_config.created', async () => {
      const created = await call(
        'POST',
        '/update_configs',
        ALICE,
        newConfig(3106, 2001, { 'package-manager': 'elm', directory: '/elm', groups: groupsBody }),
      );
      expect(created.status, created.text).toBe(201);
      const doc = UpdateConfigDocument.parse(created.body);
      const shown = [
        {
          name: 'elm-core',
          patterns: ['elm/*'],
          'exclude-patterns': ['elm/http'],
          'dependency-type': 'production',
          'update-types': ['minor', 'patch'],
          'applies-to': 'version-updates',
        },
        {
          name: 'everything-else',
          patterns: ['*'],
          'exclude-patterns': [],
          'dependency-type': null,
          'update-types': ['major', 'minor', 'patch'],
          'applies-to': 'version-updates',
        },
      ];
      expect(doc.data.attributes.groups).toEqual(shown);
      const read = await call('GET', `/update_configs/${doc.data.id}`, ALICE);
      expect(read.body).toEqual(created.body);
      const active = ReposDocument.parse(
        (await call('GET', '/repos?account-id=2001&account-type=org&installation-state=active', ALICE)).body,
      );
      expect(active.included.find((c) => c.id === doc.data.id)?.attributes.groups).toEqual(shown);
      const event = await h.waitForEvent(
        (e) => e.type === 'update_config.created' && (e.data as { id: number }).id === Number(doc.data.id),
      );
      expect((event.data as { settings: { groups: unknown } }).settings.groups).toEqual([
        {
          name: 'elm-core',
          patterns: ['elm/*'],
          excludePatterns: ['elm/http'],
          dependencyType: 'production',
          updateTypes: ['minor', 'patch'],
          appliesTo: 'version-updates',
        },
        {
          name: 'everything-else',
          patterns: ['*'],
          excludePatterns: [],
          updateTypes: ['major', 'minor', 'patch'],
          appliesTo: 'version-updates',
        },
      ]);
      expect((await call('DELETE', `/update_configs/${doc.data.id}`, ALICE)).status).toBe(204);
    });

    it('PATCH replaces them, leaves them when absent, removes them with []; a bad group is 400 naming it and changes nothing', async () => {
      const created = await call(
        'POST',
        '/update_configs',
        ALICE,
        newConfig(3106, 2001, { 'package-manager': 'elm', directory: '/elm', groups: groupsBody }),
      );
      expect(created.status, created.text).toBe(201);
      const id: string = created.body.data.id;
      await h.waitForEvent((e) => e.type === 'update_config.created' && (e.data as { id: number }).id === Number(id));

      const replaced = await call('PATCH', `/update_configs/${id}`, ALICE, {
        groups: [{ name: 'security', 'applies-to': 'security-updates', patterns: ['elm/json'] }],
      });
      expect(replaced.status, replaced.text).toBe(200);
      const security = {
        name: 'security',
        patterns: ['elm/json'],
        'exclude-patterns': [],
        'dependency-type': null,
        'update-types': ['major', 'minor', 'patch'],
        'applies-to': 'security-updates',
      };
      expect(replaced.body.data.attributes.groups).toEqual([security]);
      const second = await h.waitForEvent(
        (e) =>
          e.type === 'update_config.updated' &&
          (e.data as { id: number; revision: number }).id === Number(id) &&
          (e.data as { revision: number }).revision === 2,
      );
      expect((second.data as { settings: { groups: Array<{ name: string; appliesTo: string }> } }).settings.groups).toMatchObject([
        { name: 'security', appliesTo: 'security-updates' },
      ]);

      // Absent: the groups stay.
      const other = await call('PATCH', `/update_configs/${id}`, ALICE, { 'update-schedule': 'weekly' });
      expect(other.status, other.text).toBe(200);
      expect(other.body.data.attributes.groups).toEqual([security]);

      // Invalid: 400, every problem named with its pointer, nothing written or published.
      const before = await call('GET', `/update_configs/${id}`, ALICE);
      const bad = await call('PATCH', `/update_configs/${id}`, ALICE, {
        'update-schedule': 'monthly',
        groups: [{ name: 'ok' }, { name: 'OK', patterns: [] }, { 'update-types': ['huge'] }],
      });
      expectEnvelope(bad, 400);
      expect(bad.body.errors.map((e: { source: { pointer: string }; detail: string }) => [e.source.pointer, e.detail])).toEqual([
        ['/groups/1/patterns', 'groups/1/patterns must not be empty: leave it out to take every dependency'],
        ['/groups/2/name', 'groups/2/name is required'],
        ['/groups/2/update-types/0', 'groups/2/update-types/0 must be one of major, minor, patch'],
        ['/groups/1/name', 'groups/1/name must be unique: group 0 is named ok'],
      ]);
      expectEnvelope(
        await call('PATCH', `/update_configs/${id}`, ALICE, { groups: { name: 'deps' } }),
        400,
        /groups must be an array of groups/,
      );
      expect((await call('GET', `/update_configs/${id}`, ALICE)).body).toEqual(before.body);

      const removed = await call('PATCH', `/update_configs/${id}`, ALICE, { groups: [] });
      expect(removed.status, removed.text).toBe(200);
      expect(removed.body.data.attributes.groups).toEqual([]);
      expect(removed.body.data.attributes['update-schedule']).toBe('weekly');
      const fourth = await h.waitForEvent(
        (e) =>
          e.type === 'update_config.updated' &&
          (e.data as { id: number }).id === Number(id) &&
          (e.data as { revision: number }).revision === 4,
      );
      expect((fourth.data as { settings: { groups: unknown[] } }).settings.groups).toEqual([]);
      // Created, replaced, schedule, removed: the refused patches wrote and published nothing.
      expect(eventsOf(id).map((e) => [e.type, (e.data as { revision: number }).revision])).toEqual([
        ['update_config.created', 1],
        ['update_config.updated', 2],
        ['update_config.updated', 3],
        ['update_config.updated', 4],
      ]);
      expect((await call('DELETE', `/update_configs/${id}`, ALICE)).status).toBe(204);
    });
  });

  describe('GET, PATCH and DELETE /update_configs/:id', () => {
    it('reads, changes only the listed attributes, and deletes', async () => {
      const created = await call('POST', '/update_configs', ALICE, newConfig(3102, 2001, { 'package-manager': 'bundler' }));
      const id = created.body.data.id;
      expect((await call('GET', `/update_configs/${id}`, ALICE)).body).toEqual(created.body);

      const patched = await call('PATCH', `/update_configs/${id}`, ALICE, {
        'update-schedule': 'weekly',
        'automerge-rule-runtime-deps': 'patch',
        'target-branch': 'main',
        'package-manager': 'pip',
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data.attributes).toMatchObject({
        'update-schedule': 'weekly',
        'automerge-rule-runtime-deps': 'semver:patch',
        'target-branch': 'main',
        'package-manager': 'bundler',
      });
      const updated = await h.waitForEvent((e) => e.type === 'update_config.updated' && (e.data as { id: number }).id === Number(id));
      expect(updated.data).toMatchObject({ updateSchedule: 'weekly', revision: 2 });

      expectEnvelope(await call('PATCH', `/update_configs/${id}`, ALICE, { 'lockfile-only': 'yes' }), 400, /lockfile-only/);
      expect((await call('DELETE', `/update_configs/${id}`, ALICE)).status).toBe(204);
      await h.waitForEvent((e) => e.type === 'update_config.deleted' && (e.data as { id: number }).id === Number(id));
      expectEnvelope(await call('GET', `/update_configs/${id}`, ALICE), 404);
      expectEnvelope(await call('DELETE', `/update_configs/${id}`, ALICE), 404);
    });

    it("hides one user's configs from another (404), whatever the method", async () => {
      // acme/polyglot's go_modules directory.
      const created = await call(
        'POST',
        '/update_configs',
        ALICE,
        newConfig(3106, 2001, { 'package-manager': 'go_modules', directory: '/go' }),
      );
      const id = created.body.data.id;
      expectEnvelope(await call('GET', `/update_configs/${id}`, BOB), 404);
      expectEnvelope(await call('PATCH', `/update_configs/${id}`, BOB, { 'update-schedule': 'live' }), 404);
      expectEnvelope(await call('DELETE', `/update_configs/${id}`, BOB), 404);
      expect((await call('GET', `/update_configs/${id}`, ALICE)).status).toBe(200);
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      expectEnvelope(await call('GET', '/update_configs/abc', ALICE), 400, /id/);
      expectEnvelope(await call('GET', '/update_configs/999999', ALICE), 404);
    });
  });

  it('answers 405 with Allow for unsupported methods', async () => {
    const res = await call('DELETE', '/accounts', ALICE);
    expectEnvelope(res, 405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
