import { type AmqpConfirmChannel, type AmqpConnection, connectAmqp } from './amqplib.ts';

/** Where enqueued work bundles go. */
export interface WorkQueue {
  /** Publishes `body` durably to `queue` and resolves once the broker confirmed it. @throws when it did not */
  publish(queue: string, body: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** Thrown when no broker is configured or it refused or lost a message. */
export class WorkQueueError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'WorkQueueError';
  }
}

/** A {@link WorkQueue} that refuses every message (no `AMQP_URL`). */
export const noWorkQueue: WorkQueue = {
  publish: () => Promise.reject(new WorkQueueError('no message broker configured')),
  close: async () => {},
};

/**
 * The RabbitMQ {@link WorkQueue}: one connection and one confirm channel, opened lazily and reopened
 * after an error; queues are asserted durable once each; messages are persistent `application/json`
 * and each publish waits for the broker's confirm.
 */
export function createAmqpWorkQueue(url: string): WorkQueue {
  let connecting: Promise<{ connection: AmqpConnection; channel: AmqpConfirmChannel }> | undefined;
  let asserted = new Set<string>();
  const open = () => {
    connecting ??= (async () => {
      const connection = await connectAmqp(url);
      const reset = () => {
        connecting = undefined;
        asserted = new Set();
      };
      connection.on('error', reset);
      connection.on('close', reset);
      const channel = await connection.createConfirmChannel();
      channel.on('error', reset);
      channel.on('close', reset);
      return { connection, channel };
    })().catch((error: unknown) => {
      connecting = undefined;
      throw new WorkQueueError('cannot reach the message broker', { cause: error });
    });
    return connecting;
  };
  return {
    publish: async (queue, body) => {
      const { channel } = await open();
      if (!asserted.has(queue)) {
        await channel.assertQueue(queue, { durable: true });
        asserted.add(queue);
      }
      await new Promise<void>((resolve, reject) => {
        channel.sendToQueue(queue, body, { persistent: true, contentType: 'application/json' }, (error) =>
          error ? reject(new WorkQueueError('message not confirmed', { cause: error })) : resolve(),
        );
      });
    },
    close: async () => {
      const current = connecting;
      connecting = undefined;
      if (current === undefined) return;
      const opened = await current.catch(() => undefined);
      await opened?.connection.close().catch(() => {});
    },
  };
}
