import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  DEFAULT_UPDATE_CONFIG_SETTINGS,
  EventEnvelope,
  NO_TOKEN_DETAIL,
  ReposDocument,
  UpdateConfigDocument,
  UpdateConfigState,
} from '@switchyard/contracts';
import { DEMO_SEED_PATH, generateRepos, parseSeed, type SeedInput, type SeedRepoInput } from '@switchyard/github-emulator';
import {
  createTestDatabase,
  deleteConsumerQueues,
  ProcessStack,
  type ServiceProcess,
  type TappedDelivery,
  tapEvents,
  waitFor,
} from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { expectEnvelope, JSON_UTF8, type SendOptions, sendOnTheWire, type WireResponse } from './support/wire.ts';

/**
 * The dependency update API on the wire, as its real clients used it (https://github.com/dependabot/api-docs and the clients named below):
 * the GitHub emulator, config-svc and the gateway each run as their own process, every request goes
 * through the gateway over HTTP, and events are read from RabbitMQ. config-svc's own integration test
 * (services/config-svc/test/dependency-api.int.test.ts) covers the API's rules in process; this file
 * covers what only the whole stack shows: exact bytes and reason phrases, headers real clients sent,
 * processes that stay up under bad input, and events that reach the broker.
 */

const emulatorMain = new URL('../packages/github-emulator/src/main.ts', import.meta.url).pathname;
const configMain = new URL('../services/config-svc/src/main.ts', import.meta.url).pathname;
const gatewayMain = new URL('../services/gateway/src/main.ts', import.meta.url).pathname;

/** Tokens and ids of the bundled demo seed. */
const ALICE = 'demo-token-alice';
const BOB = 'demo-token-bob';
const ACME = 2001;
const GLOBEX = 2002;
const INITECH = 2003;
/** An organisation of 250 generated repos (every third one private) that alice belongs to with write permission. */
const BIGCO = { id: 2900, login: 'bigco', repos: 250, firstRepoId: 900_000 };
const bigcoRepoName = (index: number) => `service-${String(index + 1).padStart(3, '0')}`;

const demo = JSON.parse(readFileSync(DEMO_SEED_PATH, 'utf8')) as SeedInput;
/** Names of every repo alice reaches and bob does not (her own, acme's, globex's, and a bigco one). */
const aliceRepoNames = [
  ...(demo.repos ?? []).filter((repo) => ['alice', 'acme', 'globex'].includes(repo.owner)).map((repo) => repo.name),
  bigcoRepoName(0),
];

/**
 * Files added to demo repos' default branches, by repo id: config-svc creates a config only for a directory that holds
 * its package manager's files, and the replays below create theirs where the clients did (`/` of acme/web-storefront
 * for bundler, of acme/billing-api for npm, ...).
 */
const DEMO_REPO_FILES: Record<number, Record<string, string>> = {
  3001: { 'alice-only/Gemfile': 'source "https://rubygems.org"\n' },
  3101: { Gemfile: 'source "https://rubygems.org"\n' },
  3102: { 'package.json': '{}\n' },
  3104: { 'go.mod': 'module github.com/acme/acme-cli\n' },
  3105: { Dockerfile: 'FROM node:24\n' },
};

/** Files on every bigco repo's main branch, for the configs made there (npm in /, pip in /tools, docker, ...). */
const BIGCO_FILES: Record<string, string> = {
  'package.json': '{}\n',
  'tools/requirements.txt': 'requests==2.23.0\n',
  Dockerfile: 'FROM node:24\n',
  'alice-only/package.json': '{}\n',
  'events/Cargo.toml': '[package]\nname = "events"\nversion = "0.1.0"\n',
};

/** `repo` with {@link DEMO_REPO_FILES} added to its default branch. */
function withDemoRepoFiles(repo: SeedRepoInput): SeedRepoInput {
  const added = DEMO_REPO_FILES[repo.id];
  if (!added) return repo;
  const branch = repo.defaultBranch;
  return { ...repo, files: { ...(repo.files ?? {}), [branch]: { ...(repo.files?.[branch] ?? {}), ...added } } };
}

/** The demo seed with {@link DEMO_REPO_FILES}, plus {@link BIGCO}, validated as the emulator will read it. */
function testSeed(): SeedInput {
  const seed: SeedInput = {
    ...demo,
    organizations: [
      ...(demo.organizations ?? []),
      { id: BIGCO.id, login: BIGCO.login, members: [{ login: 'alice', role: 'member' }], defaultRepoPermission: 'write' },
    ],
    repos: [
      ...(demo.repos ?? []).map(withDemoRepoFiles),
      ...generateRepos(BIGCO.login, BIGCO.repos, BIGCO.firstRepoId, { namePrefix: 'service', files: BIGCO_FILES }),
    ],
  };
  parseSeed(seed, 'dependency-api e2e seed');
  return seed;
}

// --- HTTP on the wire ----------------------------------------------------------------------------

