/**
 * `node bench/pull-requests.bench.ts [--repos N] [--deps M]`: how fast release-svc's worker turns pull-request jobs
 * into pull requests on the code host, and how many code-host requests one pull request costs.
 *
 * It writes a registry emulator seed of M pip packages (`bench-dep-001`…, default 5), each with the versions
 * {@link VERSIONS}, and a GitHub emulator seed: org `bench-org` (id 7200) with N generated repos (default 200, ids from
 * 720000, language Python), each with one `requirements.txt` on `main` that pins all M packages at the oldest version
 * (no lockfile), and the worker's bot `bench-bot` (token `bench-bot-token`), member of the org, whose base permission
 * is `write` (the bot makes branches, commits, pull requests and labels). Both emulators run in this process, each
 * behind a plain `node:http` server that counts what reaches it without changing the answers: the GitHub emulator's
 * requests by method and route shape (`GET /branches/{branch}`, `POST /git/trees`, …; the `/repos/{owner}/{repo}`
 * prefix left out), the registry emulator's requests under `/pypi/`.
 *
 * Then, on a new database, its own exchange `bench.pull-requests.<random>` and QUEUE_PREFIX: one release worker process
 * (LOG_LEVEL=warn; it migrates the database) with `PULL_REQUESTS=on`. Its `SCHEDULER_INTERVAL_MS` is an hour: the
 * loops on that interval (scheduled update runs, jobs waiting for the open pull-request limit, and the maintenance of
 * open pull requests, which looks at each newly opened one once with `GET /pulls/{n}` and `GET /branches/{branch}`)
 * run once when the worker starts, before any job exists, and not again during the pass, so every request counted is
 * the pass's runs' or the job executor's. The benchmark plays config-svc: it publishes the org's `account.created` with
 * `limit-open-pull-requests` off (so no job waits as `queued-limit`) and `limit-initial-update-runs` off (every
 * dependency gets its job in the first run), and each repo's `repo.created` and
 * `update_config.created` (pip, directory `/`, language python), and waits until the worker's read model holds them.
 *
 * The pass: one transaction requests a `manual` update run of every config (release-svc's `requestRun`, as "bump now"
 * does); the worker carries each run out (the branch's head, then the files at it: the run's requests), records a job
 * per dependency (each at the oldest version, to the newest, a major update) on the commit it read, and carries the
 * jobs out with the files it kept. It is timed from that transaction's commit until every run is done and every job
 * is past `pending` and `running` (the database polled every 200 ms).
 * It prints the runs, the jobs, the jobs `open` and the pull requests the emulator holds afterwards (a job that failed
 * after `POST /pulls` leaves one), the seconds, the pull requests per second (jobs `open`), the code-host requests of
 * the runs (`RUN_ROUTES`, once a run) and of the pull requests, in all and per pull request by route (a `POST /graphql`
 * by what its document does: the branch with its commit, the repository's id, a read), and without the
 * once-a-repository label set-up (`GET /labels`, `POST /labels`), the label races (a label made more than once in a
 * repository, from the `POST /labels` bodies), the registry requests (for the links of a pull request's body: not
 * code-host requests) and the failures by status and reason. Checks: every run done and every job `open`; no label
 * race; at most {@link MAX_REQUESTS_PER_PULL_REQUEST} code-host requests per pull request once its repository's
 * labels exist (printed as `≤ 4 requests per pull request: yes/no`; the label set-up a repository pays once, as
 * Dependabot did, is printed beside it); and, for 10 jobs spread over the pass, that the emulator's pull request is
 * open from the job's branch into `main` and that the branch's `requirements.txt` is `main`'s with the dependency's
 * line pinned at the target version. It prints PASS or FAIL per check and exits 1 when one failed.
 *
 * With `--limits SPEED` the GitHub emulator enforces GitHub's secondary limits (100 concurrent; 80 content-creating
 * requests a minute and 500 an hour) on a clock SPEED times as fast as the real one, and the worker paces its
 * content-creating requests by the same limits on the same time scale (`CODE_HOST_WRITE_LIMITS=80:<60000/SPEED>,
 * 500:<3600000/SPEED>`): it prints the content-creating requests per (emulated) hour as a share of the 500 allowed, and
 * the emulator's secondary-limit answers. Checks then: no secondary-limit answer, and at least 0.9 of the allowed rate.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may CREATE
 * DATABASE), BENCH_AMQP_URL (amqp://guest:guest@127.0.0.1:5672), the worker's BENCH_WORKER_PREFETCH (jobs at once) and
 * BENCH_DB_POOL_SIZE (release-svc's defaults when unset), BENCH_TIMEOUT seconds the pass may take (300).
 */

