import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@switchyard/contracts';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';

/** The events one queue of the test received, with every redelivery and duplicate counted. */
export interface EventObserver {
  /** First delivery of each event id, in arrival order. */
  events: EventEnvelope[];
  /** Deliveries per event id (more than 1: the same event arrived again, which at-least-once allows). */
  deliveries: Map<string, number>;
  /** How often the observer had to connect again after its connection dropped. */
  reconnects: () => number;
  /** Deliveries in all, duplicates included. */
  total: () => number;
  /** Stops consuming; deletes the queue when it is durable (an exclusive one goes with the connection). */
  close: () => Promise<void>;
}

/**
 * Binds a queue to `exchange` with `patterns` and records what arrives (acked after recording). `durable`
 * makes it a named durable queue that outlives a broker restart, and the observer reconnects when its
 * connection drops; otherwise it is a server-named exclusive queue that disappears with the connection.
 */
export async function observeEvents(
  url: string,
  exchange: string,
  patterns: string[],
  options: { durable?: string } = {},
): Promise<EventObserver> {
  const events: EventEnvelope[] = [];
  const deliveries = new Map<string, number>();
  let total = 0;
  let reconnects = 0;
  let closing = false;
  let model: ChannelModel | undefined;
  let channel: Channel | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function open(): Promise<void> {
    const m = await amqplib.connect(url, { clientProperties: { connection_name: 'release-svc faults observer' } });
    m.on('error', () => {});
    try {
      const ch = await m.createChannel();
      ch.on('error', () => {});
      await ch.assertExchange(exchange, 'topic', { durable: true });
      const { queue } = options.durable
        ? await ch.assertQueue(options.durable, { durable: true })
        : await ch.assertQueue('', { exclusive: true, autoDelete: true });
      for (const pattern of patterns) await ch.bindQueue(queue, exchange, pattern);
      await ch.consume(queue, (message) => {
        if (!message) return;
        const event = JSON.parse(message.content.toString()) as EventEnvelope;
        total += 1;
        const seen = deliveries.get(event.id) ?? 0;
        deliveries.set(event.id, seen + 1);
        if (seen === 0) events.push(event);
        ch.ack(message);
      });
      model = m;
      channel = ch;
    } catch (error) {
      await m.close().catch(() => {});
      throw error;
    }
    m.on('close', () => {
      model = undefined;
      channel = undefined;
      if (!closing && options.durable) reconnect();
    });
  }

  function reconnect(): void {
    timer = setTimeout(() => {
      if (closing) return;
      open().then(
        () => {
          reconnects += 1;
        },
        () => reconnect(),
      );
    }, 250);
  }

  await open();
  return {
    events,
    deliveries,
    reconnects: () => reconnects,
    total: () => total,
    close: async () => {
      closing = true;
      clearTimeout(timer);
      if (options.durable) await channel?.deleteQueue(options.durable).catch(() => {});
      await model?.close().catch(() => {});
    },
  };
}

/** Publishes events as config-svc would (persistent, with publisher confirms) to the durable topic `exchange`. */
export async function publishAsConfigSvc(
  url: string,
  exchange: string,
  events: ReadonlyArray<{ type: string; data: unknown }>,
): Promise<void> {
  const model = await amqplib.connect(url);
  model.on('error', () => {});
  try {
    const channel = await model.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    for (const { type, data } of events) {
      const envelope = { id: randomUUID(), type, source: 'config-svc', time: new Date().toISOString(), data };
      channel.publish(exchange, type, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.id,
        type,
      });
    }
    await channel.waitForConfirms();
  } finally {
    await model.close().catch(() => {});
  }
}

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
