import { randomUUID } from 'node:crypto';
import type { UpdateRunErrorKind, UpdateRunTrigger } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase, UpdateRunDependencyRow, UpdateRunDependencyTable, UpdateRunRow } from '../db/schema.ts';

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

/** The ids of the jobs each run recorded, by run id, in the order recorded. */
export async function findRunJobIds(db: Db, runIds: readonly string[]): Promise<Map<string, number[]>> {
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
 * Marks a queued run `running` with its start time, its dependency count and its job limit (a running one, taken again
 * after a redelivery, keeps its start time and gets the count again).
 */
export async function startRun(db: Db, id: string, total: number, jobLimit: number | null): Promise<void> {
  await db
    .updateTable('update_run')
    .set({ status: 'running', started_at: sql`coalesce(started_at, now())`, dependencies_total: total, job_limit: jobLimit })
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
export async function insertDependencyOnce(trx: Db, row: UpdateRunDependencyTable): Promise<boolean> {
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
      jobs_recorded: row.job_id === null ? eb.ref('jobs_recorded') : eb('jobs_recorded', '+', 1),
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

/** Replaces the dependencies a config is known to use by what its latest run found (the registry watch polls them). */
export async function replaceConfigDependencies(trx: Db, updateConfigId: number, names: readonly string[]): Promise<void> {
  await trx.deleteFrom('config_dependency').where('update_config_id', '=', updateConfigId).execute();
  if (names.length === 0) return;
  await trx
    .insertInto('config_dependency')
    .values([...new Set(names)].map((name) => ({ update_config_id: updateConfigId, name })))
    .execute();
}

/**
 * Deletes runs (and their dependencies) created before `before`; the jobs they recorded stay.
 * @returns how many runs were deleted
 */
export async function deleteRunsBefore(db: Db, before: Date): Promise<number> {
  const deleted = await db.deleteFrom('update_run').where('created_at', '<', before).executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
