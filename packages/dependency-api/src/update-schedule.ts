import { TimeZone, UpdateRunTime, type UpdateSchedule, WEEKDAYS } from '@switchyard/contracts';
import { CronExpressionParser } from 'cron-parser';

/** A lower-case weekday name, as an account's `weekly-update-run-day` holds it (`monday` … `sunday`). */
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * The account settings that place an update config's runs in time:
 * - `updateRunTime`: the account's `update-run-time`, 24-hour `HH:MM` wall-clock time (`"05:00"`);
 * - `weeklyUpdateRunDay`: the account's `weekly-update-run-day`, the day `weekly` configs run on;
 * - `timeZone`: this service's `time-zone` extension, the IANA zone the run time is read in (`UTC` by default).
 */
export type ScheduleSettings = { updateRunTime: string; weeklyUpdateRunDay: Weekday; timeZone: string };

/**
 * Is `name` an IANA time zone name the runtime knows (`Europe/Paris`, `America/New_York`, `UTC`)? The same rule
 * `PATCH /accounts/:id` validates `time-zone` with (`TimeZone` of `@switchyard/contracts`).
 */
export function isValidTimeZone(name: string): boolean {
  return TimeZone.safeParse(name).success;
}

/** Day-of-week numbers of cron (0 Sunday … 6 Saturday) by weekday name. */
const CRON_DAY_OF_WEEK: Record<Weekday, number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

/** A wall-clock time of day, in hours and minutes. */
type RunTime = { hour: number; minute: number };

/**
 * Checks `settings` and reads its run time.
 * @throws RangeError when the run time is not `HH:MM` (00:00–23:59), the weekday is not one of {@link WEEKDAYS} or
 *   the time zone is not an IANA name the runtime knows
 */
function checkSettings(settings: ScheduleSettings): RunTime {
  if (!UpdateRunTime.safeParse(settings.updateRunTime).success) {
    throw new RangeError(`update-run-time ${JSON.stringify(settings.updateRunTime)} must be a time HH:MM, from 00:00 to 23:59`);
  }
  if (!(WEEKDAYS as readonly string[]).includes(settings.weeklyUpdateRunDay)) {
    throw new RangeError(`weekly-update-run-day ${JSON.stringify(settings.weeklyUpdateRunDay)} must be one of ${WEEKDAYS.join(', ')}`);
  }
  if (!isValidTimeZone(settings.timeZone)) {
    throw new RangeError(`time-zone ${JSON.stringify(settings.timeZone)} must be an IANA time zone name, e.g. Europe/Paris`);
  }
  const [hour, minute] = settings.updateRunTime.split(':').map(Number);
  return { hour: hour ?? 0, minute: minute ?? 0 };
}

/**
 * The cron expression (minute hour day-of-month month day-of-week) whose matches fall on the days `schedule` runs,
 * or null for `live`: `daily` Monday to Friday, as Dependabot Preview ran daily updates on weekdays; `weekly` on
 * `weekly-update-run-day`; `monthly` on the first of the month.
 * @throws RangeError for a schedule that is not one of `live`, `daily`, `weekly`, `monthly`
 */
function cronExpression(schedule: UpdateSchedule, time: RunTime, weekday: Weekday): string | null {
  switch (schedule) {
    case 'live':
      return null;
    case 'daily':
      return `${time.minute} ${time.hour} * * 1-5`;
    case 'weekly':
      return `${time.minute} ${time.hour} * * ${CRON_DAY_OF_WEEK[weekday]}`;
    case 'monthly':
      return `${time.minute} ${time.hour} 1 * *`;
    default:
      throw new RangeError(`update-schedule ${JSON.stringify(schedule)} must be one of live, daily, weekly, monthly`);
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `timeZone` at the instant `ms`, as milliseconds of a UTC date with the same fields. */
function wallClock(timeZone: string, ms: number): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const field: Record<string, number> = {};
  for (const part of format.formatToParts(ms)) field[part.type] = Number(part.value);
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = field;
  // `Date.UTC` reads years 0–99 as 1900–1999; `setUTCFullYear` does not.
  const wall = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms - Math.floor(ms / 1000) * 1000));
  wall.setUTCFullYear(year);
  return wall.getTime();
}

