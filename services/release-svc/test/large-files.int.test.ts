import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ReleaseNotificationResource } from '@switchyard/contracts';
import { loadDemoSeed, type SeedInput, startGitHubEmulator } from '@switchyard/github-emulator';
import { emulatorRegistryEnv, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger, type Listening, openDatabase } from '@switchyard/service-kit';
import {
  createTestDatabase,
  freePort,
  publishEvents,
  type RunningProcess,
  request,
  startProcess,
  waitFor,
} from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadReleaseConfig } from '../src/config.ts';
import { RELEASE_CONSUMERS } from '../src/consumers.ts';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../src/db/schema.ts';
import { type RunningReleaseApi, startReleaseApi } from '../src/start.ts';
import { orgState, repoState, updateConfigState } from './config-state.ts';
import { deleteTopology, parkedMessages, workerQueues } from './faults/amqp.ts';
import { ALICE, BOT } from './harness.ts';

const workerMain = new URL('../src/worker-main.ts', import.meta.url).pathname;

const MiB = 1024 * 1024;
/** The size of each generated lockfile. */
const LOCKFILE_BYTES = 150 * MiB;
/** How much the worker's peak resident memory may grow over its baseline while the 150 MiB files are scanned. */
const ALLOWED_GROWTH = 60 * MiB;

const ACME = 2001;
const REPO = { id: 3101, fullName: 'acme/web-storefront' };
/** Directories of acme/web-storefront with ordinary files, and with a 150 MiB `package-lock.json`. */
const SMALL_DIRECTORIES = ['/ok-a', '/ok-b', '/ok-c'];
const HUGE_DIRECTORIES = ['/web', '/api', '/admin'];

/**
 * The demo seed with acme/web-storefront's `package.json` and `package-lock.json` copied into three more directories,
 * and, in three others, its `package.json` beside a generated 150 MiB `package-lock.json` (served lazily).
 */
function seedWithHugeLockfiles(): SeedInput {
  const demo = loadDemoSeed();
  return {
    ...demo,
    repos: demo.repos.map((repo) => {
      if (repo.id !== REPO.id) return repo;
      const main = { ...(repo.files.main as Record<string, string>) };
      const files: Record<string, string | { size: number; pattern: string }> = { ...main };
      for (const dir of SMALL_DIRECTORIES) {
        files[`${dir.slice(1)}/package.json`] = main['package.json'] ?? '';
        files[`${dir.slice(1)}/package-lock.json`] = main['package-lock.json'] ?? '';
      }
      for (const dir of HUGE_DIRECTORIES) {
        files[`${dir.slice(1)}/package.json`] = main['package.json'] ?? '';
        files[`${dir.slice(1)}/package-lock.json`] = { size: LOCKFILE_BYTES, pattern: '    "node_modules/x": { "version": "1.0.0" },\n' };
      }
      return { ...repo, files: { ...repo.files, main: files } };
    }),
  };
}