describe('dependency update API through the gateway, every service its own process', () => {
  const processes = new ProcessStack();
  let emulator: ServiceProcess;
  let emulatorUrl: string;
  let config: ServiceProcess;
  let gateway: ServiceProcess;
  let gatewayUrl: string;
  const exchange = `e2e.dependency-api.${randomBytes(4).toString('hex')}`;
  let events: TappedDelivery[] = [];

  beforeAll(async () => {
    const seedDir = mkdtempSync(join(tmpdir(), 'dependency-api-e2e-'));
    processes.defer(() => rmSync(seedDir, { recursive: true, force: true }));
    const seedPath = join(seedDir, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(testSeed()));
    const testDb = await createTestDatabase(inject('databaseUrl'), 'e2e_dependency_api');
    processes.defer(() => testDb.drop());

    // The exchange and the tap's queue exist before config-svc starts, so no event of this file is missed.
    const tap = await tapEvents(inject('amqpUrl'), exchange, { bindings: ['update_config.*'], deleteExchangeOnClose: true });
    processes.defer(() => tap.close());
    events = tap.deliveries;

    emulator = await processes.service(emulatorMain, { CODE_HOST_SEED: seedPath });
    emulatorUrl = emulator.url;
    // config-svc's queue is named after this file's exchange, and deleted once it has stopped.
    processes.defer(() =>
      deleteConsumerQueues(inject('amqpUrl'), [
        `${exchange}.release-notifications`,
        `${exchange}.config-files`,
        `${exchange}.app-installations`,
      ]),
    );
    config = await processes.service(configMain, {
      DATABASE_URL: testDb.url,
      AMQP_URL: inject('amqpUrl'),
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: exchange,
      CODE_HOST_API_URL: emulatorUrl,
    });
    gateway = await processes.service(gatewayMain, { CONFIG_SVC_URL: config.url });
    gatewayUrl = gateway.url;
  });

  afterAll(() => processes.disposeAsync());

  /** Sends one request to the gateway with node:http, exactly as given (alice's token unless said otherwise). */
  const send = (method: string, path: string, options: SendOptions = {}): Promise<WireResponse> =>
    sendOnTheWire(gatewayUrl, ALICE, method, path, options);

  const createBody = (
    repoId: number | string,
    accountId: number | string,
    accountType: 'org' | 'user',
    extra: Record<string, unknown> = {},
  ) => ({
    'repo-id': repoId,
    'account-id': accountId,
    'account-type': accountType,
    directory: '/',
    'update-schedule': 'daily',
    'package-manager': 'npm_and_yarn',
    ...extra,
  });

  /** Creates a config as alice and returns its resource (fails the test unless 201). */
  async function createAsAlice(body: Record<string, unknown>) {
    const res = await send('POST', '/update_configs', { json: body });
    expect(res.status, res.text).toBe(201);
    return UpdateConfigDocument.parse(res.body).data;
  }

  const eventsOf = (id: number) => events.filter((e) => (e.event.data as { id?: number }).id === id);

  describe('replays of real clients (mergermarket/dependabot-access, ianwremmel/create)', () => {
    it('mergermarket/dependabot-access (Python requests): 201 "Created", then 400 whose text says "already exists"', async () => {
      // What requests.post(url, json=body, headers={'Authorization': 'Personal ' + token}) puts on the wire:
      // json.dumps' separators, the documented body with repo-id a number and account-id a string.
      const pythonBody = `{"repo-id": 3101, "package-manager": "bundler", "update-schedule": "daily", "directory": "/", "account-id": "${ACME}", "account-type": "org"}`;
      const python = {
        body: pythonBody,
        contentType: 'application/json',
        headers: { 'user-agent': 'python-requests/2.22.0', 'accept-encoding': 'gzip, deflate', accept: '*/*' },
      };
      const res = await send('POST', '/update_configs', python);
      // dependabot.py: `response.status_code == 201 and response.reason == 'Created'`
      expect(res.status, res.text).toBe(201);
      expect(res.statusText).toBe('Created');
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      const created = UpdateConfigDocument.parse(res.body).data;
      expect(created).toMatchObject({
        type: 'update-configs',
        attributes: { language: 'ruby', 'package-manager': 'bundler', 'update-schedule': 'daily', directory: '/', 'target-branch': null },
        relationships: { repo: { data: { id: '3101', type: 'repos' } } },
      });
      expect(res.headers.location).toBe(`/update_configs/${created.id}`);

      // dependabot.py: `response.status_code == 400 and "already exists" in response.text`
      const again = await send('POST', '/update_configs', python);
      expect(again.status).toBe(400);
      expect(again.statusText).toBe('Bad Request');
      expect(again.text).toContain('already exists');
      expectEnvelope(again, 400, /already exists/);
    });

    it('ianwremmel/create (request-promise, json: true): legacy automerge "minor" on a user repo becomes semver:minor', async () => {
      // The client took both ids from the GitHub API (githubUserObject.id, githubRepoObject.id): so does this replay.
      const github = (path: string) =>
        fetch(`${emulatorUrl}${path}`, { headers: { authorization: `token ${ALICE}` } }).then((r) => r.json());
      const githubUserObject = (await github('/user')) as { id: number; login: string };
      const githubRepoObject = ((await github('/user/repos?per_page=100')) as { id: number; name: string }[]).find(
        (r) => r.name === 'notes-app',
      );
      expect(githubUserObject).toMatchObject({ id: 1001, login: 'alice' });
      expect(githubRepoObject?.id).toBe(3002);

      const res = await send('POST', '/update_configs', {
        json: {
          'account-id': githubUserObject.id,
          'account-type': 'user',
          'automerge-rule-development-deps': 'minor',
          'automerge-rule-runtime-deps': 'minor',
          directory: '/',
          'package-manager': 'npm_and_yarn',
          'repo-id': githubRepoObject?.id,
          'update-schedule': 'daily',
        },
        headers: { accept: 'application/json' },
      });
      expect(res.status, res.text).toBe(201);
      expect(UpdateConfigDocument.parse(res.body).data).toMatchObject({
        attributes: {
          language: 'javascript',
          'package-manager': 'npm_and_yarn',
          'automerge-rule-development-deps': 'semver:minor',
          'automerge-rule-runtime-deps': 'semver:minor',
          'target-branch': null,
        },
        relationships: { repo: { data: { id: '3002', type: 'repos' } } },
      });
    });

    it('a TypeScript client with string ids and an unknown automerge-whitelist: 201, the unknown member ignored', async () => {
      const res = await send('POST', '/update_configs', {
        json: { ...createBody('3102', String(ACME), 'org'), 'automerge-whitelist': ['lodash', 'react'] },
      });
      expect(res.status, res.text).toBe(201);
      const created = UpdateConfigDocument.parse(res.body).data;
      expect(Object.keys(res.body.data.attributes)).not.toContain('automerge-whitelist');
      expect(res.text).not.toContain('whitelist');
      expect(created.relationships.repo.data.id).toBe('3102');
      const read = await send('GET', `/update_configs/${created.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body);
    });

    it('the dashboard: Bearer, installation-state=active with page=1, and an unknown query parameter (feedback#926) answer 200', async () => {
      const created = (
        await send('POST', '/update_configs', { scheme: 'Bearer', json: createBody(3201, GLOBEX, 'org', { 'package-manager': 'pip' }) })
      ).body.data as { id: string };
      expect(created.id).toMatch(/^\d+$/);

      const listing = `/repos?account-id=${GLOBEX}&account-type=org&installation-state=active&page=1`;
      const dashboard = { scheme: 'Bearer', headers: { accept: 'application/json', 'cache-control': 'no-cache' } };
      const res = await send('GET', listing, dashboard);
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      const doc = ReposDocument.parse(res.body);
      expect(doc.data.map((r) => [r.id, r.attributes.name, r.attributes['installation-state']])).toEqual([['3201', 'analytics', 'active']]);
      expect(doc.data[0]?.relationships['update-configs'].data).toEqual([{ id: created.id, type: 'update-configs' }]);
      expect(doc.included.map((c) => c.id)).toEqual([created.id]);
      expect(doc.meta.pages.next).toBeNull();

      const extra = await send(
        'GET',
        `/repos?account-id=${GLOBEX}&account-type=org&installation-state=active&lockfile-only=true&page=1`,
        dashboard,
      );
      expect(extra.status, extra.text).toBe(200);
      expect(extra.body).toEqual(res.body);
    });

    it('reads a body sent without any Content-Type, and one sent as application/vnd.api+json (never 415)', async () => {
      const untyped = await send('POST', '/update_configs', {
        body: JSON.stringify(createBody(3103, ACME, 'org', { 'package-manager': 'pip' })),
        contentType: null,
      });
      expect(untyped.status, untyped.text).toBe(201);
      expect(untyped.body.data.attributes).toMatchObject({ 'package-manager': 'pip', language: 'python' });

      const jsonApi = {
        body: JSON.stringify(createBody(3104, ACME, 'org', { 'package-manager': 'go_modules' })),
        contentType: 'application/vnd.api+json',
      };
      const vnd = await send('POST', '/update_configs', jsonApi);
      expect(vnd.status, vnd.text).toBe(201);
      expect(vnd.body.data.attributes).toMatchObject({ 'package-manager': 'go_modules', language: 'go' });
      expectEnvelope(await send('POST', '/update_configs', jsonApi), 400, /already exists/);

      // Still JSON, so still the right 4xx for a wrong body: 400 naming the field, not 415.
      const doc = expectEnvelope(await send('POST', '/update_configs', { body: '{"repo-id":"x"}', contentType: null }), 400, /repo-id/);
      expect(doc.errors.map((e) => e.source?.pointer)).toContain('/repo-id');
      const noBody = expectEnvelope(await send('POST', '/update_configs', { contentType: null }), 400);
      expect(noBody.errors.map((e) => e.source?.pointer)).toEqual([
        '/repo-id',
        '/account-id',
        '/account-type',
        '/directory',
        '/update-schedule',
        '/package-manager',
      ]);
    });

    it("answers a request without Authorization with exactly the original's 403 body, on every endpoint", async () => {
      const exact = `{"errors":[{"status":403,"title":"Forbidden","detail":"${NO_TOKEN_DETAIL}"}]}`;
      expect(exact).toBe(`{"errors":[{"status":403,"title":"Forbidden","detail":"No access token provided in 'Authorization' header"}]}`);
      const requests: [string, string, SendOptions][] = [
        ['GET', '/accounts', {}],
        ['GET', `/repos?account-id=${ACME}&account-type=org&installation-state=active`, {}],
        ['POST', '/update_configs', { json: createBody(3105, ACME, 'org') }],
        ['GET', '/update_configs/1', {}],
        ['PATCH', '/update_configs/1', { json: { 'update-schedule': 'weekly' } }],
        ['DELETE', '/update_configs/1', {}],
      ];
      for (const [method, path, options] of requests) {
        const res = await send(method, path, { ...options, token: null });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.statusText).toBe('Forbidden');
        expect(res.headers['content-type']).toBe(JSON_UTF8);
        expect(res.text).toBe(exact);
      }
    });

    it("survives the docs' own examples: a trailing comma is a 400 in the envelope, a PATCH with update-schedule twice takes the last", async () => {
      const trailing = await send('POST', '/update_configs', { body: '{"repo-id":1,}' });
      expectEnvelope(trailing, 400, /not valid JSON/);
      // The create example of the README before 2020-01-22, trailing comma and all.
      const oldReadme =
        '{"repo-id":3105,"package-manager":"bundler","update-schedule":"daily","directory":"/","account-id":"2001","account-type": "org",}';
      expectEnvelope(await send('POST', '/update_configs', { body: oldReadme }), 400, /not valid JSON/);

      // The README's PATCH example names update-schedule twice, "live" then "daily": the last one wins (not the first, not neither).
      const created = await createAsAlice(createBody(3105, ACME, 'org', { 'package-manager': 'docker', 'update-schedule': 'weekly' }));
      const patched = await send('PATCH', `/update_configs/${created.id}`, {
        body: '{"update-schedule":"live","update-schedule":"daily"}',
      });
      expect(patched.status, patched.text).toBe(200);
      expect(UpdateConfigDocument.parse(patched.body).data.attributes['update-schedule']).toBe('daily');
      expect((await send('GET', `/update_configs/${created.id}`)).body.data.attributes['update-schedule']).toBe('daily');
    });
  });

  describe("a directory without its package manager's files", () => {
    it('is 422 "Unprocessable Entity" in the envelope, on /directory, naming the file, the directory and the branch', async () => {
      const res = await send('POST', '/update_configs', { json: createBody(3002, 1001, 'user', { directory: '/nope' }) });
      expect(res.status, res.text).toBe(422);
      expect(res.statusText).toBe('Unprocessable Entity');
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.text).toBe(
        '{"errors":[{"status":422,"title":"Unprocessable Entity","detail":"directory /nope has no package.json on branch main","source":{"pointer":"/directory"}}]}',
      );
      // alice/left-pad's package.json is on its default branch, master.
      const pip = await send('POST', '/update_configs', { json: createBody(3003, 1001, 'user', { 'package-manager': 'pip' }) });
      expect(
        expectEnvelope(
          pip,
          422,
          /^directory \/ has no requirements\.txt or pyproject\.toml or Pipfile or setup\.py or .* on branch master$/,
        ).errors,
      ).toHaveLength(1);
    });
  });

  describe('pagination of an organisation with 250 repos', () => {
    const listing = (state: 'active' | 'inactive', page: number) =>
      `/repos?account-id=${BIGCO.id}&account-type=org&installation-state=${state}&page=${page}`;

    async function inactivePages() {
      const pages = [];
      for (const page of [1, 2, 3]) {
        const res = await send('GET', listing('inactive', page));
        expect(res.status, res.text).toBe(200);
        // `included` is one flat array of update-configs resources, on every page (empty here: inactive repos have no config).
        expect(Array.isArray(res.body.included)).toBe(true);
        pages.push(ReposDocument.parse(res.body));
      }
      return pages;
    }

    it('pages 100, 100 and 50 inactive repos with meta.pages.next 2, 3 and null', async () => {
      const pages = await inactivePages();
      expect(pages.map((p) => p.data.length)).toEqual([100, 100, 50]);
      expect(pages.map((p) => p.meta.pages.next)).toEqual([2, 3, null]);
      expect(pages.map((p) => p.included)).toEqual([[], [], []]);
      const names = pages.flatMap((p) => p.data.map((r) => r.attributes.name));
      expect(names).toEqual(Array.from({ length: BIGCO.repos }, (_, i) => bigcoRepoName(i)));
      const ids = pages.flatMap((p) => p.data.map((r) => r.id));
      expect(new Set(ids).size).toBe(BIGCO.repos);
      for (const repo of pages.flatMap((p) => p.data)) {
        expect(repo.attributes['installation-state']).toBe('inactive');
        expect(repo.relationships.account.data).toEqual({ id: String(BIGCO.id), type: 'accounts' });
      }
      const beyond = await send('GET', listing('inactive', 4));
      expect(beyond.body).toEqual({ data: [], included: [], meta: { pages: { next: null } } });
    });

    it('lists configured repos as active with their configs in one flat included array, target-branch null on each', async () => {
      const first = BIGCO.firstRepoId;
      await createAsAlice(createBody(first, BIGCO.id, 'org'));
      await createAsAlice(createBody(first, BIGCO.id, 'org', { 'package-manager': 'pip', directory: '/tools' }));
      await createAsAlice(createBody(first + 1, String(BIGCO.id), 'org', { 'package-manager': 'docker' }));

      const res = await send('GET', listing('active', 1));
      expect(res.status, res.text).toBe(200);
      const doc = ReposDocument.parse(res.body);
      expect(doc.data.map((r) => r.attributes.name)).toEqual([bigcoRepoName(0), bigcoRepoName(1)]);
      expect(doc.included).toHaveLength(3);
      expect(res.body.included.every((c: unknown) => !Array.isArray(c))).toBe(true);
      for (const included of res.body.included) {
        expect(included.type).toBe('update-configs');
        expect(Object.hasOwn(included.attributes, 'target-branch')).toBe(true);
        expect(included.attributes['target-branch']).toBeNull();
      }
      const linked = doc.data.flatMap((r) => r.relationships['update-configs'].data.map((ref) => ref.id));
      expect(doc.included.map((c) => c.id).sort()).toEqual([...linked].sort());
      expect(doc.data[0]?.relationships['update-configs'].data).toHaveLength(2);
      expect(doc.meta.pages.next).toBeNull();

      const pages = await inactivePages();
      expect(pages.map((p) => p.data.length)).toEqual([100, 100, 48]);
      expect(pages.map((p) => p.meta.pages.next)).toEqual([2, 3, null]);
    });
  });

  describe("isolation: bob never sees alice's accounts, repos or configs", () => {
    let aliceConfigs: { id: string; body: unknown }[];
    const aliceAccountIds = [1001, ACME, GLOBEX, BIGCO.id];

    beforeAll(async () => {
      // One on her public repo (the repo is visible to anyone; its config must not be), one on a private org repo.
      const onPublic = await createAsAlice(createBody(3001, 1001, 'user', { 'package-manager': 'bundler', directory: '/alice-only' }));
      const onPrivate = await createAsAlice(createBody(BIGCO.firstRepoId + 2, BIGCO.id, 'org', { directory: '/alice-only' }));
      aliceConfigs = [];
      for (const { id } of [onPublic, onPrivate]) aliceConfigs.push({ id, body: (await send('GET', `/update_configs/${id}`)).body });
    });

    function expectNothingOfAlice(res: WireResponse) {
      for (const name of [...aliceRepoNames, 'alice', 'acme', 'globex', 'bigco', 'alice-only']) expect(res.text).not.toContain(name);
    }

    it('lists only his own accounts and repos', async () => {
      const accounts = await send('GET', '/accounts', { token: BOB });
      expect(accounts.status).toBe(200);
      expect(accounts.body.data.map((a: { attributes: { 'github-login': string } }) => a.attributes['github-login'])).toEqual([
        'bob',
        'initech',
      ]);
      expectNothingOfAlice(accounts);
      const own = await send('GET', `/repos?account-id=${INITECH}&account-type=org&installation-state=inactive`, { token: BOB });
      expect(own.status).toBe(200);
      expect(ReposDocument.parse(own.body).data.map((r) => r.attributes.name)).toEqual(['office-space', 'printer-driver', 'tps-reports']);
      expectNothingOfAlice(own);
    });

    it("answers 404 for each of alice's accounts, whatever the state or the account type claimed", async () => {
      for (const id of aliceAccountIds) {
        for (const claimed of ['user', 'org']) {
          for (const state of ['active', 'inactive']) {
            const res = await send('GET', `/repos?account-id=${id}&account-type=${claimed}&installation-state=${state}&page=1`, {
              token: BOB,
            });
            expectEnvelope(res, 404);
            expectNothingOfAlice(res);
          }
        }
      }
    });

    it("answers 404 to reading, changing or deleting alice's configs, and leaves them as they were", async () => {
      for (const { id } of aliceConfigs) {
        for (const [method, json] of [
          ['GET', undefined],
          ['PATCH', { 'update-schedule': 'live', 'target-branch': 'bob-was-here' }],
          ['DELETE', undefined],
        ] as const) {
          for (const scheme of ['Personal', 'Bearer']) {
            const res = await send(method, `/update_configs/${id}`, { token: BOB, scheme, ...(json ? { json } : {}) });
            expectEnvelope(res, 404);
            expectNothingOfAlice(res);
          }
        }
      }
      for (const { id, body } of aliceConfigs) expect((await send('GET', `/update_configs/${id}`)).body).toEqual(body);
    });

    it("cannot configure alice's repos, under her accounts or his own (404, nothing created)", async () => {
      const attempts = [
        createBody(3001, 1001, 'user', { 'package-manager': 'pip' }),
        createBody(3002, 1001, 'user', { 'package-manager': 'pip' }),
        createBody(3101, ACME, 'org', { 'package-manager': 'pip' }),
        createBody(3101, INITECH, 'org', { 'package-manager': 'pip' }),
        createBody(3002, 1002, 'user', { 'package-manager': 'pip' }),
        createBody(BIGCO.firstRepoId + 5, BIGCO.id, 'org'),
        createBody(BIGCO.firstRepoId + 5, INITECH, 'org'),
      ];
      for (const body of attempts) {
        const res = await send('POST', '/update_configs', { token: BOB, json: body });
        expectEnvelope(res, 404);
        expectNothingOfAlice(res);
      }
      // Nothing was created on the way: alice sees no pip config on 3101 or 3002 and bigco's repo 5 is still inactive.
      for (const [accountId, type] of [
        [ACME, 'org'],
        [1001, 'user'],
        [BIGCO.id, 'org'],
      ] as const) {
        const active = ReposDocument.parse(
          (await send('GET', `/repos?account-id=${accountId}&account-type=${type}&installation-state=active`)).body,
        );
        const attempted = active.included.filter(
          (c) => ['3101', '3002'].includes(c.relationships.repo.data.id) && c.attributes['package-manager'] === 'pip',
        );
        expect(attempted).toEqual([]);
        expect(active.data.map((r) => r.id)).not.toContain(String(BIGCO.firstRepoId + 5));
      }
    });
  });

  describe('bad input never gets a 5xx through the gateway', () => {
    let configId: string;
    beforeAll(async () => {
      configId = (await createAsAlice(createBody(3003, 1001, 'user'))).id;
    });

    const valid = createBody(3003, 1001, 'user', { directory: '/bad-input' });
    const withAttr = (attributes: Record<string, unknown>) => ({ json: { ...valid, ...attributes } });
    const bigBody = JSON.stringify({ ...valid, padding: 'x'.repeat(17 * 1024) });
    const inflatesPastLimit = gzipSync(JSON.stringify({ ...valid, padding: 'x'.repeat(200_000) }));
    const reposOf = (query: string) => `/repos?account-id=${BIGCO.id}&account-type=org&installation-state=inactive${query}`;

    /** What a row checks beyond the status and the envelope. */
    interface Check {
      /** Matched against the errors' details joined. */
      detail?: RegExp;
      /** A `source.pointer` or `source.parameter` one of the errors must name. */
      source?: string;
      /** The `Allow` header of a 405. */
      allow?: string;
    }
    interface BadRequest extends Check {
      name: string;
      method: string;
      path: string;
      status: number;
      options?: SendOptions;
    }
    /** One row: `request` is `METHOD path`; `:id` in the path stands for an existing config of alice. */
    const bad = (name: string, request: string, status: number, options?: SendOptions, check: Check = {}): BadRequest => {
      const [method = '', path = ''] = request.split(' ');
      return { name, method, path, status, ...(options ? { options } : {}), ...check };
    };
    const create = 'POST /update_configs';
    const table: BadRequest[] = [
      // wrong types and values in the create body
      bad('repo-id a boolean', create, 400, withAttr({ 'repo-id': true }), { source: '/repo-id' }),
      bad('repo-id digits and letters', create, 400, withAttr({ 'repo-id': '3003abc' }), { source: '/repo-id' }),
      bad('repo-id zero', create, 400, withAttr({ 'repo-id': 0 }), { source: '/repo-id' }),
      bad('repo-id a fraction', create, 400, withAttr({ 'repo-id': 3003.5 }), { source: '/repo-id' }),
      bad(
        'repo-id beyond a double',
        create,
        400,
        { body: JSON.stringify(valid).replace('"repo-id":3003', '"repo-id":1e400') },
        { source: '/repo-id' },
      ),
      bad('repo-id beyond 2^53', create, 400, withAttr({ 'repo-id': '9999999999999999' }), { source: '/repo-id' }),
      bad('account-id an object', create, 400, withAttr({ 'account-id': {} }), { source: '/account-id' }),
      bad('unknown account-type', create, 400, withAttr({ 'account-type': 'team' }), { source: '/account-type' }),
      bad('unknown package-manager', create, 400, withAttr({ 'package-manager': 'npm' }), { source: '/package-manager' }),
      bad('unknown update-schedule', create, 400, withAttr({ 'update-schedule': 'hourly' }), { source: '/update-schedule' }),
      bad('unknown automerge rule', create, 400, withAttr({ 'automerge-rule-runtime-deps': 'major' }), {
        source: '/automerge-rule-runtime-deps',
      }),
      bad('lockfile-only a string', create, 400, withAttr({ 'lockfile-only': 'true' }), { source: '/lockfile-only' }),
      bad('empty target-branch', create, 400, withAttr({ 'target-branch': '' }), { source: '/target-branch' }),
      bad('invalid branch name', create, 400, withAttr({ 'target-branch': 'a..b' }), { source: '/target-branch' }),
      bad('directory escaping the repo', create, 400, withAttr({ directory: '../etc' }), { source: '/directory' }),
      bad('directory with a NUL', create, 400, withAttr({ directory: '/a\u0000b' }), { source: '/directory' }),
      bad('directory of 256 characters', create, 400, withAttr({ directory: 'd'.repeat(256) }), { source: '/directory' }),
      bad('an empty object', create, 400, { json: {} }, { source: '/package-manager' }),
      // sizes, encodings, and bodies that are not a JSON object
      bad('body over 16 KiB', create, 413, { body: bigBody }, { detail: /too large/ }),
      bad('chunked body over 16 KiB', create, 413, { body: bigBody, chunked: true }, { detail: /too large/ }),
      bad(
        'gzip body inflating past 16 KiB',
        create,
        413,
        { body: inflatesPastLimit, headers: { 'content-encoding': 'gzip' } },
        { detail: /too large/ },
      ),
      bad('corrupt gzip', create, 400, { body: 'not gzip', headers: { 'content-encoding': 'gzip' } }),
      bad('unknown content encoding', create, 415, { body: '{}', headers: { 'content-encoding': 'compress' } }),
      bad('latin1 charset', create, 415, { body: '{}', contentType: 'application/json; charset=latin1' }),
      bad(
        'form-encoded',
        create,
        400,
        { body: 'repo-id=3003', contentType: 'application/x-www-form-urlencoded' },
        { detail: /not valid JSON/ },
      ),
      bad('truncated JSON', create, 400, { body: '{"repo-id": 3003,' }, { detail: /not valid JSON/ }),
      bad('a JSON array', create, 400, { body: '[1,2]' }, { detail: /JSON object/ }),
      bad('JSON null', create, 400, { body: 'null' }),
      bad('a JSON string', create, 400, { body: '"repo-id"' }),
      bad('a JSON number', create, 400, { body: '42' }),
      bad('deeply nested arrays', create, 400, { body: `${'['.repeat(5000)}${']'.repeat(5000)}` }),
      // PATCH bodies
      bad(
        'PATCH unknown schedule',
        'PATCH /update_configs/:id',
        400,
        { json: { 'update-schedule': 'sometimes' } },
        { source: '/update-schedule' },
      ),
      bad('PATCH target-branch a number', 'PATCH /update_configs/:id', 400, { json: { 'target-branch': 7 } }, { source: '/target-branch' }),
      bad('PATCH a JSON array', 'PATCH /update_configs/:id', 400, { body: '[]' }, { detail: /JSON object/ }),
      bad('PATCH not JSON', 'PATCH /update_configs/:id', 400, { body: "{'update-schedule': 'live'}" }, { detail: /not valid JSON/ }),
      // ids in paths
      bad('id not numeric', 'GET /update_configs/abc', 400, undefined, { source: 'id' }),
      bad('id zero', 'GET /update_configs/0', 400, undefined, { source: 'id' }),
      bad('id negative', 'DELETE /update_configs/-1', 400, undefined, { source: 'id' }),
      bad('id a fraction', 'PATCH /update_configs/1.5', 400, { json: {} }, { source: 'id' }),
      bad('id beyond int4', 'GET /update_configs/2147483648', 400, undefined, { source: 'id' }),
      bad('id with an encoded slash', 'GET /update_configs/1%2F2', 400, undefined, { source: 'id' }),
      bad('id badly percent-encoded', 'GET /update_configs/%E0%A4%A', 400),
      bad('id of no config', 'GET /update_configs/99999', 404),
      bad('a sub-resource that does not exist', 'POST /update_configs/:id/rebase_all', 404),
      // query parameters
      bad('page 0', `GET ${reposOf('&page=0')}`, 400, undefined, { source: 'page' }),
      bad('page negative', `GET ${reposOf('&page=-1')}`, 400, undefined, { source: 'page' }),
      bad('page a word', `GET ${reposOf('&page=two')}`, 400, undefined, { source: 'page' }),
      bad('page twice', `GET ${reposOf('&page=1&page=2')}`, 400, undefined, { source: 'page' }),
      bad('page of ten digits', `GET ${reposOf('&page=1000000000')}`, 400, undefined, { source: 'page' }),
      bad('page with a bad escape', `GET ${reposOf('&page=%FF')}`, 400, undefined, { source: 'page' }),
      bad('installation-state all', `GET /repos?account-id=${BIGCO.id}&account-type=org&installation-state=all`, 400, undefined, {
        source: 'installation-state',
      }),
      bad('no query at all', 'GET /repos', 400, undefined, { source: 'account-id' }),
      bad('account-id a login', 'GET /repos?account-id=bigco&account-type=org&installation-state=active', 400, undefined, {
        source: 'account-id',
      }),
      bad('account-type team', `GET /repos?account-id=${BIGCO.id}&account-type=team&installation-state=active`, 400, undefined, {
        source: 'account-type',
      }),
      // Authorization headers
      bad('Basic credentials', 'GET /accounts', 401, { headers: { authorization: 'Basic YWxpY2U6cHc=' } }, { detail: /Personal <token>/ }),
      bad('a scheme without a token', 'GET /accounts', 401, { headers: { authorization: 'Personal' } }),
      bad('a token with a space', 'GET /accounts', 401, { headers: { authorization: 'Bearer two words' } }),
      bad('a token the code host rejects', 'GET /accounts', 401, { token: 'not-a-real-token' }, { detail: /Bad credentials/ }),
      bad('a token of 8 000 characters', 'GET /accounts', 401, { token: 't'.repeat(8_000) }),
      bad('a token of non-ASCII bytes', 'GET /accounts', 401, {
        headers: { authorization: Buffer.from('Personal tökén').toString('latin1') },
      }),
      bad('an empty Authorization header', 'GET /accounts', 403, { headers: { authorization: '' } }, { detail: /No access token/ }),
      // methods
      bad('PUT on a config', 'PUT /update_configs/:id', 405, { json: {} }, { allow: 'GET, PATCH, DELETE, HEAD' }),
      bad('DELETE /accounts', 'DELETE /accounts', 405, undefined, { allow: 'GET, HEAD' }),
      bad('POST /repos', 'POST /repos', 405, { json: {} }, { allow: 'GET, HEAD' }),
      bad('GET /update_configs', 'GET /update_configs', 405, undefined, { allow: 'POST' }),
      bad('OPTIONS /update_configs', 'OPTIONS /update_configs', 405, undefined, { allow: 'POST' }),
      bad('PATCH without an id', 'PATCH /update_configs', 405, { json: {} }, { allow: 'POST' }),
    ];

    it('has a table of at least 25 malformed requests', () => {
      expect(table.length).toBeGreaterThanOrEqual(25);
      expect(new Set(table.map((row) => row.name)).size).toBe(table.length);
    });

    it.each(table)('$name: $method $path → $status', async (row) => {
      const res = await send(row.method, row.path.replace(':id', configId), row.options);
      const doc = expectEnvelope(res, row.status, row.detail);
      if (row.source) expect(doc.errors.map((e) => e.source?.pointer ?? e.source?.parameter)).toContain(row.source);
      if (row.allow) expect(res.headers.allow).toBe(row.allow);
    });

    it('refuses a lone UTF-16 surrogate in directory or target-branch rather than storing U+FFFD in its place', async () => {
      // JSON allows "\ud800"; UTF-8 (and so PostgreSQL text) cannot hold it, so what would be stored is not what was sent,
      // and "/\ud800" and "/\udbff" would become the same directory. Control characters are refused the same way.
      const directory = await send('POST', '/update_configs', withAttr({ directory: '/lone-\ud800' }));
      const branch = await send('POST', '/update_configs', withAttr({ directory: '/lone-branch', 'target-branch': 'release-\udbff' }));
      expect(expectEnvelope(directory, 400).errors.map((e) => e.source?.pointer)).toEqual(['/directory']);
      expect(expectEnvelope(branch, 400).errors.map((e) => e.source?.pointer)).toEqual(['/target-branch']);
      expect(directory.text + branch.text).not.toContain('\ufffd');
    });

    it('leaves every process up and the config untouched', async () => {
      for (const running of [emulator, config, gateway]) expect(running.child.exitCode).toBeNull();
      expect((await send('GET', '/readyz', { token: null })).status).toBe(200);
      const read = await send('GET', `/update_configs/${configId}`);
      expect(read.status).toBe(200);
      expect(read.body.data.attributes).toMatchObject({ 'update-schedule': 'daily', directory: '/', 'target-branch': null });
      const active = await send('GET', `/repos?account-id=1001&account-type=user&installation-state=active`);
      expect(active.status).toBe(200);
      expect(active.text).not.toContain('bad-input');
    });
  });

  describe('events', () => {
    it('publishes update_config.created, .updated and .deleted to the exchange for a create, a PATCH and a DELETE through the gateway', async () => {
      const repoId = BIGCO.firstRepoId + 100;
      const body = createBody(repoId, BIGCO.id, 'org', { 'package-manager': 'cargo', directory: '/events' });
      const created = await createAsAlice(body);
      const id = Number(created.id);
      // A refused duplicate publishes nothing.
      expectEnvelope(await send('POST', '/update_configs', { json: body }), 400, /already exists/);
      const patched = await send('PATCH', `/update_configs/${id}`, {
        json: { 'update-schedule': 'weekly', 'automerge-rule-runtime-deps': 'patch' },
      });
      expect(patched.status, patched.text).toBe(200);
      const deleted = await send('DELETE', `/update_configs/${id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');

      const received = await waitFor(async () => (eventsOf(id).length >= 3 ? eventsOf(id) : undefined), 15_000);
      expect(received.map((e) => e.routingKey)).toEqual(['update_config.created', 'update_config.updated', 'update_config.deleted']);
      for (const event of received) {
        const envelope = EventEnvelope.parse(event.event);
        expect(envelope.type).toBe(event.routingKey);
        expect(event.messageId).toBe(envelope.id);
        expect(envelope.source).toBe('config-svc');
        UpdateConfigState.parse(envelope.data);
      }
      const [onCreate, onUpdate, onDelete] = received.map((e) => e.event.data as UpdateConfigState);
      expect(onCreate).toEqual({
        id,
        repoId,
        accountId: BIGCO.id,
        packageManager: 'cargo',
        language: 'rust',
        updateSchedule: 'daily',
        directory: '/events',
        targetBranch: null,
        automergeRuleRuntimeDeps: 'never',
        automergeRuleDevelopmentDeps: 'never',
        lockfileOnly: false,
        securityUpdatesOnly: false,
        source: 'api',
        settings: DEFAULT_UPDATE_CONFIG_SETTINGS,
        revision: 1,
      });
      expect(onUpdate).toEqual({ ...onCreate, updateSchedule: 'weekly', automergeRuleRuntimeDeps: 'semver:patch', revision: 2 });
      expect(onDelete).toEqual(onUpdate);
      expect(new Set(received.map((e) => e.event.id)).size).toBe(3);
      const times = received.map((e) => Date.parse(e.event.time));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(
        events.filter((e) => e.routingKey === 'update_config.created' && (e.event.data as UpdateConfigState).repoId === repoId),
      ).toHaveLength(1);
    });

    it('has published one created event for every config created through the gateway in this file', async () => {
      const byRepo = (repoId: number) =>
        events.filter((e) => e.routingKey === 'update_config.created' && (e.event.data as UpdateConfigState).repoId === repoId);
      await waitFor(async () => byRepo(3201).length > 0 && byRepo(3002).length > 0 && byRepo(3101).length > 0);
      // mergermarket (once: the duplicate was refused), ianwremmel (legacy rules mapped), the dashboard.
      expect(byRepo(3101)).toHaveLength(1);
      expect(byRepo(3002).map((e) => (e.event.data as UpdateConfigState).automergeRuleDevelopmentDeps)).toEqual(['semver:minor']);
      expect(byRepo(3201)).toHaveLength(1);
    });
  });
});
