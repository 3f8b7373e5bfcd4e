import { randomUUID } from 'node:crypto';
import type { EventEnvelope } from '@switchyard/contracts';
import amqplib, { type Channel, type ChannelModel } from 'amqplib';
import { waitFor } from './http-client.ts';

/** One delivery an {@link EventTap} received: the routing key, the AMQP `messageId` and the envelope. */
export interface TappedDelivery {
  routingKey: string;
  messageId: string | undefined;
  event: EventEnvelope;
}

/** The events one queue of a test received from a topic exchange, every redelivery and duplicate counted. */
export interface EventTap {
  /** First delivery of each event id, in arrival order. */
  events: EventEnvelope[];
  /** Every delivery, duplicates included, in arrival order. */
  deliveries: TappedDelivery[];
  /** Deliveries per event id (more than 1: the same event arrived again, which at-least-once allows). */
  deliveriesOf: (id: string) => number;
  /** How often the tap had to connect again after its connection dropped (a durable tap only). */
  reconnects: () => number;
  /** Waits until an event matching `match` has arrived (first deliveries) and returns it. @throws after `timeoutMs` */
  waitForEvent: (match: (event: EventEnvelope) => boolean, timeoutMs?: number) => Promise<EventEnvelope>;
  /** Stops consuming; deletes the queue when it is durable (an exclusive one goes with the connection), and the exchange when asked. Idempotent. */
  close: () => Promise<void>;
}

/** Options of {@link tapEvents}. */
export interface EventTapOptions {
  /** Topic patterns to bind (default `['#']`: everything). */
  bindings?: readonly string[];
  /**
   * A durable queue of this name instead of a server-named exclusive one: it outlives a broker restart, and the
   * tap reconnects when its connection drops. Deleted by `close()`.
   */
  durableQueue?: string;
  /** Delete the exchange (and its dead-letter exchange `<exchange>.dlx`) on `close()`: for an exchange the test made its own. */
  deleteExchangeOnClose?: boolean;
}

/**
 * Declares the durable topic `exchange`, binds a queue of the test's own to it and records what arrives (acked
 * after recording). Open it before the services start, so no event of the test is missed.
 * @throws the connection's error when RabbitMQ at `url` cannot be reached
 */
export async function tapEvents(url: string, exchange: string, options: EventTapOptions = {}): Promise<EventTap> {
  const bindings = options.bindings ?? ['#'];
  const events: EventEnvelope[] = [];
  const deliveries: TappedDelivery[] = [];
  const counts = new Map<string, number>();
  let reconnects = 0;
  let closing = false;
  let model: ChannelModel | undefined;
  let channel: Channel | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function open(): Promise<void> {
    const m = await amqplib.connect(url, { clientProperties: { connection_name: `test event tap ${exchange}` } });
    m.on('error', () => {});
    try {
      const ch = await m.createChannel();
      ch.on('error', () => {});
      await ch.assertExchange(exchange, 'topic', { durable: true });
      const { queue } = options.durableQueue
        ? await ch.assertQueue(options.durableQueue, { durable: true })
        : await ch.assertQueue('', { exclusive: true, autoDelete: true });
      for (const pattern of bindings) await ch.bindQueue(queue, exchange, pattern);
      await ch.consume(queue, (message) => {
        if (!message) return;
        const event = JSON.parse(message.content.toString()) as EventEnvelope;
        deliveries.push({ routingKey: message.fields.routingKey, messageId: message.properties.messageId, event });
        const seen = counts.get(event.id) ?? 0;
        counts.set(event.id, seen + 1);
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
      if (!closing && options.durableQueue) reconnect();
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
    deliveriesOf: (id) => counts.get(id) ?? 0,
    reconnects: () => reconnects,
    waitForEvent: (match, timeoutMs = 10_000) => waitFor(async () => events.find(match), timeoutMs),
    close: async () => {
      if (closing) return;
      closing = true;
      clearTimeout(timer);
      if (options.durableQueue) await channel?.deleteQueue(options.durableQueue).catch(() => {});
      if (options.deleteExchangeOnClose && channel) {
        await channel.deleteExchange(exchange).catch(() => {});
        await channel.deleteExchange(`${exchange}.dlx`).catch(() => {});
      }
      await model?.close().catch(() => {});
    },
  };
}

/**
 * Publishes events as a producing service would (persistent, `messageId` = event id, with publisher confirms) to
 * the durable topic `exchange`; each gets a new id and the time now.
 * @param source the envelope's `source`, e.g. `config-svc`
 */
export async function publishEvents(
  url: string,
  exchange: string,
  source: string,
  events: ReadonlyArray<{ type: string; data: unknown; version?: number }>,
): Promise<EventEnvelope[]> {
  const model = await amqplib.connect(url);
  model.on('error', () => {});
  try {
    const channel = await model.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const sent = events.map(({ type, data, version }) => ({
      id: randomUUID(),
      type,
      version: version ?? 1,
      source,
      time: new Date().toISOString(),
      data,
    }));
    for (const envelope of sent) {
      channel.publish(exchange, envelope.type, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.id,
        type: envelope.type,
      });
    }
    await channel.waitForConfirms();
    return sent;
  } finally {
    await model.close().catch(() => {});
  }
}
