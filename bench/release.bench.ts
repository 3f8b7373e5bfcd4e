/**
 * `node bench/release.bench.ts`: how fast release-svc's worker turns one private release notification into
 * pull-request jobs for an organisation of 10,000 repos, with one worker process and with two.
 *
 * It writes a GitHub emulator seed: org `bench-org` (id 7000) with 10,000 generated repos (ids from 700000),
 * each with a package.json and a package-lock.json (lockfileVersion 3) on `main` that use lodash, every tenth
 * at 4.17.15 (outdated for the notification, lodash 4.17.21), the others at 4.17.21; user `bench` (token
 * `bench-token`) who sends the notification and the worker's bot `bench-bot` (token `bench-bot-token`), both
 * members of the org with read access; a rate limit of 1,000,000 an hour. The emulator runs as its own process
 * (LOG_LEVEL=error), shared by the rounds, and is warmed up first with the scan's own reads of 500 repos.
 *
 * Each round (BENCH_WORKERS, default `1,2`: one round with one worker process, one with two) gets the same work
 * on a fresh start: a new database, its own exchange `bench.release.<random>` and QUEUE_PREFIX, release-svc's API
 * and N workers as processes (LOG_LEVEL=warn). The benchmark plays config-svc: it publishes the org's
 * `account.created` and each repo's `repo.created` and `update_config.created` (npm_and_yarn, directory `/`) to
 * the exchange, waits until the workers' read model holds all 10,000 configs and repos, and analyzes the
 * database. Then, timed: `POST /release_notifications/private` (lodash 4.17.21, `Prefer: return=representation`),
 * polling the database every 100 ms until the notification is `done` and its last job is recorded. It prints per
 * round the total seconds, repos scanned and jobs per second, the phases (until planned, the scan itself, the
 * steady rate between 10 % and 90 % of the repos scanned, until the last `pull_request_job.created` reached the
 * exchange), and the CPU time each process used during the round (workers, emulator, API, this database's
 * PostgreSQL backends, the rest of PostgreSQL, RabbitMQ, this process, the rest of the machine: from /proc, sampled
 * once a second, when the servers are local; a large "rest of the machine" means other load skewed the figures).
 * It checks exactly 1,000 jobs (the 4.17.15 configs), 10,000 results, none failed or skipped, and 1,000 job events.
 *
 * Requests per repo: the emulator counts every request by route (`GET /_emulator/requests`, reset before each
 * round); the table shows the scan's reads per repo (the directory listing, the GraphQL queries, single file reads;
 * the worker reads 50 repos per pair of GraphQL queries, `readRepositories`) and the GraphQL points they cost per repo,
 * and checks that the scan costs at most 0.1 requests per repo. The emulator alone: after each round, this process
 * plays the same reads straight at the emulator (per repo the root listing `GET /repos/{o}/{r}/contents?ref=main`,
 * then the adapter's GraphQL query for the files the listing shows, `readFilesRequest`), as many repos at once as the
 * round's workers scan (workers × SCAN_CONCURRENCY × WORKER_PREFETCH), with fetch; its repos/s is what the emulator can
 * serve, and the round's scan rate is compared with it (the ratio; the goal is at least 0.5). Its CPU is shown too.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may
 * CREATE DATABASE), BENCH_AMQP_URL (amqp://guest:guest@127.0.0.1:5672), BENCH_WORKERS (`1,2`), the workers'
 * BENCH_SCAN_BATCH_SIZE, BENCH_SCAN_CONCURRENCY, BENCH_WORKER_PREFETCH and BENCH_DB_POOL_SIZE (release-svc's
 * defaults when unset), BENCH_TIMEOUT seconds a round may take (600), BENCH_PROFILE_DIR (every child process
 * runs with `--cpu-prof` into it: the figures are then not the real ones). Exits 1 when a check failed.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseSeed, REQUEST_COUNTER_PATH, type RequestCounts, type SeedInput } from '@switchyard/github-emulator';
import { emulatorRegistryEnv } from '@switchyard/registry-emulator';
import { createTestDatabase, freePort, type RunningProcess } from '@switchyard/service-kit/testing';
import amqplib, { type ChannelModel } from 'amqplib';
import pg from 'pg';
import { readFilesRequest } from '../packages/code-host/src/github/read-files.ts';
import {
  type Cleanup,
  type ConfigEvent,
  deleteReleaseTopology,
  lodashSeed,
  publishAll,
  readModelEvents,
  runCleanups,
  SCRIPTS,
  scriptStarter,
  startReleaseApi,
  startWorker,
  waitForReadModel,
} from './release-stack.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const rounds = (process.env.BENCH_WORKERS ?? '1,2').split(',').map((n) => Number(n.trim()));
const timeoutSeconds = Number(process.env.BENCH_TIMEOUT ?? 600);
const profileDir = process.env.BENCH_PROFILE_DIR;

const ORG = { id: 7000, login: 'bench-org' };
const NOTIFIER = { id: 6001, login: 'bench', token: 'bench-token' };
const BOT = { id: 6002, login: 'bench-bot', token: 'bench-bot-token' };
const REPOS = 10_000;
const FIRST_REPO_ID = 700_000;
const OUTDATED_EVERY = 10; // repo index i % 10 === 0 uses the old lodash: 1,000 of 10,000
const OLD = '4.17.15';
const CURRENT = '4.17.21';
const EXPECTED_JOBS = REPOS / OUTDATED_EVERY;

/** The workers' tuning (release-svc's defaults in src/config.ts when unset), and the env of each worker. */
const tuning = {
  SCAN_BATCH_SIZE: process.env.BENCH_SCAN_BATCH_SIZE ?? '50',
  SCAN_CONCURRENCY: process.env.BENCH_SCAN_CONCURRENCY ?? '8',
  WORKER_PREFETCH: process.env.BENCH_WORKER_PREFETCH ?? '4',
  DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE ?? '10',
};

