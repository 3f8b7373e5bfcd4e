/**
 * The release pipeline under chaos: private release notifications sent through the gateway while the RabbitMQ node
 * is restarted and release workers are SIGKILLed, then a check that every pull-request job the notifications call
 * for exists exactly once, every notification is done, and nothing is left in the outbox, the parking queues or the
 * retry queues. `chaos-release.ts` runs it at full size from the command line, `e2e/chaos/` at CI size.
 *
 * Everything is the run's own: a RabbitMQ node of its own (`startPrivateRabbitMQ`: the machine's broker is never
 * touched), a fresh database, the GitHub emulator, release-svc's API, the workers and the gateway as OS processes.
 * The run plays config-svc as the release benchmark does (`release-stack.ts`): `orgs` organisations share `configs`
 * repos, one npm update config each, every tenth on lodash 4.17.15 and the rest on 4.17.21; each organisation has a
 * notifier (its only human member) and the workers' bot is a member of all. Notification k is sent by organisation
 * k mod `orgs`'s notifier for lodash 4.17.(16 + ⌊k / orgs⌋): versions differ within an organisation, so each of its
 * configs on an older lodash gets one job of that notification (unique per config, dependency and target version)
 * and the others are up to date. That is the expected set.
 *
 * The notifications are paced over `sendSeconds`; the chaos events (broker restarts and worker kills, alternating,
 * restarts first) are spread evenly over the same window and run one after another: a restart stops the node
 * gracefully (SIGTERM), leaves it down `downSeconds` and starts it again; a kill waits (up to 5 s) until some
 * notification is unfinished, SIGKILLs the next worker in turn and starts a new one in its place.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseSeed } from '@switchyard/github-emulator';
import { emulatorRegistryEnv } from '@switchyard/registry-emulator';
import {
  createTestDatabase,
  type EventTap,
  freePort,
  type PrivateRabbitMQ,
  type RestartTimings,
  type RunningProcess,
  startPrivateRabbitMQ,
  tapEvents,
} from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import pg from 'pg';
import {
  type Cleanup,
  configIdOf,
  lodashSeed,
  publishAll,
  type ReleaseCommonEnv,
  readModelEvents,
  releaseQueues,
  runCleanups,
  SCRIPTS,
  scriptStarter,
  startReleaseApi,
  startWorker,
  type WorkerProcess,
  waitForReadModel,
} from './release-stack.ts';

/** The size and shape of a chaos run. */
export interface ChaosOptions {
  /** Update configs (one repo each), spread over the organisations. */
  configs: number;
  /** Organisations; each notification scans the configs of one. */
  orgs: number;
  notifications: number;
  /** Worker processes running at any time. */
  workers: number;
  brokerRestarts: number;
  workerKills: number;
  /** The notifications are sent evenly over this many seconds. */
  sendSeconds: number;
  /** How long the broker stays down in each restart, seconds. */
  downSeconds: number;
  /** Longest wait for everything to be done after the last notification was sent, seconds. */
  quietTimeoutSeconds: number;
  /** PostgreSQL server (a user that may CREATE DATABASE). */
  databaseUrl: string;
  /** The workers' SCAN_BATCH_SIZE, SCAN_CONCURRENCY, WORKER_PREFETCH, DB_POOL_SIZE (release-svc's defaults when unset). */
  workerTuning?: Record<string, string>;
  /** Where progress lines go (default: nowhere). */
  log?: (line: string) => void;
  /** Aborting it (Ctrl-C) stops the run where it is and tears everything down; the report then says so. */
  signal?: AbortSignal;
}

/** Sizes of the full run (`pnpm chaos:release`). */
export const DEFAULT_CHAOS_OPTIONS: Omit<ChaosOptions, 'databaseUrl'> = {
  configs: 200,
  orgs: 20,
  notifications: 1_000,
  workers: 2,
  brokerRestarts: 2,
  workerKills: 2,
  sendSeconds: 60,
  downSeconds: 3,
  quietTimeoutSeconds: 600,
};

