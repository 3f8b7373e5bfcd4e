import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DependencyApiErrors,
  EventEnvelope,
  NO_TOKEN_DETAIL,
  PullRequestJobCreated,
  ReleaseNotificationReceived,
  ReleaseNotificationResource,
} from '@switchyard/contracts';
import { DEMO_SEED_PATH } from '@switchyard/github-emulator';
import { emulatorRegistryEnv } from '@switchyard/registry-emulator';
import {
  createTestDatabase,
  deleteConsumerQueues,
  freePort,
  ProcessStack,
  type ServiceProcess,
  type TappedDelivery,
  tapEvents,
  waitFor,
} from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Notification, releaseApi } from './support/release-api.ts';
import { expectEnvelope, JSON_UTF8, type SendOptions } from './support/wire.ts';

/**
 * Private release notifications across the whole system, on the wire: the GitHub emulator, config-svc,
 * release-svc's API, one release worker and the gateway each run as their own process on one database
 * (each service its own schema) and one exchange of this file. Every request goes through the gateway.
 * Update configs are made with config-svc's API and reach release-svc only through config-svc's events,
 * so this is where the two services must agree on the wire. release-svc's own integration test
 * (services/release-svc/test/release-flow.int.test.ts) covers the scan's rules in process.
 */

const emulatorMain = new URL('../packages/github-emulator/src/main.ts', import.meta.url).pathname;

/** A repo of the demo seed as the seed file holds it: its id, name and files per branch. */
interface SeedRepo {
  id: number;
  name: string;
  files?: Record<string, Record<string, string>>;
}

/**
 * The demo seed with the files the flow's configs need when they are made (config-svc refuses a config whose directory
 * holds none of its package manager's files): acme/acme-cli's `package.json` (removed again before its first scan, so
 * that scan fails for the missing file) and an unreadable `crate-N/Cargo.toml` for each round of the checkpoint test; and
 * web-storefront's `release-9` branch (its package.json removed before the scan that reads it there).
 */
function flowSeed(): { repos: SeedRepo[] } {
  const seed = JSON.parse(readFileSync(DEMO_SEED_PATH, 'utf8')) as { repos: SeedRepo[] };
  const repo = (id: number) => {
    const found = seed.repos.find((r) => r.id === id);
    if (!found) throw new Error(`the demo seed has no repo ${id}`);
    return found;
  };
  const cli = repo(3104);
  const crates = Object.fromEntries(
    // Not TOML: each round's scan fails to read it, so the notification's outcomes name the config it scanned.
    Array.from({ length: 100 }, (_, n) => [`crate-${n}/Cargo.toml`, `[package\nname = "crate-${n}"\n`]),
  );
  cli.files = { ...cli.files, main: { ...cli.files?.main, 'package.json': '{ "name": "acme-cli", "private": true }\n', ...crates } };
  const storefront = repo(3101);
  storefront.files = { ...storefront.files, 'release-9': { ...storefront.files?.main } };
  return seed;
}

const registryMain = new URL('../packages/registry-emulator/src/main.ts', import.meta.url).pathname;
const configMain = new URL('../services/config-svc/src/main.ts', import.meta.url).pathname;
const releaseMain = new URL('../services/release-svc/src/main.ts', import.meta.url).pathname;
const workerMain = new URL('../services/release-svc/src/worker-main.ts', import.meta.url).pathname;
const gatewayMain = new URL('../services/gateway/src/main.ts', import.meta.url).pathname;

/** Tokens and ids of the bundled demo seed. */
const ALICE = 'demo-token-alice';
const BOB = 'demo-token-bob';
/** The demo's `switchyard-bot`, a member of every organisation: the worker reads manifests with it. */
const BOT = 'demo-token-bot';
const ACME = 2001;
const GLOBEX = 2002;
const INITECH = 2003;

/** A dependency no repo of the demo uses: notifications of it only show what the read model knows. */
const PROBE = 'switchyard-e2e-probe';

const run = promisify(execFile);

type PackageManager = ReleaseNotificationResource['attributes']['package-manager'];

