import { type Logger, type Loop, startLoop } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { scheduleDueRuns } from './schedule.service.ts';

/**
 * The scheduler: at once and then every `intervalMs` (`SCHEDULER_INTERVAL_MS`), one round of {@link scheduleDueRuns} as of
 * `now()` (the tests move that clock).
 * @returns the loop, to stop on shutdown
 */
export function startScheduler(db: Kysely<ReleaseDatabase>, intervalMs: number, now: () => Date, logger: Logger): Loop {
  return startLoop({ name: 'scheduler', intervalMs, logger, round: () => scheduleDueRuns(db, now()) });
}
