import type { Caller, CodeHostView } from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import { visibleRepoIds } from '../access/visible-repos.service.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { type JobFilter, listJobs } from './job.repository.ts';
import type { PullRequestJobRow } from './job.table.ts';
import { findJobUpdates } from './job-update.repository.ts';
import type { PullRequestJobUpdateRow } from './job-update.table.ts';

/** Jobs per page of a job listing. */
export const JOBS_PAGE_SIZE = 100;

/** What {@link listCallerJobs} lists: the filters (each optional) and the page, from 1. */
export type JobQuery = Omit<JobFilter, 'repoIds'> & { page: number };

/** One page of jobs, each group's job with its updates, and the number of the next page (null on the last). */
export interface JobPage {
  jobs: PullRequestJobRow[];
  updates: Map<number, PullRequestJobUpdateRow[]>;
  next: number | null;
}

/**
 * Jobs on the repos the caller's token can see now ({@link visibleRepoIds}), filtered, newest first,
 * {@link JOBS_PAGE_SIZE} a page.
 * @throws RateLimited or another caller-facing code-host error when the repos cannot be listed
 */
export async function listCallerJobs(
  db: Kysely<ReleaseDatabase>,
  view: CodeHostView,
  caller: Caller,
  { page, ...filter }: JobQuery,
): Promise<JobPage> {
  const repoIds = await visibleRepoIds(view, caller);
  const { rows, more } = await listJobs(db, { ...filter, repoIds }, page, JOBS_PAGE_SIZE);
  const updates = await findJobUpdates(
    db,
    rows.filter((row) => row.group_name !== null).map((row) => row.id),
  );
  return { jobs: rows, updates, next: more ? page + 1 : null };
}
