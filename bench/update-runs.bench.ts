/**
 * `node bench/update-runs.bench.ts [--configs N] [--deps M] [--packages P]`: how fast release-svc's worker carries out
 * update runs (every direct dependency of a config checked against its registry, jobs recorded), and how many registry
 * requests a run costs, first with a cold registry cache and then with a warm one.
 *
 * It writes a registry emulator seed of P npm packages (`bench-dep-001`…, default 200), each with the versions
 * {@link VERSIONS}, and a GitHub emulator seed: org `bench-org` (id 7100) with N generated repos (default 1,000, ids from
 * 710000), each with a package.json and a package-lock.json (lockfileVersion 3) on `main` that use M of those packages
 * (default 20: three quarters runtime, the rest development), drawn per repo from a fixed pseudo-random sequence, each
 * at one of its versions (the newest in one case of six: up to date; otherwise a job is due), and the worker's bot
 * `bench-bot` (token `bench-bot-token`), member of the org with read access. The GitHub emulator runs as its own
 * process (LOG_LEVEL=error); the registry emulator runs in this process behind a plain `node:http` server that counts
 * the requests reaching it under `/npm/` and their statuses (200: a full download, 304: a conditional request
 * answered Not Modified), without changing what it answers.
 *
 * Then, on a new database, its own exchange `bench.update-runs.<random>` and QUEUE_PREFIX: one release worker process
 * (LOG_LEVEL=warn; it migrates the database; its scheduler and registry watch are set to an hour and a day so that they
 * start no run). The benchmark plays config-svc: it publishes the org's `account.created` (config-svc's defaults, so
 * `limit-initial-update-runs` is on: a config's first run records at most 5 jobs, the next run takes the others) and
 * each repo's `repo.created` and `update_config.created` (npm_and_yarn, directory `/`), and waits until the worker's
 * read model holds them. Two passes follow, each timed from the start of one transaction that records a `manual` run
 * of every config with its `update_run.requested` event (release-svc's `requestRun`, as "bump now" does) until every
 * run is `done` or `failed` (the database polled every 200 ms):
 * - pass 1: the worker's registry cache is cold (each package downloaded once, or a few times when runs ask for it at
 *   the same moment; every later request is conditional);
 * - pass 2: the same configs again: every request should be answered 304, with no full download.
 * It prints per pass the runs per second, the dependencies checked per second, the registry requests per run, the 304
 * share and the full downloads, and the jobs recorded. Checks: every run `done` with all its dependencies decided and
 * none in error, and no full download in pass 2; exits 1 when one failed.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may CREATE
 * DATABASE), BENCH_AMQP_URL (amqp://guest:guest@127.0.0.1:5672), the worker's BENCH_UPDATE_RUN_CONCURRENCY,
 * BENCH_WORKER_PREFETCH and BENCH_DB_POOL_SIZE (release-svc's defaults when unset), BENCH_TIMEOUT seconds a pass may
 * take (300).
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { generateRepos, parseSeed, type SeedInput } from '@switchyard/github-emulator';
import { createRegistryEmulator, emulatorRegistryEnv, type SeedInput as RegistrySeedInput } from '@switchyard/registry-emulator';
import { createLogger, openDatabase } from '@switchyard/service-kit';
import { createTestDatabase, freePort, type RunningProcess } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import pg from 'pg';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../services/release-svc/src/db/schema.ts';
import { requestRun } from '../services/release-svc/src/runs/run-request.service.ts';
import { observedServer } from './observed-server.ts';
import {
  type Cleanup,
  deleteReleaseTopology,
  finishBenchmark,
  npmManifests,
  publishAll,
  readModelEvents,
  SCRIPTS,
  scriptStarter,
  startWorker,
  waitForReadModel,
} from './release-stack.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const timeoutSeconds = Number(process.env.BENCH_TIMEOUT ?? 300);

const { values: flags } = parseArgs({
  options: {
    configs: { type: 'string', default: '1000' },
    deps: { type: 'string', default: '20' },
    packages: { type: 'string', default: '200' },
  },
});
const positive = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return value;
};
const CONFIGS = positive('configs', flags.configs);
const DEPS = positive('deps', flags.deps);
const PACKAGES = positive('packages', flags.packages);
if (DEPS > PACKAGES) throw new Error(`--deps ${DEPS} is more than the --packages ${PACKAGES} a repo draws from`);

const ORG = { id: 7100, login: 'bench-org' };
const BOT = { id: 7102, login: 'bench-bot', token: 'bench-bot-token' };
const FIRST_REPO_ID = 710_000;
/** Every package's versions, oldest first, each released a month after the previous one. */
const VERSIONS = ['1.0.0', '1.1.0', '1.2.0', '1.2.1', '2.0.0', '2.1.0'] as const;

