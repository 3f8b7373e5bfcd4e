/**
 * `node bench/dependency-api.bench.ts`: the dependency update API through the gateway, in one run.
 *
 * It writes a GitHub emulator seed (user `bench`, token `bench-token`, member with write permission of
 * org `bench-org`, id 5000, which holds 5,000 generated repos with ids from 500000, each with a `package.json` on
 * `main`, which config-svc checks the directory of a config for), makes a fresh
 * database, and starts the emulator, config-svc (PostgreSQL, RabbitMQ on an exchange of its own,
 * `bench.<random>`, that nothing is bound to) and the gateway as their own processes (LOG_LEVEL=warn).
 * Then it measures:
 *
 * - the bulk import: `POST /update_configs` for 1,000 distinct repos of the org by 16 concurrent clients
 *   (autocannon, one request per repo), after a warm-up on 32 other repos whose configs are deleted
 *   again; it prints configs per second and the p50/p99 latency, and checks that every one answered 201;
 * - `GET /repos?account-id=5000&account-type=org&installation-state=inactive` for the first and the last
 *   inactive page (4,000 inactive repos, 100 a page: pages 1 and 40), each checked first (200, 100 repos,
 *   `meta.pages.next` 2 and null), warmed up for 3 s, then measured for BENCH_DURATION seconds;
 * - the bulk import again on 1,000 other repos, right after a `GET /repos` (as a client that lists the repos first
 *   imports): the listing gave config-svc every repo with the caller's permission, so each POST asks the code host only
 *   for the listing of its directory.
 *
 * Alongside the import it counts, per created config, the requests the emulator answered to the bench's token
 * (its `x-ratelimit-used`, read with `GET /user` before and after) and what PostgreSQL's `pg_stat_database` shows for the
 * bench database (transactions committed, rows written; the outbox relay's own polls included).
 *
 * config-svc caches what the code host says (the token's user and accounts, each repo, the org's repo
 * listing, each directory listing) for CODE_HOST_CACHE_TTL_MS (default 60 s), so each POST asks the emulator for its
 * repo and for the listing of its directory once, and GET /repos fetches the 5,000-repo listing (50 emulator pages) again only when the cache expires.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may
 * CREATE DATABASE), BENCH_AMQP_URL (amqp://guest:guest@127.0.0.1:5672), BENCH_DURATION seconds per
 * GET measurement (10), BENCH_CONNECTIONS of the GET measurements (16), BENCH_PROFILE_DIR (every child process
 * runs with `--cpu-prof` into it: the figures are then not the real ones). Exits 1 when a check failed.
 */

import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { generateRepos, parseSeed, type SeedInput } from '@switchyard/github-emulator';
import { createTestDatabase, deleteConsumerQueues, freePort, type RunningProcess, startProcess } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import autocannon from 'autocannon';
import pg from 'pg';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const profileDir = process.env.BENCH_PROFILE_DIR;
const root = new URL('../', import.meta.url);

const TOKEN = 'bench-token';
const ORG = { id: 5000, login: 'bench-org' };
const REPOS = 5_000;
const FIRST_REPO_ID = 500_000;
const CONFIGS = 1_000;
const IMPORT_CLIENTS = 16;
const WARMUP_CONFIGS = 32;
const PAGE_SIZE = 100;
const LAST_PAGE = Math.ceil((REPOS - CONFIGS) / PAGE_SIZE);
const headers = { authorization: `Personal ${TOKEN}`, 'content-type': 'application/json' };

/** Every fifth repo of the org gets a config (so active and inactive repos interleave by name); warm-up configs go on their neighbours. */
const importIds = Array.from({ length: CONFIGS }, (_, i) => FIRST_REPO_ID + 5 * i);
const warmupIds = Array.from({ length: WARMUP_CONFIGS }, (_, i) => FIRST_REPO_ID + 5 * i + 1);
/** The second import's repos (after a `GET /repos`): the neighbours on the other side. */
const listedImportIds = Array.from({ length: CONFIGS }, (_, i) => FIRST_REPO_ID + 5 * i + 2);

interface Result {
  scenario: string;
  rate: number;
  unit: 'configs/s' | 'req/s';
  p50: number;
  p99: number;
  errors: number;
}

const failures: string[] = [];
function check(ok: boolean, message: string): void {
  if (!ok) failures.push(message);
}