import { randomBytes, randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import {
  createGitHubEmulator,
  GITHUB_SECONDARY_LIMITS,
  generateRepos,
  parseSeed,
  REQUEST_COUNTER_PATH,
  type RequestCounts,
  type SeedInput,
} from '@switchyard/github-emulator';
import { createRegistryEmulator, emulatorRegistryEnv, type SeedInput as RegistrySeedInput } from '@switchyard/registry-emulator';
import { createLogger, openDatabase } from '@switchyard/service-kit';
import { createTestDatabase, type RunningProcess } from '@switchyard/service-kit/testing';
import amqplib, { type ChannelModel } from 'amqplib';
import pg from 'pg';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../services/release-svc/src/db/schema.ts';
import { requestRun } from '../services/release-svc/src/runs/run-request.service.ts';
import { orgState, repoState, updateConfigState } from '../services/release-svc/test/config-state.ts';
import { observedServer } from './observed-server.ts';
import {
  type Cleanup,
  type ConfigEvent,
  deleteReleaseTopology,
  finishBenchmark,
  publishAll,
  scriptStarter,
  startWorker,
  waitForReadModel,
} from './release-stack.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const timeoutSeconds = Number(process.env.BENCH_TIMEOUT ?? 300);

const { values: flags } = parseArgs({
  options: {
    repos: { type: 'string', default: '200' },
    deps: { type: 'string', default: '5' },
    limits: { type: 'string' },
  },
});
const positive = (name: string, text: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, not ${JSON.stringify(text)}`);
  return value;
};
const REPOS = positive('repos', flags.repos);
const DEPS = positive('deps', flags.deps);
const JOBS = REPOS * DEPS;
/** `--limits SPEED`: GitHub's secondary limits on a clock SPEED times as fast (undefined: no limits). */
const SPEED = flags.limits === undefined ? undefined : positive('limits', flags.limits);
/** The routes that create content (GitHub's secondary limit on content creation), as the bench counts them. */
const CONTENT_ROUTES = [
  'POST /git/commits',
  'POST /git/refs',
  'POST /graphql (createRef + createCommitOnBranch)',
  'POST /graphql (createCommitOnBranch)',
  'POST /pulls',
  'POST /labels',
  'POST /issues/{n}/comments',
];

const ORG = { id: 7200, login: 'bench-org' };
const BOT = { id: 7202, login: 'bench-bot', token: 'bench-bot-token' };
const FIRST_REPO_ID = 720_000;
/** Every package's versions, oldest first, each released a month after the previous one. */
const VERSIONS = ['1.0.0', '1.1.0', '1.2.0', '1.2.1', '2.0.0', '2.1.0'] as const;
const OLDEST = VERSIONS[0];
const NEWEST = VERSIONS[VERSIONS.length - 1] ?? OLDEST;
/**
 * The most code-host requests a pull request of a one-file update may cost, once its repository's labels exist (8
 * before the branch and its commit became one GraphQL request on the commit the run read).
 */
const MAX_REQUESTS_PER_PULL_REQUEST = 4;
/**
 * The requests of the update runs (not of a pull request): the target branch's head, the directory's listing, the
 * files' GraphQL read, a file read alone, the repository's tree, advisories.
 */
const RUN_ROUTES = [
  'GET /git/ref/{ref}',
  'GET /contents/',
  'GET /contents/{path}',
  'POST /graphql (read files)',
  'GET /git/trees/{sha}',
  'GET /advisories',
];
/** How many pull requests are looked at on the emulator after the pass. */
const SAMPLE = 10;

/** The worker's tuning (release-svc's defaults in src/config.ts when unset). */
const tuning = {
  WORKER_PREFETCH: process.env.BENCH_WORKER_PREFETCH ?? '4',
  DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE ?? '10',
};

const failures: string[] = [];
const checks: Array<{ ok: boolean; message: string }> = [];
function check(ok: boolean, message: string): void {
  checks.push({ ok, message });
  if (!ok) failures.push(message);
}

// ---------------------------------------------------------------------------------------------------------------
// The seeds.

const packageName = (index: number) => `bench-dep-${String(index + 1).padStart(3, '0')}`;

/** The registry emulator's seed: {@link DEPS} public pip packages with the {@link VERSIONS} and a source repository. */
function registrySeed(): RegistrySeedInput {
  return {
    packages: Array.from({ length: DEPS }, (_, index) => ({
      packageManager: 'pip' as const,
      name: packageName(index),
      repository: `https://github.com/bench-upstream/${packageName(index)}`,
      versions: VERSIONS.map((version, v) => ({ version, releasedAt: new Date(Date.UTC(2025, v, 1 + (index % 28))).toISOString() })),
    })),
    credentials: [],
  };
}

