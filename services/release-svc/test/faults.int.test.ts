import { setTimeout as delay } from 'node:timers/promises';
import type { PullRequestJobCreated } from '@switchyard/contracts';
import type { EmulatorFault } from '@switchyard/github-emulator';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { sql } from 'kysely';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { PULL_REQUEST_CONSUMER } from '../src/consumers.ts';
import { ALL_CONSUMERS, parkedMessages, queueState } from './faults/amqp.ts';
import { type RestartableBroker, startRestartableBroker } from './faults/broker.ts';
import { type FaultSeed, faultSeed, npmPinnedFiles, outdatedConfigs } from './faults/seed.ts';
import { type FaultStack, startFaultStack } from './faults/stack.ts';

/**
 * The worker's promises under faults (README "Exactly once" and packages/messaging "Guarantees"), with
 * release-svc's API and workers as their own OS processes, as deployed: a worker SIGKILLed in the middle of a
 * notification, and RabbitMQ restarted while notifications flow; then the same two faults while the worker executes
 * pull-request jobs (`PULL_REQUESTS=on`). The test plays config-svc (it publishes the read model's events) and reads
 * the outcome from the database, the API, a queue of its own on the exchange and the GitHub emulator.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** A stack of teardown steps disposed (last first) when the current test finishes, passed or failed. */
function cleanupAfterTest(): AsyncDisposableStack {
  const cleanup = new AsyncDisposableStack();
  onTestFinished(() => cleanup.disposeAsync(), 60_000);
  return cleanup;
}

/** The notification's jobs in the database: update config ids, sorted. */
async function jobConfigs(stack: FaultStack, notificationId: string): Promise<number[]> {
  const rows = await stack.db
    .selectFrom('pull_request_job')
    .select('update_config_id')
    .where('notification_id', '=', notificationId)
    .orderBy('update_config_id')
    .execute();
  return rows.map((row) => row.update_config_id);
}

/** Every job of the notification, as `GET /pull_request_jobs?notification-id=` lists it page by page. */
async function listedJobIds(stack: FaultStack, notificationId: string, token: string): Promise<string[]> {
  const ids: string[] = [];
  for (let page: number | undefined = 1; page; ) {
    const res = await request(stack.api.url, 'GET', `/pull_request_jobs?notification-id=${notificationId}&page=${page}`, {
      headers: { authorization: `Personal ${token}` },
    });
    expect(res.status).toBe(200);
    ids.push(...res.body.data.map((job: { id: string }) => job.id));
    page = res.body.meta?.pages?.next ?? undefined;
  }
  return ids;
}

/** `pull_request_job.created` events the observer received: distinct events by job id, and duplicate deliveries. */
function jobEvents(stack: FaultStack): { byJob: Map<number, string[]>; duplicates: number } {
  const byJob = new Map<number, string[]>();
  for (const event of stack.observer.events) {
    if (event.type !== 'pull_request_job.created') continue;
    const jobId = (event.data as PullRequestJobCreated).id;
    byJob.set(jobId, [...(byJob.get(jobId) ?? []), event.id]);
  }
  let duplicates = 0;
  for (const event of stack.observer.events) duplicates += Math.max(stack.observer.deliveriesOf(event.id), 1) - 1;
  return { byJob, duplicates };
}

/** A notification's pull-request job as the database holds it. */
interface JobRow {
  id: number;
  repo_id: number;
  update_config_id: number;
  status: string;
  status_reason: string | null;
  branch: string | null;
  pull_request_number: number | null;
  head_sha: string | null;
}

/** The notification's pull-request jobs, by id. */
function jobRows(stack: FaultStack, notificationId: string): Promise<JobRow[]> {
  return stack.db
    .selectFrom('pull_request_job')
    .select(['id', 'repo_id', 'update_config_id', 'status', 'status_reason', 'branch', 'pull_request_number', 'head_sha'])
    .where('notification_id', '=', notificationId)
    .orderBy('id')
    .execute();
}

