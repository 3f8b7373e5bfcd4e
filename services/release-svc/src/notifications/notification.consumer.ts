import { ReleaseNotificationReceivedEvent, UpdateConfigCheckpointEvent } from '@switchyard/contracts';
import { CONSUMER_DEFAULTS, type ConsumerHandle, consumeEvents, handleOnce, type MessageBus } from '@switchyard/messaging';
import type { Kysely } from 'kysely';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../db/schema.ts';
import { type PlanOptions, planOnArrival, planOnCheckpoint } from './notification-plan.service.ts';

/**
 * Consumes, on `queue`, config-svc's `update_config.checkpoint`, which plans its notification's fan-out once the read
 * model has caught up with it (`planOnCheckpoint`, delivered again after 1 s and 5 s until then, the bus's default
 * delays; its last attempt plans with what the read model has), and `release_notification.received`, which plans at
 * once only when `planOnArrival` is set (`CONFIG_CHECKPOINT_TIMEOUT_MS` 0; else the checkpoint, or the sweeper, plans
 * it), once per event (`handleOnce`); 4 at a time.
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeNotifications(
  bus: MessageBus,
  db: Kysely<ReleaseDatabase>,
  options: PlanOptions & { queue: string; planOnArrival: boolean },
): Promise<ConsumerHandle> {
  return consumeEvents(
    bus,
    { queue: options.queue, events: [ReleaseNotificationReceivedEvent, UpdateConfigCheckpointEvent], prefetch: 4 },
    async (event, context) => {
      if (event.type === UpdateConfigCheckpointEvent.type) {
        // The sweeper plans the notification anyway once CONFIG_CHECKPOINT_TIMEOUT_MS has passed, and a later delivery
        // then finds it planned.
        await planOnCheckpoint(db, event.data, context.attempt >= CONSUMER_DEFAULTS.maxAttempts, options);
        return;
      }
      if (!options.planOnArrival) return;
      await handleOnce(db, RELEASE_SCHEMA, event, async (trx) => {
        await planOnArrival(trx, event.data, options);
      });
    },
  );
}