/** `requirements.txt` as on every repo's `main`: each of the {@link DEPS} packages pinned at `versionOf(its index)`. */
function requirementsTxt(versionOf: (index: number) => string): string {
  return Array.from({ length: DEPS }, (_, index) => `${packageName(index)}==${versionOf(index)}\n`).join('');
}

/** The GitHub emulator's seed: the org's {@link REPOS} Python repos with their requirements.txt, and the worker's bot. */
function githubSeed(): SeedInput {
  const requirements = requirementsTxt(() => OLDEST);
  return {
    users: [{ id: BOT.id, login: BOT.login, token: BOT.token, name: "Bench bot (release-svc's worker)" }],
    organizations: [{ ...ORG, name: 'Bench Org', members: [{ login: BOT.login, role: 'member' }], defaultRepoPermission: 'write' }],
    repos: generateRepos(ORG.login, REPOS, FIRST_REPO_ID).map((repo) => ({
      ...repo,
      language: 'Python',
      files: { main: { 'requirements.txt': requirements } },
    })),
    // GitHub's 5,000 an hour would not last at this pace (a pull request costs 3 to 4 requests, a run 3)
    rateLimit: { limit: 10_000_000, windowSeconds: 3_600 },
  };
}

/**
 * config-svc's events for the seed: the org's `account.created` with `limit-open-pull-requests` and
 * `limit-initial-update-runs` off, and each repo's
 * `repo.created` and `update_config.created` (pip, directory `/`, language python, id its index + 1), revision 1.
 */
function readModelEvents(seed: SeedInput): ConfigEvent[] {
  const account = orgState(ORG.id, ORG.login);
  const events: ConfigEvent[] = [
    {
      type: 'account.created',
      data: { ...account, settings: { ...account.settings, limitOpenPullRequests: false, limitInitialUpdateRuns: false } },
    },
  ];
  (seed.repos ?? []).forEach((repo, index) => {
    const fullName = `${repo.owner}/${repo.name}`;
    events.push({
      type: 'repo.created',
      data: repoState({
        id: repo.id,
        accountId: ORG.id,
        fullName,
        private: repo.private,
        language: repo.language,
        defaultBranch: repo.defaultBranch,
      }),
    });
    events.push({
      type: 'update_config.created',
      data: updateConfigState({ id: index + 1, repoId: repo.id, accountId: ORG.id, packageManager: 'pip', language: 'python' }),
    });
  });
  return events;
}

// ---------------------------------------------------------------------------------------------------------------
// The emulators, in this process, behind servers that count what reaches them.

/**
 * A GitHub REST request's method and route shape, without the `/repos/{owner}/{repo}` prefix and with the path's
 * variable parts named: `GET /branches/{branch}`, `GET /contents/` (the root directory's listing), `GET
 * /contents/{path}`, `POST /git/trees`, `POST /issues/{n}/labels`… (https://docs.github.com/rest).
 */
