import type { UpdateSchedule } from '@switchyard/contracts';
import { nextSlot, type ScheduleSettings, type Weekday } from '@switchyard/dependency-api';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';

type Db = Kysely<ReleaseDatabase>;

/** The settings of an account the read model does not hold yet: config-svc's defaults (05:00 UTC, Monday). */
export const DEFAULT_SCHEDULE_SETTINGS: Readonly<ScheduleSettings> = Object.freeze({
  updateRunTime: '05:00',
  weeklyUpdateRunDay: 'monday',
  timeZone: 'UTC',
});

/** An account row's schedule settings, or the defaults for a config whose account is not known yet. */
export function scheduleSettingsOf(
  row: { update_run_time: string | null; weekly_update_run_day: string | null; time_zone: string | null } | undefined,
): ScheduleSettings {
  if (!row || row.update_run_time === null || row.weekly_update_run_day === null || row.time_zone === null) {
    return DEFAULT_SCHEDULE_SETTINGS;
  }
  return { updateRunTime: row.update_run_time, weeklyUpdateRunDay: row.weekly_update_run_day as Weekday, timeZone: row.time_zone };
}

/**
 * The next slot of `schedule` strictly after `now`, or null (`live`, or settings the schedule cannot read: an unknown
 * time zone from an older writer; such a config is not scheduled rather than failing the event that carried it).
 */
export function safeNextSlot(schedule: UpdateSchedule, settings: ScheduleSettings, now: Date): Date | null {
  try {
    return nextSlot(schedule, settings, now);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/**
 * Sets `next_run_at` of the configs `which` names (one config, or every config of an account) to their schedule's next
 * slot after `now`, in the caller's transaction. A config whose next run is already due (at or before `now`, not
 * taken by the scheduler yet) keeps it: that slot still runs, and the scheduler reckons the one after with the new
 * settings. Deleted configs are left alone; a `live` one is due at once (its initial run, see `scheduleDueRuns`).
 */
export async function refreshNextRuns(trx: Db, which: { configId: number } | { accountId: number }, now: Date): Promise<void> {
  let query = trx
    .selectFrom('update_config')
    .leftJoin('account', 'account.id', 'update_config.account_id')
    .select([
      'update_config.id',
      'update_config.update_schedule',
      'update_config.next_run_at',
      'account.update_run_time',
      'account.weekly_update_run_day',
      'account.time_zone',
    ])
    .where('update_config.deleted', '=', false);
  query =
    'configId' in which
      ? query.where('update_config.id', '=', which.configId)
      : query.where('update_config.account_id', '=', which.accountId);
  for (const row of await query.execute()) {
    if (row.next_run_at !== null && row.next_run_at <= now) continue;
    // A `live` config is due at once: the scheduler gives it its initial run (once), which lists what the watch polls.
    const next = row.update_schedule === 'live' ? now : safeNextSlot(row.update_schedule, scheduleSettingsOf(row), now);
    if (next?.getTime() === row.next_run_at?.getTime()) continue;
    await trx.updateTable('update_config').set({ next_run_at: next }).where('id', '=', row.id).execute();
  }
}
