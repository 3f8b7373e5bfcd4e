import { OPEN_PULL_REQUEST_LIMIT } from '@switchyard/contracts/vocabulary';
import {
  type AccountResource,
  listJobs,
  listRepos,
  listRuns,
  type Page,
  type PullRequestJobResource,
  readPages,
  type UpdateRunResource,
} from './api/endpoints.ts';
import type { Bar } from './charts/BarChart.tsx';
import type { TimelineDay } from './charts/RunTimeline.tsx';

/** Days the run timeline covers. */
export const TIMELINE_DAYS = 30;
/** The most configs whose runs are read for the timeline, and the most pages of runs per config (25 runs a page). */
const MAX_CONFIGS = 40;
const MAX_RUN_PAGES = 4;
/** The most pages of jobs read for the pictures (100 jobs a page). */
const MAX_JOB_PAGES = 5;
/** Statuses of a job whose update has not landed yet: the repo is behind on that dependency. */
const BEHIND = new Set(['pending', 'running', 'queued-limit', 'open']);

/** What the account overview draws. */
export interface Overview {
  timeline: TimelineDay[];
  openPullRequests: Bar[];
  behind: Bar[];
  /** The account has more configs or jobs than were read (the pictures cover the first ones). */
  partial: boolean;
  activeRepos: number;
  configs: number;
}

/** `YYYY-MM-DD` of `date` in the reader's time zone. */
const dayOf = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/**
 * Reads, through the public API, what the overview's pictures need: the account's active repos and configs
 * (`GET /repos`), each config's runs of the last {@link TIMELINE_DAYS} days (`GET /update_runs`), and the jobs on its
 * repos (`GET /pull_request_jobs`). Bounded: at most 40 configs and 500 jobs are read (`partial` says when more exist).
 */
export async function loadOverview(account: AccountResource, now = new Date()): Promise<Overview> {
  const { items: repos, configs } = await listRepos(account, 'active', 1);
  const since = new Date(now.getTime() - TIMELINE_DAYS * 86_400_000);
  let partial = configs.length > MAX_CONFIGS;

  const runs: UpdateRunResource[] = [];
  await Promise.all(
    configs.slice(0, MAX_CONFIGS).map(async (config) => {
      // On while the pages still reach into the timeline's days and there is a next one.
      let more = false;
      for await (const page of readPages((number) => listRuns(config.id, number), MAX_RUN_PAGES)) {
        runs.push(...page.items);
        const oldest = page.items.at(-1);
        more = oldest !== undefined && new Date(oldest.attributes['created-at']) >= since && page.next !== null;
        if (!more) break;
      }
      if (more) partial = true;
    }),
  );
  const days = new Map<string, TimelineDay>();
  for (let i = TIMELINE_DAYS - 1; i >= 0; i--) {
    const day = dayOf(new Date(now.getTime() - i * 86_400_000));
    days.set(day, { day, succeeded: 0, failed: 0 });
  }
  for (const run of runs) {
    const finished = run.attributes['finished-at'];
    if (!finished) continue;
    const entry = days.get(dayOf(new Date(finished)));
    if (!entry) continue;
    if (run.attributes.status === 'done') entry.succeeded++;
    else if (run.attributes.status === 'failed') entry.failed++;
  }

  const repoIds = new Set(repos.map((repo) => repo.id));
  const jobs: PullRequestJobResource[] = [];
  let lastJobs: Page<PullRequestJobResource> | undefined;
  for await (const page of readPages((number) => listJobs({}, number), MAX_JOB_PAGES)) {
    jobs.push(...page.items.filter((job) => repoIds.has(job.relationships.repo.data.id)));
    lastJobs = page;
  }
  if ((lastJobs?.next ?? null) !== null) partial = true;

  const limits = account.attributes['limit-open-pull-requests'];
  const openPullRequests: Bar[] = repos
    .map((repo) => {
      const open = jobs.filter((job) => job.relationships.repo.data.id === repo.id && job.attributes.status === 'open').length;
      const repoConfigs = repo.relationships['update-configs'].data.length;
      return { label: repo.attributes.name, values: [open], limit: limits ? repoConfigs * OPEN_PULL_REQUEST_LIMIT : undefined };
    })
    .sort((a, b) => (b.values[0] ?? 0) - (a.values[0] ?? 0));

  const behindRepos = new Map<string, Set<string>>();
  for (const job of jobs) {
    if (!BEHIND.has(job.attributes.status)) continue;
    const name = job.attributes['dependency-name'];
    const set = behindRepos.get(name) ?? new Set<string>();
    set.add(job.relationships.repo.data.id);
    behindRepos.set(name, set);
  }
  const behind: Bar[] = [...behindRepos]
    .map(([label, set]) => ({ label, values: [set.size] }))
    .sort((a, b) => (b.values[0] ?? 0) - (a.values[0] ?? 0) || a.label.localeCompare(b.label))
    .slice(0, 10);

  return { timeline: [...days.values()], openPullRequests, behind, partial, activeRepos: repos.length, configs: configs.length };
}
