import type { UpdateSchedule } from '@switchyard/contracts';
import { nextSlot, type ScheduleSettings, type Weekday } from '@switchyard/dependency-api';

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