const failures: string[] = [];
function check(ok: boolean, message: string): void {
  if (!ok) failures.push(message);
}

/** The org's repos, every tenth on the old lodash, with the notifier and the worker's bot as members. */
function buildSeed(): SeedInput {
  return lodashSeed({
    users: [
      { id: NOTIFIER.id, login: NOTIFIER.login, token: NOTIFIER.token, name: 'Bench User' },
      { id: BOT.id, login: BOT.login, token: BOT.token, name: "Bench bot (release-svc's worker)" },
    ],
    orgs: [{ ...ORG, name: 'Bench Org', members: [NOTIFIER.login, BOT.login], repos: REPOS }],
    firstRepoId: FIRST_REPO_ID,
    lodashOf: (index) => (index % OUTDATED_EVERY === 0 ? OLD : CURRENT),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux; the servers must run on this machine for their share to show).

interface ProcInfo {
  ppid: number;
  ticks: number;
}

const CLOCK_TICKS = 100; // USER_HZ, 100 on every Linux architecture Node runs on

function processTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // after the command: state ppid … utime (field 14) stime (field 15), for all threads of the process
      table.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process is gone
    }
  }
  return table;
}

/** Busy and total jiffies of the whole machine (`/proc/stat`), summed over CPUs. */
function machineTicks(): { busy: number; total: number } {
  const [, ...values] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = values.map(Number);
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** The process listening on TCP `port` on this machine, found through its socket's inode; undefined when none is. */
function listeningPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const local = Number.parseInt(cols[1]?.split(':').pop() ?? '', 16);
      if (local === port && cols[3] === '0A' && cols[9]) inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${entry}/fd/${fd}`));
        if (match?.[1] && inodes.has(match[1])) return Number(entry);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

const CPU_ROWS = [
  ['worker', 'release worker process(es)'],
  ['emulator', 'GitHub emulator'],
  ['api', 'release-svc API (outbox relay polls)'],
  ['pg-mine', "PostgreSQL: this database's backends"],
  ['pg-other', 'PostgreSQL: other processes'],
  ['rabbitmq', 'RabbitMQ'],
  ['bench', 'this benchmark (polling and its backend)'],
  ['rest', 'rest of the machine'],
  ['machine', 'machine total'],
] as const;
type CpuRow = (typeof CPU_ROWS)[number][0];

interface CpuRoots {
  workers: number[];
  emulator: number;
  api: number;
  /** This process and its polling connection's backend. */
  bench: number[];
  postmaster: number | undefined;
  broker: number | undefined;
  myBackends: Set<number>;
}

/** Follows process CPU times from now on; `sample()` keeps the times of processes that exit before `finish()`. */
function trackCpu() {
  const baseline = processTable();
  const latest = new Map(baseline);
  const machineStart = machineTicks();
  const sample = () => {
    for (const [pid, info] of processTable()) {
      if (!baseline.has(pid)) baseline.set(pid, { ppid: info.ppid, ticks: 0 }); // started during the round
      latest.set(pid, info);
    }
  };
  return {
    sample,
    finish(roots: CpuRoots): Record<CpuRow, number> {
      sample();
      const machineEnd = machineTicks();
      const seconds = Object.fromEntries(CPU_ROWS.map(([row]) => [row, 0])) as Record<CpuRow, number>;
      const under = (pid: number, ancestor: number | undefined) => {
        for (let p: number | undefined = pid, hops = 0; p && p > 1 && hops < 64; p = latest.get(p)?.ppid, hops += 1)
          if (p === ancestor) return true;
        return false;
      };
      let classified = 0;
      for (const [pid, info] of latest) {
        const used = (info.ticks - (baseline.get(pid)?.ticks ?? 0)) / CLOCK_TICKS;
        let row: CpuRow | undefined;
        if (roots.workers.includes(pid)) row = 'worker';
        else if (pid === roots.emulator) row = 'emulator';
        else if (pid === roots.api) row = 'api';
        else if (roots.bench.includes(pid)) row = 'bench';
        else if (roots.myBackends.has(pid)) row = 'pg-mine';
        else if (under(pid, roots.postmaster)) row = 'pg-other';
        else if (under(pid, roots.broker)) row = 'rabbitmq';
        if (row === undefined) continue;
        seconds[row] += used;
        classified += used;
      }
      seconds.machine = (machineEnd.busy - machineStart.busy) / CLOCK_TICKS;
      seconds.rest = Math.max(0, seconds.machine - classified);
      return seconds;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

interface RoundResult {
  workers: number;
  seedSeconds: number;
  totalSeconds: number;
  plannedSeconds: number;
  scanSeconds: number;
  steadyRate: number;
  lastEventSeconds: number | undefined;
  scanned: number;
  jobs: number;
  cpu: Record<CpuRow, number>;
  /** The emulator's request counts during the timed part. */
  requests: RequestCounts;
  /** The emulator alone serving the same reads, at the same concurrency. */
  alone: ServeRate;
}

/** How fast the emulator alone served the scan's reads of every repo ({@link serveReads}). */
interface ServeRate {
  concurrency: number;
  seconds: number;
  rate: number;
  /** CPU seconds of the emulator process meanwhile. */
  emulatorCpu: number;
  requests: RequestCounts;
}

/** The emulator's request counts since its last reset. */
async function requestCounts(emulatorUrl: string): Promise<RequestCounts> {
  const res = await fetch(`${emulatorUrl}${REQUEST_COUNTER_PATH}`);
  if (res.status !== 200) throw new Error(`GET ${REQUEST_COUNTER_PATH} answered ${res.status}`);
  return (await res.json()) as RequestCounts;
}

/** Sets the emulator's request counts back to zero. */
async function resetRequestCounts(emulatorUrl: string): Promise<void> {
  const res = await fetch(`${emulatorUrl}${REQUEST_COUNTER_PATH}`, { method: 'DELETE' });
  if (res.status !== 204) throw new Error(`DELETE ${REQUEST_COUNTER_PATH} answered ${res.status}`);
}

/** Requests of a route (method and the emulator's route pattern) in `counts`, all statuses. */
function routeCount(counts: RequestCounts, route: string): number {
  return Object.values(counts.routes[route] ?? {}).reduce((sum, n) => sum + n, 0);
}

/** Requests of the scan's reads in `counts`: every route under `/repos/` and `POST /graphql` (not the notifier's `GET /user`). */
function scanRequests(counts: RequestCounts): number {
  return Object.keys(counts.routes)
    .filter((route) => route.startsWith('GET /repos/') || route === GRAPHQL_ROUTE)
    .reduce((sum, route) => sum + routeCount(counts, route), 0);
}

/** The most code-host requests per scanned repo the scan may make (issue: many repositories per GraphQL read). */
const MAX_REQUESTS_PER_REPO = 0.1;

const LISTING_ROUTE = 'GET /repos/:owner/:repo/contents{/*path}';
const GRAPHQL_ROUTE = 'POST /graphql';
/** The npm files the scan reads when the listing shows them (npm_and_yarn's manifest and lockfiles). */
const NPM_FILES = ['package.json', 'npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'];

/**
 * The scan's reads of repo `name` straight at the emulator, as the worker's code host client makes them: the root
 * listing, then one GraphQL query for the npm files it shows. Checks that package.json and package-lock.json came back.
 */
async function readRepo(emulatorUrl: string, name: string): Promise<void> {
  const headers = { authorization: `token ${BOT.token}`, accept: 'application/vnd.github.v3+json', 'user-agent': 'bench' };
  const listing = await fetch(`${emulatorUrl}/repos/${ORG.login}/${name}/contents?ref=main`, { headers });
  const entries = (await listing.json()) as Array<{ name: string; type: string }>;
  // In the listing's order, as the scan picks them (`filesMatching`).
  const files = entries.filter((entry) => entry.type === 'file' && NPM_FILES.includes(entry.name)).map((entry) => entry.name);
  const res = await fetch(`${emulatorUrl}/graphql`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(readFilesRequest({ owner: ORG.login, name }, files, 'main')),
  });
  const answer = (await res.json()) as { data?: { repository?: Record<string, { text?: unknown } | null> } };
  const texts = files.map((_, i) => answer.data?.repository?.[`f${i}`]?.text);
  if (listing.status !== 200 || res.status !== 200 || files.length !== 2 || texts.some((text) => typeof text !== 'string')) {
    throw new Error(
      `reading ${name} straight from the emulator: listing ${listing.status}, GraphQL ${res.status}, files ${files.join(', ')}`,
    );
  }
}

/** The emulator alone serving the scan's reads of all the repos, `concurrency` repos at a time. */
async function serveReads(emulator: { url: string; pid: number }, names: readonly string[], concurrency: number): Promise<ServeRate> {
  await resetRequestCounts(emulator.url);
  const ticksBefore = processTable().get(emulator.pid)?.ticks ?? 0;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < names.length; i = next++) await readRepo(emulator.url, names[i] as string);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const emulatorCpu = ((processTable().get(emulator.pid)?.ticks ?? 0) - ticksBefore) / CLOCK_TICKS;
  return { concurrency, seconds, rate: names.length / seconds, emulatorCpu, requests: await requestCounts(emulator.url) };
}

const workDir = mkdtempSync(join(tmpdir(), 'bench-release-'));
const globalCleanups: Cleanup[] = [['temp dir', async () => rmSync(workDir, { recursive: true, force: true })]];
const allProcesses: Array<[string, RunningProcess]> = [];
const results: RoundResult[] = [];

/** Starts the stack's scripts with their stop first in `cleanups`; every process runs with `--cpu-prof` under BENCH_PROFILE_DIR. */
const starterFor = (cleanups: Cleanup[]) =>
  scriptStarter({
    cleanups: () => cleanups,
    started: allProcesses,
    extraEnv: profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {},
    onStart: (name, running) => {
      if (profileDir) process.stdout.write(`profiling ${name}: pid ${running.child.pid}\n`);
    },
  });

/** The names of the org's repos, in seed order. */
let repoNames: string[] = [];

/** The worker's registries: an emulator that knows no package (each job targets the notified version, unverified). */
let registryEnv: Record<string, string> = {};

async function runRound(
  workers: number,
  connection: ChannelModel,
  emulator: { url: string; pid: number },
  events: ReadonlyArray<ConfigEvent>,
): Promise<void> {
  const cleanups: Cleanup[] = [];
  const run = starterFor(cleanups);
  const label = `round with ${workers} worker${workers === 1 ? '' : 's'}`;
  try {
    const suffix = randomBytes(4).toString('hex');
    const exchange = `bench.release.${suffix}`;
    const prefix = `bench.release.${suffix}`;
    const database = await createTestDatabase(adminUrl, `bench_release_${workers}w`);
    cleanups.unshift(['database', () => database.drop()]);
    cleanups.unshift(['queues and exchanges', () => deleteReleaseTopology(connection, exchange, prefix)]);

    const common = {
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: prefix,
      // This stack plays config-svc's state events, not its checkpoints: plan each notification on arrival.
      CONFIG_CHECKPOINT_TIMEOUT_MS: '0',
      CODE_HOST_API_URL: emulator.url,
      ...registryEnv,
    };
    // the API migrates the database before the workers open it
    const { process: api, url: apiUrl } = await startReleaseApi(run, common);
    const workerProcesses: RunningProcess[] = [];
    for (let n = 1; n <= workers; n += 1)
      workerProcesses.push((await startWorker(run, `release worker ${n}`, common, { ...tuning, CODE_HOST_TOKEN: BOT.token })).process);

    // Every pull_request_job.created on the exchange, with when it arrived.
    const observer = await connection.createChannel();
    cleanups.unshift(['observer channel', () => observer.close()]);
    const { queue: observed } = await observer.assertQueue('', { exclusive: true, autoDelete: true });
    await observer.bindQueue(observed, exchange, 'pull_request_job.created');
    const jobEvents: number[] = [];
    await observer.consume(observed, (message) => message && jobEvents.push(performance.now()), { noAck: true });

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.unshift(['database client', () => client.end()]);

    // The read model, as config-svc's events build it, before any timing.
    const seedStarted = performance.now();
    await publishAll(connection, exchange, events);
    await waitForReadModel(client, { configs: REPOS, repos: REPOS, accounts: 1 }, timeoutSeconds, label);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await client.query('analyze');
    await sleep(1_000); // let the workers' and the API's pools and relays settle

    const myBackends = new Set<number>();
    const ownBackend = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
    await resetRequestCounts(emulator.url);
    const cpu = trackCpu();
    const progress: Array<[number, number]> = [];
    const started = performance.now();
    const res = await fetch(`${apiUrl}/release_notifications/private`, {
      method: 'POST',
      headers: { authorization: `Personal ${NOTIFIER.token}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify({ name: 'lodash', version: CURRENT, 'package-manager': 'npm_and_yarn' }),
    });
    const posted = (await res.json()) as { data?: { id?: string } };
    const id = posted.data?.id;
    if (res.status !== 202 || !id) throw new Error(`${label}: POST /release_notifications/private answered ${res.status}`);

    let finished: { status: string; scanned: number; jobs: number } | undefined;
    const deadline = started + timeoutSeconds * 1_000;
    while (!finished) {
      await sleep(100);
      const { rows } = await client.query<{ status: string; scanned: number; jobs: number; backends: number[] }>(
        `select n.status,
                (select count(*)::int from release.scan_result r where r.notification_id = n.id) as scanned,
                (select count(*)::int from release.pull_request_job j where j.notification_id = n.id) as jobs,
                array(select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()) as backends
         from release.notification n where n.id = $1`,
        [id],
      );
      const row = rows[0];
      const now = performance.now();
      if (progress.length % 10 === 0) cpu.sample(); // once a second: reading /proc costs a few ms
      for (const pid of row?.backends ?? []) myBackends.add(pid);
      if (row) progress.push([now, row.scanned]);
      if (row && (row.status === 'done' || row.status === 'failed')) finished = row;
      else if (now > deadline) throw new Error(`${label}: not done after ${timeoutSeconds} s: ${JSON.stringify(row)}`);
    }
    const totalSeconds = (performance.now() - started) / 1000;
    const requests = await requestCounts(emulator.url);
    const table = processTable();
    const postmaster = [...myBackends, ownBackend ?? -1].map((pid) => table.get(pid)?.ppid).find((ppid) => ppid !== undefined);
    const amqpPort = Number(new URL(amqpUrl).port || 5672);
    const usage = cpu.finish({
      workers: workerProcesses.map((w) => w.child.pid ?? -1),
      emulator: emulator.pid,
      api: api.child.pid ?? -1,
      bench: [process.pid, ownBackend ?? -1],
      postmaster,
      broker: /^(127\.|localhost$|\[::1\]$)/.test(new URL(amqpUrl).hostname) ? listeningPid(amqpPort) : undefined,
      myBackends,
    });

    // What the database says happened, and the checks.
    const times = (
      await client.query<{ planned: number; scan: number }>(
        `select extract(epoch from started_at - created_at)::float8 as planned, extract(epoch from finished_at - started_at)::float8 as scan
         from release.notification where id = $1`,
        [id],
      )
    ).rows[0];
    const outcomes = Object.fromEntries(
      (
        await client.query<{ outcome: string; n: number }>(
          'select outcome, count(*)::int as n from release.scan_result where notification_id = $1 group by outcome',
          [id],
        )
      ).rows.map((r) => [r.outcome, r.n]),
    );
    const jobCheck = (
      await client.query<{ jobs: number; configs: number; expected: number }>(
        `select count(*)::int as jobs, count(distinct update_config_id)::int as configs,
                count(*) filter (where (update_config_id - 1) % $2 = 0 and version_in_use = $3 and target_version = $4)::int as expected
         from release.pull_request_job where notification_id = $1`,
        [id, OUTDATED_EVERY, OLD, CURRENT],
      )
    ).rows[0];
    check(finished.status === 'done', `${label}: notification ended ${finished.status}`);
    check(finished.scanned === REPOS, `${label}: ${finished.scanned} of ${REPOS} configs have a result`);
    check(
      jobCheck?.jobs === EXPECTED_JOBS && jobCheck.configs === EXPECTED_JOBS && jobCheck.expected === EXPECTED_JOBS,
      `${label}: expected ${EXPECTED_JOBS} jobs (lodash ${OLD} → ${CURRENT}), got ${JSON.stringify(jobCheck)}`,
    );
    check(
      outcomes['job-recorded'] === EXPECTED_JOBS && outcomes['up-to-date'] === REPOS - EXPECTED_JOBS,
      `${label}: outcomes ${JSON.stringify(outcomes)}`,
    );
    const view = await fetch(`${apiUrl}/release_notifications/${id}`, { headers: { authorization: `Personal ${NOTIFIER.token}` } });
    const attributes = ((await view.json()) as { data?: { attributes?: Record<string, unknown> } }).data?.attributes ?? {};
    check(
      view.status === 200 &&
        attributes.status === 'done' &&
        attributes['repos-scanned'] === REPOS &&
        attributes['jobs-recorded'] === EXPECTED_JOBS &&
        attributes['repos-failed'] === 0 &&
        attributes['repos-skipped'] === 0,
      `${label}: GET /release_notifications/${id} answered ${view.status} ${JSON.stringify(attributes).slice(0, 300)}`,
    );
    const eventsDeadline = Date.now() + 30_000;
    while (jobEvents.length < EXPECTED_JOBS && Date.now() < eventsDeadline) await sleep(50);
    check(jobEvents.length === EXPECTED_JOBS, `${label}: ${jobEvents.length} pull_request_job.created events of ${EXPECTED_JOBS}`);

    // steady rate: from 10 % to 90 % of the repos scanned (leaves out planning, JIT warm-up and the tail)
    const at = (share: number) => progress.find(([, scanned]) => scanned >= share * REPOS)?.[0];
    const [t10, t90] = [at(0.1), at(0.9)];
    const perRepo = scanRequests(requests) / REPOS;
    check(
      perRepo <= MAX_REQUESTS_PER_REPO,
      `${label}: ${perRepo.toFixed(3)} code host requests per repo, more than ${MAX_REQUESTS_PER_REPO}`,
    );
    // The emulator alone, serving the same reads at the concurrency the workers scanned with.
    const concurrency = workers * Number(tuning.SCAN_CONCURRENCY) * Number(tuning.WORKER_PREFETCH);
    const alone = await serveReads(emulator, repoNames, concurrency);
    results.push({
      workers,
      seedSeconds,
      totalSeconds,
      plannedSeconds: times?.planned ?? Number.NaN,
      scanSeconds: times?.scan ?? Number.NaN,
      steadyRate: t10 !== undefined && t90 !== undefined && t90 > t10 ? (0.8 * REPOS) / ((t90 - t10) / 1000) : Number.NaN,
      lastEventSeconds: jobEvents.length > 0 ? (Math.max(...jobEvents) - started) / 1000 : undefined,
      scanned: finished.scanned,
      jobs: jobCheck?.jobs ?? 0,
      cpu: usage,
      requests,
      alone,
    });
    process.stdout.write(`${label}: ${finished.scanned} repos scanned, ${jobCheck?.jobs ?? 0} jobs in ${totalSeconds.toFixed(2)} s\n`);
  } catch (error) {
    failures.push(`${label} aborted: ${(error as Error).stack ?? String(error)}`);
  } finally {
    await runCleanups(cleanups);
  }
}

