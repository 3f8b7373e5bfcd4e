import { randomUUID } from 'node:crypto';
import type { DependencyCheckOutcome } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { NotificationRow, ReleaseDatabase } from '../db/schema.ts';
import type { ScanTarget } from '../read-model/read-model.repository.ts';
import type { ScanDecision } from '../scan/decide.ts';

type Db = Kysely<ReleaseDatabase>;

/** One config of a notification's scan batch, decided, as {@link recordNotificationRuns} records its run. */
export interface ScannedConfig {
  target: ScanTarget;
  scanned: ScanDecision;
}

/**
 * Records the update runs a notification's scan of a batch's configs are (`notification:<id>`, once per config),
 * finished, in the caller's transaction and two statements: each config's run, and the notified dependency as the run
 * checked it (none when the config does not use it), or the reason the files could not be read (`failed`).
 * `GET /update_runs` shows them beside scheduled and manual runs.
 * @returns the new runs' ids by update config id (a config whose run was recorded before is not in it)
 */
export async function recordNotificationRuns(
  trx: Db,
  notification: NotificationRow,
  configs: readonly ScannedConfig[],
): Promise<Map<number, string>> {
  if (configs.length === 0) return new Map();
  const triggerKey = `notification:${notification.id}`;
  const inserted = await trx
    .insertInto('update_run')
    .values(
      configs.map(({ target, scanned: { decision, dependency } }) => {
        const failed = decision.outcome === 'failed' || (decision.outcome === 'skipped' && !dependency);
        const checked = dependency ? 1 : 0;
        return {
          id: randomUUID(),
          update_config_id: target.config.id,
          repo_id: target.config.repoId,
          account_id: target.config.accountId,
          trigger: 'notification' as const,
          trigger_key: triggerKey,
          status: failed ? ('failed' as const) : ('done' as const),
          slot: null,
          notification_id: notification.id,
          requested_by: null,
          job_limit: null,
          dependencies_total: checked,
          dependencies_checked: checked,
          error: failed || !dependency ? decision.reason : null,
          error_kind: decision.outcome === 'failed' ? ('manifest_unreadable' as const) : null,
          started_at: sql<Date>`now()`,
          finished_at: sql<Date>`now()`,
        };
      }),
    )
    .onConflict((oc) => oc.columns(['update_config_id', 'trigger_key']).doNothing())
    .returning(['id', 'update_config_id'])
    .execute();
  const runs = new Map(inserted.map((row) => [row.update_config_id, row.id]));
  const checked = configs.flatMap(({ target, scanned: { decision, dependency, registry, latest } }) => {
    const runId = runs.get(target.config.id);
    if (!runId || !dependency) return [];
    const outcome: DependencyCheckOutcome =
      decision.outcome === 'job-recorded' ? 'job-recorded' : decision.outcome === 'skipped' ? 'skipped' : 'up-to-date';
    return [
      {
        run_id: runId,
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
      },
    ];
  });
  if (checked.length > 0) await trx.insertInto('update_run_dependency').values(checked).execute();
  return runs;
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
