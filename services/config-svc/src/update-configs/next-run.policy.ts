import { nextSlot } from '@switchyard/dependency-api';
import type { AccountSchedule } from '../accounts/account.policy.ts';
import type { UpdateConfigRow } from './update-config.table.ts';

/**
 * The next scheduled run of a config (this service's `next-run-at`): the first slot after `now` of its schedule
 * (`@switchyard/dependency-api`'s `nextSlot`: weekdays for `daily`, the account's `weekly-update-run-day` for `weekly`,
 * the 1st for `monthly`, at the account's `update-run-time` in its `time-zone`). release-svc's scheduler runs on the
 * same rule, so this is when it runs the config (up to its `SCHEDULER_INTERVAL_MS` later). Without the account's
 * settings (`schedule` undefined), the defaults: `05:00`, `monday`, `UTC`.
 * @returns null for `live`, and for settings `nextSlot` refuses (a `RangeError` of it)
 */
export function nextRunOf(row: Pick<UpdateConfigRow, 'update_schedule'>, schedule: AccountSchedule | undefined, now: Date): Date | null {
  const settings = {
    updateRunTime: schedule?.updateRunTime ?? '05:00',
    weeklyUpdateRunDay: schedule?.weeklyUpdateRunDay ?? 'monday',
    timeZone: schedule?.timeZone ?? 'UTC',
  };
  try {
    return nextSlot(row.update_schedule, settings, now);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return null;
  }
}
