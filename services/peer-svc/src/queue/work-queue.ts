import { createAmqpQueueReader, createAmqpQueueSender } from '@switchyard/messaging';
import { type Logger, ServiceUnavailable } from '@switchyard/service-kit';
import type { PeerDb } from '../db/schema.ts';
import { createDatabaseWorkQueue } from './database-work-queue.ts';
import { ENQUEUE_TIMEOUT_MS, QUEUE_UNAVAILABLE, queueFull, type WorkQueue } from './work-queue-port.ts';

export { ENQUEUE_TIMEOUT_MS, QUEUE_UNAVAILABLE, type QueuedBundle, type WorkQueue } from './work-queue-port.ts';

/** Options of {@link openWorkQueue}. */
export interface WorkQueueOptions {
  /** RabbitMQ URL; unset: the database queue. */
  amqpUrl: string | undefined;
  /** The `peer` schema's handle, for the database queue. */
  db: PeerDb;
  /** Most bundles one queue holds in the database. */
  databaseLimit: number;
  logger: Logger;
}

/**
 * The work queue: on RabbitMQ at `amqpUrl`, `@switchyard/messaging`'s queue sender (each client place's queue declared
 * durable, bundles persistent as `application/json` with their enqueue time, publisher confirms, reconnection after a
 * drop: an enqueue during an outage waits up to {@link ENQUEUE_TIMEOUT_MS}) and queue reader (`basic.get`, then
 * `basic.ack`); without `amqpUrl`, durable rows of `peer.work_bundle` ({@link createDatabaseWorkQueue}).
 * @throws the connection error when the broker cannot be reached at start
 */
export async function openWorkQueue(options: WorkQueueOptions): Promise<WorkQueue> {
  const { amqpUrl: url, logger } = options;
  if (url === undefined) return createDatabaseWorkQueue(options.db, options.databaseLimit);
  const sender = await createAmqpQueueSender({ url, logger, publishTimeoutMs: ENQUEUE_TIMEOUT_MS, connectionName: 'peer-svc work queue' });
  const reader = await createAmqpQueueReader({
    url,
    logger,
    takeTimeoutMs: ENQUEUE_TIMEOUT_MS,
    connectionName: 'peer-svc work queue reader',
  }).catch(async (error: unknown) => {
    await sender.close();
    throw error;
  });
  return {
    kind: 'rabbitmq',
    publish: (queue, body) =>
      sender.send(queue, body, { contentType: 'application/json', timestamp: Math.floor(Date.now() / 1000) }).catch((error: unknown) => {
        throw queueFull(error);
      }),
    take: async (queue, max) => {
      try {
        const messages = await reader.take(queue, max);
        return messages.map((message) => ({ body: message.content, enqueuedAt: message.timestamp }));
      } catch (error) {
        throw new ServiceUnavailable(QUEUE_UNAVAILABLE, { cause: error });
      }
    },
    close: async () => {
      await Promise.all([sender.close(), reader.close()]);
    },
  };
}
