import type { Caller } from '@switchyard/code-host';
import type { Kysely } from 'kysely';
import type { PullRequestJobRow, ReleaseDatabase } from '../db/schema.ts';
import { type JobFilter, listJobs } from './job.repository.ts';

/** Jobs per page of a job listing. */
export const JOBS_PAGE_SIZE = 100;

/** What {@link listCallerJobs} lists: the filters (each optional) and the page, from 1. */
export type JobQuery = Omit<JobFilter, 'accountIds'> & { page: number };

/** One page of jobs and the number of the next page (null on the last). */
export interface JobPage {
  jobs: PullRequestJobRow[];
  next: number | null;
}

/** Jobs on repos of the accounts the caller reaches, filtered, newest first, {@link JOBS_PAGE_SIZE} a page. */
export async function listCallerJobs(db: Kysely<ReleaseDatabase>, caller: Caller, { page, ...filter }: JobQuery): Promise<JobPage> {
  const accountIds = caller.accounts.map((account) => account.id);
  const { rows, more } = await listJobs(db, { ...filter, accountIds }, page, JOBS_PAGE_SIZE);
  return { jobs: rows, next: more ? page + 1 : null };
}
