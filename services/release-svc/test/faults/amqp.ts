import amqplib from 'amqplib';
import { PULL_REQUEST_CONSUMER, RELEASE_CONSUMERS } from '../../src/consumers.ts';

/** Every consumer a worker may run: those it always runs, and the pull-request jobs' with `PULL_REQUESTS=on`. */
export const ALL_CONSUMERS: readonly string[] = [...RELEASE_CONSUMERS, PULL_REQUEST_CONSUMER];

/** The worker's queues under `prefix` (main, parking and retry queues of each of `consumers`, by default every one a worker may run). */
export function workerQueues(prefix: string, consumers: readonly string[] = ALL_CONSUMERS): string[] {
  return consumers.flatMap((consumer) => {
    const base = `${prefix}.${consumer}`;
    return [base, `${base}.parking`, `${base}.retry.1000ms`, `${base}.retry.5000ms`, `${base}.retry.30000ms`];
  });
}

/**
 * Messages waiting in each parking queue of `consumers` (default: those a worker always runs; all must be 0 after a
 * clean run). @throws when a queue does not exist (the broker closes the channel with 404 NOT_FOUND)
 */
export async function parkedMessages(
  url: string,
  prefix: string,
  consumers: readonly string[] = RELEASE_CONSUMERS,
): Promise<Record<string, number>> {
  const model = await amqplib.connect(url);
  model.on('error', () => {});
  try {
    const channel = await model.createChannel();
    const counts: Record<string, number> = {};
    for (const queue of workerQueues(prefix, consumers).filter((name) => name.endsWith('.parking')))
      counts[queue] = (await channel.checkQueue(queue)).messageCount;
    return counts;
  } finally {
    await model.close().catch(() => {});
  }
}

/**
 * A queue as `queue.declare` with `passive` reports it (AMQP 0-9-1 `queue.declare-ok`): `messages` ready for delivery
 * (not those delivered and awaiting an ack) and `consumers` attached
 * (https://www.rabbitmq.com/amqp-0-9-1-reference#queue.declare).
 * @throws when the queue does not exist (404 NOT_FOUND) or the broker cannot be reached
 */
export async function queueState(url: string, queue: string): Promise<{ messages: number; consumers: number }> {
  const model = await amqplib.connect(url);
  model.on('error', () => {});
  try {
    const channel = await model.createChannel();
    const state = await channel.checkQueue(queue);
    return { messages: state.messageCount, consumers: state.consumerCount };
  } finally {
    await model.close().catch(() => {});
  }
}

/** Deletes the worker's queues and the test's exchanges (best effort: what does not exist is skipped). */
export async function deleteTopology(url: string, exchange: string, prefix: string): Promise<void> {
  const model = await amqplib.connect(url);
  model.on('error', () => {});
  try {
    for (const queue of workerQueues(prefix)) {
      // A missing queue is fine (delete is idempotent on RabbitMQ); a fresh channel each time keeps one error from stopping the rest.
      const channel = await model.createChannel();
      channel.on('error', () => {});
      await channel.deleteQueue(queue).catch(() => {});
      await channel.close().catch(() => {});
    }
    const channel = await model.createChannel();
    channel.on('error', () => {});
    await channel.deleteExchange(exchange).catch(() => {});
    await channel.deleteExchange(`${exchange}.dlx`).catch(() => {});
    await channel.close().catch(() => {});
  } finally {
    await model.close().catch(() => {});
  }
}