/** The worker's tuning (release-svc's defaults in src/config.ts when unset). */
const tuning = {
  UPDATE_RUN_CONCURRENCY: process.env.BENCH_UPDATE_RUN_CONCURRENCY ?? '8',
  WORKER_PREFETCH: process.env.BENCH_WORKER_PREFETCH ?? '4',
  DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE ?? '10',
};

const failures: string[] = [];
function check(ok: boolean, message: string): void {
  if (!ok) failures.push(message);
}

// ---------------------------------------------------------------------------------------------------------------
// The seeds.

const packageName = (index: number) => `bench-dep-${String(index + 1).padStart(3, '0')}`;

/** The registry emulator's seed: {@link PACKAGES} public npm packages with the {@link VERSIONS}. */
function registrySeed(): RegistrySeedInput {
  return {
    packages: Array.from({ length: PACKAGES }, (_, index) => ({
      packageManager: 'npm_and_yarn' as const,
      name: packageName(index),
      versions: VERSIONS.map((version, v) => ({ version, releasedAt: new Date(Date.UTC(2025, v, 1 + (index % 28))).toISOString() })),
    })),
    credentials: [],
  };
}

/** mulberry32: a small deterministic generator of numbers in [0, 1), so every run of the benchmark seeds the same repos. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** package.json and package-lock.json (lockfileVersion 3) of repo `index`: {@link DEPS} packages at their drawn versions. */
function repoManifests(name: string, index: number): Record<string, string> {
  const next = random(index + 1);
  const chosen = new Set<number>();
  while (chosen.size < DEPS) chosen.add(Math.floor(next() * PACKAGES));
  const runtime: Record<string, string> = {};
  const development: Record<string, string> = {};
  const runtimeCount = Math.ceil((DEPS * 3) / 4);
  [...chosen].forEach((pkg, position) => {
    const version = VERSIONS[Math.floor(next() * VERSIONS.length)] ?? '1.0.0';
    (position < runtimeCount ? runtime : development)[packageName(pkg)] = version;
  });
  return npmManifests(name, runtime, development);
}