/** One chaos event as it happened; seconds from the first notification sent. */
export type ChaosEvent =
  | { kind: 'broker restart'; atSeconds: number; unfinished: number; timings: RestartTimings }
  | { kind: 'worker kill'; atSeconds: number; unfinished: number; worker: string; replacement: string; replacedInSeconds: number };

/** What a chaos run found. `problems` is empty when nothing was lost, duplicated, stuck or refused. */
export interface ChaosReport {
  options: Omit<ChaosOptions, 'log' | 'databaseUrl' | 'signal'>;
  /** Notifications POSTed, and answered 202 with an id. */
  sent: number;
  accepted: number;
  /** Notifications sent while the broker was stopping, down or starting. */
  sentDuringOutage: number;
  expectedJobs: number;
  /** Job rows in the database. */
  jobsFound: number;
  /** Expected jobs with no row. */
  lost: number;
  /** Rows beyond the first for one config, dependency and target version, plus job events with a second event id. */
  duplicated: number;
  /** Rows no notification calls for, or recorded under another notification than the one that calls for them. */
  unexpected: number;
  notificationsDone: number;
  /** Configs of done notifications without a result, and results with an outcome other than the expected one. */
  wrongResults: number;
  /** Outbox rows never published. */
  unpublished: number;
  /** Messages left in the workers' parking and retry queues. */
  parked: number;
  retrying: number;
  /** `pull_request_job.created` on the exchange: distinct job ids, deliveries (at-least-once may repeat), jobs without one. */
  jobEvents: { distinct: number; deliveries: number; missing: number };
  events: ChaosEvent[];
  /** Seconds: the whole run, the stack's start, from the first notification sent until quiet. */
  seconds: { total: number; setup: number; chaos: number };
  problems: string[];
}

const OLD = '4.17.15';
const CURRENT = '4.17.21';
const OUTDATED_EVERY = 10;
const FIRST_ORG_ID = 8_001;
const FIRST_NOTIFIER_ID = 9_001;
const BOT = { id: 8_999, login: 'chaos-bot', token: 'chaos-bot-token', name: "Chaos bot (release-svc's worker)" };
const FIRST_REPO_ID = 800_000;

/** Patch number of a `4.17.x` version. */
const patchOf = (version: string) => Number(version.split('.')[2]);

/** Configs of organisation `org` (0-based): `configs` split as evenly as possible, the first ones one larger. */
function orgSizes(configs: number, orgs: number): number[] {
  return Array.from({ length: orgs }, (_, org) => Math.floor(configs / orgs) + (org < configs % orgs ? 1 : 0));
}

/** Notification `k`: its organisation (0-based) and the lodash version it announces. */
export function notificationPlan(k: number, orgs: number): { org: number; version: string } {
  return { org: k % orgs, version: `4.17.${16 + Math.floor(k / orgs)}` };
}

/** lodash in use by the repo at seed index `index`. */
export const lodashInUse = (index: number) => (index % OUTDATED_EVERY === 0 ? OLD : CURRENT);

/**
 * Runs the chaos described in the module comment and checks the outcome.
 * @returns the report; a failure to set up (a broker or a process that does not start) is in `problems` as well
 * @throws only when `options` are out of range
 */
