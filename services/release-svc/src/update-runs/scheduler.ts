import { latestSlot } from '@switchyard/dependency-api';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { safeNextSlot, scheduleSettingsOf } from './next-run.ts';
import { deleteRunsBefore } from './update-run.repository.ts';
import { requestRun } from './update-run.service.ts';

type Db = Kysely<ReleaseDatabase>;

/** Days an update run is kept (with its dependencies); the jobs it recorded stay. */
export const UPDATE_RUN_RETENTION_DAYS = 90;

/** Configs one scheduler round takes at most (the rest are taken by the next round, or by another worker). */
const ROUND_SIZE = 500;

/**
 * One round of the scheduler, as of `now`: every config whose next run is due (`next_run_at <= now`, not deleted),
 * taken with `for update skip locked` so that several workers share them and none takes one twice:
 * - a `daily`, `weekly` or `monthly` config gets one run for its latest slot at or before `now` (`schedule:<slot>`,
 *   unique per config: a slot runs once, whatever the number of workers and restarts). Slots missed while everything was
 *   down are not replayed: after downtime only the latest one runs, at once. Its next run is then the next slot;
 * - a `live` config gets its initial run (`live:initial`, once), which lists the dependencies the registry watch then
 *   polls; its next run is null (it runs when the watch or a notification sees a new version).
 * A slot before the config was first seen is not the config's and does not run.
 * @returns the runs requested
 */
export async function scheduleDueRuns(db: Db, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('update_config')
      .leftJoin('account', 'account.id', 'update_config.account_id')
      .select([
        'update_config.id',
        'update_config.repo_id',
        'update_config.account_id',
        'update_config.update_schedule',
        'update_config.first_seen_at',
        'account.update_run_time',
        'account.weekly_update_run_day',
        'account.time_zone',
      ])
      .where('update_config.deleted', '=', false)
      .where('update_config.next_run_at', '<=', now)
      .orderBy('update_config.next_run_at')
      .limit(ROUND_SIZE)
      .forUpdate('update_config')
      .skipLocked()
      .execute();
    let requested = 0;
    for (const config of due) {
      const base = { updateConfigId: config.id, repoId: config.repo_id, accountId: config.account_id };
      if (config.update_schedule === 'live') {
        if (await requestRun(trx, { ...base, trigger: 'live', triggerKey: 'live:initial' })) requested++;
        await trx.updateTable('update_config').set({ next_run_at: null }).where('id', '=', config.id).execute();
        continue;
      }
      const settings = scheduleSettingsOf(config);
      let slot: Date | null = null;
      try {
        slot = latestSlot(config.update_schedule, settings, now);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
      }
      if (slot && slot >= config.first_seen_at) {
        const run = await requestRun(trx, { ...base, trigger: 'schedule', triggerKey: `schedule:${slot.toISOString()}`, slot });
        if (run) requested++;
      }
      const next = safeNextSlot(config.update_schedule, settings, now);
      await trx.updateTable('update_config').set({ next_run_at: next }).where('id', '=', config.id).execute();
    }
    return requested;
  });
}

/** A loop that runs `round` every `intervalMs` (never two rounds at once) until stopped. */
export interface Loop {
  /** Stops the loop after the round under way. */
  stop(): Promise<void>;
}

/**
 * Runs `round` now and then every `intervalMs`, one round at a time; a round that fails is logged and the next one
 * tries again.
 */
export function startLoop(name: string, intervalMs: number, round: () => Promise<unknown>, logger: Logger): Loop {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = running.then(() =>
      stopped
        ? undefined
        : round().catch((error: unknown) => {
            logger.warn({ err: error }, `${name} round failed; the next round tries again`);
          }),
    );
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Deletes the runs created more than {@link UPDATE_RUN_RETENTION_DAYS} days before `now`.
 * @returns how many were deleted
 */
export function deleteExpiredRuns(db: Db, now: Date, retentionDays = UPDATE_RUN_RETENTION_DAYS): Promise<number> {
  return deleteRunsBefore(db, new Date(now.getTime() - retentionDays * 86_400_000));
}
