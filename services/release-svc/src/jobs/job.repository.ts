import { type Insertable, type Kysely, sql } from 'kysely';
import type { PullRequestJobRow, PullRequestJobTable, ReleaseDatabase } from '../db/schema.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * Records a job unless one exists for the same update config, dependency and target version (however
 * often a notification is redelivered or repeated).
 * @returns the new row, or undefined when the job was already recorded
 */
export function insertJobOnce(db: Db, job: Insertable<PullRequestJobTable>): Promise<PullRequestJobRow | undefined> {
  return db
    .insertInto('pull_request_job')
    .values(job)
    .onConflict((oc) => oc.columns(['update_config_id', 'dependency_name', 'target_version']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Filters of a job listing; `accountIds` bounds it to the caller's accounts. */
export interface JobFilter {
  accountIds: readonly number[];
  repoId?: number | undefined;
  dependencyName?: string | undefined;
  notificationId?: string | undefined;
}

/** One page of jobs, newest first, plus whether another page follows. */
export async function listJobs(
  db: Db,
  filter: JobFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: PullRequestJobRow[]; more: boolean }> {
  if (filter.accountIds.length === 0) return { rows: [], more: false };
  let query = db
    .selectFrom('pull_request_job')
    .selectAll()
    .where(sql<boolean>`account_id = any(${sql.val([...filter.accountIds])}::bigint[])`);
  if (filter.repoId !== undefined) query = query.where('repo_id', '=', filter.repoId);
  if (filter.dependencyName !== undefined) query = query.where('dependency_name', '=', filter.dependencyName);
  if (filter.notificationId !== undefined) query = query.where('notification_id', '=', filter.notificationId);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows: rows.slice(0, pageSize), more: rows.length > pageSize };
}