try {
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const seed = buildSeed();
  parseSeed(seed, 'benchmark seed');
  repoNames = (seed.repos ?? []).map((repo) => repo.name);
  const seedPath = join(workDir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(seed));
  const events = readModelEvents(seed);

  const connection = await amqplib.connect(amqpUrl);
  globalCleanups.unshift(['RabbitMQ connection', () => connection.close()]);

  const emulatorPort = await freePort();
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const emulator = await starterFor(globalCleanups)(
    'github-emulator',
    SCRIPTS.emulator,
    // LOG_LEVEL error: at warn the emulator would log every 404 as a JSON line
    { PORT: String(emulatorPort), CODE_HOST_SEED: seedPath, LOG_LEVEL: 'error' },
    `${emulatorUrl}/readyz`,
    120_000,
  );

  const registrySeedPath = join(workDir, 'registry-seed.json');
  writeFileSync(registrySeedPath, JSON.stringify({ packages: [], credentials: [] }));
  const registryPort = await freePort();
  const registryUrl = `http://127.0.0.1:${registryPort}`;
  await starterFor(globalCleanups)(
    'registry-emulator',
    SCRIPTS.registry,
    { PORT: String(registryPort), REGISTRY_SEED: registrySeedPath, LOG_LEVEL: 'error' },
    `${registryUrl}/readyz`,
  );
  registryEnv = emulatorRegistryEnv(registryUrl);

  // Warm-up of the emulator (JIT), which every round shares: the scan's reads of 500 repos, 16 at a time.
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      for (let i = next++; i < 500; i = next++) {
        try {
          await readRepo(emulatorUrl, repoNames[(i * 19) % REPOS] as string);
        } catch (error) {
          check(false, `emulator warm-up: ${(error as Error).message}`);
        }
      }
    }),
  );

  for (const workers of rounds) await runRound(workers, connection, { url: emulatorUrl, pid: emulator.child.pid ?? -1 }, events);

  const pad = (value: string | number, width: number) => String(value).padStart(width);
  const fixed = (value: number | undefined, digits = 1) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));
  process.stdout.write(
    `\nrelease-svc scan benchmark: org of ${REPOS} repos, an npm update config each, ${EXPECTED_JOBS} on lodash ${OLD} ` +
      `(outdated), the rest on ${CURRENT}; one notification lodash ${CURRENT}; SCAN_BATCH_SIZE ${tuning.SCAN_BATCH_SIZE}, ` +
      `SCAN_CONCURRENCY ${tuning.SCAN_CONCURRENCY}, WORKER_PREFETCH ${tuning.WORKER_PREFETCH}, DB_POOL_SIZE ${tuning.DB_POOL_SIZE}; ` +
      `Node ${process.versions.node}, ${availableParallelism()} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}${profileDir ? '; PROFILING' : ''}\n\n`,
  );
  process.stdout.write(
    `${'workers'.padEnd(8)}${pad('total s', 9)}${pad('repos/s', 9)}${pad('jobs/s', 8)}${pad('jobs', 6)}${pad('planned s', 11)}` +
      `${pad('scan s', 8)}${pad('steady repos/s', 16)}${pad('last event s', 14)}${pad('read model s', 14)}\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${String(r.workers).padEnd(8)}${pad(r.totalSeconds.toFixed(2), 9)}${pad(fixed(r.scanned / r.totalSeconds, 0), 9)}` +
        `${pad(fixed(r.jobs / r.totalSeconds, 1), 8)}${pad(r.jobs, 6)}${pad(fixed(r.plannedSeconds, 2), 11)}${pad(fixed(r.scanSeconds, 2), 8)}` +
        `${pad(fixed(r.steadyRate, 0), 16)}${pad(fixed(r.lastEventSeconds, 2), 14)}${pad(fixed(r.seedSeconds, 1), 14)}\n`,
    );
  }
  process.stdout.write(
    `\nCode host requests per repo during the scan, and the emulator alone serving the same reads\n` +
      `${'workers'.padEnd(8)}${pad('listing', 9)}${pad('graphql', 9)}${pad('per repo', 10)}${pad('points/repo', 13)}${pad('all reqs', 10)}` +
      `${pad('scan repos/s', 14)}${pad('steady', 8)}${pad('alone repos/s', 15)}${pad('at once', 9)}${pad('ratio', 7)}` +
      `${pad('steady ratio', 14)}${pad('emulator CPU s/1k repos: scan', 32)}${pad('alone', 7)}\n`,
  );
  for (const r of results) {
    const listing = routeCount(r.requests, LISTING_ROUTE) / REPOS;
    const graphql = routeCount(r.requests, GRAPHQL_ROUTE) / REPOS;
    const scanRate = r.scanned / r.totalSeconds;
    process.stdout.write(
      `${String(r.workers).padEnd(8)}${pad(listing.toFixed(3), 9)}${pad(graphql.toFixed(3), 9)}` +
        `${pad((scanRequests(r.requests) / REPOS).toFixed(3), 10)}${pad((r.requests.graphqlPoints / REPOS).toFixed(3), 13)}` +
        `${pad(r.requests.total, 10)}${pad(scanRate.toFixed(0), 14)}${pad(fixed(r.steadyRate, 0), 8)}${pad(r.alone.rate.toFixed(0), 15)}` +
        `${pad(r.alone.concurrency, 9)}${pad((scanRate / r.alone.rate).toFixed(2), 7)}${pad(fixed(r.steadyRate / r.alone.rate, 2), 14)}` +
        `${pad(((1000 * r.cpu.emulator) / r.scanned).toFixed(2), 32)}${pad(((1000 * r.alone.emulatorCpu) / REPOS).toFixed(2), 7)}\n`,
    );
  }
  process.stdout.write(
    '\nlisting/graphql: GET …/contents and POST /graphql per repo; per repo: every request of the scan (GET /repos/… and ' +
      'POST /graphql) per repo, at most 0.1; points/repo: the GraphQL rate limit points those queries cost, per repo ' +
      '(every request of the timed part by route: ' +
      `${results.map((r) => JSON.stringify(r.requests.routes)).join('; ')}); all reqs: every request the emulator answered ` +
      'meanwhile (the API authenticating the notifier too); alone: this process reading every repo straight from the emulator, ' +
      '`at once` repos at a time; ratio: scan repos/s (the total) over alone repos/s, steady ratio: the steady rate over it\n',
  );
  process.stdout.write(
    '\ntotal: POST until the notification is done with its last job recorded (polled every 100 ms); planned/scan: the\n' +
      "notification's created → started → finished timestamps; last event: until the last pull_request_job.created reached\n" +
      'the exchange; read model: publishing and applying the 20,001 config-svc events (not in the total)\n',
  );
  if (results.length > 0) {
    process.stdout.write(
      `\nCPU during the timed part, seconds (and % of one core over the round's total)\n${''.padEnd(40)}` +
        `${results.map((r) => pad(`${r.workers} worker${r.workers === 1 ? '' : 's'}`, 20)).join('')}\n`,
    );
    for (const [row, name] of CPU_ROWS) {
      process.stdout.write(
        `${name.padEnd(40)}${results.map((r) => pad(`${r.cpu[row].toFixed(1)} (${Math.round((100 * r.cpu[row]) / r.totalSeconds)} %)`, 20)).join('')}\n`,
      );
    }
    process.stdout.write(`(machine total: at most ${availableParallelism() * 100} % on ${availableParallelism()} CPUs)\n`);
  }
} catch (error) {
  failures.push(`benchmark aborted: ${(error as Error).stack ?? String(error)}`);
} finally {
  if (failures.length > 0) {
    for (const [name, running] of allProcesses)
      process.stderr.write(`\n--- ${name} output (last 4,000 characters) ---\n${running.output().slice(-4_000)}\n`);
  }
  await runCleanups(globalCleanups);
}

if (failures.length > 0) {
  process.stderr.write(`\nFAILED:\n  ${failures.join('\n  ')}\n`);
  process.exitCode = 1;
}