export async function runReleaseChaos(options: ChaosOptions): Promise<ChaosReport> {
  for (const [name, value] of Object.entries({
    configs: options.configs,
    orgs: options.orgs,
    notifications: options.notifications,
    workers: options.workers,
  }))
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a whole number ≥ 1, got ${value}`);
  for (const [name, value] of Object.entries({ brokerRestarts: options.brokerRestarts, workerKills: options.workerKills }))
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${value}`);
  if (options.orgs > options.configs) throw new RangeError(`orgs (${options.orgs}) must not exceed configs (${options.configs})`);
  if (!(options.sendSeconds >= 0 && options.downSeconds >= 0 && options.quietTimeoutSeconds > 0))
    throw new RangeError('sendSeconds and downSeconds must be ≥ 0 and quietTimeoutSeconds > 0');

  const log = options.log ?? (() => {});
  const began = performance.now();
  const { log: _log, databaseUrl: _databaseUrl, signal, ...shape } = options;
  const report: ChaosReport = {
    options: shape,
    sent: 0,
    accepted: 0,
    sentDuringOutage: 0,
    expectedJobs: 0,
    jobsFound: 0,
    lost: 0,
    duplicated: 0,
    unexpected: 0,
    notificationsDone: 0,
    wrongResults: 0,
    unpublished: 0,
    parked: 0,
    retrying: 0,
    jobEvents: { distinct: 0, deliveries: 0, missing: 0 },
    events: [],
    seconds: { total: 0, setup: 0, chaos: 0 },
    problems: [],
  };
  const cleanups: Cleanup[] = [];
  const started: Array<[string, RunningProcess]> = [];
  let broker: PrivateRabbitMQ | undefined;
  try {
    const running = run(options, report, cleanups, started, log, (b) => {
      broker = b;
    });
    // On abort the run is left behind (its next step fails on what the clean-up took away) and everything is torn down.
    running.catch(() => {});
    const aborted = new Promise<never>((_, reject) => {
      if (signal?.aborted) reject(new Error('aborted'));
      signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    aborted.catch(() => {});
    await Promise.race([running, aborted]);
  } catch (error) {
    report.problems.push(
      signal?.aborted
        ? 'interrupted: the run was stopped before its checks'
        : `the run aborted: ${(error as Error).stack ?? String(error)}`,
    );
  } finally {
    if (report.problems.length > 0) {
      for (const [name, running] of started) log(`--- ${name} output (last 3,000 characters) ---\n${running.output().slice(-3_000)}`);
      if (broker) log(`--- RabbitMQ node ${broker.nodeName} output (last 3,000 characters) ---\n${broker.output().slice(-3_000)}`);
    }
    await runCleanups(cleanups);
    report.seconds.total = (performance.now() - began) / 1000;
  }
  return report;
}

async function run(
  options: ChaosOptions,
  report: ChaosReport,
  cleanups: Cleanup[],
  started: Array<[string, RunningProcess]>,
  log: (line: string) => void,
  onBroker: (broker: PrivateRabbitMQ) => void,
): Promise<void> {
  const setupBegan = performance.now();
  const problem = (message: string) => report.problems.push(message);
  const workDir = mkdtempSync(join(tmpdir(), 'chaos-release-'));
  cleanups.unshift(['temp dir', async () => rmSync(workDir, { recursive: true, force: true })]);

  // The broker first: everything else connects to it.
  const broker = await startPrivateRabbitMQ({ namePrefix: `chaos-${process.pid}` });
  onBroker(broker);
  cleanups.unshift([`RabbitMQ node ${broker.nodeName}`, () => broker.close()]);
  log(`private RabbitMQ node ${broker.nodeName} on ${broker.url}`);

  // The seed: organisations, their notifiers and repos.
  const sizes = orgSizes(options.configs, options.orgs);
  const notifiers = sizes.map((_, org) => ({
    id: FIRST_NOTIFIER_ID + org,
    login: `chaos-notifier-${org + 1}`,
    token: `chaos-token-${org + 1}`,
    name: `Chaos notifier ${org + 1}`,
  }));
  const orgs = sizes.map((repos, org) => ({
    id: FIRST_ORG_ID + org,
    login: `chaos-org-${org + 1}`,
    name: `Chaos Org ${org + 1}`,
    members: [notifiers[org]?.login ?? '', BOT.login],
    repos,
  }));
  const seed = lodashSeed({ users: [BOT, ...notifiers], orgs, firstRepoId: FIRST_REPO_ID, lodashOf: lodashInUse });
  parseSeed(seed, 'chaos seed');
  const seedPath = join(workDir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(seed));
  // Seed index of each organisation's first repo: configs of org o are configIdOf(first[o] … first[o] + sizes[o] - 1).
  const firstIndex = sizes.map((_, org) => sizes.slice(0, org).reduce((a, b) => a + b, 0));

  const start = scriptStarter({ cleanups: () => cleanups, started });
  const emulatorPort = await freePort();
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  await start(
    'github-emulator',
    SCRIPTS.emulator,
    { PORT: String(emulatorPort), CODE_HOST_SEED: seedPath, LOG_LEVEL: 'error' },
    `${emulatorUrl}/readyz`,
    120_000,
  );

  // A registry that knows no package: each job targets the notified version (unverified), which the checks expect.
  const registrySeedPath = join(dirname(seedPath), 'registry-seed.json');
  writeFileSync(registrySeedPath, JSON.stringify({ packages: [], credentials: [] }));
  const registryPort = await freePort();
  const registryUrl = `http://127.0.0.1:${registryPort}`;
  await start(
    'registry-emulator',
    SCRIPTS.registry,
    { PORT: String(registryPort), REGISTRY_SEED: registrySeedPath, LOG_LEVEL: 'error' },
    `${registryUrl}/readyz`,
  );

  const database = await createTestDatabase(options.databaseUrl, 'chaos_release');
  cleanups.unshift(['database', () => database.drop()]);
  const suffix = randomBytes(4).toString('hex');
  const exchange = `chaos.release.${suffix}`;
  const prefix = `chaos.release.${suffix}`;
  // A durable queue of the run's own: it keeps job events through a restart, and the tap reconnects after one.
  const observer: EventTap = await tapEvents(broker.url, exchange, {
    bindings: ['pull_request_job.created'],
    durableQueue: `${prefix}.observer`,
  });
  cleanups.unshift(['event observer', () => observer.close()]);

  const common: ReleaseCommonEnv = {
    DATABASE_URL: database.url,
    AMQP_URL: broker.url,
    EVENTS_EXCHANGE: exchange,
    QUEUE_PREFIX: prefix,
    // This stack plays config-svc's state events, not its checkpoints: plan each notification on arrival.
    CONFIG_CHECKPOINT_TIMEOUT_MS: '0',
    CODE_HOST_API_URL: emulatorUrl,
    ...emulatorRegistryEnv(registryUrl),
  };
  const api = await startReleaseApi(start, common);
  const workerEnv = { ...options.workerTuning, CODE_HOST_TOKEN: BOT.token };
  const workers: WorkerProcess[] = [];
  let workersStarted = 0;
  const nextWorker = () => {
    workersStarted += 1;
    return startWorker(start, `release worker ${workersStarted}`, common, workerEnv, 60_000);
  };
  for (let n = 0; n < options.workers; n += 1) workers.push(await nextWorker());
  const gatewayPort = await freePort();
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  await start('gateway', SCRIPTS.gateway, { PORT: String(gatewayPort), RELEASE_SVC_URL: api.url }, `${gatewayUrl}/readyz`);

  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  cleanups.unshift(['database client', () => client.end()]);

  // The read model, as config-svc's events build it.
  const connection = await amqplib.connect(broker.url);
  connection.on('error', () => {});
  try {
    await publishAll(connection, exchange, readModelEvents(seed));
  } finally {
    await connection.close().catch(() => {});
  }
  await waitForReadModel(client, { configs: options.configs, repos: options.configs, accounts: options.orgs }, 120, 'chaos run');
  report.seconds.setup = (performance.now() - setupBegan) / 1000;
  log(
    `stack ready in ${report.seconds.setup.toFixed(1)} s: ${options.configs} configs in ${options.orgs} organisations, ` +
      `${options.workers} workers; sending ${options.notifications} notifications over ${options.sendSeconds} s`,
  );

  // --- The chaos: sending, and the restarts and kills spread over the same window. --------------------------------
  const chaosBegan = performance.now();
  const at = () => (performance.now() - chaosBegan) / 1000;
  const ids = new Array<string | undefined>(options.notifications);
  let outage = false;
  const unfinished = async () =>
    report.accepted -
    ((await client.query<{ n: number }>(`select count(*)::int as n from release.notification where status = 'done'`)).rows[0]?.n ?? 0);

  const sending = (async () => {
    const spacingMs = (options.sendSeconds * 1000) / options.notifications;
    const inFlight = new Set<Promise<void>>();
    for (let k = 0; k < options.notifications; k += 1) {
      const due = chaosBegan + k * spacingMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      while (inFlight.size >= 8) await Promise.race(inFlight);
      const { org, version } = notificationPlan(k, options.orgs);
      if (outage) report.sentDuringOutage += 1;
      report.sent += 1;
      const posting = (async () => {
        try {
          const res = await fetch(`${gatewayUrl}/release_notifications/private`, {
            method: 'POST',
            headers: {
              authorization: `Personal ${notifiers[org]?.token}`,
              'content-type': 'application/json',
              prefer: 'return=representation',
            },
            body: JSON.stringify({ name: 'lodash', version, 'package-manager': 'npm_and_yarn' }),
          });
          const text = await res.text();
          const id = res.status === 202 ? (JSON.parse(text) as { data?: { id?: string } }).data?.id : undefined;
          if (id) {
            ids[k] = id;
            report.accepted += 1;
          } else problem(`notification ${k} (lodash ${version}) answered ${res.status}: ${text.slice(0, 300)}`);
        } catch (error) {
          problem(`notification ${k} (lodash ${version}) failed: ${(error as Error).message}`);
        }
      })();
      inFlight.add(posting);
      void posting.finally(() => inFlight.delete(posting));
    }
    await Promise.all(inFlight);
    log(`[${at().toFixed(1)} s] ${report.sent} notifications sent, ${report.accepted} accepted`);
  })();

  const chaos = (async () => {
    const plan: Array<'broker restart' | 'worker kill'> = [];
    for (let i = 0; i < Math.max(options.brokerRestarts, options.workerKills); i += 1) {
      if (i < options.brokerRestarts) plan.push('broker restart');
      if (i < options.workerKills) plan.push('worker kill');
    }
    let kills = 0;
    for (const [i, kind] of plan.entries()) {
      const due = chaosBegan + ((i + 1) * options.sendSeconds * 1000) / (plan.length + 1);
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      // A worker is killed while there is work in flight (up to 5 s later): a kill of an idle worker proves little.
      let open = await unfinished();
      for (const until = performance.now() + 5_000; kind === 'worker kill' && open === 0 && performance.now() < until; ) {
        await sleep(20);
        open = await unfinished();
      }
      const atSeconds = at();
      if (kind === 'broker restart') {
        outage = true;
        const timings = await broker.restart(options.downSeconds * 1000).finally(() => {
          outage = false;
        });
        report.events.push({ kind, atSeconds, unfinished: open, timings });
        log(
          `[${atSeconds.toFixed(1)} s] broker restarted with ${open} notifications unfinished: stop ${(timings.stopMs / 1000).toFixed(1)} s, ` +
            `down ${(timings.downMs / 1000).toFixed(1)} s, start ${(timings.startMs / 1000).toFixed(1)} s`,
        );
      } else {
        const slot = kills % workers.length;
        kills += 1;
        const victim = workers[slot] as WorkerProcess;
        const name = started.find(([, p]) => p === victim.process)?.[0] ?? 'a worker';
        await victim.process.stop('SIGKILL');
        const killedAt = performance.now();
        const replacement = await nextWorker();
        workers[slot] = replacement;
        const replacementName = started.find(([, p]) => p === replacement.process)?.[0] ?? 'a worker';
        const replacedInSeconds = (performance.now() - killedAt) / 1000;
        report.events.push({ kind, atSeconds, unfinished: open, worker: name, replacement: replacementName, replacedInSeconds });
        log(
          `[${atSeconds.toFixed(1)} s] ${name} SIGKILLed with ${open} notifications unfinished; ${replacementName} ready ${replacedInSeconds.toFixed(1)} s later`,
        );
      }
    }
  })();

  const [sent, chaosDone] = await Promise.allSettled([sending, chaos]);
  if (sent.status === 'rejected') problem(`sending failed: ${(sent.reason as Error).stack ?? String(sent.reason)}`);
  if (chaosDone.status === 'rejected') problem(`a chaos step failed: ${(chaosDone.reason as Error).stack ?? String(chaosDone.reason)}`);

  // --- Quiet: every accepted notification done, the outbox empty, the job events arrived. -------------------------
  const quietDeadline = performance.now() + options.quietTimeoutSeconds * 1000;
  let lastLog = performance.now();
  for (;;) {
    const { rows } = await client.query<{ open: number; unpublished: number; jobs: number }>(
      `select (select count(*)::int from release.notification where status <> 'done') as open,
              (select count(*)::int from release.outbox where published_at is null) as unpublished,
              (select count(*)::int from release.pull_request_job) as jobs`,
    );
    const row = rows[0] ?? { open: -1, unpublished: -1, jobs: -1 };
    const distinctJobEvents = new Set(observer.events.map((e) => (e.data as { id: number }).id)).size;
    if (row.open === 0 && row.unpublished === 0 && distinctJobEvents >= row.jobs) break;
    if (performance.now() > quietDeadline) {
      problem(
        `not quiet ${options.quietTimeoutSeconds} s after sending: ${row.open} notifications not done, ${row.unpublished} outbox rows ` +
          `unpublished, ${distinctJobEvents} job events of ${row.jobs} jobs`,
      );
      break;
    }
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      log(`[${at().toFixed(1)} s] waiting: ${row.open} notifications not done, ${row.unpublished} unpublished, ${row.jobs} jobs`);
    }
    await sleep(250);
  }
  report.seconds.chaos = at();
  log(`[${report.seconds.chaos.toFixed(1)} s] quiet`);
  // A job event delivered twice would arrive within moments of the first: give late duplicates a chance to show.
  await sleep(1_000);

  await check(client, broker, prefix, observer, { options, sizes, firstIndex, ids, report });
}

