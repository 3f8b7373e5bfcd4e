import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { findRepoAccountSchedules } from '../repos/repo.repository.ts';
import { nextRunOf } from './next-run.policy.ts';
import type { UpdateConfigRow } from './update-config.table.ts';

/** An update config with its next scheduled run (`next-run-at`: null for `live`, see `nextRunOf`). */
export interface ScheduledUpdateConfig {
  row: UpdateConfigRow;
  nextRunAt: Date | null;
}

/**
 * Each config with its next scheduled run after `now` ({@link nextRunOf}), read with the schedule settings of its repo's
 * account as stored now (the defaults of `nextRunOf` when its repo is not stored).
 * @returns in the order of `rows`
 */
export async function withNextRuns(
  db: Kysely<ConfigDatabase>,
  rows: readonly UpdateConfigRow[],
  now: Date = new Date(),
): Promise<ScheduledUpdateConfig[]> {
  if (rows.length === 0) return [];
  const schedules = await findRepoAccountSchedules(
    db,
    rows.map((row) => row.repo_id),
  );
  return rows.map((row) => ({ row, nextRunAt: nextRunOf(row, schedules.get(row.repo_id), now) }));
}

/** One config with its next scheduled run after `now`, as {@link withNextRuns} gives it. */
export async function withNextRun(
  db: Kysely<ConfigDatabase>,
  row: UpdateConfigRow,
  now: Date = new Date(),
): Promise<ScheduledUpdateConfig> {
  const schedules = await findRepoAccountSchedules(db, [row.repo_id]);
  return { row, nextRunAt: nextRunOf(row, schedules.get(row.repo_id), now) };
}
