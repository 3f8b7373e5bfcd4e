import { latestSlot } from '@switchyard/dependency-api';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { safeNextSlot, scheduleSettingsOf } from '../read-model/next-run.policy.ts';
import { setNextRunAt, takeDueSchedules } from '../read-model/read-model.repository.ts';
import { requestRun } from '../runs/run-request.service.ts';

type Db = Kysely<ReleaseDatabase>;

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
    const due = await takeDueSchedules(trx, now, ROUND_SIZE);
    let requested = 0;
    for (const config of due) {
      const base = { updateConfigId: config.id, repoId: config.repo_id, accountId: config.account_id };
      if (config.update_schedule === 'live') {
        if (await requestRun(trx, { ...base, trigger: 'live', triggerKey: 'live:initial' })) requested++;
        await setNextRunAt(trx, config.id, null);
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
      await setNextRunAt(trx, config.id, next);
    }
    return requested;
  });
}
