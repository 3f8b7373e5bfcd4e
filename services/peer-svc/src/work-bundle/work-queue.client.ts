import { createAmqpQueueReader, createAmqpQueueSender } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';

/** A message taken off a client place's queue on RabbitMQ. */
export interface TakenMessage {
  /** The body as published. */
  body: Buffer;
  /** The message's `timestamp` property (to the second), if it has one. */
  enqueuedAt: Date | undefined;
}

/** The client places' queues on RabbitMQ; see {@link openAmqpWorkQueue}. */
export interface AmqpWorkQueue {
  /**
   * Publishes `body` to `queue` (declared durable), persistent, `application/json`, with its enqueue time; resolves on
   * the broker's confirm.
   * @throws the sender's error when the broker did not confirm within `timeoutMs` (a reconnection included)
   */
  publish(queue: string, body: Buffer): Promise<void>;
  /**
   * Takes up to `max` messages off `queue`, oldest first (`basic.get` up to `max` times, then one `basic.ack`).
   * @throws the reader's error when the broker cannot be read within `timeoutMs`; the messages then stay on the queue
   */
  take(queue: string, max: number): Promise<TakenMessage[]>;
  /** Closes both connections. */
  close(): Promise<void>;
}

/**
 * Connects to RabbitMQ at `url` for the client places' queues, through `@switchyard/messaging`'s queue sender
 * (publisher confirms) and queue reader, each on a connection of its own that reconnects after a drop.
 * @throws the connection error when the broker cannot be reached (nothing is left open)
 */
export async function openAmqpWorkQueue(options: { url: string; logger: Logger; timeoutMs: number }): Promise<AmqpWorkQueue> {
  const { url, logger, timeoutMs } = options;
  const sender = await createAmqpQueueSender({ url, logger, publishTimeoutMs: timeoutMs, connectionName: 'peer-svc work queue' });
  const reader = await createAmqpQueueReader({
    url,
    logger,
    takeTimeoutMs: timeoutMs,
    connectionName: 'peer-svc work queue reader',
  }).catch(async (error: unknown) => {
    await sender.close();
    throw error;
  });
  return {
    publish: async (queue, body) => {
      await sender.send(queue, body, { contentType: 'application/json', timestamp: Math.floor(Date.now() / 1000) });
    },
    take: async (queue, max) =>
      (await reader.take(queue, max)).map((message) => ({ body: message.content, enqueuedAt: message.timestamp })),
    close: async () => {
      await Promise.all([sender.close(), reader.close()]);
    },
  };
}