/** The offset from UTC of `timeZone` at the instant `ms`, in milliseconds (east positive). */
function offsetAt(timeZone: string, ms: number): number {
  return wallClock(timeZone, ms) - ms;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The instant at which the wall clock of `timeZone` first reads `wall` (milliseconds of a UTC date with the wall
 * clock's fields) or later. So a wall-clock time that happens twice (fall back) is taken at its first occurrence, and
 * one the clock skips (spring forward) at the end of the gap, when the clock jumps over it: 02:30 in Europe/Berlin on
 * the last Sunday of March is 03:00 CEST, 01:00Z. This is ISC cron's rule (crond(8),
 * https://man7.org/linux/man-pages/man8/cron.8.html: "If time has moved forward, those jobs that would have run in the
 * interval that has been skipped will be run immediately. Conversely, if time has moved backward, care is taken to
 * avoid running jobs twice.").
 */
function firstInstantReading(timeZone: string, wall: number): number {
  // `wall` read with the offsets in force half a day either side of it; zones change offset at most once a day.
  const near = wall - offsetAt(timeZone, wall);
  const readings = [near - 12 * HOUR_MS, near + 12 * HOUR_MS].map((ms) => wall - offsetAt(timeZone, ms));
  const occurrences = readings.filter((ms) => wallClock(timeZone, ms) === wall);
  if (occurrences.length > 0) return Math.min(...occurrences);
  // `wall` falls in a gap: the clock jumps over it between the two readings; find the jump, to the millisecond.
  let before = Math.min(...readings);
  let after = Math.max(...readings);
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (wallClock(timeZone, middle) >= wall) after = middle;
    else before = middle;
  }
  return after;
}

/**
 * The schedule's cron-parser matches, on the wall-clock timeline of the account's zone (wall-clock times as UTC dates,
 * where no daylight saving change happens), from the wall clock at the instant `now` moved by `shift` milliseconds;
 * null for `live`. cron-parser picks the days (weekdays, the weekly day, the first of the month) and
 * {@link firstInstantReading} places each in real time. cron-parser's own
 * time-zone search is not used: in its 5.10 releases (https://github.com/harrisiirak/cron-parser, src/CronExpression.ts)
 * a time in a spring-forward gap is shifted by the gap's length (03:30, RFC 5545's rule, not cron's), a 30-minute gap
 * (Australia/Lord_Howe) drops the day, `prev()` drops the gap day and returns a repeated time twice, and a gap at
 * midnight (America/Santiago) makes `prev()` throw "loop limit exceeded".
 * @throws RangeError for invalid settings, as {@link checkSettings}, or an unknown schedule
 */
function wallMatches(schedule: UpdateSchedule, settings: ScheduleSettings, now: number, shift: number) {
  const expression = cronExpression(schedule, checkSettings(settings), settings.weeklyUpdateRunDay);
  if (expression === null) return null;
  const wall = wallClock(settings.timeZone, now) + shift;
  return CronExpressionParser.parse(expression, { currentDate: new Date(wall), tz: 'UTC' });
}

/** Checks that `now` is a valid date. @throws RangeError when it is not */
function instant(now: Date): number {
  const ms = now.getTime();
  if (Number.isNaN(ms)) throw new RangeError('now must be a valid date');
  return ms;
}

/**
 * The latest slot of an update config at or before `now` (its instant), or null for `live`, which has no slots.
 * Slots are wall-clock times in `settings.timeZone`: `daily` Monday to Friday at the run time, `weekly` on the
 * weekly run day at the run time, `monthly` on the first of the month at the run time, each exactly once per day,
 * week or month. Across daylight saving changes, a run time that happens twice runs at its first occurrence and one
 * the clock skips runs when the clock jumps over it (02:30 on a day Europe/Berlin goes from 02:00 to 03:00 runs at
 * 03:00), as cron does (see {@link firstInstantReading}).
 * @throws RangeError for an unknown schedule, a malformed run time or weekday, an unknown time zone or an invalid `now`
 */
export function latestSlot(schedule: UpdateSchedule, settings: ScheduleSettings, now: Date): Date | null {
  const nowMs = instant(now);
  // A day ahead on the wall clock, so no match whose slot is at or before `now` is passed over.
  const matches = wallMatches(schedule, settings, nowMs, DAY_MS);
  if (!matches) return null;
  for (;;) {
    const slot = firstInstantReading(settings.timeZone, matches.prev().getTime());
    if (slot <= nowMs) return new Date(slot);
  }
}

/**
 * The first slot of an update config strictly after `now` (its instant), or null for `live`; slots as for
 * {@link latestSlot}, so `nextSlot(s, settings, latestSlot(s, settings, now))` is the slot after the latest one.
 * @throws RangeError for an unknown schedule, a malformed run time or weekday, an unknown time zone or an invalid `now`
 */
export function nextSlot(schedule: UpdateSchedule, settings: ScheduleSettings, now: Date): Date | null {
  const nowMs = instant(now);
  const key = `${schedule} ${settings.updateRunTime} ${settings.weeklyUpdateRunDay} ${settings.timeZone}`;
  // The slot after `from` is the slot after every instant from `from` up to it: no search while that holds.
  const known = nextSlots.get(key);
  if (known && known.from <= nowMs && nowMs < known.slot) return new Date(known.slot);
  // A day back on the wall clock, so no match whose slot is after `now` is passed over.
  const matches = wallMatches(schedule, settings, nowMs, -DAY_MS);
  if (!matches) return null;
  for (;;) {
    const slot = firstInstantReading(settings.timeZone, matches.next().getTime());
    if (slot > nowMs) {
      if (nextSlots.size >= NEXT_SLOTS_MAX) nextSlots.clear();
      nextSlots.set(key, { from: nowMs, slot });
      return new Date(slot);
    }
  }
}

/**
 * The last slot {@link nextSlot} found per schedule and settings, and the instant it was asked from (at most
 * {@link NEXT_SLOTS_MAX} settings; all forgotten when full). A config's `next-run-at` is asked on every write and
 * listing, and the search (cron-parser, then the time zone's wall clock) costs far more than the lookup.
 */
const nextSlots = new Map<string, { from: number; slot: number }>();
const NEXT_SLOTS_MAX = 4_096;

/**
 * A stable key naming one slot of a schedule, `<schedule>@<slot as ISO 8601 UTC instant>` (for example
 * `weekly@2026-11-30T05:00:00.000Z`), e.g. to record that the slot's run was started so that it starts only once.
 * @throws RangeError when `slot` is not a valid date
 */
export function slotKey(schedule: UpdateSchedule, slot: Date): string {
  return `${schedule}@${new Date(instant(slot)).toISOString()}`;
}
