/**
 * `node bench/latency.bench.ts` (`pnpm bench:latency`): the time to pull request. From `POST
 * /release_notifications/private`, and separately from "bump now" (`POST /update_configs/{id}/trigger_update_job`),
 * through the gateway until the pull request exists on the code host; for one repository (`--rounds` rounds, default
 * 20, after `--warmup` unmeasured ones, default 1) and for `--repos` repositories at once (default 100, `--many-rounds`
 * rounds, default 1). Each round publishes a new version of the package the repositories pin (1.1.0, 1.2.0, …) on the
 * registry emulator, so each trigger makes a new job per repository (whose pull request supersedes the last round's).
 * It prints p50 and p99 per scenario, and what the latency is made of, stage by stage.
 *
 * Against the launcher (the default): both emulators run in this process behind servers that record every request
 * with its times, its repository and whether the worker's token sent it (`latency-stack.ts`), with the benchmark's
 * seeds: organisation `latency-one` with one Python repository, `latency-many` with `--repos`, each `requirements.txt`
 * pinning its organisation's pip package at 1.0.0; the launcher (`apps/standalone`) runs as its own process on free
 * ports, a fresh temporary `DATA_DIR` (`--memory`: `memory://`), PGlite and its in-process bus, the worker acting with
 * a personal token (`CODE_HOST_TOKEN`), the emulator's webhooks signed to the gateway. The configs are made through the
 * gateway (`POST /update_configs`, as the user `latency`) and config-svc's events fill release-svc's read model, as for
 * any user. A pull request exists once the emulator answered its `POST /pulls` 201 (`--poll`: once a poll of `GET
 * /repos/{owner}/{repo}/pulls?state=open` every 15 ms shows it, as on compose). The stages of each pull request
 * (`latency-stages.ts`'s `fineStages`): queue (trigger sent → the scan's or run's first code-host read of the
 * repository), read (its code-host requests), registry (registry requests meanwhile), decide (the rest, until the
 * job's transaction began: the job's `created-at`), hand-off (→ the deliver stage's first code-host request), write
 * (→ the pull request exists).
 *
 * Against a compose stack (`--compose URL` of its gateway; `--code-host` and `--registry` the emulators it publishes on
 * loopback, default :8090 and :8091; `--token` a user of its demo data, default alice's; `--repo`, default
 * acme/data-pipeline): the demo data has too few repositories, so a group of N is N directories committed into `--repo`,
 * each with its own config (see `composeTarget`); pull requests are polled; the stages are what the API's timestamps
 * say (`coarseStages`: the notification's and the run's `created-at`, the run's `started-at`, the job's `created-at`).
 *
 * Flags: `--rounds` (20), `--warmup` (1), `--repos` (100; 0 skips the case), `--many-rounds` (1), `--triggers`
 * (`notification,bump`), `--memory`, `--poll`, `--timeout` seconds a round may take (180), `--trace` (each round's
 * requests on stderr, in ms from its trigger), and the compose ones above.
 * It exits 1 when a round failed (a job failed, or no pull request within the timeout), 2 on bad flags.
 */

import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import type { RunningProcess } from '@switchyard/service-kit/testing';
import {
  type ConfigGroup,
  type ConfigRef,
  call,
  composeTarget,
  expectStatus,
  inPool,
  launcherTarget,
  now,
  publishVersion,
  type Target,
} from './latency-stack.ts';
import {
  coarseStages,
  dominantStage,
  fineStages,
  type PullRequestTimes,
  percentile,
  type RecordedRequest,
  type ScenarioResult,
  STAGE_LEGEND,
  type StageTimes,
  stagesTable,
  summaryTable,
} from './latency-stages.ts';
import { cpuSeconds } from './process-cpu.ts';
import { type Cleanup, finishBenchmark, runCleanups } from './release-stack.ts';

const { values: flags } = (() => {
  try {
    return parseArgs({
      options: {
        rounds: { type: 'string', default: '20' },
        warmup: { type: 'string', default: '1' },
        repos: { type: 'string', default: '100' },
        'many-rounds': { type: 'string', default: '1' },
        triggers: { type: 'string', default: 'notification,bump' },
        memory: { type: 'boolean', default: false },
        poll: { type: 'boolean', default: false },
        trace: { type: 'boolean', default: false },
        timeout: { type: 'string', default: '180' },
        compose: { type: 'string' },
        'code-host': { type: 'string', default: 'http://127.0.0.1:8090' },
        registry: { type: 'string', default: 'http://127.0.0.1:8091' },
        token: { type: 'string', default: 'demo-token-alice' },
        repo: { type: 'string', default: 'acme/data-pipeline' },
      },
    });
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(2);
  }
})();