/** The GitHub emulator's seed: the org's {@link CONFIGS} repos with their manifests, and the worker's bot. */
function githubSeed(): SeedInput {
  return {
    users: [{ id: BOT.id, login: BOT.login, token: BOT.token, name: "Bench bot (release-svc's worker)" }],
    organizations: [{ ...ORG, name: 'Bench Org', members: [{ login: BOT.login, role: 'member' }], defaultRepoPermission: 'read' }],
    repos: generateRepos(ORG.login, CONFIGS, FIRST_REPO_ID).map((repo, index) => ({
      ...repo,
      files: { main: repoManifests(repo.name, index) },
    })),
    // GitHub's 5,000 an hour would not last over thousands of repos (a listing and a read of the files for each)
    rateLimit: { limit: 1_000_000, windowSeconds: 3_600 },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The registry emulator, in this process, behind a server that counts what reaches it.

/** Requests that reached the registry emulator's npm routes, by answer. */
interface RegistryCounts {
  requests: number;
  notModified: number;
  fullDownloads: number;
  other: number;
}

const counts: RegistryCounts = { requests: 0, notModified: 0, fullDownloads: 0, other: 0 };

/** Starts the registry emulator on a free port of 127.0.0.1, counting `/npm/` requests into {@link counts}. */
async function startCountingRegistry(seed: RegistrySeedInput): Promise<{ url: string; close: () => Promise<void> }> {
  const app = createRegistryEmulator({ seed, logger: createLogger('registry-emulator', 'error') });
  return observedServer(app, (req, status) => {
    if (!req.url?.startsWith('/npm/')) return;
    counts.requests += 1;
    if (status === 304) counts.notModified += 1;
    else if (status === 200) counts.fullDownloads += 1;
    else counts.other += 1;
  });
}

// ---------------------------------------------------------------------------------------------------------------

interface PassResult {
  label: string;
  insertSeconds: number;
  totalSeconds: number;
  done: number;
  failed: number;
  dependencies: number;
  jobs: number;
  outcomes: Record<string, number>;
  registry: RegistryCounts;
}

const workDir = mkdtempSync(join(tmpdir(), 'bench-update-runs-'));
const cleanups: Cleanup[] = [['temp dir', async () => rmSync(workDir, { recursive: true, force: true })]];
const started: Array<[string, RunningProcess]> = [];
const results: PassResult[] = [];
const run = scriptStarter({ cleanups: () => cleanups, started });

try {
  const seed = githubSeed();
  parseSeed(seed, 'benchmark seed');
  const seedPath = join(workDir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(seed));
  const events = readModelEvents(seed);

  const registry = await startCountingRegistry(registrySeed());
  cleanups.unshift(['registry emulator', registry.close]);

  const emulatorPort = await freePort();
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  await run(
    'github-emulator',
    SCRIPTS.emulator,
    // LOG_LEVEL error: at warn the emulator logs every 404 (no npm-shrinkwrap.json, no yarn.lock) as a JSON line
    { PORT: String(emulatorPort), CODE_HOST_SEED: seedPath, LOG_LEVEL: 'error' },
    `${emulatorUrl}/readyz`,
    120_000,
  );

  const connection = await amqplib.connect(amqpUrl);
  cleanups.unshift(['RabbitMQ connection', () => connection.close()]);
  const suffix = randomBytes(4).toString('hex');
  const exchange = `bench.update-runs.${suffix}`;
  const prefix = `bench.update-runs.${suffix}`;
  const database = await createTestDatabase(adminUrl, 'bench_update_runs');
  cleanups.unshift(['database', () => database.drop()]);
  cleanups.unshift(['queues and exchanges', () => deleteReleaseTopology(connection, exchange, prefix)]);

  // The worker migrates the database when it starts; no scheduled slot nor registry watch runs during the benchmark.
  await startWorker(
    run,
    'release worker',
    {
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: prefix,
      CONFIG_CHECKPOINT_TIMEOUT_MS: '0',
      CODE_HOST_API_URL: emulatorUrl,
    },
    {
      ...tuning,
      ...emulatorRegistryEnv(registry.url),
      CODE_HOST_TOKEN: BOT.token,
      SCHEDULER_INTERVAL_MS: '3600000',
      REGISTRY_WATCH_INTERVAL_MS: '86400000',
    },
  );

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  cleanups.unshift(['database client', () => client.end()]);
  const releaseDb = openDatabase<ReleaseDatabase>({ kind: 'postgres', url: database.url, poolSize: 2 });
  cleanups.unshift(['release database', releaseDb.close]);
  const db = releaseDb.db.withSchema(RELEASE_SCHEMA);

  const seedStarted = performance.now();
  await publishAll(connection, exchange, events);
  await waitForReadModel(client, { configs: CONFIGS, repos: CONFIGS, accounts: 1 }, timeoutSeconds, 'read model');
  const readModelSeconds = (performance.now() - seedStarted) / 1000;
  await client.query('analyze');
  await sleep(1_000); // let the worker's pool and relay settle

  const configs = (seed.repos ?? []).map((repo, index) => ({ updateConfigId: index + 1, repoId: repo.id, accountId: ORG.id }));

  for (const label of ['1 (cold cache)', '2 (warm cache)']) {
    const before = { ...counts };
    const passStarted = performance.now();
    const ids = await db.transaction().execute(async (trx) => {
      const recorded: string[] = [];
      for (const config of configs) {
        const row = await requestRun(trx, { ...config, trigger: 'manual', triggerKey: `manual:${randomUUID()}`, requestedBy: BOT.id });
        if (row) recorded.push(row.id);
      }
      return recorded;
    });
    const insertSeconds = (performance.now() - passStarted) / 1000;
    check(ids.length === CONFIGS, `pass ${label}: ${ids.length} runs recorded of ${CONFIGS}`);

    const deadline = passStarted + timeoutSeconds * 1_000;
    let finished: { done: number; failed: number } | undefined;
    while (!finished) {
      await sleep(200);
      const { rows } = await client.query<{ done: number; failed: number; open: number }>(
        `select count(*) filter (where status = 'done')::int as done, count(*) filter (where status = 'failed')::int as failed,
                count(*) filter (where status not in ('done', 'failed'))::int as open
         from release.update_run where id = any($1::uuid[])`,
        [ids],
      );
      const row = rows[0];
      if (row && row.open === 0) finished = row;
      else if (performance.now() > deadline)
        throw new Error(`pass ${label}: not finished after ${timeoutSeconds} s: ${JSON.stringify(row)}`);
    }
    const totalSeconds = (performance.now() - passStarted) / 1000;
    const registryCounts: RegistryCounts = {
      requests: counts.requests - before.requests,
      notModified: counts.notModified - before.notModified,
      fullDownloads: counts.fullDownloads - before.fullDownloads,
      other: counts.other - before.other,
    };

    const totals = (
      await client.query<{ dependencies: number; jobs: number; incomplete: number }>(
        `select coalesce(sum(dependencies_checked), 0)::int as dependencies, coalesce(sum(jobs_recorded), 0)::int as jobs,
                count(*) filter (where dependencies_total is distinct from $2 or dependencies_checked <> $2)::int as incomplete
         from release.update_run where id = any($1::uuid[])`,
        [ids, DEPS],
      )
    ).rows[0] ?? { dependencies: 0, jobs: 0, incomplete: CONFIGS };
    const outcomes = Object.fromEntries(
      (
        await client.query<{ outcome: string; n: number }>(
          `select outcome, count(*)::int as n from release.update_run_dependency where run_id = any($1::uuid[]) group by outcome order by outcome`,
          [ids],
        )
      ).rows.map((r) => [r.outcome, r.n]),
    );
    check(finished.done === CONFIGS, `pass ${label}: ${finished.done} runs done of ${CONFIGS} (${finished.failed} failed)`);
    check(totals.incomplete === 0, `pass ${label}: ${totals.incomplete} runs did not decide their ${DEPS} dependencies`);
    check(!outcomes.error, `pass ${label}: ${outcomes.error} dependencies in error`);
    check(registryCounts.other === 0, `pass ${label}: ${registryCounts.other} registry answers neither 200 nor 304`);
    results.push({ label, insertSeconds, totalSeconds, ...finished, ...totals, outcomes, registry: registryCounts });
    process.stdout.write(`pass ${label}: ${finished.done} runs done, ${finished.failed} failed in ${totalSeconds.toFixed(2)} s\n`);
  }
  const second = results[1];
  check(
    second !== undefined && second.registry.fullDownloads === 0,
    `pass 2: ${second?.registry.fullDownloads} full registry downloads, expected none`,
  );

  const pad = (value: string | number, width: number) => String(value).padStart(width);
  process.stdout.write(
    `\nrelease-svc update-run benchmark: node bench/update-runs.bench.ts --configs ${CONFIGS} --deps ${DEPS} --packages ${PACKAGES}\n` +
      `${CONFIGS} npm update configs (one a repo, one org), ${DEPS} direct dependencies each drawn from ${PACKAGES} packages of ` +
      `${VERSIONS.length} versions on the registry emulator (real HTTP); one worker process, UPDATE_RUN_CONCURRENCY ` +
      `${tuning.UPDATE_RUN_CONCURRENCY} (dependencies at once per run), WORKER_PREFETCH ${tuning.WORKER_PREFETCH} (runs at once), ` +
      `DB_POOL_SIZE ${tuning.DB_POOL_SIZE}; Node ${process.versions.node}, ${availableParallelism()} CPUs, load average ` +
      `${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; read model of ${events.length} config-svc events in ${readModelSeconds.toFixed(1)} s (not timed)\n\n`,
  );
  process.stdout.write(
    `${'pass'.padEnd(16)}${pad('runs', 6)}${pad('failed', 7)}${pad('total s', 9)}${pad('runs/s', 8)}${pad('deps/s', 8)}` +
      `${pad('registry req', 13)}${pad('req/run', 8)}${pad('304', 7)}${pad('304 share', 10)}${pad('full', 6)}${pad('jobs', 7)}` +
      `${pad('request s', 10)}\n`,
  );
  for (const r of results) {
    const share = r.registry.requests > 0 ? `${((100 * r.registry.notModified) / r.registry.requests).toFixed(1)} %` : '–';
    process.stdout.write(
      `${r.label.padEnd(16)}${pad(r.done, 6)}${pad(r.failed, 7)}${pad(r.totalSeconds.toFixed(2), 9)}` +
        `${pad((r.done / r.totalSeconds).toFixed(1), 8)}${pad((r.dependencies / r.totalSeconds).toFixed(0), 8)}` +
        `${pad(r.registry.requests, 13)}${pad((r.registry.requests / CONFIGS).toFixed(2), 8)}${pad(r.registry.notModified, 7)}` +
        `${pad(share, 10)}${pad(r.registry.fullDownloads, 6)}${pad(r.jobs, 7)}${pad(r.insertSeconds.toFixed(2), 10)}\n`,
    );
  }
  process.stdout.write(
    '\ntotal: from the transaction recording every run (request s, included) until every run is done or failed (polled\n' +
      'every 200 ms); registry req: requests that reached the emulator (retries included), 304: answered Not Modified,\n' +
      'full: answered 200 with the packument; jobs: jobs recorded (a first run records at most 5 a config)\n',
  );
  for (const r of results) process.stdout.write(`dependency outcomes, pass ${r.label}: ${JSON.stringify(r.outcomes)}\n`);
} catch (error) {
  failures.push(`benchmark aborted: ${(error as Error).stack ?? String(error)}`);
} finally {
  await finishBenchmark(failures, started, cleanups);
}
