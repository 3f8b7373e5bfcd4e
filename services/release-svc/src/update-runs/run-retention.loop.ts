import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { deleteExpiredRuns } from './update-run.service.ts';

/**
 * The retention of runs: at once and then hourly, the runs older than `UPDATE_RUN_RETENTION_DAYS` as of `now()` go.
 * @returns the loop, to stop on shutdown
 */
export function startRunRetention(db: Kysely<ReleaseDatabase>, now: () => Date, logger: Logger): Loop {
  return startLoop({ name: 'update-run retention', intervalMs: 3_600_000, logger, round: () => deleteExpiredRuns(db, now()) });
}
