/**
 * What the release benchmark (`release.bench.ts`) and the release chaos run (`release-chaos.ts`) share: the GitHub
 * emulator's seed of organisations whose repos use lodash, config-svc's events that fill release-svc's read model
 * from it, the services as OS processes, and the clean-up of a run's queues and exchanges.
 */

import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateRepos, type SeedInput } from '@switchyard/github-emulator';
import { freePort, type RunningProcess, startProcess } from '@switchyard/service-kit/testing';
import type { ChannelModel } from 'amqplib';
import type pg from 'pg';
import { orgState, repoState, updateConfigState } from '../services/release-svc/test/config-state.ts';

/** The repository's root folder. */
export const ROOT = new URL('../', import.meta.url);

/** The scripts the stack runs, relative to {@link ROOT}. */
export const SCRIPTS = {
  emulator: 'packages/github-emulator/src/main.ts',
  registry: 'packages/registry-emulator/src/main.ts',
  api: 'services/release-svc/src/main.ts',
  worker: 'services/release-svc/src/worker-main.ts',
  gateway: 'services/gateway/src/main.ts',
} as const;

/** A named clean-up step; a list of them is run first to last by {@link runCleanups} (add with `unshift`: last started, first undone). */
export type Cleanup = [name: string, run: () => Promise<unknown>];

/**
 * The end of a benchmark run, whatever happened: when anything failed, the last 4,000 characters of each started
 * process's output on stderr; then `cleanups` ({@link runCleanups}); then the failures on stderr and exit code 1.
 */
export async function finishBenchmark(
  failures: readonly string[],
  started: ReadonlyArray<[name: string, running: { output: () => string }]>,
  cleanups: Cleanup[],
): Promise<void> {
  if (failures.length > 0) {
    for (const [name, running] of started)
      process.stderr.write(`\n--- ${name} output (last 4,000 characters) ---\n${running.output().slice(-4_000)}\n`);
  }
  await runCleanups(cleanups);
  if (failures.length > 0) {
    process.stderr.write(`\nFAILED:\n  ${failures.join('\n  ')}\n`);
    process.exitCode = 1;
  }
}