/** The peak resident set size of process `pid` so far (`VmHWM` of `/proc/<pid>/status`), in bytes. */
function peakRss(pid: number): number {
  const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmHWM for process ${pid}`);
  return Number(match[1]) * 1024;
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

describe("release-svc's worker process against 150 MiB lockfiles", () => {
  const cleanup = new AsyncDisposableStack();
  const emulatorRequests: string[] = [];
  let api: RunningReleaseApi;
  let worker: RunningProcess;
  let workerHealth: string;
  let db: ReturnType<typeof openDatabase<ReleaseDatabase>>['db'];
  const amqpUrl = () => inject('amqpUrl');
  const suffix = `large_files.${randomBytes(4).toString('hex')}`;
  const exchange = `test.${suffix}`;
  const prefix = `test.${suffix}`;

  beforeAll(async () => {
    const logger = createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent');
    const emulator: Listening = await startGitHubEmulator({ seed: seedWithHugeLockfiles(), logger });
    cleanup.defer(() => emulator.close(100));
    // Every request the emulator gets, with its media type (the raw one would mean a file was fetched whole).
    emulator.server.prependListener('request', (req) => {
      emulatorRequests.push(`${req.url} ${req.headers.accept ?? ''}`);
    });
    const database = await createTestDatabase(inject('databaseUrl'), 'large_files');
    cleanup.defer(() => database.drop());
    cleanup.defer(() => deleteTopology(amqpUrl(), exchange, prefix));

    // A registry that knows no package: jobs target the notified version (`unverified`); this test is about file sizes.
    const registry = await startRegistryEmulator({ seed: { packages: [], credentials: [] }, logger });
    cleanup.use(registry);
    const env = {
      ...emulatorRegistryEnv(registry.url),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl(),
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: prefix,
      // This stack plays config-svc's state events, not its checkpoints: plan each notification on arrival.
      CONFIG_CHECKPOINT_TIMEOUT_MS: '0',
      CODE_HOST_API_URL: emulator.url,
      DB_POOL_SIZE: '2',
    };
    api = await startReleaseApi(loadReleaseConfig({ ...env, PORT: '0' }), logger);
    cleanup.defer(() => api.close());
    const port = await freePort();
    workerHealth = `http://127.0.0.1:${port}/healthz`;
    worker = await startProcess(
      workerMain,
      { ...env, LOG_LEVEL: 'warn', WORKER_PORT: String(port), CODE_HOST_TOKEN: BOT, SCAN_BATCH_SIZE: '2' },
      workerHealth,
    );
    cleanup.defer(async () => {
      await worker.stop('SIGTERM', 5_000);
    });
    const handle = openDatabase<ReleaseDatabase>({ kind: 'postgres', url: database.url, poolSize: 1 });
    cleanup.use(handle);
    db = handle.db.withSchema(RELEASE_SCHEMA);
    await waitFor(async () => (await fetch(`${api.url}/readyz`)).status === 200, 20_000);
  }, 90_000);
  afterAll(() => cleanup.disposeAsync(), 30_000);

  /** Publishes config-svc's events for update configs of acme/web-storefront, one per directory, and waits for the read model. */
  async function configure(first: number, directories: string[]): Promise<number[]> {
    const ids = directories.map((_, i) => first + i);
    await publishEvents(amqpUrl(), exchange, 'config-svc', [
      { type: 'account.created', data: orgState(ACME, 'acme') },
      { type: 'repo.created', data: repoState({ id: REPO.id, accountId: ACME, fullName: REPO.fullName }) },
      ...directories.map((directory, i) => ({
        type: 'update_config.created',
        data: updateConfigState({ id: first + i, repoId: REPO.id, accountId: ACME, directory }),
      })),
    ]);
    await waitFor(async () => {
      const rows = await db.selectFrom('update_config').select('id').where('id', 'in', ids).execute();
      return rows.length === ids.length;
    }, 20_000);
    return ids;
  }

  /** Sends a release notification of lodash `version` as alice and waits until its scan is done. */
  async function notifyAndWait(version: string): Promise<ReleaseNotificationResource> {
    const headers = { authorization: `Personal ${ALICE}`, prefer: 'return=representation' };
    const sent = await request(api.url, 'POST', '/release_notifications/private', {
      headers,
      body: { name: 'lodash', version, 'package-manager': 'npm_and_yarn' },
    });
    expect(sent.status).toBe(202);
    return waitFor(async () => {
      const res = await request(api.url, 'GET', `/release_notifications/${sent.body.data.id}`, { headers });
      return res.body?.data?.attributes?.status === 'done' ? ReleaseNotificationResource.parse(res.body.data) : undefined;
    }, 60_000);
  }

  /** Messages waiting in the worker's retry and parking queues. */
  async function waitingForRetry(): Promise<number> {
    const connection = await amqplib.connect(amqpUrl());
    connection.on('error', () => {});
    try {
      const channel = await connection.createChannel();
      let waiting = 0;
      for (const queue of workerQueues(prefix, RELEASE_CONSUMERS).filter((name) => name.includes('.retry.'))) {
        waiting += (await channel.checkQueue(queue)).messageCount;
      }
      return waiting;
    } finally {
      await connection.close().catch(() => {});
    }
  }

  it('fails the configs with a 150 MiB lockfile, naming the file and the limit, scans the others, and stays within its memory', {
    timeout: 120_000,
  }, async ({ annotate }) => {
    const pid = worker.child.pid as number;
    const atStart = peakRss(pid);

    // Baseline: the same work on ordinary files only.
    const small = await configure(1, SMALL_DIRECTORIES);
    const baselineRun = await notifyAndWait('4.17.20');
    expect(baselineRun.attributes).toMatchObject({ 'configs-total': 3, 'jobs-recorded': 3, outcomes: [] });
    const baseline = peakRss(pid);

    const huge = await configure(11, HUGE_DIRECTORIES);
    const before = emulatorRequests.length;
    const { id, attributes: done } = await notifyAndWait('4.17.21');
    const peak = peakRss(pid);
    await annotate(
      `release worker VmHWM: ${mib(atStart)} after start, ${mib(baseline)} after scanning ordinary files (baseline), ` +
        `${mib(peak)} after scanning 3 directories with ${mib(LOCKFILE_BYTES)} lockfiles (+${mib(peak - baseline)})`,
    );

    // The notification shows each failed config with its reason; the others were scanned and recorded their jobs.
    expect(done.outcomes).toEqual(
      HUGE_DIRECTORIES.map((directory, i) => ({
        'repo-id': String(REPO.id),
        'update-config-id': String(huge[i]),
        outcome: 'failed',
        reason: `package-lock.json in ${directory} is 150.0 MiB, over the 5.0 MiB limit`,
      })),
    );
    expect(done).toMatchObject({ 'configs-total': 6, 'jobs-recorded': 3 });
    const results = await db
      .selectFrom('scan_result')
      .select(['update_config_id', 'outcome', 'reason'])
      .where('notification_id', '=', id)
      .where('update_config_id', 'in', small)
      .orderBy('update_config_id')
      .execute();
    expect(results.map((r) => [r.update_config_id, r.outcome, r.reason])).toEqual(
      small.map((id) => [id, 'job-recorded', expect.stringMatching(/^4\.17\.15 → 4\.17\.21 \(patch\).*; unverified/)]),
    );

    // The batch's files were sized in GraphQL first (the read of many repositories at once: no listing), and those
    // sizes kept every 150 MiB lockfile from being asked for at all (neither in the texts' query, whose answer would be
    // over the limit and read alone, nor by path, nor raw), and no redelivery asked again.
    const during = emulatorRequests.slice(before);
    expect(during.filter((line) => line.startsWith('/graphql'))).not.toEqual([]);
    expect(during.filter((line) => line.startsWith(`/repos/${REPO.fullName}/contents`))).toEqual([]);
    expect(during.filter((line) => /(web|api|admin)(%2F|\/)package-lock\.json/.test(line))).toEqual([]);
    expect(during.filter((line) => /vnd\.github(\.v3)?\.raw/.test(line))).toEqual([]);
    expect(await waitingForRetry()).toBe(0);
    expect(Object.values(await parkedMessages(amqpUrl(), prefix))).toEqual(RELEASE_CONSUMERS.map(() => 0));

    // The worker process lives on, and its peak memory barely moved.
    expect(worker.child.exitCode).toBeNull();
    expect((await fetch(workerHealth)).status).toBe(200);
    expect(peak - baseline, `VmHWM grew from ${mib(baseline)} to ${mib(peak)}`).toBeLessThan(ALLOWED_GROWTH);
  });
});