/** POSTs one update config per repo id, `IMPORT_CLIENTS` at a time, each id exactly once. */
async function postConfigs(url: string, repoIds: readonly number[]) {
  let next = 0;
  const statuses = new Map<number, number>();
  const created: string[] = [];
  // autocannon notices the end only at its next 1 s sample tick, so its own duration is rounded up: time it here.
  const started = performance.now();
  let lastResponse = started;
  const result = await autocannon({
    url,
    connections: Math.min(IMPORT_CLIENTS, repoIds.length),
    amount: repoIds.length,
    headers,
    requests: [
      {
        method: 'POST',
        path: '/update_configs',
        setupRequest: (req) => {
          // autocannon builds each request just before sending it; more than repoIds.length would mean a resend.
          const repoId = repoIds[next] ?? FIRST_REPO_ID + REPOS + next;
          next += 1;
          const body = {
            'repo-id': repoId,
            'account-id': String(ORG.id),
            'account-type': 'org',
            directory: '/',
            'update-schedule': 'daily',
            'package-manager': 'npm_and_yarn',
          };
          return { ...req, body: JSON.stringify(body) };
        },
        onResponse: (status, body) => {
          lastResponse = performance.now();
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 201) return;
          try {
            created.push(JSON.parse(body).data.id);
          } catch {
            // an unreadable 201 body only means this warm-up config is not deleted again
          }
        },
      },
    ],
  });
  const ok = statuses.get(201) ?? 0;
  return {
    result,
    seconds: (lastResponse - started) / 1000,
    created,
    handedOut: next,
    errors: repoIds.length - ok + result.errors,
    statuses: [...statuses].map(([status, count]) => `${status}×${count}`).join(', '),
  };
}

/** Requests the emulator counted for the bench's token so far (`x-ratelimit-used` of a `GET /user`, which counts itself). */
async function codeHostRequests(emulatorUrl: string): Promise<number> {
  const res = await fetch(`${emulatorUrl}/user`, { headers: { authorization: `token ${TOKEN}` } });
  await res.arrayBuffer();
  const used = Number(res.headers.get('x-ratelimit-used'));
  if (res.status !== 200 || !Number.isFinite(used)) throw new Error(`emulator GET /user answered ${res.status}, x-ratelimit-used ${used}`);
  return used;
}

/** Transactions committed and rows written in database `name` so far, as `pg_stat_database` reports them. */
async function databaseActivity(name: string): Promise<{ commits: number; rowsWritten: number }> {
  // A backend reports its counts at most once a second, and when it goes idle: let the last ones arrive.
  await delay(1_500);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ commits: string; rows_written: string }>(
      `select xact_commit as commits, tup_inserted + tup_updated + tup_deleted as rows_written
         from pg_stat_database where datname = $1`,
      [name],
    );
    const [row] = rows;
    if (!row) throw new Error(`no pg_stat_database row for ${name}`);
    return { commits: Number(row.commits), rowsWritten: Number(row.rows_written) };
  } finally {
    await client.end();
  }
}

function measure(url: string, path: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: seconds, headers, requests: [{ method: 'GET', path }] });
}

async function getJson(url: string) {
  const res = await fetch(url, { headers });
  const text = await res.text();
  let body: { data?: unknown[]; meta?: { pages?: { next?: unknown } } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, text, body };
}

const workDir = mkdtempSync(join(tmpdir(), 'bench-dependency-api-'));
const exchange = `bench.${randomBytes(4).toString('hex')}`;
const processes: Array<[string, RunningProcess]> = [];
const results: Result[] = [];
const cleanups: Array<[string, () => Promise<unknown>]> = [['temp dir', async () => rmSync(workDir, { recursive: true, force: true })]];