function routeShape(method: string, url: string): string {
  const path = url.split('?')[0] ?? '';
  const inRepo = /^\/repos\/[^/]+\/[^/]+(\/.*)?$/.exec(path);
  if (!inRepo) return `${method} ${path.replace(/\/\d+(?=\/|$)/g, '/{id}')}`;
  const rest = inRepo[1] ?? '';
  const shaped = rest
    .replace(/^\/contents\/?$/, '/contents/')
    .replace(/^\/contents\/.+$/, '/contents/{path}')
    .replace(/^\/branches\/.+$/, '/branches/{branch}')
    .replace(/^\/git\/(ref|refs)\/.+$/, '/git/$1/{ref}')
    .replace(/^\/git\/(commits|trees|blobs)\/[^/]+$/, '/git/$1/{sha}')
    .replace(/^\/(pulls|issues)\/\d+/, '/$1/{n}')
    .replace(/^\/commits\/.+\/(status|check-runs)$/, '/commits/{ref}/$1')
    .replace(/^\/statuses\/.+$/, '/statuses/{sha}');
  return `${method} ${shaped === '' ? '/' : shaped}`;
}

/**
 * A `POST /graphql` by what its document does (the emulator's JSON body parser leaves the body on the request): the
 * branch with its commit (`createRef` and `createCommitOnBranch`), a commit alone, the repository's id, the files' read.
 */
