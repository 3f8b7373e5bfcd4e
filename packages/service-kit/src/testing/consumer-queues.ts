import amqplib from 'amqplib';

/** The retry delays of the message bus's consumers when a spec names none (`CONSUMER_DEFAULTS` of `@switchyard/messaging`), ms. */
const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000];

/**
 * Deletes durable consumer queues a test's services declared on the broker at `amqpUrl`: each of `queues` with its
 * parking queue (`<queue>.parking`) and its retry queues (`<queue>.retry.<ms>ms`, for the bus's default delays), so
 * that runs leave nothing behind on a shared broker. Best effort: a queue that does not exist is skipped, and a broker
 * that cannot be reached is ignored.
 */
export async function deleteConsumerQueues(amqpUrl: string, queues: readonly string[]): Promise<void> {
  const model = await amqplib.connect(amqpUrl).catch(() => undefined);
  if (!model) return;
  model.on('error', () => {});
  try {
    const channel = await model.createChannel();
    for (const queue of queues) {
      for (const name of [queue, `${queue}.parking`, ...DEFAULT_RETRY_DELAYS_MS.map((ms) => `${queue}.retry.${ms}ms`)]) {
        await channel.deleteQueue(name).catch(() => {});
      }
    }
  } finally {
    await model.close().catch(() => {});
  }
}
