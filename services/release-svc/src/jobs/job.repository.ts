import type { PullRequestJobCreated, PullRequestJobStatus } from '@switchyard/contracts';
import type { VersionScheme } from '@switchyard/ecosystems';
import { type Kysely, sql } from 'kysely';
import type { PullRequestJobRow, ReleaseDatabase } from '../db/schema.ts';

type Db = Kysely<ReleaseDatabase>;

/** A job to record: a `pull_request_job.created` event's payload without the job's id (the database assigns it). */
export type NewJob = Omit<PullRequestJobCreated, 'id'>;

/**
 * Records a job unless one exists for the same update config, dependency and target version (however
 * often a notification is redelivered or repeated, and however the version is spelled: `v2.32.0`,
 * `2.32.0` and `2.32` are one version to pip). Must run in a transaction: a transaction-scoped advisory
 * lock on the config and dependency makes concurrent notifications take turns.
 * @param versions the ecosystem's version scheme, to recognise equal versions spelled differently
 * @returns the new row, or undefined when the job was already recorded
 */
export async function insertJobOnce(
  trx: Db,
  versions: Pick<VersionScheme, 'compare' | 'isValid'> | undefined,
  job: NewJob,
): Promise<PullRequestJobRow | undefined> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`${job.updateConfigId}:${job.dependencyName}`}, 0))`.execute(trx);
  const earlier = await trx
    .selectFrom('pull_request_job')
    .select('target_version')
    .where('update_config_id', '=', job.updateConfigId)
    .where('dependency_name', '=', job.dependencyName)
    .execute();
  const same = (a: string) =>
    a === job.targetVersion ||
    (versions?.isValid(a) && versions.isValid(job.targetVersion) && versions.compare(a, job.targetVersion) === 0);
  if (earlier.some((row) => same(row.target_version))) return undefined;
  return trx
    .insertInto('pull_request_job')
    .values({
      notification_id: job.notificationId,
      update_run_id: job.updateRunId,
      unverified: job.unverified,
      update_config_id: job.updateConfigId,
      repo_id: job.repoId,
      account_id: job.accountId,
      package_manager: job.packageManager,
      dependency_name: job.dependencyName,
      dependency_type: job.dependencyType,
      version_in_use: job.versionInUse,
      target_version: job.targetVersion,
      update_kind: job.updateKind,
      automerge: job.automerge,
      security_fix: job.securityFix,
      target_branch: job.targetBranch,
      directory: job.directory,
    })
    .onConflict((oc) => oc.columns(['update_config_id', 'dependency_name', 'target_version']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Filters of a job listing; `repoIds` bounds it to the repos the caller can see. */
export interface JobFilter {
  repoIds: readonly number[];
  repoId?: number | undefined;
  dependencyName?: string | undefined;
  notificationId?: string | undefined;
  status?: PullRequestJobStatus | undefined;
}

/** One page of jobs (`page` from 1), newest first, plus whether another page follows. */
export async function listJobs(
  db: Db,
  filter: JobFilter,
  page: number,
  pageSize: number,
): Promise<{ rows: PullRequestJobRow[]; more: boolean }> {
  if (filter.repoIds.length === 0) return { rows: [], more: false };
  let query = db
    .selectFrom('pull_request_job')
    .selectAll()
    .where(sql<boolean>`repo_id = any(${sql.val([...filter.repoIds])}::bigint[])`);
  if (filter.repoId !== undefined) query = query.where('repo_id', '=', filter.repoId);
  if (filter.dependencyName !== undefined) query = query.where('dependency_name', '=', filter.dependencyName);
  if (filter.notificationId !== undefined) query = query.where('notification_id', '=', filter.notificationId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows: rows.slice(0, pageSize), more: rows.length > pageSize };
}