/** How many of `jobs` are in each status (`{ open: 12, running: 4, pending: 30 }`). */
function countByStatus(jobs: JobRow[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const job of jobs) counts[job.status] = (counts[job.status] ?? 0) + 1;
  return counts;
}

/** `{ open: 12, running: 4 }` as `12 open, 4 running`. */
const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ') || 'no jobs';

/** Waits until the notification has `expected` jobs and none is `pending` or `running` any more; returns them. */
async function settledJobs(stack: FaultStack, notificationId: string, expected: number, timeoutMs: number, context: () => string) {
  return waitFor(
    async () => {
      const jobs = await jobRows(stack, notificationId);
      return jobs.length === expected && jobs.every((job) => job.status !== 'pending' && job.status !== 'running') ? jobs : undefined;
    },
    timeoutMs,
    100,
  ).catch(async (error: unknown) => {
    const jobs = await jobRows(stack, notificationId);
    throw new Error(`${(error as Error).message}: ${jobs.length}/${expected} jobs, ${describeCounts(countByStatus(jobs))}\n${context()}`);
  });
}

/** A pull request as the GitHub REST API lists it (the fields checked here; https://docs.github.com/rest/pulls/pulls#list-pull-requests). */
interface EmulatedPull {
  number: number;
  state: string;
  head: { ref: string; sha: string };
  base: { ref: string };
}
/** A branch as the GitHub REST API lists it (https://docs.github.com/rest/branches/branches#list-branches). */
interface EmulatedBranch {
  name: string;
  commit: { sha: string };
}

/**
 * Every repo of the seed as the code host has it, against the notification's jobs: a repo with a job has exactly one
 * pull request over all states (`GET /pulls?state=all`), open from the job's branch `branch` into `main`, whose number
 * and head commit are the job's, and exactly the branches `main` and `branch`; the branch's commit has `main`'s head as
 * its only parent and pins lodash at `version` in package.json. A repo without a job has no pull request and `main`
 * alone. @returns the differences found, one line each (none when all is as it should be)
 */
async function codeHostDifferences(stack: FaultStack, seed: FaultSeed, jobs: JobRow[], branch: string, version: string): Promise<string[]> {
  const differences: string[] = [];
  const jobOf = new Map(jobs.map((job) => [job.repo_id, job]));
  for (const repo of seed.repos) {
    const at = `/repos/${repo.fullName}`;
    const [pulls, branches] = await Promise.all([
      stack.codeHostGet<EmulatedPull[]>(`${at}/pulls?state=all&per_page=100`),
      stack.codeHostGet<EmulatedBranch[]>(`${at}/branches?per_page=100`),
    ]);
    const names = branches.map((b) => b.name).sort();
    const job = jobOf.get(repo.id);
    if (!job) {
      if (pulls.length > 0) differences.push(`${repo.fullName} has no job but ${pulls.length} pull request(s)`);
      if (names.join() !== 'main') differences.push(`${repo.fullName} has no job but branches ${names.join(', ')}`);
      continue;
    }
    const heads = pulls.map((pull) => pull.head.ref);
    if (new Set(heads).size !== heads.length) differences.push(`${repo.fullName} has two pull requests from one head: ${heads.join(', ')}`);
    if (pulls.length !== 1) {
      differences.push(
        `${repo.fullName} (job ${job.id}) has ${pulls.length} pull requests: ${pulls.map((p) => `#${p.number} ${p.state}`).join(', ')}`,
      );
      continue;
    }
    const [pull] = pulls as [EmulatedPull];
    if (pull.state !== 'open' || pull.head.ref !== branch || pull.base.ref !== 'main')
      differences.push(`${repo.fullName}: pull request #${pull.number} is ${pull.state}, ${pull.head.ref} into ${pull.base.ref}`);
    if (job.pull_request_number !== pull.number || job.branch !== branch || job.head_sha !== pull.head.sha)
      differences.push(
        `${repo.fullName}: job ${job.id} records #${job.pull_request_number} on ${job.branch} at ${job.head_sha}, the code host #${pull.number} on ${pull.head.ref} at ${pull.head.sha}`,
      );
    if (names.join() !== ['main', branch].sort().join())
      differences.push(`${repo.fullName} (job ${job.id}) has branches ${names.join(', ')}`);
    const main = branches.find((b) => b.name === 'main')?.commit.sha;
    const commit = await stack.codeHostGet<{ parents: Array<{ sha: string }> }>(`${at}/git/commits/${pull.head.sha}`);
    if (commit.parents.map((p) => p.sha).join() !== main)
      differences.push(
        `${repo.fullName}: the branch's commit has parents ${commit.parents.map((p) => p.sha).join(', ')}, not main's ${main}`,
      );
    const file = await stack.codeHostGet<{ content: string }>(`${at}/contents/package.json?ref=${encodeURIComponent(branch)}`);
    const pinned = (JSON.parse(Buffer.from(file.content, 'base64').toString('utf8')) as { dependencies?: Record<string, string> })
      .dependencies?.lodash;
    if (pinned !== version) differences.push(`${repo.fullName}: package.json on ${branch} pins lodash ${pinned}, not ${version}`);
  }
  return differences;
}