/** Compares what the database, the exchange and the queues hold with the expected set. */
async function check(
  client: pg.Client,
  broker: PrivateRabbitMQ,
  prefix: string,
  observer: EventTap,
  context: { options: ChaosOptions; sizes: number[]; firstIndex: number[]; ids: Array<string | undefined>; report: ChaosReport },
): Promise<void> {
  const { options, sizes, firstIndex, ids, report } = context;
  const problem = (message: string) => report.problems.push(message);
  const examples = (list: readonly string[]) => `${list.slice(0, 5).join('; ')}${list.length > 5 ? `; … (${list.length} in all)` : ''}`;

  // The expected set: config id and target version → the notification that calls for the job, and each result.
  const expectedJobs = new Map<string, string>();
  const expectedOutcome = new Map<string, string>();
  for (let k = 0; k < options.notifications; k += 1) {
    const id = ids[k];
    if (!id) continue;
    const { org, version } = notificationPlan(k, options.orgs);
    for (let i = 0; i < (sizes[org] ?? 0); i += 1) {
      const index = (firstIndex[org] ?? 0) + i;
      const outdated = patchOf(lodashInUse(index)) < patchOf(version);
      if (outdated) expectedJobs.set(`${configIdOf(index)}@${version}`, id);
      expectedOutcome.set(`${id}/${configIdOf(index)}`, outdated ? 'job-recorded' : 'up-to-date');
    }
  }
  report.expectedJobs = expectedJobs.size;

  // Notifications: all accepted ones stored and done.
  const notifications = (
    await client.query<{ id: string; status: string; configs_total: number | null }>(
      'select id, status, configs_total from release.notification',
    )
  ).rows;
  const accepted = new Set(ids.filter((id): id is string => id !== undefined));
  report.notificationsDone = notifications.filter((n) => n.status === 'done' && accepted.has(n.id)).length;
  const notDone = notifications.filter((n) => n.status !== 'done').map((n) => `${n.id} ${n.status}`);
  if (notDone.length > 0) problem(`${notDone.length} notifications not done: ${examples(notDone)}`);
  const strangers = notifications.filter((n) => !accepted.has(n.id)).map((n) => n.id);
  if (strangers.length > 0) problem(`${strangers.length} notifications stored that no 202 answered: ${examples(strangers)}`);
  const missingNotifications = [...accepted].filter((id) => !notifications.some((n) => n.id === id));
  if (missingNotifications.length > 0)
    problem(`${missingNotifications.length} accepted notifications not stored: ${examples(missingNotifications)}`);

  // Results: one per config of each notification's organisation, with the expected outcome.
  const results = (
    await client.query<{ notification_id: string; update_config_id: number; outcome: string; reason: string }>(
      'select notification_id, update_config_id, outcome, reason from release.scan_result',
    )
  ).rows;
  const wrong: string[] = [];
  const seen = new Set<string>();
  for (const result of results) {
    const key = `${result.notification_id}/${result.update_config_id}`;
    seen.add(key);
    const expected = expectedOutcome.get(key);
    if (expected !== result.outcome) wrong.push(`${key}: ${result.outcome} (${result.reason}), expected ${expected ?? 'no result'}`);
  }
  for (const key of expectedOutcome.keys()) if (!seen.has(key)) wrong.push(`${key}: no result`);
  report.wrongResults = wrong.length;
  if (wrong.length > 0) problem(`${wrong.length} scan results missing or wrong: ${examples(wrong)}`);

  // Jobs: each expected one exactly once, under its notification; nothing else.
  const jobs = (
    await client.query<{ id: number; notification_id: string; update_config_id: number; dependency_name: string; target_version: string }>(
      'select id, notification_id, update_config_id, dependency_name, target_version from release.pull_request_job',
    )
  ).rows;
  report.jobsFound = jobs.length;
  const rowsOf = new Map<string, typeof jobs>();
  for (const job of jobs) {
    const key = `${job.update_config_id}@${job.target_version}`;
    rowsOf.set(key, [...(rowsOf.get(key) ?? []), job]);
  }
  const lost = [...expectedJobs.keys()].filter((key) => !rowsOf.has(key));
  const duplicated = [...rowsOf.entries()].filter(([, rows]) => rows.length > 1);
  const unexpected = jobs.filter(
    (job) => job.dependency_name !== 'lodash' || expectedJobs.get(`${job.update_config_id}@${job.target_version}`) !== job.notification_id,
  );
  report.lost = lost.length;
  report.unexpected = unexpected.length;
  if (lost.length > 0) problem(`${lost.length} expected jobs (config@version) lost: ${examples(lost)}`);
  if (duplicated.length > 0)
    problem(`${duplicated.length} jobs recorded more than once: ${examples(duplicated.map(([key, rows]) => `${key} ×${rows.length}`))}`);
  if (unexpected.length > 0)
    problem(
      `${unexpected.length} jobs not expected (or under another notification): ${examples(unexpected.map((j) => `job ${j.id} ${j.update_config_id}@${j.target_version} of ${j.notification_id}`))}`,
    );

  // Job events: one event id per job (redeliveries of that id are at-least-once's right), none missing.
  const eventIdsOf = new Map<number, Set<string>>();
  for (const event of observer.events) {
    const jobId = (event.data as { id: number }).id;
    eventIdsOf.set(jobId, (eventIdsOf.get(jobId) ?? new Set()).add(event.id));
  }
  const missingEvents = jobs.filter((job) => !eventIdsOf.has(job.id)).map((job) => `job ${job.id}`);
  const doubleEvents = [...eventIdsOf.entries()].filter(([, eventIds]) => eventIds.size > 1);
  report.jobEvents = { distinct: eventIdsOf.size, deliveries: observer.deliveries.length, missing: missingEvents.length };
  report.duplicated =
    duplicated.reduce((sum, [, rows]) => sum + rows.length - 1, 0) + doubleEvents.reduce((sum, [, e]) => sum + e.size - 1, 0);
  if (missingEvents.length > 0)
    problem(`${missingEvents.length} jobs without a pull_request_job.created event: ${examples(missingEvents)}`);
  if (doubleEvents.length > 0)
    problem(`${doubleEvents.length} jobs announced by two different events: ${examples(doubleEvents.map(([id]) => `job ${id}`))}`);

  // Nothing left behind: the outbox, the parking and retry queues.
  report.unpublished =
    (await client.query<{ n: number }>('select count(*)::int as n from release.outbox where published_at is null')).rows[0]?.n ?? 0;
  if (report.unpublished > 0) problem(`${report.unpublished} outbox rows never published`);
  const connection = await amqplib.connect(broker.url);
  connection.on('error', () => {});
  try {
    for (const queue of releaseQueues(prefix)) {
      if (!/\.(parking|retry\.\d+ms)$/.test(queue)) continue;
      // A queue that was never needed was never declared: a channel per check, since a missing one closes it.
      const channel = await connection.createChannel();
      channel.on('error', () => {});
      const count = await channel.checkQueue(queue).then(
        (ok) => ok.messageCount,
        () => 0,
      );
      await channel.close().catch(() => {});
      if (count === 0) continue;
      if (queue.endsWith('.parking')) report.parked += count;
      else report.retrying += count;
      problem(`${count} messages left in ${queue}`);
    }
  } finally {
    await connection.close().catch(() => {});
  }
}

