import amqplib from 'amqplib';

/** The worker's queues under `prefix` (main, parking and retry queues of its three consumers). */
export function workerQueues(prefix: string): string[] {
  return ['read-model', 'notifications', 'scans'].flatMap((consumer) => {
    const base = `${prefix}.${consumer}`;
    return [base, `${base}.parking`, `${base}.retry.1000ms`, `${base}.retry.5000ms`, `${base}.retry.30000ms`];
  });
}

/** Messages waiting in each of the worker's parking queues (all must be 0 after a clean run). */
export async function parkedMessages(url: string, prefix: string): Promise<Record<string, number>> {
  const model = await amqplib.connect(url);
  model.on('error', () => {});
  try {
    const channel = await model.createChannel();
    const counts: Record<string, number> = {};
    for (const queue of workerQueues(prefix).filter((name) => name.endsWith('.parking')))
      counts[queue] = (await channel.checkQueue(queue)).messageCount;
    return counts;
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
