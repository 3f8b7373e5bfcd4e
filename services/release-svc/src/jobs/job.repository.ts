import type { PullRequestJobCreated, PullRequestJobStatus } from '@switchyard/contracts';
import type { VersionScheme } from '@switchyard/ecosystems';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type {} from '../read-model/repo.table.ts';
import { LIVE_STATUSES } from './job.policy.ts';
import type { PullRequestJobRow } from './job.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** A job to record: a `pull_request_job.created` event's payload without the job's id (the database assigns it). */
/** A job to record: a `pull_request_job.created` event's data without its id (`groupName` absent: one dependency's). */
export type NewJob = Omit<PullRequestJobCreated, 'id' | 'groupName'> & { groupName?: string | null };

/** What {@link insertJobOnce} did: the job recorded, or the earlier job of that version that stands in its way. */
export type JobRecording = { recorded: PullRequestJobRow } | { blockedBy: PullRequestJobRow };

/**
 * Records a job unless an earlier one of the same update config and dependency stands in its way: one of the same
 * target version (however the version is spelled: `v2.32.0`, `2.32.0` and `2.32` are one version to pip) still under
 * way against the same target branch ({@link LIVE_STATUSES}); one of a newer version under way there when the version's
 * own job was superseded (by it, or one before it: a repeated notification of the older version records it again
 * only once the newer one is no longer under way); one of the same version whose pull request a person closed unmerged
 * (`ignored`: Dependabot's "won't notify you about this version again"); or one of the same version that failed, in
 * that order. A job whose pull request vanished, was closed by this service, or was merged does not: the run read the
 * files, and they still call for the update. An older version's job recorded while a newer one is under way is
 * superseded when it is carried out, opening nothing.
 * A group's job (`groupName` set) is compared with the group's earlier jobs alone, its digest (`targetVersion`) as its
 * version (`versions` undefined: digests have no order).
 * Must run in a transaction: a transaction-scoped advisory lock on the config and dependency (or group) makes
 * concurrent runs take turns.
 * @param versions the ecosystem's version scheme, to recognise equal versions spelled differently and newer ones
 * @param inRange whether the update is within the manifest's requirement (kept for the `in_range` automerge rule)
 * @returns the new row, or the earlier job in the way
 */
export async function insertJobOnce(
  trx: Db,
  versions: Pick<VersionScheme, 'compare' | 'isValid' | 'unordered'> | undefined,
  job: NewJob,
  inRange = false,
): Promise<JobRecording> {
  const groupName = job.groupName ?? null;
  const key = groupName === null ? `${job.updateConfigId}:${job.dependencyName}` : `${job.updateConfigId}:group:${groupName}`;
  await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  const earlier = await trx
    .selectFrom('pull_request_job')
    .selectAll()
    .where('update_config_id', '=', job.updateConfigId)
    .where('dependency_name', '=', job.dependencyName)
    .where('group_name', groupName === null ? 'is' : '=', groupName)
    .orderBy('id', 'desc')
    .execute();
  const same = (a: string) =>
    a === job.targetVersion ||
    (versions?.isValid(a) && versions.isValid(job.targetVersion) && versions.compare(a, job.targetVersion) === 0);
  // Commit ids (an `unordered` scheme) have no order: an earlier job's commit is not newer than this one's.
  const newer = (a: string) =>
    versions && !versions.unordered && versions.isValid(a) && versions.isValid(job.targetVersion)
      ? versions.compare(a, job.targetVersion) > 0
      : false;
  const ofVersion = earlier.filter((row) => same(row.target_version));
  const live = (row: PullRequestJobRow) => LIVE_STATUSES.includes(row.status) && row.target_branch === job.targetBranch;
  const newerLive = earlier.find((row) => live(row) && newer(row.target_version));
  const blocking =
    ofVersion.find(live) ??
    (ofVersion.some((row) => row.status === 'superseded') ? newerLive : undefined) ??
    ofVersion.find((row) => row.ignored) ??
    ofVersion.find((row) => row.status === 'failed');
  if (blocking) return { blockedBy: blocking };
  const recorded = await trx
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
      in_range: inRange,
      group_name: groupName,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { recorded };
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
  /** The pull request's global id on the code host (GitHub's `node_id`), when it gives one. */
  nodeId: string | null;
  url: string;
  headSha?: string;
  /** The target branch's commit the branch's commit was made on. */
  baseSha?: string;
}