try {
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const seed: SeedInput = {
    users: [{ id: 4000, login: 'bench', token: TOKEN, name: 'Bench User' }],
    organizations: [{ ...ORG, name: 'Bench Org', members: [{ login: 'bench', role: 'member' }], defaultRepoPermission: 'write' }],
    // Each config's directory holds its package manager's files: config-svc lists it on create.
    repos: generateRepos(ORG.login, REPOS, FIRST_REPO_ID, { files: { 'package.json': '{}\n' } }),
    // GitHub's 5,000 an hour would not last: every POST asks for its repo, and a listing is 50 pages.
    rateLimit: { limit: 1_000_000, windowSeconds: 3_600 },
  };
  parseSeed(seed, 'benchmark seed');
  const seedPath = join(workDir, 'seed.json');
  writeFileSync(seedPath, JSON.stringify(seed));

  const database = await createTestDatabase(adminUrl, 'bench_config');
  cleanups.unshift(['database', () => database.drop()]);
  cleanups.unshift([
    'exchanges',
    async () => {
      const connection = await amqplib.connect(amqpUrl);
      try {
        const channel = await connection.createChannel();
        await channel.deleteExchange(exchange);
        await channel.deleteExchange(`${exchange}.dlx`);
      } finally {
        await connection.close();
      }
      await deleteConsumerQueues(amqpUrl, [
        `${exchange}.release-notifications`,
        `${exchange}.config-files`,
        `${exchange}.app-installations`,
      ]);
    },
  ]);

  const [emulatorPort, configPort, gatewayPort] = [await freePort(), await freePort(), await freePort()];
  const emulatorUrl = `http://127.0.0.1:${emulatorPort}`;
  const configUrl = `http://127.0.0.1:${configPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const start = async (name: string, script: string, env: Record<string, string>, readyUrl: string) => {
    const profiling: Record<string, string> = profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } : {};
    const running = await startProcess(
      new URL(script, root).pathname,
      { HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, ...profiling },
      readyUrl,
    );
    if (profileDir) process.stdout.write(`profiling ${name}: pid ${running.child.pid}\n`);
    processes.push([name, running]);
    cleanups.unshift([name, () => running.stop()]);
  };
  await start(
    'github-emulator',
    'packages/github-emulator/src/main.ts',
    { PORT: String(emulatorPort), CODE_HOST_SEED: seedPath },
    `${emulatorUrl}/readyz`,
  );
  await start(
    'config-svc',
    'services/config-svc/src/main.ts',
    {
      PORT: String(configPort),
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: exchange,
      CODE_HOST_API_URL: emulatorUrl,
    },
    `${configUrl}/readyz`,
  );
  await start('gateway', 'services/gateway/src/main.ts', { PORT: String(gatewayPort), CONFIG_SVC_URL: configUrl }, `${gatewayUrl}/readyz`);

  // Warm-up of the import path (JIT, pools, the caller cache), on other repos; their configs are deleted again.
  const warmup = await postConfigs(gatewayUrl, warmupIds);
  check(warmup.errors === 0, `warm-up: expected ${WARMUP_CONFIGS} × 201, got ${warmup.statuses} and ${warmup.result.errors} errors`);
  check(warmup.created.length === WARMUP_CONFIGS, `warm-up: ${warmup.created.length} of ${WARMUP_CONFIGS} created configs to delete again`);
  for (const id of warmup.created) {
    const res = await fetch(`${gatewayUrl}/update_configs/${id}`, { method: 'DELETE', headers });
    check(res.status === 204, `warm-up: DELETE /update_configs/${id} answered ${res.status}`);
  }

  const hostBefore = await codeHostRequests(emulatorUrl);
  const dbBefore = await databaseActivity(database.name);
  const bulk = await postConfigs(gatewayUrl, importIds);
  const dbAfter = await databaseActivity(database.name);
  // Less this look-up itself.
  const hostRequests = (await codeHostRequests(emulatorUrl)) - hostBefore - 1;
  check(bulk.errors === 0, `bulk import: expected ${CONFIGS} × 201, got ${bulk.statuses} and ${bulk.result.errors} errors`);
  check(bulk.handedOut === CONFIGS, `bulk import: ${bulk.handedOut} requests built for ${CONFIGS} repos (resends)`);
  results.push({
    scenario: `POST /update_configs (${CONFIGS} repos)`,
    rate: CONFIGS / bulk.seconds,
    unit: 'configs/s',
    p50: bulk.result.latency.p50,
    p99: bulk.result.latency.p99,
    errors: bulk.errors,
  });

  const reposPath = (state: 'active' | 'inactive', page: number) =>
    `/repos?account-id=${ORG.id}&account-type=org&installation-state=${state}&page=${page}`;
  const active = await getJson(`${gatewayUrl}${reposPath('active', 1)}`);
  check(
    active.status === 200 && active.body?.data?.length === CONFIGS,
    `GET /repos active: expected 200 with ${CONFIGS} repos, got ${active.status} with ${active.body?.data?.length ?? active.text.slice(0, 200)}`,
  );

  for (const [page, next] of [
    [1, 2],
    [LAST_PAGE, null],
  ] as const) {
    const path = reposPath('inactive', page);
    const first = await getJson(`${gatewayUrl}${path}`);
    check(
      first.status === 200 && first.body?.data?.length === PAGE_SIZE && first.body?.meta?.pages?.next === next,
      `GET /repos inactive page ${page}: expected 200 with ${PAGE_SIZE} repos and next ${next}, got ${first.status} with ` +
        `${first.body?.data?.length ?? first.text.slice(0, 200)} repos and next ${first.body?.meta?.pages?.next}`,
    );
    await measure(gatewayUrl, path, 3); // warm-up
    const r = await measure(gatewayUrl, path, duration);
    results.push({
      scenario: `GET /repos inactive page ${page}`,
      rate: r.requests.average,
      unit: 'req/s',
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    });
    check(r.errors + r.non2xx === 0, `GET /repos inactive page ${page}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
  }

  // The import again, on other repos, as a client does it that listed the account's repos first (the dashboard's
  // repos view): the listing told config-svc each repo and the caller's permission, so a POST asks the code host only
  // for its directory's listing.
  const listed = await getJson(`${gatewayUrl}${reposPath('inactive', 1)}`);
  check(listed.status === 200, `GET /repos before the second import answered ${listed.status}`);
  const hostBeforeListed = await codeHostRequests(emulatorUrl);
  const afterListing = await postConfigs(gatewayUrl, listedImportIds);
  const hostRequestsListed = (await codeHostRequests(emulatorUrl)) - hostBeforeListed - 1;
  check(afterListing.errors === 0, `import after the listing: expected ${CONFIGS} × 201, got ${afterListing.statuses}`);
  results.push({
    scenario: `same, after GET /repos`,
    rate: CONFIGS / afterListing.seconds,
    unit: 'configs/s',
    p50: afterListing.result.latency.p50,
    p99: afterListing.result.latency.p99,
    errors: afterListing.errors,
  });

  const pad = (value: string | number, width: number) => String(value).padStart(width);
  process.stdout.write(
    `\ndependency API benchmark through the gateway: org of ${REPOS} repos, ${CONFIGS} configs by ${IMPORT_CLIENTS} clients, ` +
      `GET /repos with ${connections} connections for ${duration} s per run, Node ${process.versions.node}` +
      `${profileDir ? '; PROFILING' : ''}\n\n`,
  );
  process.stdout.write(
    `${'scenario'.padEnd(36)}${pad('rate', 8)} ${'unit'.padEnd(10)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('errors', 8)}\n`,
  );
  for (const r of results) {
    process.stdout.write(
      `${r.scenario.padEnd(36)}${pad(r.rate.toFixed(r.rate < 100 ? 1 : 0), 8)} ${r.unit.padEnd(10)}${pad(r.p50, 8)}${pad(r.p99, 8)}${pad(r.errors, 8)}\n`,
    );
  }
  const perConfig = (n: number) => (n / CONFIGS).toFixed(2);
  process.stdout.write(
    `\nbulk import: ${CONFIGS} configs in ${bulk.seconds.toFixed(2)} s; per config: ${perConfig(hostRequests)} code-host requests, ` +
      `${perConfig(dbAfter.commits - dbBefore.commits)} PostgreSQL transactions, ${perConfig(dbAfter.rowsWritten - dbBefore.rowsWritten)} rows written\n` +
      `after GET /repos: ${CONFIGS} configs in ${afterListing.seconds.toFixed(2)} s; per config: ${perConfig(hostRequestsListed)} code-host requests\n`,
  );
} catch (error) {
  failures.push(`benchmark aborted: ${(error as Error).stack ?? String(error)}`);
} finally {
  if (failures.length > 0) {
    for (const [name, running] of processes)
      process.stderr.write(`\n--- ${name} output (last 4,000 characters) ---\n${running.output().slice(-4_000)}\n`);
  }
  for (const [name, cleanup] of cleanups) {
    await cleanup().catch((error: unknown) => process.stderr.write(`cleanup of ${name} failed: ${(error as Error).message}\n`));
  }
}

if (failures.length > 0) {
  process.stderr.write(`\nFAILED:\n  ${failures.join('\n  ')}\n`);
  process.exitCode = 1;
}
