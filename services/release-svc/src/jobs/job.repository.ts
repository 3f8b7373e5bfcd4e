import type { PullRequestJobCreated, PullRequestJobStatus } from '@switchyard/contracts';
import type { VersionScheme } from '@switchyard/ecosystems';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { PullRequestJobRow } from './job.table.ts';

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

/** `now()` moved by `ms` milliseconds (negative: into the past), as the database's clock says. */
const fromNow = (ms: number) => sql<Date>`now() + make_interval(secs => ${ms / 1000})`;

/** Jobs no live execution holds: no claim, or one whose heartbeat is older than `leaseMs`. */
const unclaimed = (leaseMs: number) => (eb: ExpressionBuilder<ReleaseDatabase, 'pull_request_job'>) =>
  eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', fromNow(-leaseMs))]);

/** The statuses of a job still to carry out. */
export const EXECUTABLE_STATUSES: readonly PullRequestJobStatus[] = ['pending', 'queued-limit', 'running'];

/** A job's pull request: its branch, number, web URL and the commit this service made on the branch (when it made one). */
export interface OpenedPullRequest {
  branch: string;
  number: number;
  url: string;
  headSha?: string;
  /** The target branch's commit the branch's commit was made on. */
  baseSha?: string;
}

/**
 * Moves a job to `status` (with `reason` and its pull request when given); an open one is looked at again in
 * `lookInMs` ms (default at once), any other is no longer looked at.
 */