/**
 * Moves a job to `status` (with `reason` and its pull request when given; `ignored` set when given: a person closed it);
 * an open one is looked at again in `lookInMs` ms (default at once), any other is no longer looked at. With `from`, only
 * a job whose status is one of them moves (a look that read the job before a webhook moved it changes nothing).
 * @returns whether the job moved
 */
export async function setStatus(
  db: Db,
  id: number,
  status: PullRequestJobStatus,
  reason: string | null,
  pullRequest?: OpenedPullRequest,
  lookInMs = 0,
  options: { ignored?: boolean; waitsFor?: number; from?: readonly PullRequestJobStatus[] } = {},
): Promise<boolean> {
  let query = db
    .updateTable('pull_request_job')
    .set({
      status,
      status_reason: reason,
      status_changed_at: sql`now()`,
      maintain_at: status === 'open' ? fromNow(lookInMs) : null,
      waits_for_job_id: options.waitsFor ?? null,
      ...(options.ignored === undefined ? {} : { ignored: options.ignored }),
      ...(pullRequest
        ? {
            branch: pullRequest.branch,
            pull_request_number: pullRequest.number,
            pull_request_node_id: pullRequest.nodeId,
            pull_request_url: pullRequest.url,
            ...(pullRequest.headSha ? { head_sha: pullRequest.headSha } : {}),
            ...(pullRequest.baseSha ? { base_sha: pullRequest.baseSha } : {}),
          }
        : {}),
    })
    .where('id', '=', id);
  if (options.from) query = query.where('status', 'in', [...options.from]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
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

/**
 * Takes one of a config's open pull-request slots for a job: under a transaction-scoped advisory lock on the config, so
 * two jobs of one config carried out at once (two workers, or a run's jobs and a group's) never both take the last
 * slot, counts the config's other open or `running` jobs (`openPullRequestCount`) and marks the job `running` when
 * `fits(count)` says it may go.
 * @returns the count, and whether the job was marked `running`
 */
export async function takePullRequestSlot(
  db: Db,
  job: Pick<PullRequestJobRow, 'id' | 'update_config_id'>,
  fits: (open: number) => boolean,
): Promise<{ open: number; taken: boolean }> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${`pull-request-slots:${job.update_config_id}`}, 0))`.execute(trx);
    const open = await openPullRequestCount(trx, job.update_config_id, job.id);
    if (!fits(open)) return { open, taken: false };
    await markRunning(trx, job.id);
    return { open, taken: true };
  });
}

/**
 * Keeps the commit this service made on a job's branch (`headSha`, on `branch`) before its pull request is opened: an
 * attempt that later finds the branch without a pull request (its worker stopped in between) knows the branch is its
 * own leftover when the branch's head is still this commit.
 */
export async function recordBranchCommit(db: Db, jobId: number, branch: string, headSha: string): Promise<void> {
  await db.updateTable('pull_request_job').set({ branch, head_sha: headSha }).where('id', '=', jobId).execute();
}

/**
 * Whether another job of the same repository records pull request `number` as its own: such a pull request (say, one
 * closed when its config moved to another target branch, whose branch was not deleted yet) is not this job's to take.
 */
export async function pullRequestOfAnotherJob(db: Db, job: Pick<PullRequestJobRow, 'id' | 'repo_id'>, number: number): Promise<boolean> {
  const row = await db
    .selectFrom('pull_request_job')
    .select('id')
    .where('repo_id', '=', job.repo_id)
    .where('pull_request_number', '=', number)
    .where('id', '!=', job.id)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether `sha` is a commit this service made in the repository: the head commit some job recorded on its branch
 * (`recordBranchCommit`, `recordRebase`).
 */
export async function isCommitOfThisService(db: Db, repoId: number, sha: string): Promise<boolean> {
  const row = await db
    .selectFrom('pull_request_job')
    .select('id')
    .where('repo_id', '=', repoId)
    .where('head_sha', '=', sha)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The jobs of a config whose pull request is open or being opened (`running`), other than `exceptJobId`: what counts
 * against the open pull-request limit (a job in flight holds its slot, so a queued job does not take it meanwhile).
 */
export async function openPullRequestCount(db: Db, configId: number, exceptJobId?: number): Promise<number> {
  let query = db
    .selectFrom('pull_request_job')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('update_config_id', '=', configId)
    .where('status', 'in', ['open', 'running']);
  if (exceptJobId !== undefined) query = query.where('id', '!=', exceptJobId);
  const open = await query.executeTakeFirstOrThrow();
  return Number(open.n);
}

/**
 * The other jobs of the same config and dependency as `job` whose pull request is open: their id, number, version,
 * branch and the commit this service made on it.
 */
export function findOtherOpenJobs(
  db: Db,
  job: Pick<PullRequestJobRow, 'id' | 'update_config_id' | 'dependency_name' | 'group_name'>,
): Promise<Array<Pick<PullRequestJobRow, 'id' | 'pull_request_number' | 'target_version' | 'branch' | 'head_sha'>>> {
  return db
    .selectFrom('pull_request_job')
    .select(['id', 'pull_request_number', 'target_version', 'branch', 'head_sha'])
    .where('update_config_id', '=', job.update_config_id)
    .where('dependency_name', '=', job.dependency_name)
    .where('group_name', job.group_name === null ? 'is' : '=', job.group_name)
    .where('id', '!=', job.id)
    .where('status', '=', 'open')
    .where('pull_request_number', 'is not', null)
    .execute();
}

/**
 * Up to `limit` jobs waiting as `queued-limit` that may go now, oldest first, with their config: first those whose
 * waited-for job (`waits_for_job_id`) is no longer open (`inPlaceOf`: its pull request's place under the limit is
 * theirs), then those waiting for the limit alone. A job whose waited-for job is still open is not listed.
 */
export async function listQueuedJobs(db: Db, limit: number): Promise<Array<{ id: number; update_config_id: number; inPlaceOf: boolean }>> {
  const rows = await db
    .selectFrom('pull_request_job as job')
    .leftJoin('pull_request_job as waited', 'waited.id', 'job.waits_for_job_id')
    .select(['job.id', 'job.update_config_id', sql<boolean>`job.waits_for_job_id is not null`.as('inPlaceOf')])
    .where('job.status', '=', 'queued-limit')
    .where((eb) => eb.or([eb('job.waits_for_job_id', 'is', null), eb('waited.status', 'is', null), eb('waited.status', '!=', 'open')]))
    .orderBy(sql`job.waits_for_job_id is null`)
    .orderBy('job.id')
    .limit(limit)
    .execute();
  return rows;
}

/**
 * Up to `limit` jobs, oldest first, left `pending` or `running` for `stalledAfterMs` ms, or since before `startedAt` (a
 * worker's start: what an in-process bus held then is gone), with no live claim (none, or one older than `leaseMs` ms):
 * their ids.
 */
export async function listStalledJobs(
  db: Db,
  stalled: { afterMs: number; startedAt: Date },
  leaseMs: number,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom('pull_request_job')
    .select('id')
    .where('status', 'in', ['pending', 'running'])
    .where((eb) => eb.or([eb('status_changed_at', '<', fromNow(-stalled.afterMs)), eb('status_changed_at', '<', stalled.startedAt)]))
    .where(unclaimed(leaseMs))
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes up to `limit` jobs whose look is due (`maintain_at` passed), earliest first, each for one worker only
 * (`for update skip locked`), and leases them for `leaseMs` ms (their `maintain_at` moves that far ahead): open jobs, and
 * ignored ones whose notice is still to be posted.
 */
export function takeDueOpenJobs(db: Db, leaseMs: number, limit: number): Promise<PullRequestJobRow[]> {
  return db
    .updateTable('pull_request_job')
    .set({ maintain_at: fromNow(leaseMs) })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('pull_request_job')
        .select('id')
        .where((eb) => eb.or([eb('status', '=', 'open'), eb.and([eb('status', '=', 'closed'), eb('ignored', '=', true)])]))
        .where('maintain_at', '<=', sql<Date>`now()`)
        .orderBy('maintain_at')
        .limit(limit)
        .forUpdate()
        .skipLocked(),
    )
    .returningAll()
    .execute();
}

/**
 * Looks at an open job's pull request again in `ms` ms (nothing once the job is not open). With `unlessMovedFrom` (the
 * `maintain_at` a look took the job with, `takeDueOpenJobs`), only when nothing made the job due meanwhile: a settings
 * change or a webhook that came during the look has it looked at again at once, not in `ms`.
 */
export async function lookAgainIn(db: Db, jobId: number, ms: number, unlessMovedFrom?: Date | null): Promise<void> {
  let query = db
    .updateTable('pull_request_job')
    .set({ maintain_at: fromNow(ms) })
    .where('id', '=', jobId)
    .where('status', '=', 'open');
  // The database keeps microseconds, a Date milliseconds: the value taken lies within the millisecond after it.
  if (unlessMovedFrom) {
    query = query
      .where('maintain_at', '>=', unlessMovedFrom)
      .where('maintain_at', '<', sql<Date>`${unlessMovedFrom}::timestamptz + interval '1 millisecond'`);
  }
  await query.execute();
}

/** Looks at the job no more (an ignored job's notice was posted). */
export async function stopLooking(db: Db, jobId: number): Promise<void> {
  await db.updateTable('pull_request_job').set({ maintain_at: null }).where('id', '=', jobId).execute();
}

/** Sets whether a job under way ({@link LIVE_STATUSES}) is merged automatically (its config's rules changed). */
export async function setAutomerge(db: Db, jobId: number, automerge: boolean): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({ automerge })
    .where('id', '=', jobId)
    .where('status', 'in', [...LIVE_STATUSES])
    .execute();
}

/**
 * Makes the open jobs of one config, or of every config of an account, due at once (their settings changed), or every
 * open job when `which` is `all` (a worker starting: whatever happened on the code host meanwhile is reconciled).
 * @returns how many became due
 */
export async function makeOpenJobsDue(trx: Db, which: { configId: number } | { accountId: number } | 'all'): Promise<number> {
  let query = trx.updateTable('pull_request_job').set({ maintain_at: sql`now()` }).where('status', '=', 'open');
  if (which !== 'all') {
    query = 'configId' in which ? query.where('update_config_id', '=', which.configId) : query.where('account_id', '=', which.accountId);
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Says why an open job's pull request stays as it is (the job stays `open`). */
export async function setOpenReason(db: Db, jobId: number, reason: string): Promise<void> {
  await db.updateTable('pull_request_job').set({ status_reason: reason }).where('id', '=', jobId).where('status', '=', 'open').execute();
}

/** Says why a `running` job has not opened its pull request yet (null: clears it). */
export async function setRunningReason(db: Db, jobId: number, reason: string | null): Promise<void> {
  await db.updateTable('pull_request_job').set({ status_reason: reason }).where('id', '=', jobId).where('status', '=', 'running').execute();
}

/** Records a rebase: the branch's new commit (`headSha`, made on `baseSha`), and a look at once. */
export async function recordRebase(db: Db, jobId: number, headSha: string | null, baseSha: string): Promise<void> {
  await db
    .updateTable('pull_request_job')
    .set({
      head_sha: headSha,
      base_sha: baseSha,
      // A job closed meanwhile (a command, a person) keeps its reason and is not looked at again.
      status_reason: sql`case when status = 'open' then ${`rebased on ${baseSha.slice(0, 7)}`} else status_reason end`,
      maintain_at: sql`case when status = 'open' then now() else maintain_at end`,
    })
    .where('id', '=', jobId)
    .execute();
}

/**
 * Makes the open pull requests a code-host event concerns due at once: those targeting `branch` of repo `repoId` (a push
 * to it: maybe a rebase), or those whose head is `headSha` (a commit status or check run changed: maybe an automerge).
 * @returns how many became due
 */
export async function makeDue(trx: Db, on: { repoId: number; branch: string } | { headSha: string }): Promise<number> {
  let concerned = trx
    .selectFrom('pull_request_job')
    .select('id')
    .where('status', '=', 'open')
    // One already due stays as it is: a burst of pushes to one branch writes its jobs once.
    .where((eb) => eb.or([eb('maintain_at', 'is', null), eb('maintain_at', '>', sql<Date>`now()`)]));
  concerned =
    'headSha' in on
      ? concerned.where('head_sha', '=', on.headSha)
      : concerned.where('repo_id', '=', on.repoId).where('target_branch', '=', on.branch);
  // Locked in id order: concurrent deliveries (a burst of pushes) about overlapping jobs wait for each other instead of
  // deadlocking, as they did when each update locked its rows in whatever order it met them.
  const result = await trx
    .updateTable('pull_request_job')
    .set({ maintain_at: sql`now()` })
    .where('id', 'in', concerned.orderBy('id').forUpdate())
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A pull request as a webhook names it: its repo, number, global id and head branch (the last two when it gives them). */
export interface PullRequestRef {
  repoId: number;
  number: number;
  nodeId?: string | null;
  headRef?: string | null;
}

/**
 * Moves the job of the pull request `pull` names to `status` (with `reason`; `ignored` set or cleared when given), when
 * the job's status is one of `from`. The job is the one whose pull request has that repo and number and, where the job
 * and the webhook both know them, the same global id and head branch: a number the code host gave to another pull
 * request (a renumbered or recreated repository) moves no job. An `open` job is looked at at once; so is an `ignored`
 * one (its notice to post), any other is not looked at again.
 * @returns the jobs that changed (none or one), with what an ignore of their version needs
 */
export async function setPullRequestStatus(
  trx: Db,
  pull: PullRequestRef,
  change: { status: PullRequestJobStatus; reason: string | null; ignored?: boolean; from: readonly PullRequestJobStatus[] },
): Promise<Array<{ id: number; update_config_id: number; dependency_name: string; target_version: string; group_name: string | null }>> {
  let query = trx
    .updateTable('pull_request_job')
    .set({
      status: change.status,
      status_reason: change.reason,
      status_changed_at: sql`now()`,
      maintain_at: change.status === 'open' || change.ignored ? sql`now()` : null,
      ...(change.ignored === undefined ? {} : { ignored: change.ignored }),
    })
    .where('repo_id', '=', pull.repoId)
    .where('pull_request_number', '=', pull.number)
    .where('status', 'in', [...change.from]);
  if (pull.nodeId)
    query = query.where((eb) => eb.or([eb('pull_request_node_id', 'is', null), eb('pull_request_node_id', '=', pull.nodeId ?? '')]));
  if (pull.headRef) query = query.where((eb) => eb.or([eb('branch', 'is', null), eb('branch', '=', pull.headRef ?? '')]));
  return query.returning(['id', 'update_config_id', 'dependency_name', 'target_version', 'group_name']).execute();
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

/**
 * The job whose pull request is `number` in repo `repoId` (the newest, should the code host have given the number
 * again), or undefined when the pull request is not this service's.
 */
export async function findJobOfPullRequest(db: Db, repoId: number, number: number): Promise<PullRequestJobRow | undefined> {
  return db
    .selectFrom('pull_request_job')
    .selectAll()
    .where('repo_id', '=', repoId)
    .where('pull_request_number', '=', number)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Records what a person asked about merging the job's pull request: `merge` or `squash` once checks pass, or `blocked`
 * (no automerge), and makes the job due for a look. Refused (`set: false`, with the method) while a worker is merging
 * the pull request ({@link claimMerge}, within {@link MERGE_CLAIM_LEASE_MS}): the merge under way is not asked back.
 */
export async function setMergeRequest(
  db: Db,
  jobId: number,
  request: 'merge' | 'squash' | 'blocked',
): Promise<{ set: true } | { set: false; merging: 'merge' | 'squash' }> {
  const lease = `${MERGE_CLAIM_LEASE_MS} milliseconds`;
  const set = await db
    .updateTable('pull_request_job')
    .set({ merge_request: request, maintain_at: sql`now()` })
    .where('id', '=', jobId)
    .where((eb) => eb.or([eb('merging_at', 'is', null), eb('merging_at', '<', sql<Date>`now() - ${lease}::interval`)]))
    .returning('id')
    .executeTakeFirst();
  if (set) return { set: true };
  const row = await db.selectFrom('pull_request_job').select('merging_method').where('id', '=', jobId).executeTakeFirst();
  return { set: false, merging: row?.merging_method ?? 'squash' };
}

/**
 * How long a merge a worker began ({@link claimMerge}) holds the job's merge decision, ms: past it, the worker is taken
 * to have stopped before it knew the answer (the next look reads the pull request on the code host), and a command
 * may decide again. GitHub answers a merge within seconds.
 */
export const MERGE_CLAIM_LEASE_MS = 120_000;

/**
 * Marks job `jobId`'s pull request as being merged with `method`, right before the merge request is sent, only while
 * the job is `open` and its `merge_request` is still `decidedBy` (what the merge was decided by: a command given
 * since then decides again). Returns whether it was marked. See {@link setMergeRequest}.
 */
export async function claimMerge(
  db: Db,
  jobId: number,
  decidedBy: 'merge' | 'squash' | 'blocked' | null,
  method: 'merge' | 'squash',
): Promise<boolean> {
  const claimed = await db
    .updateTable('pull_request_job')
    .set({ merging_method: method, merging_at: sql`now()` })
    .where('id', '=', jobId)
    .where('status', '=', 'open')
    .where(decidedBy === null ? sql<boolean>`merge_request is null` : sql<boolean>`merge_request = ${decidedBy}`)
    .returning('id')
    .executeTakeFirst();
  return claimed !== undefined;
}

/** Takes back job `jobId`'s merge mark ({@link claimMerge}): the merge was refused or failed. */
export async function releaseMerge(db: Db, jobId: number): Promise<void> {
  await db.updateTable('pull_request_job').set({ merging_method: null, merging_at: null }).where('id', '=', jobId).execute();
}

/** Job `id`, or undefined. */
export function findJob(db: Db, id: number): Promise<PullRequestJobRow | undefined> {
  return db.selectFrom('pull_request_job').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The repository (`owner/name`) and number of job `id`'s pull request, or undefined before it has one. */
export async function findJobPullRequest(db: Db, id: number): Promise<{ fullName: string; number: number } | undefined> {
  const row = await db
    .selectFrom('pull_request_job')
    .innerJoin('repo', 'repo.id', 'pull_request_job.repo_id')
    .select(['repo.full_name', 'pull_request_job.pull_request_number'])
    .where('pull_request_job.id', '=', id)
    .executeTakeFirst();
  return row && row.pull_request_number !== null ? { fullName: row.full_name, number: row.pull_request_number } : undefined;
}

/** Sets whether job `id`'s version is ignored for its config (a person closed its pull request), leaving its status. */
export async function setIgnored(db: Db, id: number, ignored: boolean): Promise<void> {
  await db.updateTable('pull_request_job').set({ ignored }).where('id', '=', id).execute();
}