/** The report as the lines `chaos:release` prints. */
export function formatChaosReport(report: ChaosReport): string {
  const o = report.options;
  const restarts = report.events.filter((e) => e.kind === 'broker restart').length;
  const kills = report.events.filter((e) => e.kind === 'worker kill').length;
  const lines = [
    `release pipeline chaos run: ${o.configs} configs in ${o.orgs} organisations, ${o.notifications} notifications over ` +
      `${o.sendSeconds} s, ${o.workers} workers; ${o.brokerRestarts} broker restarts (down ${o.downSeconds} s each), ${o.workerKills} worker SIGKILLs`,
    '',
    `notifications sent          ${report.sent} (${report.accepted} accepted, ${report.sentDuringOutage} while the broker was restarting)`,
    `notifications done          ${report.notificationsDone}`,
    `expected jobs               ${report.expectedJobs}`,
    `jobs found                  ${report.jobsFound}`,
    `lost                        ${report.lost}`,
    `duplicated                  ${report.duplicated}`,
    `unexpected                  ${report.unexpected}`,
    `scan results wrong/missing  ${report.wrongResults}`,
    `job events                  ${report.jobEvents.distinct} distinct, ${report.jobEvents.deliveries} deliveries, ${report.jobEvents.missing} missing`,
    `outbox unpublished          ${report.unpublished}`,
    `parked / retrying messages  ${report.parked} / ${report.retrying}`,
    `broker restarts done        ${restarts} of ${o.brokerRestarts}`,
    `worker kills done           ${kills} of ${o.workerKills}`,
    ...report.events.map((e) =>
      e.kind === 'broker restart'
        ? `  ${e.atSeconds.toFixed(1).padStart(6)} s  broker restart (${e.unfinished} notifications unfinished): stop ${(e.timings.stopMs / 1000).toFixed(1)} s, down ${(e.timings.downMs / 1000).toFixed(1)} s, start ${(e.timings.startMs / 1000).toFixed(1)} s`
        : `  ${e.atSeconds.toFixed(1).padStart(6)} s  SIGKILL ${e.worker} (${e.unfinished} notifications unfinished); ${e.replacement} ready in ${e.replacedInSeconds.toFixed(1)} s`,
    ),
    `time                        ${report.seconds.total.toFixed(1)} s in all: stack ${report.seconds.setup.toFixed(1)} s, first notification to quiet ${report.seconds.chaos.toFixed(1)} s`,
  ];
  if (report.problems.length > 0) lines.push('', 'PROBLEMS:', ...report.problems.map((p) => `  ${p}`));
  else lines.push('', 'OK: nothing lost, nothing duplicated, everything done');
  return `${lines.join('\n')}\n`;
}
