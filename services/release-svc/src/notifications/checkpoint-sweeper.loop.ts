import { type Loop, startLoop } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { type PlanOptions, planOverdueNotifications } from './notification-plan.service.ts';

/**
 * The sweeper: every `intervalMs`, plans the notifications whose checkpoint has not come within `timeoutMs`
 * (`planOverdueNotifications`: config-svc down or absent), from the read model as it is. A failed round (the database
 * away) is logged and the next one tries again.
 * @returns the loop, to stop on shutdown
 */
export function startCheckpointSweeper(db: Kysely<ReleaseDatabase>, timeoutMs: number, intervalMs: number, options: PlanOptions): Loop {
  return startLoop({
    name: 'checkpoint sweeper',
    intervalMs,
    immediately: false,
    logger: options.logger,
    round: () => planOverdueNotifications(db, timeoutMs, options),
  });
}