describe('release notifications through the gateway, every service its own process', () => {
  const processes = new ProcessStack();
  let emulator: ServiceProcess;
  let config: ServiceProcess;
  let release: ServiceProcess;
  let worker: ServiceProcess;
  let gateway: ServiceProcess;
  let gatewayUrl: string;
  const suffix = randomBytes(4).toString('hex');
  const exchange = `e2e.release-flow.${suffix}`;
  const queuePrefix = `e2e.release-flow.${suffix}`;
  let events: TappedDelivery[] = [];

  beforeAll(async () => {
    const testDb = await createTestDatabase(inject('databaseUrl'), 'e2e_release_flow');
    processes.defer(() => testDb.drop());

    // The exchange and the tap's queue exist before any service starts, so no event of this file is missed; the
    // worker's durable queues are deleted after the tap, which deletes the exchanges.
    // The worker's and config-svc's durable queues: main, parking and retry queues of each consumer.
    processes.defer(() =>
      deleteConsumerQueues(
        inject('amqpUrl'),
        ['read-model', 'notifications', 'scans', 'update-runs', 'release-notifications', 'config-files', 'app-installations'].map(
          (consumer) => `${queuePrefix}.${consumer}`,
        ),
      ),
    );
    const tap = await tapEvents(inject('amqpUrl'), exchange, {
      bindings: ['update_config.*', 'release_notification.*', 'pull_request_job.*'],
      deleteExchangeOnClose: true,
    });
    processes.defer(() => tap.close());
    events = tap.deliveries;

    const seedDir = mkdtempSync(join(tmpdir(), 'release-flow-seed-'));
    processes.defer(() => rmSync(seedDir, { recursive: true, force: true }));
    const seedPath = join(seedDir, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(flowSeed()));
    emulator = await processes.service(emulatorMain, { CODE_HOST_SEED: seedPath });
    // The registry emulator with its demo seed: the worker asks it, never a public registry.
    const registry = await processes.service(registryMain, {});
    const backend = {
      DATABASE_URL: testDb.url,
      AMQP_URL: inject('amqpUrl'),
      EVENTS_EXCHANGE: exchange,
      CODE_HOST_API_URL: emulator.url,
    };
    // config-svc and release-svc's API and worker start together, as a deployment starts them; the API and the
    // worker migrate the same `release` schema at the same time. allSettled: one that fails must not leave the
    // others starting after the stack was torn down.
    const releasePort = await freePort();
    const started = await Promise.allSettled([
      processes.service(configMain, { ...backend, QUEUE_PREFIX: queuePrefix }),
      processes.service(releaseMain, backend, { port: releasePort }),
      // PORT is the API's: the worker serves only its health on WORKER_PORT.
      processes.service(
        workerMain,
        { ...backend, PORT: String(releasePort), QUEUE_PREFIX: queuePrefix, CODE_HOST_TOKEN: BOT, ...emulatorRegistryEnv(registry.url) },
        { portVariable: 'WORKER_PORT' },
      ),
    ]);
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    [config, release, worker] = started.map((result) => (result as PromiseFulfilledResult<ServiceProcess>).value) as [
      ServiceProcess,
      ServiceProcess,
      ServiceProcess,
    ];
    gateway = await processes.service(gatewayMain, { CONFIG_SVC_URL: config.url, RELEASE_SVC_URL: release.url });
    gatewayUrl = gateway.url;
  });

  afterAll(() => processes.disposeAsync());

  // --- HTTP on the wire --------------------------------------------------------------------------

  /** The release API through the gateway, on the wire: alice's token unless a call names another. */
  const { send, createConfig, notify, finished, notifyAndFinish, jobs } = releaseApi(() => gatewayUrl, ALICE);

  const configBody = (repoId: number, accountId: number, packageManager: PackageManager, extra: Record<string, unknown> = {}) => ({
    'repo-id': repoId,
    'account-id': accountId,
    'account-type': 'org',
    directory: '/',
    'update-schedule': 'daily',
    'package-manager': packageManager,
    ...extra,
  });

  const releaseOf = (name: string, version: string, packageManager: PackageManager) => ({
    name,
    version,
    'package-manager': packageManager,
  });

  /** The `release_notification.received` event of a notification sent without asking for its representation. */
  const receivedEvent = (name: string, version: string) =>
    waitFor(async () => {
      const found = events.find(
        (e) =>
          e.routingKey === 'release_notification.received' &&
          (e.event.data as ReleaseNotificationReceived).name === name &&
          (e.event.data as ReleaseNotificationReceived).version === version,
      );
      return found && ReleaseNotificationReceived.parse(found.event.data);
    }, 10_000);

  const configEvents = (id: string) =>
    events.filter((e) => e.routingKey.startsWith('update_config.') && String((e.event.data as { id: number }).id) === id);

  /** Removes `path` from `branch` of `repo` on the code host, as alice (a commit whose tree lacks it: GitHub's git data API). */
  const removeFile = async (repo: string, branch: string, path: string) => {
    const github = async (method: string, route: string, body?: unknown) => {
      const res = await fetch(`${emulator.url}/repos/${repo}${route}`, {
        method,
        headers: { authorization: `token ${ALICE}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(res.status, `${method} ${route}`).toBeLessThan(300);
      return (await res.json()) as { sha: string; object: { sha: string }; tree: { sha: string } };
    };
    const head = (await github('GET', `/git/ref/heads/${branch}`)).object.sha;
    const tree = await github('POST', '/git/trees', {
      base_tree: (await github('GET', `/git/commits/${head}`)).tree.sha,
      tree: [{ path, mode: '100644', type: 'blob', sha: null }],
    });
    const commit = await github('POST', '/git/commits', { message: `remove ${path}`, tree: tree.sha, parents: [head] });
    await github('PATCH', `/git/refs/heads/${branch}`, { sha: commit.sha });
  };

  /** Notification ids and configs of the whole flow, read by the tests after it. */
  const flow = { storefront: '', lodash: '' };

  describe('the whole flow: configs made with config-svc, releases notified to release-svc, jobs recorded by the worker', () => {
    it('records the job of every outdated dependency in acme and globex, with the version in use, target, kind, type, branch and directory', async () => {
      const storefront = await createConfig(configBody(3101, ACME, 'npm_and_yarn'));
      const cli = await createConfig(configBody(3104, ACME, 'npm_and_yarn'));
      // Its manifest removed on the code host once the config exists: its scan fails for the missing file.
      await removeFile('acme/acme-cli', 'main', 'package.json');
      const billing = await createConfig(configBody(3102, ACME, 'bundler', { 'automerge-rule-runtime-deps': 'semver:minor' }));
      const pipeline = await createConfig(configBody(3103, ACME, 'pip'));
      const analytics = await createConfig(configBody(3201, GLOBEX, 'pip', { 'update-schedule': 'weekly' }));
      flow.storefront = storefront.id;

      // No waiting for config-svc's events to reach the worker: each notification below scans the configs just made.

      const common = {
        'dependency-type': 'runtime',
        'security-fix': false,
        status: 'pending',
        'target-branch': 'main',
        directory: '/',
      };
      const cases = [
        {
          release: releaseOf('lodash', '4.17.21', 'npm_and_yarn'),
          config: storefront.id,
          repo: '3101',
          // The code host's advisories (the emulator's seed: GHSA-35jh-r3h4-6jhm and others) say 4.17.15 is vulnerable.
          job: {
            ...common,
            'version-in-use': '4.17.15',
            'update-kind': 'patch',
            automerge: false,
            unverified: false,
            'security-fix': true,
          },
          counts: { 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 1, 'repos-skipped': 0, 'repos-failed': 1 },
          outcomes: [{ 'repo-id': '3104', 'update-config-id': cli.id, outcome: 'failed', reason: 'no package.json in / on branch main' }],
        },
        {
          release: releaseOf('stripe', '5.23.0', 'bundler'),
          config: billing.id,
          repo: '3102',
          // automerge-rule-runtime-deps semver:minor, as config-svc stored it, decides this one. The registry does not list
          // 5.23.0: the job targets it all the same, unverified.
          job: { ...common, 'version-in-use': '5.22.0', 'update-kind': 'minor', automerge: true, unverified: true },
          counts: { 'configs-total': 1, 'repos-scanned': 1, 'jobs-recorded': 1, 'repos-skipped': 0, 'repos-failed': 0 },
          outcomes: [],
        },
        {
          release: releaseOf('requests', '2.31.0', 'pip'),
          config: pipeline.id,
          repo: '3103',
          // The run asks the registry: 2.32.3 is out, newer than the notified 2.31.0, so the job targets it.
          target: '2.32.3',
          // globex/analytics (analytics.id) is scanned too and does not use requests.
          job: { ...common, 'version-in-use': '2.23.0', 'update-kind': 'minor', automerge: false, unverified: false, 'security-fix': true },
          counts: { 'configs-total': 2, 'repos-scanned': 2, 'jobs-recorded': 1, 'repos-skipped': 0, 'repos-failed': 0 },
          outcomes: [],
        },
      ];
      // All three at once: they are planned and scanned side by side.
      const ids = await Promise.all(cases.map((c) => notify(c.release)));
      flow.lodash = ids[0] as string;
      const byId = new Map<string, string>();
      for (const [i, c] of cases.entries()) {
        const id = ids[i] as string;
        const done = await finished(id);
        expect(done).toMatchObject({ ...c.release, status: 'done', ...c.counts, outcomes: c.outcomes });
        expect(done['finished-at']).not.toBeNull();
        expect(Date.parse(done['finished-at'] as string)).toBeGreaterThanOrEqual(Date.parse(done['created-at']));

        const [job, ...others] = await jobs(`notification-id=${id}`);
        expect(others).toEqual([]);
        expect(job?.attributes).toMatchObject({
          'dependency-name': c.release.name,
          'target-version': c.target ?? c.release.version,
          'package-manager': c.release['package-manager'],
          ...c.job,
        });
        expect(job?.relationships).toEqual({
          repo: { data: { id: c.repo, type: 'repos' } },
          'update-config': { data: { id: c.config, type: 'update-configs' } },
          'release-notification': { data: { id, type: 'release-notifications' } },
          'update-run': { data: { id: expect.any(String), type: 'update-runs' } },
        });
        byId.set(job?.id as string, c.release.name);
      }
      expect(analytics.attributes['package-manager']).toBe('pip');

      // The listing: all three, newest first; and its filters.
      const all = await jobs('');
      expect(all.map((j) => j.id)).toEqual([...byId.keys()].sort((a, b) => Number(b) - Number(a)));
      expect((await jobs('repo-id=3102')).map((j) => j.attributes['dependency-name'])).toEqual(['stripe']);
      expect((await jobs('dependency-name=requests&page=1')).map((j) => j.relationships.repo.data.id)).toEqual(['3103']);
      expect(await jobs('dependency-name=lodash&repo-id=3102')).toEqual([]);
    });

    it('records one job for one release, however the senders spell its version (v2.33.0, 2.33.0 and 2.33 are one PEP 440 version)', async () => {
      // A tag-driven sender notifies "v2.33.0", setup.py --version "2.33.0", someone by hand "2.33": the same release of requests,
      // one the registry does not list yet (so the jobs target the notified version, unverified). The scan compares them by
      // PEP 440 (each is newer than 2.23.0), and a job is unique by that comparison, not by the string as sent.
      for (const version of ['v2.33.0', '2.33.0', '2.33']) await finished(await notify(releaseOf('requests', version, 'pip')));
      const recorded = (await jobs('repo-id=3103&dependency-name=requests')).filter((j) => j.attributes['target-version'] !== '2.32.3');
      expect(
        recorded.map((j) => j.attributes['target-version']),
        'one pull-request job per update config, dependency and version',
      ).toHaveLength(1);
    });
  });

  describe('real senders of the original (e.g. alexanderj1988/dependabot-notify)', () => {
    const url = () => `${gatewayUrl}/release_notifications/private`;

    /** Follows a notification sent without asking for the representation: by its event, to its end. */
    async function followed(name: string, version: string, packageManager: PackageManager) {
      const received = await receivedEvent(name, version);
      expect(received).toMatchObject({ name, version, packageManager });
      expect([...received.accountIds].sort()).toEqual([ACME, GLOBEX]);
      const done = await finished(received.id);
      expect(done).toMatchObject({ name, version, 'package-manager': packageManager, status: 'done', 'jobs-recorded': 0 });
      return done;
    }

    it('the Makefile curl with --fail: 204, nothing printed, exit 0 (and exit 22 on a body that is not JSON)', async () => {
      const makefile =
        'curl --silent --show-error --fail -X POST -H "Content-Type: application/json" ' +
        '-d "{\\"name\\":\\"org.activiti.cloud:activiti-cloud-dependencies\\", \\"version\\": \\"$RELEASE_VERSION\\", \\"package-manager\\": \\"maven\\"}" ' +
        '-H "Authorization: Personal $TOKEN" "$URL"';
      const env = { ...process.env, TOKEN: ALICE, URL: url() };
      const ok = await run('/bin/sh', ['-c', makefile], { env: { ...env, RELEASE_VERSION: '7.1.0' } });
      expect(ok).toEqual({ stdout: '', stderr: '' });
      expect((await followed('org.activiti.cloud:activiti-cloud-dependencies', '7.1.0', 'maven'))['configs-total']).toBe(0);

      // A version with a space around it is trimmed, not refused: 204, exit 0, notified as 7.1.1.
      const spaced = await run('/bin/sh', ['-c', makefile], { env: { ...env, RELEASE_VERSION: ' 7.1.1 ' } });
      expect(spaced).toEqual({ stdout: '', stderr: '' });
      await followed('org.activiti.cloud:activiti-cloud-dependencies', '7.1.1', 'maven');
      // A version with a quote in it breaks the JSON: --fail turns the 400 into exit 22, as the Makefile relies on.
      const refused = await run('/bin/sh', ['-c', makefile], { env: { ...env, RELEASE_VERSION: '7.1.0"' } }).catch((error) => error);
      expect(refused.code).toBe(22);
      expect(refused.stderr).toMatch(/error: 400/);
    });

    it('the GitHub Action: a body concatenated around $(python setup.py ...) with curl -d, 204 and nothing printed', async () => {
      // The action's line, with `python setup.py --name/--version` answered by a shell function; `-w` is added to see the status.
      const action = [
        'python() { case "$2" in --name) echo acme-etl ;; --version) echo 1.4.0 ;; esac; }',
        `curl -s -w '%{http_code}' -d '{"name":"'$(python setup.py --name)'", "version":"'$(python setup.py --version)'", "package-manager":"pip"}' -H "Content-Type: application/json" -H "Authorization: Personal $INPUT_GITHUB_TOKEN" -X POST "$URL"`,
      ].join('\n');
      const out = await run('/bin/sh', ['-c', action], { env: { ...process.env, INPUT_GITHUB_TOKEN: ALICE, URL: url() } });
      expect(out).toEqual({ stdout: '204', stderr: '' });
      await followed('acme-etl', '1.4.0', 'pip');
    });

    it("the semantic-release plugin's fetch: response.ok, and on a refusal a JSON body it can log", async () => {
      const notifyLikeThePlugin = (name: string, version: string | undefined, packageManager = 'npm_and_yarn') =>
        fetch(url(), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Personal ${ALICE}` },
          body: JSON.stringify({ name, version, 'package-manager': packageManager }),
        });
      const response = await notifyLikeThePlugin('@acme/design-tokens', '3.2.0');
      expect(response.ok).toBe(true);
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      await followed('@acme/design-tokens', '3.2.0', 'npm_and_yarn');

      // `yarn` is an alias of npm_and_yarn: accepted and scanned as npm_and_yarn.
      const yarn = await notifyLikeThePlugin('@acme/design-tokens', '3.2.1', 'yarn');
      expect(yarn.status).toBe(204);
      await followed('@acme/design-tokens', '3.2.1', 'npm_and_yarn');

      // No version at all (JSON.stringify leaves out undefined): refused with 400 and the envelope.
      const refused = await notifyLikeThePlugin('@acme/design-tokens', undefined);
      expect(refused.ok).toBe(false);
      expect(refused.status).toBe(400);
      expect(DependencyApiErrors.parse(await refused.json()).errors).toEqual([
        { status: 400, title: 'Bad Request', detail: 'version is required', source: { pointer: '/version' } },
      ]);
    });

    it('alexanderj1988/dependabot-notify: `result.status != 204` never throws for a good notification', async () => {
      const result = await fetch(url(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Personal ${ALICE}` },
        body: JSON.stringify({ name: 'acme-ruby-toolkit', version: '0.9.1', 'package-manager': 'bundler' }),
      });
      if (result.status !== 204) throw new Error(`unexpected status code: ${result.status}`);
      await followed('acme-ruby-toolkit', '0.9.1', 'bundler');
    });

    it('with Prefer: return=representation: 202 with the queued resource and a Location the gateway serves', async () => {
      const res = await send('POST', '/release_notifications/private', {
        json: releaseOf('acme-charts', '2.0.0', 'npm_and_yarn'),
        headers: { prefer: 'return=representation', accept: 'application/json' },
      });
      expect(res.status, res.text).toBe(202);
      expect(res.statusText).toBe('Accepted');
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.headers['preference-applied']).toBe('return=representation');
      const resource = ReleaseNotificationResource.parse(res.body.data);
      expect(res.headers.location).toBe(`/release_notifications/${resource.id}`);
      expect(resource.attributes).toMatchObject({
        name: 'acme-charts',
        version: '2.0.0',
        'package-manager': 'npm_and_yarn',
        status: 'queued',
        'configs-total': null,
        'repos-scanned': 0,
        'jobs-recorded': 0,
        'finished-at': null,
        outcomes: [],
      });
      const location = res.headers.location as string;
      await waitFor(async () => (await send('GET', location)).body?.data?.attributes?.status === 'done', 20_000);
      const read = await send('GET', location);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: resource.id, type: 'release-notifications' });
    });

    it('a notification with spaces and an alias ("  @acme/design-tokens ", "npm"): 204, scanned as npm_and_yarn', async () => {
      const res = await send('POST', '/release_notifications/private', { json: releaseOf('  @acme/design-tokens ', '3.2.2', 'npm') });
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      await followed('@acme/design-tokens', '3.2.2', 'npm_and_yarn');
    });

    it('curl --fail with an unknown package manager or a Maven name without ":": 204, exit 0, recorded rejected and never scanned', async () => {
      const curl = (body: string) =>
        run(
          '/bin/sh',
          [
            '-c',
            `curl --silent --show-error --fail -X POST -H "Content-Type: application/json" -H "Authorization: Personal $TOKEN" -d "$BODY" "$URL"`,
          ],
          {
            env: { ...process.env, TOKEN: ALICE, URL: url(), BODY: body },
          },
        );
      const received = () => events.filter((e) => e.routingKey === 'release_notification.received').length;
      const before = received();
      expect(await curl('{"name":"payroll","version":"1.0.0","package-manager":"cobol"}')).toEqual({ stdout: '', stderr: '' });
      expect(await curl('{"name":"spring-core","version":"6.1.0","package-manager":"maven"}')).toEqual({ stdout: '', stderr: '' });

      for (const [body, reason] of [
        [releaseOf('payroll', '1.0.0', 'cobol'), /unknown package manager "cobol"/],
        [releaseOf('spring-core', '6.1.0', 'maven'), /groupId:artifactId/],
      ] as const) {
        const res = await send('POST', '/release_notifications/private', { json: body, headers: { prefer: 'return=representation' } });
        expect(res.status, res.text).toBe(202);
        const { id } = ReleaseNotificationResource.parse(res.body.data);
        const read = await send('GET', `/release_notifications/${id}`);
        expect(read.status).toBe(200);
        expect(ReleaseNotificationResource.parse(read.body.data).attributes).toMatchObject({
          'package-manager': body['package-manager'],
          status: 'rejected',
          reason: expect.stringMatching(reason),
          'configs-total': null,
          'jobs-recorded': 0,
        });
        expect(await jobs(`notification-id=${id}`)).toEqual([]);
      }
      // A good notification's event after them: the rejected ones published nothing before it.
      await send('POST', '/release_notifications/private', { json: releaseOf('left-pad', '1.3.3', 'npm_and_yarn') });
      await receivedEvent('left-pad', '1.3.3');
      expect(received()).toBe(before + 1);
    });
  });

  describe("changes made with config-svc's API change what the next notification scans", () => {
    it('a PATCH of target-branch and automerge, then a DELETE, each reach the worker', async () => {
      const id = flow.storefront;
      const storefrontOutcome = (n: Notification) => n.outcomes.find((o) => o['update-config-id'] === id);

      // Another branch, whose manifest is then removed: the worker now reads web-storefront's manifest there, and finds none.
      const patched = await send('PATCH', `/update_configs/${id}`, {
        json: { 'target-branch': 'release-9', 'automerge-rule-runtime-deps': 'semver:patch' },
      });
      expect(patched.status, patched.text).toBe(200);
      await removeFile('acme/web-storefront', 'release-9', 'package.json');
      const onBranch = await notifyAndFinish(releaseOf(PROBE, '1.0.1', 'npm_and_yarn'));
      expect(storefrontOutcome(onBranch.done)).toEqual({
        'repo-id': '3101',
        'update-config-id': id,
        outcome: 'failed',
        reason: 'no package.json in / on branch release-9',
      });

      // Back to the default branch, the automerge rule of the first PATCH kept: a patch is merged automatically.
      const reset = await send('PATCH', `/update_configs/${id}`, { json: { 'target-branch': null } });
      expect(reset.status, reset.text).toBe(200);
      expect(reset.body.data.attributes).toMatchObject({ 'target-branch': null, 'automerge-rule-runtime-deps': 'semver:patch' });
      const onMain = await notifyAndFinish(releaseOf('lodash', '4.17.22', 'npm_and_yarn'));
      expect(onMain.done['jobs-recorded']).toBe(1);
      const [job, ...others] = await jobs(`notification-id=${onMain.id}`);
      expect(others).toEqual([]);
      expect(job?.attributes).toMatchObject({
        'version-in-use': '4.17.15',
        'target-version': '4.17.22',
        'update-kind': 'patch',
        automerge: true,
        'target-branch': 'main',
      });
      expect(job?.relationships['update-config'].data.id).toBe(id);

      // Deleted: the next lodash notification no longer counts it, and records nothing for web-storefront.
      const deleted = await send('DELETE', `/update_configs/${id}`);
      expect(deleted.status).toBe(204);
      expect(deleted.text).toBe('');
      const after = await notifyAndFinish(releaseOf('lodash', '4.17.30', 'npm_and_yarn'));
      expect(after.done).toMatchObject({ 'configs-total': 1, 'repos-scanned': 1, 'jobs-recorded': 0, 'repos-failed': 1 });
      expect(after.done.outcomes.map((o) => o['repo-id'])).toEqual(['3104']);
      expect(await jobs(`notification-id=${after.id}`)).toEqual([]);
      expect(await jobs(`repo-id=3101&notification-id=${after.id}`)).toEqual([]);
      // The jobs recorded before the deletion stay listed, and none after it.
      const kept = (await jobs('repo-id=3101')).map((j) => j.attributes['target-version']);
      expect(kept).toEqual(['4.17.22', '4.17.21']);

      // config-svc published exactly these changes for the config.
      await waitFor(async () => configEvents(id).length >= 4);
      expect(configEvents(id).map((e) => e.routingKey)).toEqual([
        'update_config.created',
        'update_config.updated',
        'update_config.updated',
        'update_config.deleted',
      ]);
    });
  });

  describe('a notification sees the config created just before it', () => {
    it('100 times: create a config, notify at once, and the scan covers exactly it; deleted, the next one does not', async () => {
      const rounds = 100;
      let previous: string | undefined;
      for (let round = 0; round < rounds; round++) {
        // acme/acme-cli, cargo: no other config of this file uses that package manager.
        const created = await createConfig(configBody(3104, ACME, 'cargo', { directory: `/crate-${round}` }), ALICE, ` (round ${round})`);
        const { done } = await notifyAndFinish(releaseOf(PROBE, `3.0.${round}`, 'cargo'));
        expect(
          { round, total: done['configs-total'], scanned: done.outcomes.map((o) => o['update-config-id']) },
          `round ${round}: the notification must scan the config created just before it, and not the one deleted before it (${previous})`,
        ).toEqual({ round, total: 1, scanned: [created.id] });
        const deleted = await send('DELETE', `/update_configs/${created.id}`);
        expect(deleted.status, deleted.text).toBe(204);
        previous = created.id;
      }
    }, 180_000);
  });

  describe('visibility through the gateway', () => {
    it("bob cannot see alice's notification or jobs, and his own notification scans nothing of acme", async () => {
      const hidden = await send('GET', `/release_notifications/${flow.lodash}`, { token: BOB });
      expectEnvelope(hidden, 404, new RegExp(`No release notification ${flow.lodash}`));
      expect(hidden.text).not.toMatch(/lodash|acme|web-storefront/);
      expect(await jobs('', BOB)).toEqual([]);
      expect(await jobs('dependency-name=lodash', BOB)).toEqual([]);
      expect(await jobs('repo-id=3101', BOB)).toEqual([]);
      expect(await jobs(`notification-id=${flow.lodash}`, BOB)).toEqual([]);

      const bobs = await notify(releaseOf('lodash', '4.17.21', 'npm_and_yarn'), BOB);
      expect(await finished(bobs, BOB)).toMatchObject({ status: 'done', 'configs-total': 0, 'repos-scanned': 0, 'jobs-recorded': 0 });
      expect(await jobs(`notification-id=${bobs}`, BOB)).toEqual([]);
      // ...and alice does not see bob's notification either (initech is not hers, nor is the notification).
      expectEnvelope(await send('GET', `/release_notifications/${bobs}`), 404);
    });

    it("bob's own organisation: his job is his, and alice's notification of the same release does not scan initech", async () => {
      const officeSpace = await createConfig(configBody(3303, INITECH, 'bundler'), BOB);

      const bobs = await notify(releaseOf('nokogiri', '1.10.10', 'bundler'), BOB);
      expect(await finished(bobs, BOB)).toMatchObject({ 'configs-total': 1, 'jobs-recorded': 1 });
      const [job, ...others] = await jobs('', BOB);
      expect(others).toEqual([]);
      expect(job?.attributes).toMatchObject({
        'dependency-name': 'nokogiri',
        'version-in-use': '1.10.9',
        'target-version': '1.10.10',
        'update-kind': 'patch',
        'target-branch': 'main',
      });
      expect(job?.relationships['update-config'].data.id).toBe(officeSpace.id);

      expect(await jobs('dependency-name=nokogiri')).toEqual([]);
      const alices = await notify(releaseOf('nokogiri', '1.10.10', 'bundler'));
      // billing-api only (it does not use nokogiri); initech's office-space is not scanned for alice.
      expect(await finished(alices)).toMatchObject({ 'configs-total': 1, 'repos-scanned': 1, 'jobs-recorded': 0, outcomes: [] });
      expectEnvelope(await send('GET', `/release_notifications/${alices}`, { token: BOB }), 404);
    });
  });

  describe('bad input never gets a 5xx through the gateway', () => {
    const valid = releaseOf('lodash', '4.17.21', 'npm_and_yarn');
    const notifyWith = (attributes: Record<string, unknown>) => ({ json: { ...valid, ...attributes } });
    const without = (field: string) => ({ json: Object.fromEntries(Object.entries(valid).filter(([key]) => key !== field)) });
    const notifyPath = 'POST /release_notifications/private';
    const missing = '00000000-0000-4000-8000-000000000000';
    const receivedCount = () => events.filter((e) => e.routingKey === 'release_notification.received').length;
    let receivedBefore = 0;
    beforeAll(() => {
      receivedBefore = receivedCount();
    });

    interface Check {
      /** Matched against the errors' details joined. */
      detail?: RegExp;
      /** The `source.pointer` or `source.parameter` of every error, in order. */
      sources?: string[];
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
    const bad = (name: string, request: string, status: number, options?: SendOptions, check: Check = {}): BadRequest => {
      const [method = '', path = ''] = request.split(' ');
      return { name, method, path, status, ...(options ? { options } : {}), ...check };
    };
    const table: BadRequest[] = [
      // the notification body: missing fields, wrong types, unknown values, empty strings
      bad('name missing', notifyPath, 400, without('name'), { sources: ['/name'], detail: /name is required/ }),
      bad('version missing', notifyPath, 400, without('version'), { sources: ['/version'], detail: /version is required/ }),
      bad('package-manager missing', notifyPath, 400, without('package-manager'), { sources: ['/package-manager'] }),
      bad('an empty object', notifyPath, 400, { json: {} }, { sources: ['/name', '/version', '/package-manager'] }),
      bad('no body at all', notifyPath, 400, { contentType: null }, { sources: ['/name', '/version', '/package-manager'] }),
      bad('name a number', notifyPath, 400, notifyWith({ name: 42 }), { sources: ['/name'], detail: /name must be a string/ }),
      bad('version a number', notifyPath, 400, notifyWith({ version: 4.17 }), { sources: ['/version'], detail: /must be a string/ }),
      bad('version an array', notifyPath, 400, notifyWith({ version: ['4.17.21'] }), { sources: ['/version'] }),
      bad('package-manager null', notifyPath, 400, notifyWith({ 'package-manager': null }), { sources: ['/package-manager'] }),
      // only the shape: three strings; an empty name or an unknown package manager is recorded rejected (below)
      bad(
        'everything wrong at once',
        notifyPath,
        400,
        { json: { name: '', version: 7, 'package-manager': 'npm' } },
        { sources: ['/version'] },
      ),
      bad('package-manager a number', notifyPath, 400, notifyWith({ 'package-manager': 1 }), { sources: ['/package-manager'] }),
      // bodies that are not a JSON object, and sizes
      bad('a JSON array', notifyPath, 400, { body: JSON.stringify([valid]) }, { detail: /JSON object/ }),
      bad('JSON null', notifyPath, 400, { body: 'null' }),
      bad('a JSON string', notifyPath, 400, { body: '"lodash"' }),
      bad('truncated JSON', notifyPath, 400, { body: '{"name":"lodash",' }, { detail: /not valid JSON/ }),
      bad(
        'a trailing comma',
        notifyPath,
        400,
        { body: '{"name":"lodash","version":"4.17.21","package-manager":"npm_and_yarn",}' },
        { detail: /not valid JSON/ },
      ),
      bad(
        'form-encoded',
        notifyPath,
        400,
        { body: 'name=lodash&version=4.17.21', contentType: 'application/x-www-form-urlencoded' },
        {
          detail: /not valid JSON/,
        },
      ),
      bad('body over 16 KiB', notifyPath, 413, { json: { ...valid, padding: 'x'.repeat(17 * 1024) } }, { detail: /too large/ }),
      bad('latin1 charset', notifyPath, 415, { body: JSON.stringify(valid), contentType: 'application/json; charset=latin1' }),
      bad('unknown content encoding', notifyPath, 415, { body: JSON.stringify(valid), headers: { 'content-encoding': 'compress' } }),
      // authentication
      bad('a token the code host rejects', notifyPath, 401, { json: valid, token: 'not-a-real-token' }, { detail: /Bad credentials/ }),
      bad(
        'Basic credentials',
        notifyPath,
        401,
        { json: valid, headers: { authorization: 'Basic YWxpY2U6cHc=' } },
        { detail: /Personal <token>/ },
      ),
      // the notification path
      bad('id not a UUID', 'GET /release_notifications/not-a-uuid', 400, undefined, { sources: ['id'], detail: /UUID/ }),
      bad('id a number', 'GET /release_notifications/42', 400, undefined, { sources: ['id'] }),
      bad('id a UUID with a trailing character', `GET /release_notifications/${missing}0`, 400, undefined, { sources: ['id'] }),
      bad('id of no notification', `GET /release_notifications/${missing}`, 404, undefined, { detail: /No release notification/ }),
      bad('GET on the notify path', 'GET /release_notifications/private', 405, undefined, { allow: 'POST' }),
      bad('PUT on the notify path', 'PUT /release_notifications/private', 405, { json: valid }, { allow: 'POST' }),
      bad('DELETE a notification', `DELETE /release_notifications/${missing}`, 405, undefined, { allow: 'GET, HEAD' }),
      // job queries
      bad('page 0', 'GET /pull_request_jobs?page=0', 400, undefined, { sources: ['page'] }),
      bad('page negative', 'GET /pull_request_jobs?page=-1', 400, undefined, { sources: ['page'] }),
      bad('page a word', 'GET /pull_request_jobs?page=two', 400, undefined, { sources: ['page'] }),
      bad('page of ten digits', 'GET /pull_request_jobs?page=1000000000', 400, undefined, { sources: ['page'] }),
      bad('page twice', 'GET /pull_request_jobs?page=1&page=2', 400, undefined, { sources: ['page'], detail: /given once/ }),
      bad('repo-id a name', 'GET /pull_request_jobs?repo-id=web-storefront', 400, undefined, { sources: ['repo-id'] }),
      bad('notification-id not a UUID', 'GET /pull_request_jobs?notification-id=42', 400, undefined, { sources: ['notification-id'] }),
      bad('dependency-name empty', 'GET /pull_request_jobs?dependency-name=', 400, undefined, { sources: ['dependency-name'] }),
      bad('dependency-name twice', 'GET /pull_request_jobs?dependency-name=a&dependency-name=b', 400, undefined, {
        sources: ['dependency-name'],
      }),
      bad('POST on the job list', 'POST /pull_request_jobs', 405, { json: {} }, { allow: 'GET, HEAD' }),
      bad('jobs without a token', 'GET /pull_request_jobs', 403, { token: null }, { detail: new RegExp(NO_TOKEN_DETAIL) }),
    ];

    it('has a table of at least 15 malformed requests, each named once', () => {
      expect(table.length).toBeGreaterThanOrEqual(15);
      expect(new Set(table.map((row) => row.name)).size).toBe(table.length);
    });

    it.each(table)('$name: $method $path → $status', async (row) => {
      const res = await send(row.method, row.path, row.options);
      const doc = expectEnvelope(res, row.status, row.detail);
      if (row.sources) expect(doc.errors.map((e) => e.source?.pointer ?? e.source?.parameter)).toEqual(row.sources);
      if (row.allow) expect(res.headers.allow).toBe(row.allow);
    });

    // Well-formed but unusable: 204 as the original answered (dependabot/api-docs#18), recorded `rejected` with the reason.
    const rejected: { name: string; body: Record<string, unknown>; reason: RegExp }[] = [
      { name: 'empty name', body: { ...valid, name: '' }, reason: /name must not be empty/ },
      { name: 'empty version', body: { ...valid, version: ' ' }, reason: /version must not be empty/ },
      { name: 'empty package-manager', body: { ...valid, 'package-manager': '' }, reason: /package-manager must not be empty/ },
      { name: 'unknown package-manager', body: { ...valid, 'package-manager': 'cobol' }, reason: /unknown package manager "cobol"/ },
      { name: 'name with a newline', body: { ...valid, name: 'lodash\nrm -rf' }, reason: /control characters/ },
      { name: 'name of 301 characters', body: { ...valid, name: 'n'.repeat(301) }, reason: /at most 300/ },
      { name: 'version of 101 characters', body: { ...valid, version: '1'.repeat(101) }, reason: /at most 100/ },
      { name: 'npm name with a space', body: { ...valid, name: 'lodash utils' }, reason: /npm package name/ },
    ];
    it.each(rejected)('$name: 204, recorded rejected with the reason', async ({ body, reason }) => {
      expect((await send('POST', '/release_notifications/private', { json: body })).status).toBe(204);
      const res = await send('POST', '/release_notifications/private', { json: body, headers: { prefer: 'return=representation' } });
      expect(res.status, res.text).toBe(202);
      const { id } = ReleaseNotificationResource.parse(res.body.data);
      const read = await send('GET', `/release_notifications/${id}`);
      expect(ReleaseNotificationResource.parse(read.body.data).attributes).toMatchObject({
        status: 'rejected',
        reason: expect.stringMatching(reason),
      });
    });

    it("answers a notification without Authorization with exactly the original's 403 body", async () => {
      const res = await send('POST', '/release_notifications/private', { json: valid, token: null });
      expect(res.status).toBe(403);
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.text).toBe(`{"errors":[{"status":403,"title":"Forbidden","detail":"${NO_TOKEN_DETAIL}"}]}`);
    });

    it('refuses a body over the gateway limit (1 MiB) with 413 before it reaches release-svc', async () => {
      const res = await send('POST', '/release_notifications/private', { json: { ...valid, padding: 'x'.repeat(1_100_000) } });
      expect(res.status).toBe(413);
      // The gateway answers in the dependency API's own error envelope on its paths (services/gateway/README.md).
      expect(res.headers['content-type']).toBe(JSON_UTF8);
      expect(res.body).toEqual({
        errors: [{ status: 413, title: 'Payload Too Large', detail: 'Request body is larger than 1048576 bytes' }],
      });
    });

    it('published nothing for any of them (the rejected ones are recorded, never scanned), and left every process up', async () => {
      for (const running of [emulator, config, release, worker, gateway]) expect(running.child.exitCode).toBeNull();
      expect((await send('GET', '/readyz', { token: null })).status).toBe(200);
      // A good notification after the table: once its event is here, the outbox had nothing else to publish before it.
      const sentinel = await send('POST', '/release_notifications/private', { json: releaseOf('left-pad', '1.3.0', 'npm_and_yarn') });
      expect(sentinel.status).toBe(204);
      await receivedEvent('left-pad', '1.3.0');
      expect(receivedCount()).toBe(receivedBefore + 1);
    });
  });

  describe('events', () => {
    it('publishes one pull_request_job.created per recorded job, with data matching the job as listed', async () => {
      const listed = [...(await jobs('')), ...(await jobs('', BOB))];
      expect(listed.length).toBeGreaterThanOrEqual(5);
      const published = () => events.filter((e) => e.routingKey === 'pull_request_job.created');
      await waitFor(async () => published().length >= listed.length, 15_000);
      expect(published()).toHaveLength(listed.length);

      for (const job of listed) {
        const matching = published().filter((e) => (e.event.data as { id: number }).id === Number(job.id));
        expect(matching, `job ${job.id}`).toHaveLength(1);
        const [event] = matching as [TappedDelivery];
        const envelope = EventEnvelope.parse(event.event);
        expect(envelope).toMatchObject({ type: 'pull_request_job.created', source: 'release-svc' });
        expect(event.messageId).toBe(envelope.id);
        const a = job.attributes;
        expect(PullRequestJobCreated.parse(envelope.data)).toEqual({
          id: Number(job.id),
          notificationId: job.relationships['release-notification'].data?.id ?? null,
          updateRunId: job.relationships['update-run'].data?.id ?? null,
          unverified: a.unverified,
          updateConfigId: Number(job.relationships['update-config'].data.id),
          repoId: Number(job.relationships.repo.data.id),
          accountId: job.relationships.repo.data.id === '3303' ? INITECH : ACME,
          packageManager: a['package-manager'],
          dependencyName: a['dependency-name'],
          dependencyType: a['dependency-type'],
          versionInUse: a['version-in-use'],
          targetVersion: a['target-version'],
          updateKind: a['update-kind'],
          automerge: a.automerge,
          securityFix: a['security-fix'],
          targetBranch: a['target-branch'],
          directory: a.directory,
          groupName: a.group?.name ?? null,
        });
      }
      expect(new Set(published().map((e) => e.event.id)).size).toBe(listed.length);
    });

    it("never puts a caller's or the worker's token on the bus", () => {
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(JSON.stringify(event.event)).not.toMatch(/demo-token/);
    });
  });
});