/** A flag's whole number, at least `min`; exits 2 otherwise. */
function count(name: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`--${name} must be a whole number of at least ${min}, not ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return value;
}

type Trigger = 'notification' | 'bump';
const ROUNDS = count('rounds', flags.rounds, 0);
const WARMUP = count('warmup', flags.warmup, 0);
const REPOS = count('repos', flags.repos, 0);
const MANY_ROUNDS = count('many-rounds', flags['many-rounds'], 1);
const TIMEOUT_MS = count('timeout', flags.timeout, 1) * 1_000;
const TRIGGERS = flags.triggers.split(',').map((t) => t.trim()) as Trigger[];
if (TRIGGERS.length === 0 || TRIGGERS.some((t) => t !== 'notification' && t !== 'bump')) {
  process.stderr.write(`--triggers must list notification and/or bump, not ${JSON.stringify(flags.triggers)}\n`);
  process.exit(2);
}
/** The goal the benchmark reports against: p50 for one repository on the launcher, ms. */
const GOAL_P50_MS = 1_000;
/** How often the code host is polled for a pull request (`--poll`, compose). */
const POLL_INTERVAL_MS = 15;

const out = (line = '') => process.stdout.write(`${line}\n`);

// ---------------------------------------------------------------------------------------------------------------
// One round: a new version, the trigger, the pull requests, their timestamps.

/** The branch release-svc names a pip job's pull request (`branchName`: the directory left out at the root). */
function branchOf(config: ConfigRef, packageName: string, version: string): string {
  const directory = config.directory.replace(/^\/+|\/+$/g, '');
  return ['dependabot', 'pip', ...(directory ? [directory] : []), `${packageName}-${version}`].join('/');
}

/** A job as `GET /pull_request_jobs` answers it (what the round reads of it). */
interface JobAnswer {
  id: string;
  attributes: { status: string; 'status-reason': string | null; 'target-version': string; directory: string; 'created-at': string };
  relationships: { repo: { data: { id: string } } };
}

const keyOf = (repoId: number | string, directory: string) => `${repoId}|${directory}`;

/** The jobs of `packageName` with status `status` (every page). */
async function jobsOf(target: Target, packageName: string, status: string): Promise<JobAnswer[]> {
  const jobs: JobAnswer[] = [];
  for (let page = 1; ; page++) {
    const answer = await expectStatus(
      [200],
      'GET',
      `${target.gateway}/pull_request_jobs?dependency-name=${encodeURIComponent(packageName)}&status=${status}&page=${page}`,
      { token: target.token },
    );
    const body = answer.body as { data: JobAnswer[]; meta: { pages: { next: number | null } } };
    jobs.push(...body.data);
    if (body.meta.pages.next === null) return jobs;
  }
}

/** Throws when a job of `version` failed (its pull request will not come). */
async function checkNoFailure(target: Target, group: ConfigGroup, version: string): Promise<void> {
  const failed = (await jobsOf(target, group.packageName, 'failed')).filter((job) => job.attributes['target-version'] === version);
  if (failed.length > 0) {
    throw new Error(`${failed.length} job(s) of ${version} failed, e.g. ${failed[0]?.attributes['status-reason'] ?? '(no reason)'}`);
  }
}

/**
 * Polls each repository's open pull requests (`GET /repos/{owner}/{repo}/pulls?state=open`, every page, conditional on
 * the last ETag, so unchanged pages cost no rate limit) every {@link POLL_INTERVAL_MS} until every branch of `wanted`
 * (`owner/name#branch`) is the head of one; returns when each was first seen.
 */
async function pollPullRequests(target: Target, wanted: readonly string[], deadline: number, check: () => Promise<void>) {
  const seen = new Map<string, number>();
  const cache = new Map<string, { etag: string; heads: string[] }>();
  const repos = [...new Set(wanted.map((key) => key.slice(0, key.indexOf('#'))))];
  let lastCheck = now();
  while (seen.size < wanted.length) {
    if (now() > deadline) throw new Error(`${wanted.length - seen.size} of ${wanted.length} pull requests not seen in time`);
    const pending = repos.filter((repo) => wanted.some((key) => key.startsWith(`${repo}#`) && !seen.has(key)));
    await inPool(pending, 8, async (repo) => {
      for (let page = 1; ; page++) {
        const url = `${target.codeHost}/repos/${repo}/pulls?state=open&per_page=100&page=${page}`;
        const cached = cache.get(url);
        const answer = await call('GET', url, {
          token: target.token,
          scheme: 'token',
          headers: cached ? { 'if-none-match': cached.etag } : {},
        });
        const at = now();
        let heads: string[];
        if (answer.status === 304 && cached) heads = cached.heads;
        else if (answer.status === 200) {
          heads = (answer.body as Array<{ head: { ref: string } }>).map((pull) => pull.head.ref);
          const etag = answer.headers.get('etag');
          if (etag) cache.set(url, { etag, heads });
        } else throw new Error(`GET ${url} answered ${answer.status}`);
        for (const head of heads) {
          const key = `${repo}#${head}`;
          if (!seen.has(key) && wanted.includes(key)) seen.set(key, at);
        }
        if (heads.length < 100) break;
      }
    });
    if (now() - lastCheck > 1_000) {
      lastCheck = now();
      await check();
    }
    await sleep(POLL_INTERVAL_MS);
  }
  return seen;
}

/**
 * `--trace`: a round's pull requests and every request the emulators answered during it, on stderr, in ms from the
 * first trigger (`start-end kind caller method path status repo`).
 */
function trace(prs: readonly PullRequestTimes[], requests: readonly RecordedRequest[]): void {
  const base = Math.min(...prs.map((pr) => pr.t0));
  const at = (t: number | undefined) => (t === undefined ? '–' : (t - base).toFixed(1));
  for (const pr of prs) {
    process.stderr.write(
      `    ${pr.repo}: sent ${at(pr.t0)}, accepted ${at(pr.accepted)}, started ${at(pr.started)}, job ${at(pr.recorded)}, ` +
        `pull request ${at(pr.opened)}\n`,
    );
  }
  for (const r of requests) {
    process.stderr.write(
      `    ${at(r.start)}–${at(r.end)} ${r.kind} ${r.bot ? 'worker' : 'other'} ${r.method} ${r.path} ${r.status} ${r.repo ?? ''}\n`,
    );
  }
}

/** What one round measured. */
interface RoundOutcome {
  prs: PullRequestTimes[];
  stages: StageTimes[];
  /** First trigger sent → last pull request, ms. */
  roundMs: number;
  /** The worker's code-host requests and the registry requests during the round (the emulators in this process only). */
  codeHostRequests: number;
  registryRequests: number;
}

/**
 * One round on `group`: publishes `version`, sends the trigger (one notification, or "bump now" on every config at
 * once), waits until each config's pull request exists, then reads the jobs (once `open`), the notification or runs,
 * and waits until the worker is quiet (no code-host request for 0.5 s; compose: 1 s) so rounds do not overlap.
 */
async function round(target: Target, group: ConfigGroup, trigger: Trigger, version: string): Promise<RoundOutcome> {
  const { recorder } = target;
  await publishVersion(target.registry, group.packageName, version);
  const expected = group.configs.map((config) => ({ config, branch: branchOf(config, group.packageName, version) }));
  const useHook = recorder !== undefined && !flags.poll;
  recorder?.clear();
  const hooked = useHook ? expected.map(({ config, branch }) => recorder.pullRequestOpened(config.repo, branch)) : [];
  const deadline = now() + TIMEOUT_MS;

  // The trigger: t0 and the accepted trigger's resource per config.
  const sent = new Map<string, { t0: number; accepted: number; runId: string | undefined }>();
  const roundStart = now();
  if (trigger === 'notification') {
    const t0 = now();
    const answer = await expectStatus([202], 'POST', `${target.gateway}/release_notifications/private`, {
      token: target.token,
      json: { name: group.packageName, version, 'package-manager': 'pip' },
      headers: { prefer: 'return=representation' },
    });
    const accepted = Date.parse((answer.body as { data: { attributes: { 'created-at': string } } }).data.attributes['created-at']);
    for (const { config } of expected) sent.set(config.id, { t0, accepted, runId: undefined });
  } else {
    await Promise.all(
      expected.map(async ({ config }) => {
        const t0 = now();
        const answer = await expectStatus([202], 'POST', `${target.gateway}/update_configs/${config.id}/trigger_update_job`, {
          token: target.token,
        });
        const run = (answer.body as { data: { id: string; attributes: { 'created-at': string } } }).data;
        sent.set(config.id, { t0, accepted: Date.parse(run.attributes['created-at']), runId: run.id });
      }),
    );
  }

  // The pull requests.
  const check = () => checkNoFailure(target, group, version);
  let opened: number[];
  if (useHook) {
    let settled = false;
    const all = Promise.all(hooked).finally(() => {
      settled = true;
    });
    const watch = (async () => {
      while (!settled) {
        if (now() > deadline) throw new Error(`pull requests of ${version} not all opened within ${TIMEOUT_MS / 1_000} s`);
        await check();
        await Promise.race([all, sleep(1_000)]);
      }
    })();
    opened = await Promise.race([all, watch.then(() => all)]);
  } else {
    const seen = await pollPullRequests(
      target,
      expected.map(({ config, branch }) => `${config.repo}#${branch}`),
      deadline,
      check,
    );
    opened = expected.map(({ config, branch }) => seen.get(`${config.repo}#${branch}`) ?? Number.NaN);
  }
  const roundMs = Math.max(...opened) - roundStart;

  // The jobs, once open (their pull request recorded), and the runs' start.
  const recorded = new Map<string, number>();
  for (;;) {
    for (const job of await jobsOf(target, group.packageName, 'open')) {
      if (job.attributes['target-version'] !== version) continue;
      recorded.set(keyOf(job.relationships.repo.data.id, job.attributes.directory), Date.parse(job.attributes['created-at']));
    }
    if (expected.every(({ config }) => recorded.has(keyOf(config.repoId, config.directory)))) break;
    if (now() > deadline) throw new Error(`jobs of ${version} not all open within ${TIMEOUT_MS / 1_000} s`);
    await check();
    await sleep(100);
  }
  const started = new Map<string, number>();
  if (trigger === 'bump') {
    await inPool(expected, 8, async ({ config }) => {
      const runId = sent.get(config.id)?.runId;
      const answer = await expectStatus([200], 'GET', `${target.gateway}/update_runs/${runId}`, { token: target.token });
      const at = (answer.body as { data: { attributes: { 'started-at': string | null } } }).data.attributes['started-at'];
      if (at) started.set(config.id, Date.parse(at));
    });
  }

  // Quiet before the next round: the superseded pull requests closed, the webhooks' effects done.
  if (recorder) {
    const quietBy = now() + 20_000;
    while (now() - Math.max(recorder.lastBotRequestAt(), roundStart) < 500 && now() < quietBy) await sleep(50);
  } else await sleep(1_000);

  const prs = expected.map(({ config }, i): PullRequestTimes => {
    const s = sent.get(config.id);
    return {
      repo: config.repo,
      t0: s?.t0 ?? roundStart,
      accepted: s?.accepted ?? Number.NaN,
      started: started.get(config.id),
      recorded: recorded.get(keyOf(config.repoId, config.directory)) ?? Number.NaN,
      opened: opened[i] ?? Number.NaN,
    };
  });
  const requests = recorder?.requests ?? [];
  if (flags.trace) trace(prs, requests);
  return {
    prs,
    // Many configs in one repository (compose) cannot be told apart by the requests: the API's timestamps then.
    stages: prs.map((pr) =>
      recorder && new Set(group.configs.map((c) => c.repo)).size === group.configs.length ? fineStages(pr, requests) : coarseStages(pr),
    ),
    roundMs,
    codeHostRequests: requests.filter((r) => r.kind === 'code-host' && r.bot).length,
    registryRequests: requests.filter((r) => r.kind === 'registry').length,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Scenarios.

/** The next version of each package: 1.1.0, 1.2.0, … (every repository pins 1.0.0). */
const versions = new Map<string, number>();
function nextVersion(packageName: string): string {
  const minor = (versions.get(packageName) ?? 0) + 1;
  versions.set(packageName, minor);
  return `1.${minor}.0`;
}

/** `rounds` measured rounds of `trigger` on `group` after `warmup` unmeasured ones. */
async function scenario(target: Target, group: ConfigGroup, trigger: Trigger, rounds: number, warmup: number): Promise<ScenarioResult> {
  const size = group.configs.length;
  const unit = group.unit === 'repo' ? ['repo', 'repos'] : ['directory', 'directories'];
  const name = `${trigger === 'notification' ? 'notification' : 'bump now'}, ${size} ${size === 1 ? unit[0] : unit[1]}`;
  const result: ScenarioResult = { name, latencies: [], stages: [], rounds: [], problems: [] };
  let codeHost = 0;
  let registry = 0;
  const cpuBefore = cpuSeconds(target.pid);
  for (let i = 0; i < warmup + rounds; i++) {
    const version = nextVersion(group.packageName);
    const measured = i >= warmup;
    try {
      const outcome = await round(target, group, trigger, version);
      if (!measured) continue;
      result.latencies.push(...outcome.prs.map((pr) => pr.opened - pr.t0));
      result.stages.push(...outcome.stages);
      result.rounds.push(outcome.roundMs);
      codeHost += outcome.codeHostRequests;
      registry += outcome.registryRequests;
      const latencies = outcome.prs.map((pr) => pr.opened - pr.t0);
      process.stderr.write(
        `  ${name} round ${i - warmup + 1}/${rounds} (${version}): ` +
          (size === 1
            ? `${latencies[0]?.toFixed(0)} ms\n`
            : `p50 ${percentile(latencies, 0.5).toFixed(0)} ms, last ${outcome.roundMs.toFixed(0)} ms\n`),
      );
    } catch (error) {
      result.problems.push(`${name}, ${version}: ${(error as Error).message}`);
      process.stderr.write(`  ${name} (${version}) failed: ${(error as Error).message}\n`);
      break;
    }
  }
  result.cpuSeconds = cpuSeconds(target.pid) - cpuBefore;
  if (target.recorder && result.latencies.length > 0) {
    result.codeHostPerPullRequest = codeHost / result.latencies.length;
    result.registryPerPullRequest = registry / result.latencies.length;
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------

const cleanups: Cleanup[] = [];
const started: Array<[string, RunningProcess]> = [];
const failures: string[] = [];
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  process.stderr.write('\ninterrupted: stopping what was started\n');
  void runCleanups(cleanups).finally(() => process.exit(130));
});

out(`time-to-pull-request benchmark: node bench/latency.bench.ts ${process.argv.slice(2).join(' ')}`.trimEnd());
out(
  `Node ${process.versions.node}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

const results: ScenarioResult[] = [];
try {
  const startedAt = now();
  const target = flags.compose
    ? await composeTarget({
        gateway: flags.compose,
        codeHost: flags['code-host'],
        registry: flags.registry,
        token: flags.token,
        repo: flags.repo,
        cleanups,
      })
    : await launcherTarget({ repos: REPOS, memory: flags.memory, cleanups, started });
  out(`against ${target.description}; ready in ${((now() - startedAt) / 1_000).toFixed(1)} s`);
  out(
    `pull request seen: ${target.recorder && !flags.poll ? "the emulator's 201 to POST /pulls" : `GET /repos/{owner}/{repo}/pulls?state=open every ${POLL_INTERVAL_MS} ms`}`,
  );

  if (ROUNDS > 0) {
    const one = await target.group(1);
    out(`one repository: ${one.description}; ${ROUNDS} round(s) per trigger after ${WARMUP} warm-up`);
    for (const trigger of TRIGGERS) results.push(await scenario(target, one, trigger, ROUNDS, WARMUP));
    await target.release(one);
  }
  if (REPOS > 0 && !interrupted) {
    const many = await target.group(REPOS);
    out(`many repositories: ${many.description}; ${MANY_ROUNDS} round(s) per trigger`);
    for (const trigger of TRIGGERS) results.push(await scenario(target, many, trigger, MANY_ROUNDS, 0));
    await target.release(many);
  }

  out();
  out(summaryTable(results));
  for (const result of results.filter((r) => r.latencies.length > 0)) {
    out();
    out(stagesTable(result));
    const top = dominantStage(result);
    if (top) out(`dominant stage: ${top.stage} (${(top.share * 100).toFixed(0)} % of the mean)`);
  }
  out();
  const names = new Set(results.flatMap((r) => r.stages.flatMap((s) => s.map(([n]) => n))));
  for (const [name, meaning] of Object.entries(STAGE_LEGEND)) if (names.has(name)) out(`${name.padEnd(28)}${meaning}`);
  if (target.mode === 'launcher') {
    out();
    for (const result of results.filter((r) => r.name.endsWith(', 1 repo'))) {
      const p50 = percentile(result.latencies, 0.5);
      out(
        `goal p50 ≤ ${GOAL_P50_MS} ms for one repository on the launcher (${result.name}): ` +
          `${p50 <= GOAL_P50_MS ? 'met' : 'not met'} (${p50.toFixed(0)} ms)`,
      );
    }
  }
  for (const result of results) failures.push(...result.problems);
} catch (error) {
  failures.push(`benchmark aborted: ${(error as Error).stack ?? String(error)}`);
} finally {
  await finishBenchmark(failures, started, cleanups);
}