export async function setStatus(
  db: Db,
  id: number,
  status: PullRequestJobStatus,
  reason: string | null,
  pullRequest?: OpenedPullRequest,
  lookInMs = 0,
): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({
      status,
      status_reason: reason,
      status_changed_at: sql`now()`,
      maintain_at: status === 'open' ? fromNow(lookInMs) : null,
      ...(pullRequest
        ? {
            branch: pullRequest.branch,
            pull_request_number: pullRequest.number,
            pull_request_url: pullRequest.url,
            ...(pullRequest.headSha ? { head_sha: pullRequest.headSha } : {}),
            ...(pullRequest.baseSha ? { base_sha: pullRequest.baseSha } : {}),
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

/**
 * Claims job `jobId` for one execution (`token`): a job whose status is one of {@link EXECUTABLE_STATUSES} and that no
 * other execution holds (no claim, or one whose heartbeat is older than `leaseMs` ms: its worker stopped).
 * @returns the job; `busy` when another execution holds it; undefined when there is nothing to do (no such job, or it
 *   is past execution)
 */
export async function claimJob(db: Db, jobId: number, token: string, leaseMs: number): Promise<PullRequestJobRow | 'busy' | undefined> {
  const claimed = await db
    .updateTable('pull_request_job')
    .set({ claimed_by: token, claimed_at: sql`now()` })
    .where('id', '=', jobId)
    .where('status', 'in', [...EXECUTABLE_STATUSES])
    .where(unclaimed(leaseMs))
    .returningAll()
    .executeTakeFirst();
  if (claimed) return claimed;
  const current = await db.selectFrom('pull_request_job').select('status').where('id', '=', jobId).executeTakeFirst();
  return current && EXECUTABLE_STATUSES.includes(current.status) ? 'busy' : undefined;
}

/** Renews the heartbeat of execution `token`'s claim on the job (nothing when another holds it now). */
export async function renewClaim(db: Db, jobId: number, token: string): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({ claimed_at: sql`now()` })
    .where('id', '=', jobId)
    .where('claimed_by', '=', token)
    .execute();
}

/** Lets go of execution `token`'s claim on the job (nothing when another holds it now). */
export async function releaseClaim(db: Db, jobId: number, token: string): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({ claimed_by: null, claimed_at: null })
    .where('id', '=', jobId)
    .where('claimed_by', '=', token)
    .execute();
}

/** Marks a job `running` (its change is being made on the code host). */
export async function markRunning(db: Db, jobId: number): Promise<void> {
  await db.updateTable('pull_request_job').set({ status: 'running', status_changed_at: sql`now()` }).where('id', '=', jobId).execute();
}

/** The jobs of a config whose pull request is open. */
export async function openPullRequestCount(db: Db, configId: number): Promise<number> {
  const open = await db
    .selectFrom('pull_request_job')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('update_config_id', '=', configId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(open.n);
}

/** The other jobs of the same config and dependency as `job` whose pull request is open: their id, number and version. */
export function findOtherOpenJobs(
  db: Db,
  job: Pick<PullRequestJobRow, 'id' | 'update_config_id' | 'dependency_name'>,
): Promise<Array<{ id: number; pull_request_number: number | null; target_version: string }>> {
  return db
    .selectFrom('pull_request_job')
    .select(['id', 'pull_request_number', 'target_version'])
    .where('update_config_id', '=', job.update_config_id)
    .where('dependency_name', '=', job.dependency_name)
    .where('id', '!=', job.id)
    .where('status', '=', 'open')
    .where('pull_request_number', 'is not', null)
    .execute();
}

/** Up to `limit` jobs waiting as `queued-limit`, oldest first: their id and config. */
export function listQueuedJobs(db: Db, limit: number): Promise<Array<{ id: number; update_config_id: number }>> {
  return db
    .selectFrom('pull_request_job')
    .select(['id', 'update_config_id'])
    .where('status', '=', 'queued-limit')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Up to `limit` jobs, oldest first, left `pending` or `running` for `stalledAfterMs` ms with no live claim (none, or
 * one older than `leaseMs` ms): their ids.
 */
export async function listStalledJobs(db: Db, stalledAfterMs: number, leaseMs: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('pull_request_job')
    .select('id')
    .where('status', 'in', ['pending', 'running'])
    .where('status_changed_at', '<', fromNow(-stalledAfterMs))
    .where(unclaimed(leaseMs))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes up to `limit` open jobs whose look is due (`maintain_at` passed), earliest first, each for one worker only
 * (`for update skip locked`), and leases them for `leaseMs` ms (their `maintain_at` moves that far ahead).
 */
export function takeDueOpenJobs(db: Db, leaseMs: number, limit: number): Promise<PullRequestJobRow[]> {
  return db
    .updateTable('pull_request_job')
    .set({ maintain_at: fromNow(leaseMs) })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('pull_request_job')
        .select('id')
        .where('status', '=', 'open')
        .where('maintain_at', '<=', sql<Date>`now()`)
        .orderBy('maintain_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/** Looks at an open job's pull request again in `ms` ms (nothing once the job is not open). */
export async function lookAgainIn(db: Db, jobId: number, ms: number): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({ maintain_at: fromNow(ms) })
    .where('id', '=', jobId)
    .where('status', '=', 'open')
    .execute();
}

/** Says why an open job's pull request stays as it is (the job stays `open`). */
export async function setOpenReason(db: Db, jobId: number, reason: string): Promise<void> {
  await db.updateTable('pull_request_job').set({ status_reason: reason }).where('id', '=', jobId).where('status', '=', 'open').execute();
}

/** Records a rebase: the branch's new commit (`headSha`, made on `baseSha`), and a look at once. */
export async function recordRebase(db: Db, jobId: number, headSha: string | null, baseSha: string): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({ head_sha: headSha, base_sha: baseSha, status_reason: `rebased on ${baseSha.slice(0, 7)}`, maintain_at: sql`now()` })
    .where('id', '=', jobId)
    .execute();
}

/**
 * Makes the open pull requests a code-host event concerns due at once: those targeting `branch` of repo `repoId` (a push
 * to it: maybe a rebase), or those whose head is `headSha` (a commit status or check run changed: maybe an automerge).
 * @returns how many became due
 */
export async function makeDue(trx: Db, on: { repoId: number; branch: string } | { headSha: string }): Promise<number> {
  let query = trx.updateTable('pull_request_job').set({ maintain_at: sql`now()` }).where('status', '=', 'open');
  query =
    'headSha' in on
      ? query.where('head_sha', '=', on.headSha)
      : query.where('repo_id', '=', on.repoId).where('target_branch', '=', on.branch);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Moves the job of pull request `number` of repo `repoId` to `status` (with `reason`), unless it already is in one of
 * `unless` (a merged job is not closed again; a superseded one stays superseded).
 * @returns how many jobs changed (0 or 1)
 */
export async function setPullRequestStatus(
  trx: Db,
  repoId: number,
  number: number,
  status: PullRequestJobStatus,
  reason: string | null,
  unless: readonly PullRequestJobStatus[],
): Promise<number> {
  let query = trx
    .updateTable('pull_request_job')
    .set({ status, status_reason: reason, status_changed_at: sql`now()`, maintain_at: status === 'open' ? sql`now()` : null })
    .where('repo_id', '=', repoId)
    .where('pull_request_number', '=', number)
    .where('status', '!=', status);
  if (unless.length > 0) query = query.where('status', 'not in', [...unless]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A pull-request job a notification caused, with its pull request once opened. */
export interface NotificationPullRequest {
  repoId: number;
  updateConfigId: number;
  jobId: number;
  status: PullRequestJobStatus;
  pullRequestNumber: number | null;
  pullRequestUrl: string | null;
}

/** Up to `limit` jobs of notification `id` on `repoIds`, oldest first, with their pull requests as they stand. */
export async function listNotificationPullRequests(
  db: Db,
  id: string,
  repoIds: readonly number[],
  limit = 100,
): Promise<NotificationPullRequest[]> {
  if (repoIds.length === 0) return [];
  const rows = await db
    .selectFrom('pull_request_job')
    .select(['id', 'repo_id', 'update_config_id', 'status', 'pull_request_number', 'pull_request_url'])
    .where('notification_id', '=', id)
    .where(sql<boolean>`repo_id = any(${sql.val([...repoIds])}::bigint[])`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    repoId: row.repo_id,
    updateConfigId: row.update_config_id,
    jobId: row.id,
    status: row.status,
    pullRequestNumber: row.pull_request_number,
    pullRequestUrl: row.pull_request_url,
  }));
}

/** The ids of the jobs each run recorded, by run id, in the order recorded. */
export async function findJobIdsOfRuns(db: Db, runIds: readonly string[]): Promise<Map<string, number[]>> {
  const jobs = new Map<string, number[]>();
  if (runIds.length === 0) return jobs;
  const rows = await db
    .selectFrom('pull_request_job')
    .select(['id', 'update_run_id'])
    .where('update_run_id', 'in', [...runIds])
    .orderBy('id')
    .execute();
  for (const row of rows) {
    if (row.update_run_id === null) continue;
    jobs.set(row.update_run_id, [...(jobs.get(row.update_run_id) ?? []), row.id]);
  }
  return jobs;
}