/** Runs and empties `cleanups` in order; a failing step is reported on stderr and the others still run. */
export async function runCleanups(cleanups: Cleanup[]): Promise<void> {
  for (const [name, cleanup] of cleanups.splice(0)) {
    await cleanup().catch((error: unknown) => process.stderr.write(`cleanup of ${name} failed: ${(error as Error).message}\n`));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The seed: package.json and package-lock.json as npm 7+ writes them, with lodash at a given version.

/**
 * A package.json and a package-lock.json (lockfileVersion 3, as npm 7+ writes it) that use express, react, react-dom
 * and `lodash` at version `lodash` (range `^<version>`), with jest and typescript as development dependencies.
 * @returns file contents by path
 */
export function lodashManifests(lodash: string): Record<string, string> {
  return npmManifests(
    'bench-app',
    { express: '4.18.2', lodash, react: '18.2.0', 'react-dom': '18.2.0' },
    { jest: '29.7.0', typescript: '5.4.5' },
  );
}

/**
 * A package.json of package `name` that needs each of `runtime` and `development` (name → version) at `^<version>`,
 * and the package-lock.json (lockfileVersion 3) that locks each at that version.
 * @returns file contents by path
 */
export function npmManifests(name: string, runtime: Record<string, string>, development: Record<string, string>): Record<string, string> {
  const ranges = (versions: Record<string, string>) => Object.fromEntries(Object.entries(versions).map(([n, v]) => [n, `^${v}`]));
  const top = { name, version: '1.0.0' };
  const packageJson = { ...top, private: true, dependencies: ranges(runtime), devDependencies: ranges(development) };
  const entry = (dep: string, version: string, dev: boolean) => [
    `node_modules/${dep}`,
    {
      version,
      resolved: `https://registry.npmjs.org/${dep}/-/${dep}-${version}.tgz`,
      integrity: `sha512-${'A'.repeat(86)}==`,
      ...(dev ? { dev: true } : {}),
    },
  ];
  const lock = {
    ...top,
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { ...top, dependencies: ranges(runtime), devDependencies: ranges(development) },
      ...Object.fromEntries([
        ...Object.entries(runtime).map(([n, v]) => entry(n, v, false)),
        ...Object.entries(development).map(([n, v]) => entry(n, v, true)),
      ]),
    },
  };
  return { 'package.json': `${JSON.stringify(packageJson, null, 2)}\n`, 'package-lock.json': `${JSON.stringify(lock, null, 2)}\n` };
}

/** A user of the emulator: id, login, token and display name. */
export interface SeedUser {
  id: number;
  login: string;
  token: string;
  name: string;
}

/** An organisation of {@link lodashSeed}: its members (read access to every repo) and how many repos it has. */
export interface SeedOrg {
  id: number;
  login: string;
  name: string;
  /** Logins of its members (role `member`). */
  members: readonly string[];
  repos: number;
}

/**
 * A GitHub emulator seed: `users`, the `orgs` with their generated repos (`repo-001`…, ids consecutive from
 * `firstRepoId` across the orgs in order), each repo with the {@link lodashManifests} of the version `lodashOf`
 * gives its index among all the seed's repos, on `main`; a rate limit of 1,000,000 an hour (GitHub's 5,000 would
 * not last: a scan makes 2 requests a repo, a listing and one GraphQL read of its files).
 */
export function lodashSeed(options: {
  users: readonly SeedUser[];
  orgs: readonly SeedOrg[];
  firstRepoId: number;
  lodashOf: (index: number) => string;
}): SeedInput {
  const manifests = new Map<string, Record<string, string>>();
  const filesOf = (version: string) => {
    let files = manifests.get(version);
    if (!files) {
      files = lodashManifests(version);
      manifests.set(version, files);
    }
    return files;
  };
  const repos: NonNullable<SeedInput['repos']> = [];
  for (const org of options.orgs) {
    for (const repo of generateRepos(org.login, org.repos, options.firstRepoId + repos.length))
      repos.push({ ...repo, files: { main: { ...filesOf(options.lodashOf(repos.length)) } } });
  }
  return {
    users: options.users.map((user) => ({ ...user })),
    organizations: options.orgs.map((org) => ({
      id: org.id,
      login: org.login,
      name: org.name,
      members: org.members.map((login) => ({ login, role: 'member' as const })),
      defaultRepoPermission: 'read' as const,
    })),
    repos,
    rateLimit: { limit: 1_000_000, windowSeconds: 3_600 },
  };
}

/** The update config id of the seed's repo at `index` (one config a repo). */
export const configIdOf = (index: number) => index + 1;

/** An event as config-svc publishes it, before its envelope. */
export interface ConfigEvent {
  type: string;
  data: unknown;
}

/**
 * config-svc's events for the seed: `account.created` of each organisation, and each repo's `repo.created` and
 * `update_config.created` (npm_and_yarn, directory `/`, id {@link configIdOf} its index), full state, revision 1.
 */
export function readModelEvents(seed: SeedInput): ConfigEvent[] {
  const orgs = seed.organizations ?? [];
  const accountOf = new Map(orgs.map((org) => [org.login, org.id]));
  const events: ConfigEvent[] = orgs.map((org) => ({ type: 'account.created', data: orgState(org.id, org.login) }));
  (seed.repos ?? []).forEach((repo, index) => {
    const accountId = accountOf.get(repo.owner);
    if (accountId === undefined) throw new Error(`repo ${repo.owner}/${repo.name} belongs to no organisation of the seed`);
    const fullName = `${repo.owner}/${repo.name}`;
    events.push({
      type: 'repo.created',
      data: repoState({
        id: repo.id,
        accountId,
        fullName,
        private: repo.private,
        language: repo.language,
        defaultBranch: repo.defaultBranch,
      }),
    });
    events.push({ type: 'update_config.created', data: updateConfigState({ id: configIdOf(index), repoId: repo.id, accountId }) });
  });
  return events;
}

/** Publishes events to `exchange` as config-svc would (persistent, with publisher confirms). */
export async function publishAll(connection: ChannelModel, exchange: string, events: ReadonlyArray<ConfigEvent>): Promise<void> {
  const channel = await connection.createConfirmChannel();
  try {
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const time = new Date().toISOString();
    for (const { type, data } of events) {
      const id = randomUUID();
      const body = Buffer.from(JSON.stringify({ id, type, source: 'config-svc', time, data }));
      const ok = channel.publish(exchange, type, body, { persistent: true, contentType: 'application/json', messageId: id });
      if (!ok) await once(channel, 'drain');
    }
    await channel.waitForConfirms();
  } finally {
    await channel.close().catch(() => {});
  }
}

/**
 * Waits until release-svc's read model (schema `release` of `client`'s database) holds `expected` accounts, repos and
 * update configs, polling every 200 ms.
 * @throws after `timeoutSeconds`, with what it holds
 */
export async function waitForReadModel(
  client: pg.Client,
  expected: { accounts: number; repos: number; configs: number },
  timeoutSeconds: number,
  label: string,
): Promise<void> {
  const deadline = Date.now() + timeoutSeconds * 1_000;
  for (;;) {
    const { rows } = await client.query<{ configs: number; repos: number; accounts: number }>(
      `select (select count(*)::int from release.update_config) as configs, (select count(*)::int from release.repo) as repos,
              (select count(*)::int from release.account) as accounts`,
    );
    const row = rows[0];
    if (row && row.configs === expected.configs && row.repos === expected.repos && row.accounts === expected.accounts) return;
    if (Date.now() > deadline) throw new Error(`${label}: the read model holds ${JSON.stringify(row)} after ${timeoutSeconds} s`);
    await sleep(200);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Queues and processes.

/** The worker's queues under `prefix`: main, parking and retry queues of its consumers (release-svc's `RELEASE_CONSUMERS`). */
export function releaseQueues(prefix: string): string[] {
  return ['read-model', 'notifications', 'scans', 'update-runs'].flatMap((q) => {
    const base = `${prefix}.${q}`;
    return [base, `${base}.parking`, `${base}.retry.1000ms`, `${base}.retry.5000ms`, `${base}.retry.30000ms`];
  });
}

/** Deletes the worker's queues under `prefix`, then `exchange` and its `.dlx` (what does not exist is skipped). */
export async function deleteReleaseTopology(connection: ChannelModel, exchange: string, prefix: string): Promise<void> {
  // a channel per deletion: a broker error closes the channel it happened on
  for (const [kind, name] of [
    ...releaseQueues(prefix).map((n) => ['queue', n] as const),
    ['exchange', exchange] as const,
    ['exchange', `${exchange}.dlx`] as const,
  ]) {
    const channel = await connection.createChannel();
    await (kind === 'queue' ? channel.deleteQueue(name) : channel.deleteExchange(name)).catch(() => {});
    await channel.close().catch(() => {});
  }
}

/** Starts a script of the stack (`SCRIPTS`) as its own process, ready when `readyUrl` answers 200. */
export type ScriptStarter = (
  name: string,
  script: string,
  env: Record<string, string>,
  readyUrl: string,
  timeoutMs?: number,
) => Promise<RunningProcess>;

/**
 * A {@link ScriptStarter} that runs `node <ROOT/script>` with HOST 127.0.0.1, LOG_LEVEL warn, `extraEnv` and the
 * call's env, keeps every process it started in `started` (for failure output) and puts a SIGTERM stop (15 s grace)
 * first in `cleanups`.
 */
export function scriptStarter(options: {
  cleanups: () => Cleanup[];
  started: Array<[string, RunningProcess]>;
  extraEnv?: Record<string, string>;
  onStart?: (name: string, running: RunningProcess) => void;
}): ScriptStarter {
  return async (name, script, env, readyUrl, timeoutMs) => {
    const running = await startProcess(
      new URL(script, ROOT).pathname,
      { HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.extraEnv, ...env },
      readyUrl,
      timeoutMs,
    );
    options.started.push([name, running]);
    options.cleanups().unshift([name, () => running.stop('SIGTERM', 15_000)]);
    options.onStart?.(name, running);
    return running;
  };
}

/** What release-svc's API and workers are given in common. */
export interface ReleaseCommonEnv {
  DATABASE_URL: string;
  AMQP_URL: string;
  EVENTS_EXCHANGE: string;
  QUEUE_PREFIX: string;
  CODE_HOST_API_URL: string;
  [name: string]: string;
}

/** A release worker process and the port of its health listener. */
export interface WorkerProcess {
  process: RunningProcess;
  healthUrl: string;
}

/**
 * Starts one release worker on a free `WORKER_PORT` with `common` and `workerEnv` (its tuning and `CODE_HOST_TOKEN`);
 * ready once `/readyz` answers 200 (database and broker connected, consumers declared).
 */
export async function startWorker(
  start: ScriptStarter,
  name: string,
  common: ReleaseCommonEnv,
  workerEnv: Record<string, string>,
  timeoutMs?: number,
): Promise<WorkerProcess> {
  const port = await freePort();
  const healthUrl = `http://127.0.0.1:${port}`;
  const process = await start(
    name,
    SCRIPTS.worker,
    { ...common, ...workerEnv, WORKER_PORT: String(port) },
    `${healthUrl}/readyz`,
    timeoutMs,
  );
  return { process, healthUrl };
}

/** Starts release-svc's API on a free port (it migrates the database before workers open it); returns it and its URL. */
export async function startReleaseApi(
  start: ScriptStarter,
  common: ReleaseCommonEnv,
  env: Record<string, string> = {},
): Promise<{ process: RunningProcess; url: string }> {
  const apiPort = await freePort();
  const url = `http://127.0.0.1:${apiPort}`;
  const process = await start('release-svc API', SCRIPTS.api, { ...common, ...env, PORT: String(apiPort) }, `${url}/readyz`);
  return { process, url };
}
