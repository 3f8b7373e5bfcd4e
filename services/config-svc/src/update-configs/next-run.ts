import { nextSlot } from '@switchyard/dependency-api';
import type { Kysely } from 'kysely';
import { type AccountSchedule, scheduleOf } from '../accounts/account.repository.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import type { UpdateConfigRow } from './update-config.table.ts';

/**
 * The next scheduled run of each config (this service's `next-run-at`): the first slot after `now` of its schedule
 * (`@switchyard/dependency-api`'s `nextSlot`: weekdays for `daily`, the account's `weekly-update-run-day` for `weekly`,
 * the 1st for `monthly`, at the account's `update-run-time` in its `time-zone`), null for `live`. release-svc's
 * scheduler runs on the same rule, so this is when it runs the config (up to its `SCHEDULER_INTERVAL_MS` later).
 * @returns by config id
 */
export async function nextRunsOf(
  db: Kysely<ConfigDatabase>,
  rows: readonly UpdateConfigRow[],
  now: Date = new Date(),
): Promise<Map<number, Date | null>> {
  const next = new Map<number, Date | null>();
  if (rows.length === 0) return next;
  const accounts = await db
    .selectFrom('repo')
    .innerJoin('account', 'account.id', 'repo.account_id')
    .select(['repo.id as repo_id', 'account.update_run_time', 'account.weekly_update_run_day', 'account.time_zone'])
    .where('repo.id', 'in', [...new Set(rows.map((row) => row.repo_id))])
    .execute();
  const byRepo = new Map(accounts.map((a) => [a.repo_id, a]));
  for (const row of rows) {
    const account = byRepo.get(row.repo_id);
    next.set(row.id, nextRunOf(row, account && scheduleOf(account), now));
  }
  return next;
}

/**
 * The next scheduled run of one config whose account's schedule settings are at hand (as {@link nextRunsOf} finds
 * them): without settings, the defaults (`05:00`, `monday`, `UTC`); null for `live` or settings `nextSlot` refuses.
 */
export function nextRunOf(
  row: Pick<UpdateConfigRow, 'update_schedule'>,
  schedule: AccountSchedule | undefined,
  now: Date = new Date(),
): Date | null {
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