describe('release-svc worker under faults, API and workers as their own processes', () => {
  it('a worker SIGKILLed in the middle of a notification: a fresh worker finishes it, every config scanned and every job recorded exactly once', {
    timeout: 60_000,
  }, async ({ annotate }) => {
    const cleanup = cleanupAfterTest();
    // 300 repos: three in four use lodash 4.17.15 (outdated), one in four 4.17.21 (the release: up to date).
    const seed = faultSeed({
      tag: 'kill',
      orgId: 7_100,
      login: 'killco',
      count: 300,
      firstRepoId: 710_000,
      firstConfigId: 71_000,
      lodashOf: (index) => (index % 4 === 3 ? '4.17.21' : '4.17.15'),
    });
    const outdated = outdatedConfigs(seed, '4.17.21');
    const upToDate = seed.repos.map((repo) => repo.configId).filter((id) => !outdated.includes(id));
    const batchSize = 10;
    const stack = await startFaultStack({
      label: 'faults_kill',
      databaseUrl: inject('databaseUrl'),
      amqpUrl: inject('amqpUrl'),
      seed,
      cleanup,
      workerEnv: { SCAN_BATCH_SIZE: String(batchSize), SCAN_CONCURRENCY: '4', WORKER_PREFETCH: '2' },
    });

    const posted = await stack.notify('4.17.21', true);
    expect(posted.status).toBe(202);
    const id: string = posted.body.data.id;

    // Results so far, and batches begun but not finished (configs are planned in id order, `batchSize` a batch).
    const progress = async () =>
      (
        await sql<{ results: number; partial: number }>`
          select coalesce(sum(done), 0)::int as results, count(*) filter (where done < ${batchSize})::int as partial from (
            select (update_config_id - ${seed.repos[0]?.configId ?? 0}) / ${batchSize} as batch, count(*) as done
            from release.scan_result where notification_id = ${id} group by 1
          ) b`.execute(stack.db)
      ).rows[0] ?? { results: 0, partial: 0 };
    // Kill as soon as a batch's results exist: the worker then holds other batches (WORKER_PREFETCH 2) half scanned,
    // whose work dies with it and must be done again by the next worker.
    for (const deadline = Date.now() + 30_000; ; await sleep(2)) {
      const now = await progress();
      if (now.results >= batchSize) break;
      if (Date.now() > deadline) throw new Error(`no batch recorded in 30 s (${now.results} results):\n${stack.firstWorker.output()}`);
    }
    await stack.firstWorker.stop('SIGKILL');
    const atKill = await progress();
    expect(atKill.results, 'the scan finished before the worker was killed').toBeLessThan(seed.repos.length);
    // A batch's results are recorded in one transaction: whole or not at all.
    expect(atKill.partial).toBe(0);
    const unpublishedAtKill = await stack.unpublishedJobEvents();
    const jobEventsAtKill = jobEvents(stack).byJob.size;
    const statusAtKill = (await stack.view(id)).status;
    expect(statusAtKill).toBe('scanning');

    const restartedAt = Date.now();
    const second = await stack.startWorker();
    const done = await waitFor(
      async () => {
        const attributes = await stack.view(id);
        return attributes.status === 'done' ? attributes : undefined;
      },
      60_000,
      100,
    ).catch((error: unknown) => {
      throw new Error(`${(error as Error).message}\nsecond worker:\n${second.output()}`);
    });
    const recoveredIn = Date.now() - restartedAt;

    expect(done).toMatchObject({
      'configs-total': seed.repos.length,
      'repos-scanned': seed.repos.length,
      'jobs-recorded': outdated.length,
      'repos-skipped': 0,
      'repos-failed': 0,
    });
    // One result per config, with the outcome the seed calls for.
    const results = await stack.db
      .selectFrom('scan_result')
      .select(['update_config_id', 'outcome'])
      .where('notification_id', '=', id)
      .orderBy('update_config_id')
      .execute();
    expect(results).toHaveLength(seed.repos.length);
    expect(results.filter((r) => r.outcome === 'job-recorded').map((r) => r.update_config_id)).toEqual(outdated);
    expect(results.filter((r) => r.outcome === 'up-to-date').map((r) => r.update_config_id)).toEqual(upToDate);
    // Exactly one job per outdated config, none for the up-to-date ones, and the API lists each once.
    expect(await jobConfigs(stack, id)).toEqual(outdated);
    const jobs = await stack.db
      .selectFrom('pull_request_job')
      .select(['id', 'update_config_id'])
      .where('notification_id', '=', id)
      .execute();
    const listed = await listedJobIds(stack, id, seed.ownerToken);
    expect([...listed].sort()).toEqual(jobs.map((job) => String(job.id)).sort());

    // Every job's pull_request_job.created reached the exchange: one event id per job (delivered at least once).
    await waitFor(async () => jobs.every((job) => jobEvents(stack).byJob.has(job.id)), 20_000, 100).catch(() => {
      const missing = jobs.filter((job) => !jobEvents(stack).byJob.has(job.id));
      throw new Error(`${missing.length} job(s) without a pull_request_job.created event, e.g. job ${missing[0]?.id}`);
    });
    const { byJob, duplicates } = jobEvents(stack);
    expect(byJob.size).toBe(outdated.length);
    expect([...byJob.values()].filter((eventIds) => eventIds.length > 1)).toEqual([]);
    expect(await stack.unpublishedJobEvents()).toBe(0);
    expect(Object.values(await parkedMessages(inject('amqpUrl'), stack.env.QUEUE_PREFIX)).every((n) => n === 0)).toBe(true);

    await annotate(
      [
        `killed the worker at ${atKill.results}/${seed.repos.length} results (${atKill.partial} batch(es) half recorded,`,
        `${unpublishedAtKill} job event(s) committed but not yet relayed, ${jobEventsAtKill} job event(s) seen);`,
        `a fresh worker finished in ${seconds(recoveredIn)};`,
        `${outdated.length} jobs, ${byJob.size} distinct job events, ${duplicates} duplicate deliveries`,
      ].join(' '),
    );
  });

  it('RabbitMQ restarted while notifications flow: the API keeps accepting them and every one is finished with its jobs', {
    timeout: 90_000,
  }, async ({ annotate }) => {
    const cleanup = cleanupAfterTest();
    const broker: RestartableBroker = await startRestartableBroker(inject('amqpUrl'));
    cleanup.defer(() => broker.close());
    // 30 repos on lodash 4.17.15, 4.17.21 and 4.17.30 in turn; notification i announces 4.17.(16 + i), so each one's jobs differ.
    const seed = faultSeed({
      tag: 'restart',
      orgId: 7_200,
      login: 'restartco',
      count: 30,
      firstRepoId: 720_000,
      firstConfigId: 72_000,
      lodashOf: (index) => ['4.17.15', '4.17.21', '4.17.30'][index % 3] ?? '4.17.15',
    });
    const stack = await startFaultStack({
      label: 'faults_restart',
      databaseUrl: inject('databaseUrl'),
      amqpUrl: broker.url,
      seed,
      cleanup,
      durableObserver: true,
      ownBroker: broker.kind === 'private node',
      workerEnv: { SCAN_BATCH_SIZE: '5', SCAN_CONCURRENCY: '4' },
    });
    const worker = stack.firstWorker;

    // The worker's /readyz follows its broker connection: record when it goes down and comes back.
    const readiness: Array<{ at: number; ready: boolean }> = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const ready = await fetch(`${worker.url}/readyz`).then(
          (res) => res.status === 200,
          () => false,
        );
        if (readiness.at(-1)?.ready !== ready) readiness.push({ at: Date.now(), ready });
        await sleep(200);
      }
    })();
    cleanup.defer(async () => {
      watching = false;
      await watcher;
    });

    const versions = Array.from({ length: 20 }, (_, i) => `4.17.${16 + i}`);
    const phase = { name: 'up' as 'up' | 'stopping' | 'down' | 'back' };
    const times: Record<string, number> = {};
    const answers: Array<{ version: string; status: number; phase: string; id?: string }> = [];
    let restart: Promise<void> | undefined;
    // A test that fails during the outage must not leave the restart running into the cleanup.
    const abortRestart = new AbortController();
    cleanup.defer(async () => {
      abortRestart.abort();
      await restart?.catch(() => {});
    });
    for (const [i, version] of versions.entries()) {
      if (i === 6) {
        restart = (async () => {
          phase.name = 'stopping';
          times.stopping = Date.now();
          await broker.stop();
          phase.name = 'down';
          times.down = Date.now();
          await delay(3_000, undefined, { signal: abortRestart.signal });
          await broker.start();
          phase.name = 'back';
          times.back = Date.now();
        })();
        // Awaited below; a failure must not surface as an unhandled rejection before that.
        restart.catch(() => {});
      }
      if (i === 16) await restart;
      const represent = i % 2 === 0;
      const sentWhile = phase.name;
      const res = await stack.notify(version, represent);
      answers.push({ version, status: res.status, phase: sentWhile, ...(represent ? { id: res.body?.data?.id } : {}) });
      await sleep(i >= 6 && i < 16 ? 400 : 150);
    }
    await restart;

    // The API kept answering as usual while the broker was away: 202 with the notification, or 204.
    expect(answers.map((a) => a.status)).toEqual(versions.map((_, i) => (i % 2 === 0 ? 202 : 204)));
    expect(new Set(answers.map((a) => a.phase))).toEqual(new Set(['up', 'stopping', 'down', 'back']));

    // Every accepted notification is finished, each with exactly the jobs its version calls for.
    const rows = await stack.db.selectFrom('notification').select(['id', 'version']).execute();
    expect(rows.map((row) => row.version).sort()).toEqual([...versions].sort());
    const idOf = new Map(rows.map((row) => [row.version, row.id]));
    for (const answer of answers) if (answer.id) expect(idOf.get(answer.version)).toBe(answer.id);
    const finished = await waitFor(
      async () => {
        const statuses = await stack.db.selectFrom('notification').select(['id', 'status', 'finished_at']).execute();
        return statuses.every((s) => s.status === 'done') ? statuses : undefined;
      },
      45_000,
      200,
    ).catch(async (error: unknown) => {
      const statuses = await stack.db.selectFrom('notification').select(['version', 'status']).execute();
      throw new Error(
        `${(error as Error).message}\n${JSON.stringify(statuses)}\nworker:\n${worker.output()}\nAPI:\n${stack.api.output()}\nbroker:\n${broker.output()}`,
      );
    });
    const lastDone = Math.max(...finished.map((s) => s.finished_at?.getTime() ?? 0));
    for (const version of versions) {
      const id = idOf.get(version) as string;
      const expected = outdatedConfigs(seed, version);
      expect(await jobConfigs(stack, id), `jobs of ${version}`).toEqual(expected);
      expect(await stack.view(id), `notification ${version}`).toMatchObject({
        status: 'done',
        'configs-total': seed.repos.length,
        'repos-scanned': seed.repos.length,
        'jobs-recorded': expected.length,
        'repos-failed': 0,
      });
    }

    // Every event reached the exchange: each notification's release_notification.received and each job's pull_request_job.created.
    const jobs = await stack.db.selectFrom('pull_request_job').select('id').execute();
    await waitFor(
      async () => {
        const { byJob } = jobEvents(stack);
        const received = stack.observer.events.filter((e) => e.type === 'release_notification.received').length;
        return jobs.every((job) => byJob.has(job.id)) && received === versions.length;
      },
      30_000,
      100,
    ).catch(() => {
      const { byJob } = jobEvents(stack);
      throw new Error(`events missing: ${jobs.filter((job) => !byJob.has(job.id)).length} of ${jobs.length} job events`);
    });
    const { byJob, duplicates } = jobEvents(stack);
    expect([...byJob.values()].filter((eventIds) => eventIds.length > 1)).toEqual([]);
    expect(Object.values(await parkedMessages(broker.url, stack.env.QUEUE_PREFIX)).every((n) => n === 0)).toBe(true);

    const workerDown = readiness.find((r) => !r.ready)?.at;
    const workerBack = readiness.findLast((r) => r.ready)?.at;
    await annotate(
      [
        `${broker.kind}${broker.fallbackReason ? ` (${broker.fallbackReason})` : ''}:`,
        `stop took ${seconds((times.down ?? 0) - (times.stopping ?? 0))}, down ${seconds((times.back ?? 0) - (times.down ?? 0))};`,
        `${answers.filter((a) => a.phase !== 'up').length} of ${answers.length} notifications posted while it was stopping, down or just back, all accepted;`,
        `worker /readyz false ${workerDown ? seconds(workerDown - (times.stopping ?? 0)) : '?'} after the stop began,`,
        `true again ${workerBack && times.back ? seconds(workerBack - times.back) : '?'} after the broker was back;`,
        `last notification done ${seconds(lastDone - (times.back ?? 0))} after the broker was back;`,
        `${jobs.length} jobs, ${byJob.size} distinct job events, ${duplicates} duplicate deliveries, observer reconnected ${stack.observer.reconnects()} time(s)`,
      ].join(' '),
    );
  });

  it('a worker SIGKILLed while it executes pull-request jobs: RabbitMQ delivers the unacked jobs again to a fresh worker, which ends each with one branch and one pull request', {
    timeout: 90_000,
  }, async ({ annotate }) => {
    const cleanup = cleanupAfterTest();
    // 50 repos whose package.json pins lodash (no lockfile: a job is one rewritten line), four in five at 4.17.15 (outdated).
    const seed = faultSeed({
      tag: 'prkill',
      orgId: 7_300,
      login: 'prkillco',
      count: 50,
      firstRepoId: 730_000,
      firstConfigId: 73_000,
      lodashOf: (index) => (index % 5 === 4 ? '4.17.21' : '4.17.15'),
      filesOf: npmPinnedFiles,
      botRepoRole: 'write',
    });
    const outdated = outdatedConfigs(seed, '4.17.21');
    const codeHostFaults: EmulatorFault[] = [];
    const stack = await startFaultStack({
      label: 'faults_pr_kill',
      databaseUrl: inject('databaseUrl'),
      amqpUrl: inject('amqpUrl'),
      seed,
      cleanup,
      // A killed worker's claims on its jobs run out after 3 s (default 20 s), so that their redeliveries take them soon.
      workerEnv: { PULL_REQUESTS: 'on', WORKER_PREFETCH: '8', PULL_REQUEST_LEASE_MS: '3000' },
      codeHostFaults,
    });
    const queue = `${stack.env.QUEUE_PREFIX}.${PULL_REQUEST_CONSUMER}`;

    const posted = await stack.notify('4.17.21', true);
    expect(posted.status).toBe(202);
    const id: string = posted.body.data.id;

    // Kill once some jobs have their pull request and others are being executed (two at least, so that one still is
    // when the signal lands), so that some must be taken up again.
    for (const deadline = Date.now() + 30_000; ; await sleep(2)) {
      const counts = countByStatus(await jobRows(stack, id));
      if ((counts.open ?? 0) >= 3 && (counts.running ?? 0) >= 2) break;
      if ((counts.open ?? 0) >= outdated.length || Date.now() > deadline)
        throw new Error(`no job running among open ones to kill the worker at (${describeCounts(counts)}):\n${stack.firstWorker.output()}`);
    }
    // The code host stops answering the jobs under way (their next request hangs), so they are still `running` when the
    // signal lands however loaded the machine is; it answers again once the worker is gone.
    codeHostFaults.push(...Array.from({ length: 32 }, () => ({ kind: 'hang' as const })));
    await waitFor(async () => codeHostFaults.length < 32 || undefined, 5_000, 10).catch(() => {});
    await sleep(200);
    await stack.firstWorker.stop('SIGKILL');
    codeHostFaults.length = 0;
    const atKill = await jobRows(stack, id);
    const countsAtKill = countByStatus(atKill);
    const runningAtKill = atKill.filter((job) => job.status === 'running').map((job) => job.id);
    const unfinishedAtKill = atKill.filter((job) => job.status === 'pending' || job.status === 'running').length;
    expect(runningAtKill.length, `jobs at the kill: ${describeCounts(countsAtKill)}`).toBeGreaterThan(0);
    expect(countsAtKill.open ?? 0).toBeLessThan(outdated.length);
    const unpublishedAtKill = await stack.unpublishedJobEvents();

    // The killed worker's connection is gone, so RabbitMQ returned its unacked deliveries to the queue: every unfinished
    // job whose event was published waits there again (a job `running` at the kill included; none was acked, as a
    // delivery is acked only once `executeJob` has settled the job).
    const requeued = await waitFor(
      async () => {
        const state = await queueState(stack.env.AMQP_URL, queue);
        return state.consumers === 0 ? state : undefined;
      },
      10_000,
      50,
    );
    expect(requeued.messages).toBeGreaterThanOrEqual(unfinishedAtKill - unpublishedAtKill);

    const restartedAt = Date.now();
    const second = await stack.startWorker();
    const jobs = await settledJobs(stack, id, outdated.length, 40_000, () => `second worker:\n${second.output()}`);
    const recoveredIn = Date.now() - restartedAt;

    // Every job ends open, those `running` at the kill too: the fresh worker takes each up once, by its redelivered
    // message or by its sweep of jobs left from before it started (once the killed worker's claims ran out).
    expect(jobs.filter((job) => job.status !== 'open').map((job) => `${job.id} ${job.status}: ${job.status_reason}`)).toEqual([]);
    expect(jobs.map((job) => job.update_config_id).sort((a, b) => a - b)).toEqual(outdated);
    expect(jobs.filter((job) => runningAtKill.includes(job.id)).map((job) => job.status)).toEqual(runningAtKill.map(() => 'open'));
    expect(await codeHostDifferences(stack, seed, jobs, 'dependabot/npm_and_yarn/lodash-4.17.21', '4.17.21')).toEqual([]);
    // Nothing left behind: no delivery waits or was given up on.
    await waitFor(async () => (await queueState(stack.env.AMQP_URL, queue)).messages === 0, 10_000, 100);
    expect(Object.values(await parkedMessages(stack.env.AMQP_URL, stack.env.QUEUE_PREFIX, ALL_CONSUMERS)).every((n) => n === 0)).toBe(true);

    await annotate(
      [
        `killed the worker with ${describeCounts(countsAtKill)} of ${outdated.length} jobs`,
        `(${unpublishedAtKill} job event(s) not yet relayed; ${requeued.messages} delivery(ies) back in the queue);`,
        `a fresh worker settled every job in ${seconds(recoveredIn)}: ${describeCounts(countByStatus(jobs))},`,
        `one pull request and one branch each (the ${runningAtKill.length} running at the kill included)`,
      ].join(' '),
    );
  });

  it('RabbitMQ restarted while pull-request jobs execute: every job still ends with one branch and one pull request', {
    timeout: 90_000,
  }, async ({ annotate }) => {
    const cleanup = cleanupAfterTest();
    const broker: RestartableBroker = await startRestartableBroker(inject('amqpUrl'));
    cleanup.defer(() => broker.close());
    const seed = faultSeed({
      tag: 'prrestart',
      orgId: 7_400,
      login: 'prrestartco',
      count: 50,
      firstRepoId: 740_000,
      firstConfigId: 74_000,
      lodashOf: (index) => (index % 5 === 4 ? '4.17.21' : '4.17.15'),
      filesOf: npmPinnedFiles,
      botRepoRole: 'write',
    });
    const outdated = outdatedConfigs(seed, '4.17.21');
    const stack = await startFaultStack({
      label: 'faults_pr_restart',
      databaseUrl: inject('databaseUrl'),
      amqpUrl: broker.url,
      seed,
      cleanup,
      durableObserver: true,
      ownBroker: broker.kind === 'private node',
      // A killed worker's claims on its jobs run out after 3 s (default 20 s), so that their redeliveries take them soon.
      workerEnv: { PULL_REQUESTS: 'on', WORKER_PREFETCH: '8', PULL_REQUEST_LEASE_MS: '3000' },
    });
    const worker = stack.firstWorker;

    const posted = await stack.notify('4.17.21', true);
    expect(posted.status).toBe(202);
    const id: string = posted.body.data.id;

    // Restart the broker once some jobs have their pull request and others are not done yet.
    for (const deadline = Date.now() + 30_000; ; await sleep(2)) {
      const counts = countByStatus(await jobRows(stack, id));
      if ((counts.open ?? 0) >= 3) break;
      if (Date.now() > deadline) throw new Error(`no job opened (${describeCounts(counts)}):\n${worker.output()}`);
    }
    const times: Record<string, number> = { stopping: Date.now() };
    const atStop = countByStatus(await jobRows(stack, id));
    expect(atStop.open ?? 0, 'every job was done before the broker stopped').toBeLessThan(outdated.length);
    await broker.stop();
    times.down = Date.now();
    const whileDown = countByStatus(await jobRows(stack, id));
    await delay(2_000);
    await broker.start();
    times.back = Date.now();

    const jobs = await settledJobs(stack, id, outdated.length, 45_000, () => `worker:\n${worker.output()}\nbroker:\n${broker.output()}`);
    const settledAfter = Date.now() - (times.back ?? 0);
    expect(jobs.filter((job) => job.status !== 'open').map((job) => `${job.id} ${job.status}: ${job.status_reason}`)).toEqual([]);
    expect(jobs.map((job) => job.update_config_id).sort((a, b) => a - b)).toEqual(outdated);
    expect(await codeHostDifferences(stack, seed, jobs, 'dependabot/npm_and_yarn/lodash-4.17.21', '4.17.21')).toEqual([]);
    await waitFor(
      async () => (await queueState(broker.url, `${stack.env.QUEUE_PREFIX}.${PULL_REQUEST_CONSUMER}`)).messages === 0,
      10_000,
      100,
    );
    expect(Object.values(await parkedMessages(broker.url, stack.env.QUEUE_PREFIX, ALL_CONSUMERS)).every((n) => n === 0)).toBe(true);

    await annotate(
      [
        `${broker.kind}${broker.fallbackReason ? ` (${broker.fallbackReason})` : ''}:`,
        `stopped with ${describeCounts(atStop)} of ${outdated.length} jobs (${describeCounts(whileDown)} once down);`,
        `stop took ${seconds((times.down ?? 0) - (times.stopping ?? 0))}, down ${seconds((times.back ?? 0) - (times.down ?? 0))};`,
        `every job settled ${seconds(settledAfter)} after the broker was back: ${describeCounts(countByStatus(jobs))},`,
        'one pull request and one branch each',
      ].join(' '),
    );
  });
});
