import { randomUUID } from 'node:crypto';
import type { UpdateRunErrorKind, UpdateRunTrigger } from '@switchyard/contracts';
import type { SkippedDeclaration } from '@switchyard/ecosystems';
import { type ExpressionBuilder, type Insertable, type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { UpdateRunDependencyRow, UpdateRunDependencyTable, UpdateRunRow, UpdateRunTable } from './update-run.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** A run to record. */
export interface NewUpdateRun {
  updateConfigId: number;
  repoId: number;
  accountId: number;
  trigger: UpdateRunTrigger;
  /** What makes the run once per config: `schedule:<slot>`, `live:<name>@<version>`, `notification:<id>`, `manual:<id>`. */
  triggerKey: string;
  slot?: Date | null;
  notificationId?: string | null;
  requestedBy?: number | null;
}

/**
 * Records a run unless the config already has one with the same trigger key (a slot taken by another scheduler, a
 * version already seen, a notification scanned again). Must run in the transaction that writes the run's event.
 * @returns the new run, or undefined when it already existed
 */
export async function insertRunOnce(trx: Db, run: NewUpdateRun): Promise<UpdateRunRow | undefined> {
  return trx
    .insertInto('update_run')
    .values({
      id: randomUUID(),
      update_config_id: run.updateConfigId,
      repo_id: run.repoId,
      account_id: run.accountId,
      trigger: run.trigger,
      trigger_key: run.triggerKey,
      slot: run.slot ?? null,
      notification_id: run.notificationId ?? null,
      requested_by: run.requestedBy ?? null,
      job_limit: null,
      dependencies_total: null,
      error: null,
      error_kind: null,
      started_at: null,
      finished_at: null,
    })
    .onConflict((oc) => oc.columns(['update_config_id', 'trigger_key']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** A run by id, or undefined. */
export function findRun(db: Db, id: string): Promise<UpdateRunRow | undefined> {
  return db.selectFrom('update_run').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The dependencies a run has decided so far, in the manifests' order. */
export function findRunDependencies(db: Db, runIds: readonly string[]): Promise<UpdateRunDependencyRow[]> {
  if (runIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('update_run_dependency')
    .selectAll()
    .where('run_id', 'in', [...runIds])
    .orderBy('run_id')
    .orderBy('position')
    .execute();
}

/** One page (`page` from 1) of a config's runs, newest first, and whether another page follows. */
export async function listRuns(
  db: Db,
  updateConfigId: number,
  page: number,
  pageSize: number,
): Promise<{ rows: UpdateRunRow[]; more: boolean }> {
  const rows = await db
    .selectFrom('update_run')
    .selectAll()
    .where('update_config_id', '=', updateConfigId)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(pageSize + 1)
    .offset((page - 1) * pageSize)
    .execute();
  return { rows: rows.slice(0, pageSize), more: rows.length > pageSize };
}

/**
 * Marks a queued run `running` with its start time, its dependency count, its job limit and the declarations its files
 * held that were left out (a running one, taken again after a redelivery, keeps its start time and gets the rest again).
 */
export async function startRun(
  db: Db,
  id: string,
  total: number,
  jobLimit: number | null,
  skipped: readonly SkippedDeclaration[] = [],
): Promise<void> {
  await db
    .updateTable('update_run')
    .set({
      status: 'running',
      started_at: sql`coalesce(started_at, now())`,
      dependencies_total: total,
      job_limit: jobLimit,
      skipped_declarations: JSON.stringify(skipped),
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** Ends a run: `done`, or `failed` with the reason and its kind. */
export async function finishRun(db: Db, id: string, failure?: { error: string; kind: UpdateRunErrorKind | null }): Promise<void> {
  await db
    .updateTable('update_run')
    .set({
      status: failure ? 'failed' : 'done',
      error: failure?.error ?? null,
      error_kind: failure?.kind ?? null,
      started_at: sql`coalesce(started_at, now())`,
      finished_at: sql`now()`,
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** The dependency names a run has already decided (a redelivered run goes on from there). */
export async function decidedDependencies(db: Db, runId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('update_run_dependency').select('name').where('run_id', '=', runId).execute();
  return new Set(rows.map((row) => row.name));
}

/**
 * Records one dependency's decision and counts it in the run's progress, in the caller's transaction, unless it was
 * recorded already.
 * @returns whether it was recorded now
 */
export async function insertDependencyOnce(trx: Db, row: Insertable<UpdateRunDependencyTable>): Promise<boolean> {
  const inserted = await trx
    .insertInto('update_run_dependency')
    .values(row)
    .onConflict((oc) => oc.columns(['run_id', 'name']).doNothing())
    .returning('name')
    .executeTakeFirst();
  if (!inserted) return false;
  await trx
    .updateTable('update_run')
    .set((eb) => ({
      dependencies_checked: eb('dependencies_checked', '+', 1),
      // A dependency decided into a group counts when the group's job is recorded (`linkRunJob`), once for the group.
      jobs_recorded: row.outcome === 'job-recorded' && !row.group_name ? eb('jobs_recorded', '+', 1) : eb.ref('jobs_recorded'),
    }))
    .where('id', '=', row.run_id)
    .execute();
  return true;
}

/** Locks a run's row for the rest of the transaction and reads its job count and limit (jobs of one run take turns). */
export async function lockRunJobs(trx: Db, runId: string): Promise<{ jobsRecorded: number; jobLimit: number | null }> {
  const row = await trx
    .selectFrom('update_run')
    .select(['jobs_recorded', 'job_limit'])
    .where('id', '=', runId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { jobsRecorded: row.jobs_recorded, jobLimit: row.job_limit };
}

/** Whether the config has a finished (`done`) run other than `runId`: then `runId` is not its initial run. */
export async function hadEarlierRun(db: Db, updateConfigId: number, runId: string): Promise<boolean> {
  const row = await db
    .selectFrom('update_run')
    .select('id')
    .where('update_config_id', '=', updateConfigId)
    .where('id', '!=', runId)
    .where('status', '=', 'done')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Deletes runs (and their dependencies) created before `before`; the jobs they recorded stay.
 * @returns how many runs were deleted
 */
export async function deleteRunsBefore(db: Db, before: Date): Promise<number> {
  const deleted = await db.deleteFrom('update_run').where('created_at', '<', before).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}

/** A run recorded finished at once (a notification's scan of one config): its row, without the id and times this sets. */
export type FinishedRun = Omit<Insertable<UpdateRunTable>, 'id' | 'started_at' | 'finished_at'>;

/**
 * Records finished runs (started and finished now) in one statement, except those whose config already has a run with the same trigger key (a
 * redelivered batch), in the caller's transaction.
 * @returns the new runs' ids by update config id
 */
export async function insertFinishedRunsOnce(trx: Db, runs: readonly FinishedRun[]): Promise<Map<number, string>> {
  if (runs.length === 0) return new Map();
  const inserted = await trx
    .insertInto('update_run')
    .values(runs.map((run) => ({ ...run, id: randomUUID(), started_at: sql<Date>`now()`, finished_at: sql<Date>`now()` })))
    .onConflict((oc) => oc.columns(['update_config_id', 'trigger_key']).doNothing())
    .returning(['id', 'update_config_id'])
    .execute();
  return new Map(inserted.map((row) => [row.update_config_id, row.id]));
}

/** Records the dependencies of runs recorded finished ({@link insertFinishedRunsOnce}), in one statement. */
export async function insertRunDependencies(trx: Db, rows: readonly Insertable<UpdateRunDependencyTable>[]): Promise<void> {
  if (rows.length > 0)
    await trx
      .insertInto('update_run_dependency')
      .values([...rows])
      .execute();
}

/**
 * Which dependencies of a run a job settles: one by its name, or those the run decided into a group (`group`) that
 * are still waiting for the group's job.
 */
export type RunDependencies = { name: string } | { group: string };

/** The rows of `which` among run `runId`'s dependencies, as a condition. */
function dependenciesOf(eb: ExpressionBuilder<ReleaseDatabase, 'update_run_dependency'>, runId: string, which: RunDependencies) {
  return 'name' in which
    ? eb.and([eb('run_id', '=', runId), eb('name', '=', which.name)])
    : eb.and([eb('run_id', '=', runId), eb('group_name', '=', which.group), eb('outcome', '=', 'job-recorded'), eb('job_id', 'is', null)]);
}

/** Links the job a run recorded to its dependency, or to the dependencies of its group, and counts it once. */
export async function linkRunJob(trx: Db, runId: string, which: RunDependencies, jobId: number): Promise<void> {
  await trx
    .updateTable('update_run_dependency')
    .set({ job_id: jobId })
    .where((eb) => dependenciesOf(eb, runId, which))
    .execute();
  await trx
    .updateTable('update_run')
    .set((eb) => ({ jobs_recorded: eb('jobs_recorded', '+', 1) }))
    .where('id', '=', runId)
    .execute();
}

/**
 * Records that a run's dependency, or the dependencies of its group, get no job now (an earlier job covers them, or
 * the run's job limit was reached): their outcome (`pr-open`, with that job's id, or `skipped`) and `note` added to
 * their reasons.
 */
export async function noteRunJobExisted(
  trx: Db,
  runId: string,
  which: RunDependencies,
  earlier: { outcome: 'pr-open' | 'skipped'; note: string; jobId: number | null },
): Promise<void> {
  await trx
    .updateTable('update_run_dependency')
    .set((eb) => ({
      outcome: earlier.outcome,
      reason: sql<string>`${eb.ref('reason')} || ${`; ${earlier.note}`}`,
      job_id: earlier.outcome === 'pr-open' ? earlier.jobId : null,
    }))
    .where((eb) => dependenciesOf(eb, runId, which))
    .execute();
}

/**
 * The dependencies a run decided into groups and has not recorded a group's job for yet (`job_id` null), in the
 * manifests' order: what {@link linkRunJob} or {@link noteRunJobExisted} then settles, group by group.
 */
export function findGroupedDependencies(db: Db, runId: string): Promise<UpdateRunDependencyRow[]> {
  return db
    .selectFrom('update_run_dependency')
    .selectAll()
    .where('run_id', '=', runId)
    .where('group_name', 'is not', null)
    .where('outcome', '=', 'job-recorded')
    .where('job_id', 'is', null)
    .orderBy('position')
    .execute();
}

/**
 * Records that a finished run's dependency went to its group (a release notification's run decides one dependency; the
 * group's job comes from the run of every dependency it requested): the group named and `note` added to its reason.
 */
export async function noteRunDependencyGrouped(trx: Db, runId: string, name: string, groupName: string, note: string): Promise<void> {
  await trx
    .updateTable('update_run_dependency')
    .set((eb) => ({ group_name: groupName, reason: sql<string>`${eb.ref('reason')} || ${`; ${note}`}` }))
    .where('run_id', '=', runId)
    .where('name', '=', name)
    .execute();
}
