import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayApi, GitHubApi, type Job } from './clients.ts';
import type { Journal } from './journal.ts';
import type { SoakUrls } from './system.ts';
import { ALICE, BOB } from './world.ts';

/**
 * The end of a run: the system is left to settle, with a final reconcile (every open pull request looked at: each
 * config's schedule changed and changed back, which makes its open pull requests due; a push to the target branches
 * of the configs a config file governs) and a final "bump now" of every
 * config, each followed by a wait until nothing moves.
 */

/** What settling works with. */
export interface SettleDeps {
  urls: () => SoakUrls;
  journal: Journal;
  /** How long each wait for quiet may take, real ms. */
  quietTimeoutMs: number;
  signal?: AbortSignal;
}

/** The state of every job the demo users see (status and reason), to tell when nothing moves any more. */
async function jobSnapshot(urls: () => SoakUrls): Promise<{ jobs: Job[]; text: string }> {
  const byId = new Map<string, Job>();
  for (const person of [ALICE, BOB])
    for (const job of await new GatewayApi(() => urls().gateway, person.token).jobs()) byId.set(job.id, job);
  const jobs = [...byId.values()];
  const text = jobs
    .map((j) => `${j.id}:${j.attributes.status}:${j.attributes['pull-request-number']}:${j.attributes['status-reason'] ?? ''}`)
    .sort()
    .join('\n');
  return { jobs, text };
}

/**
 * How long a job may stay `pending` or `running` before the worker takes it up by itself: a job whose message a restart
 * lost (the launcher's in-process bus keeps nothing across one) is taken up as the worker starts, and any other whose
 * message was lost by the worker's stall sweep 10 minutes after it was last touched (release-svc's
 * `STALLED_AFTER_MS`), plus a minute of rounds. Settling waits that long for such a job before counting it.
 */
export const STALL_RECOVERY_MS = 11 * 60_000;

/** Jobs seen under way while settling, by id: since when (their creation, epoch ms), and when they were not any more. */
export type UnderWay = Map<string, { since: number; over?: number }>;

/**
 * Waits until no job is `pending` or `running` and the jobs stay as they are for `stableRounds` polls a second apart,
 * for up to `quietTimeoutMs`, and longer while a job under way is younger than {@link STALL_RECOVERY_MS} (it may be one
 * whose message a restart lost). Runs are not waited for: the scheduler's clock goes on while the system settles, and
 * its runs of configs with nothing new record nothing.
 * @returns whether it got quiet (a note in the journal says so otherwise, with the last change seen)
 */
export async function waitForQuiet(deps: SettleDeps & { underWay: UnderWay }, what: string, stableRounds = 4): Promise<boolean> {
  const { urls, journal, underWay } = deps;
  const began = performance.now();
  let previous = '';
  let stable = 0;
  let lastChange = '';
  let lastBusy: number | undefined;
  for (;;) {
    deps.signal?.throwIfAborted();
    const { jobs, text } = await jobSnapshot(urls);
    const busy = jobs.filter((j) => j.attributes.status === 'pending' || j.attributes.status === 'running');
    for (const job of jobs) {
      const seen = underWay.get(job.id);
      if (busy.includes(job)) {
        if (!seen) underWay.set(job.id, { since: Date.parse(job.attributes['created-at']) });
      } else if (seen && seen.over === undefined) seen.over = Date.now();
    }
    stable = busy.length === 0 && text === previous ? stable + 1 : 0;
    if (text !== previous && previous !== '') {
      const before = new Set(previous.split('\n'));
      lastChange = text
        .split('\n')
        .filter((line) => !before.has(line))
        .slice(0, 5)
        .join(' | ');
    }
    if (busy.length > 0)
      lastChange = `${busy.length} under way: ${busy
        .slice(0, 3)
        .map((j) => `job ${j.id} ${j.attributes.status}`)
        .join(', ')}`;
    previous = text;
    if (stable >= stableRounds) {
      journal.log(`quiet ${what} after ${((performance.now() - began) / 1000).toFixed(1)} s`);
      return true;
    }
    // Past the timeout, a job under way that the stall sweep may still take up is waited for; once none is under way,
    // the jobs get a minute more to come to rest.
    const now = performance.now();
    if (busy.length > 0) lastBusy = now;
    const pastTimeout = now - began >= deps.quietTimeoutMs;
    const youngest = Math.max(0, ...busy.map((j) => Date.parse(j.attributes['created-at'])));
    if (pastTimeout && busy.length > 0 && Date.now() - youngest > STALL_RECOVERY_MS) break;
    if (pastTimeout && busy.length === 0 && (lastBusy === undefined || now - lastBusy >= 60_000)) break;
    await sleep(1_000, undefined, deps.signal ? { signal: deps.signal } : {});
  }
  journal.note(`not quiet ${what} within ${((performance.now() - began) / 1000).toFixed(0)} s; the last change seen: ${lastChange}`);
  return false;
}

