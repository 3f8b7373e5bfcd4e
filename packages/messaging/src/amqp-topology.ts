import type { Channel } from 'amqplib';
import type { ResolvedConsumerSpec } from './consumer-spec.ts';

/**
 * `x-delivery-limit` of parking queues. Nobody consumes them in normal operation; the limit only bounds
 * how often one parked message can be fetched and requeued (e.g. while inspecting it) before the broker drops it.
 */
export const PARKING_DELIVERY_LIMIT = 1_000;

/** The names of everything one consumer needs on the broker. */
export interface ConsumerTopology {
  /** The events exchange (topic) the main queue is bound to. */
  exchange: string;
  /** `<exchange>.dlx`, a direct exchange where each queue below is bound under its own name. */
  deadLetterExchange: string;
  /** The main queue (quorum). */
  queue: string;
  /** `<queue>.parking` (quorum): messages given up on. */
  parking: string;
  /** `<queue>.retry.<ms>ms` (quorum, message TTL ms): one per distinct retry delay. */
  retryQueues: ReadonlyArray<{ delayMs: number; name: string }>;
}

/** The dead-letter exchange that belongs to an events exchange: `<exchange>.dlx`. */
export function deadLetterExchangeOf(exchange: string): string {
  return `${exchange}.dlx`;
}

/** Names the consumer's queues and exchanges (no broker I/O). */
export function consumerTopology(exchange: string, spec: ResolvedConsumerSpec): ConsumerTopology {
  const delays = [...new Set(spec.retryDelaysMs)];
  return {
    exchange,
    deadLetterExchange: deadLetterExchangeOf(exchange),
    queue: spec.queue,
    parking: `${spec.queue}.parking`,
    retryQueues: delays.map((delayMs) => ({ delayMs, name: `${spec.queue}.retry.${delayMs}ms` })),
  };
}

/** The retry queue a message waits in for `delayMs` (which must be one of the spec's delays). */
export function retryQueueName(topology: ConsumerTopology, delayMs: number): string {
  const found = topology.retryQueues.find((retry) => retry.delayMs === delayMs);
  if (!found) throw new Error(`no retry queue for ${delayMs} ms on ${topology.queue}`);
  return found.name;
}

/** Declares the durable events exchange (topic) and its dead-letter exchange (direct). Idempotent. */
export async function declareExchanges(channel: Channel, exchange: string): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
  await channel.assertExchange(deadLetterExchangeOf(exchange), 'direct', { durable: true });
}

// At-least-once dead-lettering (RabbitMQ ≥ 3.10) moves messages with publisher confirms inside the
// broker; it requires `reject-publish` overflow on the source queue (no length limit is set, so it never triggers).
const AT_LEAST_ONCE = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' } as const;

/**
 * Declares (idempotently) and binds everything one consumer needs:
 *
 * - main queue: quorum, `x-delivery-limit` = `spec.deliveryLimit`, dead-lettering to `<exchange>.dlx` with routing
 *   key `<queue>.parking`, bound to `exchange` with each of `spec.bindings` and to the DLX under its own name;
 * - one retry queue per delay: quorum, `x-message-ttl` = delay, dead-lettering back to the main queue through the DLX;
 * - the parking queue: quorum, bound to the DLX under its own name.
 *
 * @throws the broker's channel error (e.g. PRECONDITION_FAILED when a queue exists with other arguments),
 *   which also closes the channel
 */
export async function declareConsumerTopology(channel: Channel, topology: ConsumerTopology, spec: ResolvedConsumerSpec): Promise<void> {
  const { exchange, deadLetterExchange: dlx, queue, parking } = topology;
  await declareExchanges(channel, exchange);
  await channel.assertQueue(parking, {
    durable: true,
    arguments: { 'x-queue-type': 'quorum', 'x-delivery-limit': PARKING_DELIVERY_LIMIT },
  });
  await channel.bindQueue(parking, dlx, parking);
  await channel.assertQueue(queue, {
    durable: true,
    arguments: {
      'x-queue-type': 'quorum',
      'x-delivery-limit': spec.deliveryLimit,
      'x-dead-letter-exchange': dlx,
      'x-dead-letter-routing-key': parking,
      ...AT_LEAST_ONCE,
    },
  });
  await channel.bindQueue(queue, dlx, queue);
  for (const retry of topology.retryQueues) {
    await channel.assertQueue(retry.name, {
      durable: true,
      arguments: {
        'x-queue-type': 'quorum',
        'x-delivery-limit': spec.deliveryLimit,
        'x-message-ttl': retry.delayMs,
        'x-dead-letter-exchange': dlx,
        'x-dead-letter-routing-key': queue,
        ...AT_LEAST_ONCE,
      },
    });
    await channel.bindQueue(retry.name, dlx, retry.name);
  }
  for (const pattern of spec.bindings) await channel.bindQueue(queue, exchange, pattern);
}
