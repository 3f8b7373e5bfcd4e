import type { Insertable, Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { PullRequestJobUpdateRow, PullRequestJobUpdateTable } from './job-update.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Records the updates of a group's job (`position` their order in the pull request), in the caller's transaction. */
export async function insertJobUpdates(trx: Db, rows: readonly Insertable<PullRequestJobUpdateTable>[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('pull_request_job_update')
    .values([...rows])
    .execute();
}

/** The updates of the given group jobs, each job's in their order; a job of one dependency has none. */
export async function findJobUpdates(db: Db, jobIds: readonly number[]): Promise<Map<number, PullRequestJobUpdateRow[]>> {
  const byJob = new Map<number, PullRequestJobUpdateRow[]>();
  if (jobIds.length === 0) return byJob;
  const rows = await db
    .selectFrom('pull_request_job_update')
    .selectAll()
    .where('job_id', 'in', [...jobIds])
    .orderBy('job_id')
    .orderBy('position')
    .execute();
  for (const row of rows) byJob.set(row.job_id, [...(byJob.get(row.job_id) ?? []), row]);
  return byJob;
}

/**
 * The open jobs of one dependency each (not of a group) of `dependencyNames` in the config, with their pull requests:
 * the pull requests a group's pull request replaces when it opens.
 */
export function findOpenSingleJobsOf(
  db: Db,
  updateConfigId: number,
  dependencyNames: readonly string[],
): Promise<
  Array<{
    id: number;
    dependency_name: string;
    pull_request_number: number | null;
    branch: string | null;
    head_sha: string | null;
    target_version: string;
  }>
> {
  if (dependencyNames.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('pull_request_job')
    .select(['id', 'dependency_name', 'pull_request_number', 'branch', 'head_sha', 'target_version'])
    .where('update_config_id', '=', updateConfigId)
    .where('dependency_name', 'in', [...dependencyNames])
    .where('group_name', 'is', null)
    .where('status', '=', 'open')
    .where('pull_request_number', 'is not', null)
    .execute();
}
