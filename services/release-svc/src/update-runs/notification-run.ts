import type { DependencyCheckOutcome } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { NotificationRow, ReleaseDatabase, UpdateRunRow } from '../db/schema.ts';
import type { ScanTarget } from '../read-model/read-model.repository.ts';
import type { ScanDecision } from '../scan/decide.ts';
import { insertRunOnce } from './update-run.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * Records the update run a notification's scan of one config is (`notification:<id>`, once per config), finished, in
 * the caller's transaction: the notified dependency as the run checked it (none when the config does not use it), or
 * the reason the files could not be read (`failed`). `GET /update_runs` shows it beside scheduled and manual runs.
 * @returns the run, or undefined when it was recorded before
 */
export async function recordNotificationRun(
  trx: Db,
  notification: NotificationRow,
  target: ScanTarget,
  { decision, dependency, registry, latest }: ScanDecision,
): Promise<UpdateRunRow | undefined> {
  const run = await insertRunOnce(trx, {
    updateConfigId: target.config.id,
    repoId: target.config.repoId,
    accountId: target.config.accountId,
    trigger: 'notification',
    triggerKey: `notification:${notification.id}`,
    notificationId: notification.id,
  });
  if (!run) return undefined;
  const failed = decision.outcome === 'failed' || (decision.outcome === 'skipped' && !dependency);
  const checked = dependency ? 1 : 0;
  await trx
    .updateTable('update_run')
    .set({
      status: failed ? 'failed' : 'done',
      error: failed || !dependency ? decision.reason : null,
      error_kind: decision.outcome === 'failed' ? 'manifest_unreadable' : null,
      dependencies_total: checked,
      dependencies_checked: checked,
      started_at: sql`now()`,
      finished_at: sql`now()`,
    })
    .where('id', '=', run.id)
    .execute();
  if (dependency) {
    const outcome: DependencyCheckOutcome =
      decision.outcome === 'job-recorded' ? 'job-recorded' : decision.outcome === 'skipped' ? 'skipped' : 'up-to-date';
    await trx
      .insertInto('update_run_dependency')
      .values({
        run_id: run.id,
        position: 0,
        name: dependency.name,
        dependency_type: dependency.type,
        requirement: dependency.requirement,
        version_in_use: dependency.version,
        latest_version: latest ?? null,
        latest_allowed_version: decision.outcome === 'job-recorded' ? decision.job.targetVersion : null,
        outcome,
        reason: decision.reason,
        error_kind: null,
        registry: registry ?? null,
        job_id: null,
      })
      .execute();
  }
  return run;
}

/** Links the job a notification's run recorded to its dependency, and counts it. */
export async function linkRunJob(trx: Db, runId: string, name: string, jobId: number): Promise<void> {
  await trx.updateTable('update_run_dependency').set({ job_id: jobId }).where('run_id', '=', runId).where('name', '=', name).execute();
  await trx
    .updateTable('update_run')
    .set((eb) => ({ jobs_recorded: eb('jobs_recorded', '+', 1) }))
    .where('id', '=', runId)
    .execute();
}

/** Marks a notification's run's dependency as already covered by an earlier job (no job recorded now). */
export async function noteRunJobExisted(trx: Db, runId: string, name: string): Promise<void> {
  await trx
    .updateTable('update_run_dependency')
    .set((eb) => ({ outcome: 'up-to-date', reason: sql<string>`${eb.ref('reason')} || ' (job already recorded earlier)'` }))
    .where('run_id', '=', runId)
    .where('name', '=', name)
    .execute();
}
