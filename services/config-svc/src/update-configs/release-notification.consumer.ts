import { ReleaseNotificationReceivedEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { writeCheckpoint } from './update-config-checkpoint.service.ts';

/**
 * Starts config-svc's one consumer: `<queuePrefix>.release-notifications` takes release-svc's
 * `release_notification.received` and answers each with an `update_config.checkpoint` ({@link writeCheckpoint}),
 * 8 at a time. With a bus that waits for the broker it is registered at once and consumes once connected.
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeReleaseNotifications(
  bus: MessageBus,
  deps: { db: Kysely<ConfigDatabase>; logger: Logger; queuePrefix: string },
): Promise<ConsumerHandle> {
  const { db, logger } = deps;
  return consumeEvents(
    bus,
    { queue: `${deps.queuePrefix}.release-notifications`, events: [ReleaseNotificationReceivedEvent], prefetch: 8 },
    async (event) => {
      const configs = await writeCheckpoint(db, event.data);
      logger.debug({ notification: event.data.id, configs }, 'release notification answered with a checkpoint');
    },
  );
}