function graphqlShape(body: unknown): string {
  const query = typeof (body as { query?: unknown } | undefined)?.query === 'string' ? (body as { query: string }).query : '';
  if (/\bcreateRef\s*\(/.test(query) && /\bcreateCommitOnBranch\s*\(/.test(query))
    return 'POST /graphql (createRef + createCommitOnBranch)';
  if (/\bcreateCommitOnBranch\s*\(/.test(query)) return 'POST /graphql (createCommitOnBranch)';
  if (/\bmutation\b/.test(query)) return 'POST /graphql (another mutation)';
  if (/query RepositoryId\b/.test(query)) return 'POST /graphql (repository id)';
  if (/query ReadFiles\b/.test(query)) return 'POST /graphql (read files)';
  return 'POST /graphql (another query)';
}

/** Requests that reached the GitHub emulator while counting, by route shape, and those answered with an error status. */
const codeHost = { counting: false, byRoute: new Map<string, number>(), errors: new Map<string, number>() };
/** `POST /labels` requests while counting, by repository and label name (lower-cased): more than one is a race. */
const labelCreations = new Map<string, number>();
/** Requests that reached the registry emulator's PyPI routes while counting, by status. */
const registry = { requests: 0, byStatus: new Map<number, number>() };

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** The worker's pull-request queue under `prefix` with its parking and retry queues (the consumer's defaults). */
function pullRequestQueues(prefix: string): string[] {
  const base = `${prefix}.pull-requests`;
  return [base, `${base}.parking`, `${base}.retry.1000ms`, `${base}.retry.5000ms`, `${base}.retry.30000ms`];
}

/** Deletes the queues `names` (what does not exist is skipped), one channel each: a broker error closes its channel. */
async function deleteQueues(connection: ChannelModel, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const channel = await connection.createChannel();
    await channel.deleteQueue(name).catch(() => {});
    await channel.close().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------

const cleanups: Cleanup[] = [];
const started: Array<[string, RunningProcess]> = [];
const run = scriptStarter({ cleanups: () => cleanups, started });

try {
  const seed = githubSeed();
  const parsedSeed = parseSeed(seed, 'benchmark seed');
  const events = readModelEvents(seed);
  const repos = parsedSeed.repos;

  const registryApp = createRegistryEmulator({ seed: registrySeed(), logger: createLogger('registry-emulator', 'error') });
  const registryServer = await observedServer(registryApp, (req, status) => {
    if (!codeHost.counting || !req.url?.startsWith('/pypi/')) return;
    registry.requests += 1;
    bump(registry.byStatus, status);
  });
  cleanups.unshift(['registry emulator', registryServer.close]);

  const startedAt = Date.now();
  const githubApp = createGitHubEmulator({
    seed: parsedSeed,
    logger: createLogger('github-emulator', 'error'),
    ...(SPEED ? { secondaryLimits: GITHUB_SECONDARY_LIMITS, now: () => startedAt + (Date.now() - startedAt) * SPEED } : {}),
  });
  const github = await observedServer(githubApp, (req, status) => {
    if (!codeHost.counting) return;
    const body = (req as { body?: unknown }).body;
    const shape =
      req.method === 'POST' && req.url?.split('?')[0] === '/graphql' ? graphqlShape(body) : routeShape(req.method ?? 'GET', req.url ?? '/');
    bump(codeHost.byRoute, shape);
    if (shape === 'POST /labels') {
      const repo = /^\/repos\/([^/]+\/[^/]+)\//.exec(req.url ?? '')?.[1] ?? '?';
      const name = String((body as { name?: unknown } | undefined)?.name ?? '?').toLowerCase();
      bump(labelCreations, `${repo.toLowerCase()} ${name}`);
    }
    if (status >= 400) bump(codeHost.errors, `${shape} ${status}`);
  });
  cleanups.unshift(['GitHub emulator', github.close]);

  const connection = await amqplib.connect(amqpUrl);
  cleanups.unshift(['RabbitMQ connection', () => connection.close()]);
  const suffix = randomBytes(4).toString('hex');
  const exchange = `bench.pull-requests.${suffix}`;
  const prefix = `bench.pull-requests.${suffix}`;
  const database = await createTestDatabase(adminUrl, 'bench_pull_requests');
  cleanups.unshift(['database', () => database.drop()]);
  cleanups.unshift(['queues and exchanges', () => deleteReleaseTopology(connection, exchange, prefix)]);
  cleanups.unshift(['pull-request queues', () => deleteQueues(connection, pullRequestQueues(prefix))]);

  // The worker migrates the database when it starts; its hourly loops run once then, before any job exists.
  await startWorker(
    run,
    'release worker',
    {
      DATABASE_URL: database.url,
      AMQP_URL: amqpUrl,
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: prefix,
      CONFIG_CHECKPOINT_TIMEOUT_MS: '0',
      CODE_HOST_API_URL: github.url,
    },
    {
      ...tuning,
      ...emulatorRegistryEnv(registryServer.url),
      CODE_HOST_TOKEN: BOT.token,
      PULL_REQUESTS: 'on',
      CODE_HOST_WRITE_LIMITS: SPEED ? `80:${Math.round(60_000 / SPEED)},500:${Math.round(3_600_000 / SPEED)}` : 'off',
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
  await waitForReadModel(client, { configs: REPOS, repos: REPOS, accounts: 1 }, timeoutSeconds, 'read model');
  const readModelSeconds = (performance.now() - seedStarted) / 1000;
  await client.query('analyze');
  await sleep(1_000); // let the worker's pool and relay settle

  const configs = repos.map((repo, index) => ({ updateConfigId: index + 1, repoId: repo.id, accountId: ORG.id }));

  // Counting starts before the transaction: no request reaches the emulators until it commits (the runs' events leave
  // the outbox then, and the worker's loops are idle), so nothing of the pass is missed and nothing else is counted.
  codeHost.counting = true;
  const insertStarted = performance.now();
  // A manual run of every config ("bump now"): the worker reads each repo's files (the branch's head, then the files at
  // it), records a job per outdated dependency on that commit, and carries the jobs out with the files it read.
  const runIds = await db.transaction().execute(async (trx) => {
    const recorded: string[] = [];
    for (const config of configs) {
      const row = await requestRun(trx, { ...config, trigger: 'manual', triggerKey: `manual:${randomUUID()}`, requestedBy: BOT.id });
      if (row) recorded.push(row.id);
    }
    return recorded;
  });
  const committed = performance.now();
  const insertSeconds = (committed - insertStarted) / 1000;
  if (runIds.length !== REPOS) throw new Error(`${runIds.length} runs recorded of ${REPOS}`);

  const deadline = committed + timeoutSeconds * 1_000;
  let statuses: Record<string, number> = {};
  let ids: number[] = [];
  for (;;) {
    await sleep(200);
    const runs = await client.query<{ open: number }>(
      `select count(*) filter (where status not in ('done', 'failed'))::int as open from release.update_run where id = any($1::uuid[])`,
      [runIds],
    );
    const { rows } = await client.query<{ id: number; status: string }>('select id, status from release.pull_request_job');
    ids = rows.map((r) => r.id);
    statuses = {};
    for (const row of rows) statuses[row.status] = (statuses[row.status] ?? 0) + 1;
    const unfinished = (statuses.pending ?? 0) + (statuses.running ?? 0);
    if ((runs.rows[0]?.open ?? 1) === 0 && rows.length >= JOBS && unfinished === 0) break;
    if (performance.now() > deadline) throw new Error(`not finished after ${timeoutSeconds} s: ${JSON.stringify(statuses)}`);
  }
  const seconds = (performance.now() - committed) / 1000;
  codeHost.counting = false;
  const failedRuns = (
    await client.query<{ error: string | null }>(`select error from release.update_run where id = any($1::uuid[]) and status = 'failed'`, [
      runIds,
    ])
  ).rows;

  const jobsOpen = statuses.open ?? 0;
  const fullNameOf = new Map(repos.map((repo) => [repo.id, `${repo.owner}/${repo.name}`]));
  const ask = async (path: string) => {
    const response = await fetch(`${github.url}${path}`, {
      headers: { authorization: `token ${BOT.token}`, accept: 'application/vnd.github+json' },
    });
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`);
    return response.json() as Promise<unknown>;
  };
  // The pull requests the emulator holds (a job that failed after `POST /pulls` leaves its pull request there).
  let opened = 0;
  for (const fullName of fullNameOf.values()) {
    for (let page = 1; ; page++) {
      const pulls = (await ask(`/repos/${fullName}/pulls?state=all&per_page=100&page=${page}`)) as unknown[];
      opened += pulls.length;
      if (pulls.length < 100) break;
    }
  }
  // Reasons that differ by repository or pull request only are counted as one (`/repos/{owner}/{repo}/…`, `#{n}`).
  const reasons = new Map<string, number>();
  for (const row of (
    await client.query<{ status: string; reason: string | null }>(
      `select status, status_reason as reason from release.pull_request_job where id = any($1::int[]) and status <> 'open'`,
      [ids],
    )
  ).rows) {
    const reason = (row.reason ?? '(no reason)').replace(/\/repos\/[^/\s]+\/[^/\s]+/g, '/repos/{owner}/{repo}').replace(/#\d+/g, '#{n}');
    bump(reasons, `${row.status}  ${reason}`);
  }
  const allRequests = [...codeHost.byRoute.values()].reduce((sum, n) => sum + n, 0);
  // The update runs' own requests (once a run, whatever number of pull requests it leads to) are not a pull request's.
  const runRequests = RUN_ROUTES.reduce((sum, route) => sum + (codeHost.byRoute.get(route) ?? 0), 0);
  const codeHostTotal = allRequests - runRequests;
  const perPullRequest = opened > 0 ? codeHostTotal / opened : Number.POSITIVE_INFINITY;
  // What a repository's first pull requests pay once: its labels listed (`GET /labels`, kept 10 minutes per worker) and
  // the missing ones made (`POST /labels`).
  const labelSetup = (codeHost.byRoute.get('GET /labels') ?? 0) + (codeHost.byRoute.get('POST /labels') ?? 0);
  // A label made more than once in a repository: pull requests of one repository racing to make it.
  const labelRaces = [...labelCreations.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);

  // Ten pull requests spread over the pass, looked at on the emulator (not counted: counting stopped).
  const openJobs = (
    await client.query<{ id: number; repo_id: number; dependency_name: string; branch: string | null; pull_request_number: number | null }>(
      `select id, repo_id::int, dependency_name, branch, pull_request_number from release.pull_request_job
       where id = any($1::int[]) and status = 'open' order by id`,
      [ids],
    )
  ).rows;
  const step = Math.max(1, Math.floor(openJobs.length / SAMPLE));
  const sampled = openJobs.filter((_, i) => i % step === 0).slice(0, SAMPLE);
  const badSamples: string[] = [];
  for (const job of sampled) {
    const fullName = fullNameOf.get(job.repo_id) ?? '?';
    const where = `${fullName} #${job.pull_request_number} (${job.dependency_name})`;
    try {
      const pull = (await ask(`/repos/${fullName}/pulls/${job.pull_request_number}`)) as {
        state?: string;
        head?: { ref?: string };
        base?: { ref?: string };
      };
      if (pull.state !== 'open' || pull.head?.ref !== job.branch || pull.base?.ref !== 'main') {
        badSamples.push(`${where}: pull request ${JSON.stringify({ state: pull.state, head: pull.head?.ref, base: pull.base?.ref })}`);
        continue;
      }
      const file = (await ask(`/repos/${fullName}/contents/requirements.txt?ref=${encodeURIComponent(job.branch ?? '')}`)) as {
        content?: string;
      };
      const text = Buffer.from(file.content ?? '', 'base64').toString('utf8');
      const dep = Number(job.dependency_name.slice('bench-dep-'.length)) - 1;
      const expected = requirementsTxt((index) => (index === dep ? NEWEST : OLDEST));
      if (text !== expected) badSamples.push(`${where}: requirements.txt on ${job.branch} is ${JSON.stringify(text)}`);
    } catch (error) {
      badSamples.push(`${where}: ${(error as Error).message}`);
    }
  }

  check(
    failedRuns.length === 0,
    `every update run done: ${REPOS - failedRuns.length} of ${REPOS}${failedRuns.length > 0 ? ` (${failedRuns[0]?.error})` : ''}`,
  );
  check(jobsOpen === JOBS, `every job open: ${jobsOpen} of ${JOBS}`);
  check(labelRaces === 0, `no label made twice in a repository (label races): ${labelRaces}`);
  const content = CONTENT_ROUTES.reduce((sum, route) => sum + (codeHost.byRoute.get(route) ?? 0), 0);
  const counted = (await (await fetch(`${github.url}${REQUEST_COUNTER_PATH}`)).json()) as RequestCounts;
  const limitAnswers = counted.limited.secondaryContent + counted.limited.secondaryConcurrent;
  /** Content-creating requests per emulated hour, as a share of GitHub's 500. */
  const shareOfLimit = SPEED ? content / ((seconds * SPEED) / 3_600) / 500 : undefined;
  if (shareOfLimit !== undefined) {
    check(limitAnswers === 0, `no secondary-limit answer: ${limitAnswers}`);
    check(shareOfLimit >= 0.9, `content creation at ≥ 0.9 of GitHub's 500 an hour: ${shareOfLimit.toFixed(3)}`);
  }
  const perPullRequestSteady = opened > 0 ? (codeHostTotal - labelSetup) / opened : Number.POSITIVE_INFINITY;
  check(
    perPullRequestSteady <= MAX_REQUESTS_PER_PULL_REQUEST,
    `code-host requests per pull request, once its repository's labels exist, ≤ ${MAX_REQUESTS_PER_PULL_REQUEST}: ` +
      `${perPullRequestSteady.toFixed(2)} (${perPullRequest.toFixed(2)} with the labels made once a repository)`,
  );
  check(
    sampled.length === Math.min(SAMPLE, jobsOpen) && badSamples.length === 0,
    `${sampled.length} sampled pull requests open from their branch, whose requirements.txt pins the target version` +
      (badSamples.length > 0 ? `: ${badSamples.length} wrong:\n    ${badSamples.join('\n    ')}` : ''),
  );

  const pad = (value: string | number, width: number) => String(value).padStart(width);
  const out = (line = '') => process.stdout.write(`${line}\n`);
  out(`\nrelease-svc pull-request benchmark: node bench/pull-requests.bench.ts --repos ${REPOS} --deps ${DEPS}`);
  out(
    `${REPOS} pip configs (one a repo, one org, limit-open-pull-requests off), each repo's requirements.txt pinning ${DEPS} ` +
      `packages at ${OLDEST} (no lockfile); a job per dependency to ${NEWEST}; GitHub and registry emulators in this process ` +
      `(real HTTP); one worker process, WORKER_PREFETCH ${tuning.WORKER_PREFETCH} (jobs at once), DB_POOL_SIZE ` +
      `${tuning.DB_POOL_SIZE}, SCHEDULER_INTERVAL_MS 3600000 (no maintenance round during the pass); Node ${process.versions.node}, ` +
      `${availableParallelism()} CPUs, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; read model of ${events.length} config-svc events in ${readModelSeconds.toFixed(1)} s (not timed)`,
  );
  out();
  out(`update runs                   ${pad(REPOS, 10)}   (${failedRuns.length} failed)`);
  out(`jobs                          ${pad(JOBS, 10)}`);
  out(`jobs open                     ${pad(jobsOpen, 10)}`);
  out(`pull requests opened          ${pad(opened, 10)}   (on the emulator)`);
  out(`runs requested (one tx), s    ${pad(insertSeconds.toFixed(2), 10)}   (not in the seconds below)`);
  out(`seconds (commit → all done)   ${pad(seconds.toFixed(2), 10)}   (the runs and their pull requests)`);
  out(`pull requests per second      ${pad((jobsOpen / seconds).toFixed(1), 10)}   (jobs open)`);
  out(`code-host requests, runs      ${pad(runRequests, 10)}   (${(runRequests / REPOS).toFixed(2)} a run: ${RUN_ROUTES.join(', ')})`);
  out(`code-host requests, PRs       ${pad(codeHostTotal, 10)}`);
  out(`code-host requests per PR     ${pad(perPullRequest.toFixed(2), 10)}`);
  out(`content-creating requests     ${pad(content, 10)}   (${CONTENT_ROUTES.join(', ')})`);
  out(`secondary-limit answers       ${pad(limitAnswers, 10)}   ${JSON.stringify(counted.limited)}`);
  if (shareOfLimit !== undefined) {
    out(`content creation / limit      ${pad(shareOfLimit.toFixed(3), 10)}   (per emulated hour, of 500; clock ×${SPEED})`);
  }
  out(
    `  without the label set-up     ${pad(opened > 0 ? ((codeHostTotal - labelSetup) / opened).toFixed(2) : '–', 10)}   ` +
      `(GET and POST /labels: ${labelSetup}, ${(labelSetup / REPOS).toFixed(2)} a repo)`,
  );
  out(`label races                   ${pad(labelRaces, 10)}   (labels made more than once in a repository; should be 0)`);
  out(`registry requests (PyPI)      ${pad(registry.requests, 10)}   ${JSON.stringify(Object.fromEntries(registry.byStatus))} by status`);
  out();
  out(`${'code-host route'.padEnd(34)}${pad('requests', 10)}${pad('per PR', 9)}`);
  for (const [shape, n] of [...codeHost.byRoute].sort((a, b) => b[1] - a[1])) {
    out(`${shape.padEnd(34)}${pad(n, 10)}${pad(opened > 0 ? (n / opened).toFixed(2) : '–', 9)}`);
  }
  if (codeHost.errors.size > 0) out(`code-host error answers: ${JSON.stringify(Object.fromEntries(codeHost.errors))}`);
  out();
  out(`jobs by status: ${JSON.stringify(statuses)}`);
  out(reasons.size === 0 ? 'failures: none' : 'jobs not open (status, reason: jobs):');
  for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1])) out(`  ${reason}: ${n}`);
  out();
  for (const c of checks) out(`${c.ok ? 'PASS' : 'FAIL'} ${c.message}`);
  out();
  out(
    `requests per pull request: ${perPullRequestSteady.toFixed(2)} once its repository's labels exist (${perPullRequest.toFixed(2)} with them made)`,
  );
  out(
    `≤ ${MAX_REQUESTS_PER_PULL_REQUEST} requests per pull request: ${perPullRequestSteady <= MAX_REQUESTS_PER_PULL_REQUEST ? 'yes' : 'no'}`,
  );
  out(`label races: ${labelRaces}`);
} catch (error) {
  failures.push(`benchmark aborted: ${(error as Error).stack ?? String(error)}`);
} finally {
  await finishBenchmark(failures, started, cleanups);
}