/**
 * The jobs of `underWay` that were under way for longer than `thresholdMs` (from their creation until they were not, or
 * until now), each as `job <id>: <seconds> s`.
 */
export function slowJobs(underWay: UnderWay, thresholdMs: number): string[] {
  return [...underWay.entries()]
    .map(([id, { since, over }]) => ({ id, ms: (over ?? Date.now()) - since, done: over !== undefined }))
    .filter((j) => j.ms > thresholdMs)
    .map((j) => `job ${j.id}: ${(j.ms / 1000).toFixed(0)} s${j.done ? '' : ' (still under way)'}`);
}

/**
 * Settles the system: quiet after the last day, the final reconcile, quiet, a "bump now" of every config and the wait
 * for its runs, quiet again.
 * @returns the jobs it saw under way for more than a minute (`job <id>: <seconds> s`)
 * @throws Unexpected / Unreachable when the system refuses or does not answer
 */
export async function settle(settleDeps: SettleDeps): Promise<{ slowJobs: string[] }> {
  const deps = { ...settleDeps, underWay: new Map() as UnderWay };
  const { urls, journal } = deps;
  await waitForQuiet(deps, 'after the last day');

  // The final reconcile: a change of a config makes its open pull requests due at once. A change that changes nothing
  // is not an event, so each config's schedule moves and moves back. A config file's configs cannot be changed through
  // the API: a push to their target branches (a note beside the files) makes their open pull requests due instead.
  const pushed = new Set<string>();
  for (const config of journal.configs.filter((c) => c.source !== 'api')) {
    const repo = config.plan.repo;
    const branch = config.targetBranch ?? repo.defaultBranch;
    if (pushed.has(`${repo.fullName}@${branch}`)) continue;
    pushed.add(`${repo.fullName}@${branch}`);
    const github = new GitHubApi(() => urls().codeHost, repo.person.token);
    const sha = await github
      .commit(repo.fullName, branch, { 'NOTES.md': `# Notes\n\nsettled by ${repo.person.login}\n` }, 'A last note')
      .catch((error: unknown) => {
        journal.note(`final reconcile of ${repo.fullName}@${branch}: ${(error as Error).message}`);
        return '';
      });
    if (sha) journal.log(`final reconcile: a note pushed to ${repo.fullName}@${branch} (${config.source}) ${sha.slice(0, 7)}`);
  }
  for (const config of journal.configs.filter((c) => c.source === 'api')) {
    const gateway = new GatewayApi(() => urls().gateway, config.person.token);
    const other = config.schedule === 'daily' ? 'weekly' : 'daily';
    for (const schedule of [other, config.schedule]) {
      const answer = await gateway.send('PATCH', `/update_configs/${config.id}`, { 'update-schedule': schedule });
      if (answer.status !== 200) journal.note(`final reconcile of config ${config.id}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
  }
  journal.log('final reconcile asked for: every open pull request of every config is due');
  await sleep(5_000, undefined, deps.signal ? { signal: deps.signal } : {});
  await waitForQuiet(deps, 'after the final reconcile');

  // The final "bump now" of every config, and its runs to the end.
  const runs: { config: string; run: string; token: string }[] = [];
  for (const config of journal.configs) {
    const gateway = new GatewayApi(() => urls().gateway, config.person.token);
    const run = await gateway.bumpNow(config.id);
    runs.push({ config: config.id, run: run.id, token: config.person.token });
  }
  journal.log(`final bump now: ${runs.length} runs`);
  const began = performance.now();
  for (const { config, run, token } of runs) {
    const gateway = new GatewayApi(() => urls().gateway, token);
    for (;;) {
      const found = await gateway.run(run);
      if (found.attributes.status === 'done' || found.attributes.status === 'failed') break;
      if (performance.now() - began > deps.quietTimeoutMs) {
        journal.note(`the final run ${run} of config ${config} is still ${found.attributes.status}`);
        break;
      }
      await sleep(500, undefined, deps.signal ? { signal: deps.signal } : {});
    }
  }
  await waitForQuiet(deps, 'after the final bump now');
  return { slowJobs: slowJobs(deps.underWay, 60_000) };
}
