/**
 * Point-to-point reading: takes messages off a named durable queue with `basic.get` and acknowledges them, for
 * operators and tools that drain a work queue now and then rather than consume it (peer-svc's client places, whose
 * messages `createAmqpQueueSender` sends). Domain events are consumed through `createAmqpBus` instead.
 *
 * It shares the bus's connection handling (`openAmqpConnection`: fail fast at start, then reconnect with capped
 * exponential back-off). Each `take` runs on a channel of its own, closed at its end: the acknowledgements of one
 * take never cover another's deliveries, and the channel's close (a round trip the broker answers after the acks
 * before it) tells that they arrived.
 */
import type { Logger } from '@switchyard/service-kit';
import amqplib, { type Channel, type GetMessage } from 'amqplib';
import { type ReconnectOptions, reconnectBackoff } from './amqp-bus.ts';
import { type AmqpConnect, type AmqpConnection, openAmqpConnection } from './amqp-connection.ts';
import { withTimeout } from './backoff.ts';
import { BusClosedError } from './errors.ts';

/** Options of {@link createAmqpQueueReader}. */
export interface AmqpQueueReaderOptions {
  /** `amqp://user:pass@host:5672/vhost` (or `amqps://`). */
  url: string;
  /** Where the reader logs connection changes (never message bodies). */
  logger: Logger;
  /** Reconnection back-off, as the bus's (defaults 200 ms doubling up to 30 s, ±20 %). */
  reconnect?: ReconnectOptions;
  /** Bound on one `take` in ms: waiting for a reconnection during an outage, the declaration, the gets and the acks. Default 10 000. */
  takeTimeoutMs?: number;
  /** Arguments queues are declared with besides `durable`, as the sender's `queueArguments` (they must agree). Default none. */
  queueArguments?: Record<string, unknown>;
  /** Name of the connection in the broker's management UI. Default `switchyard-queue-reader`. */
  connectionName?: string;
  /** Opens the connection; default amqplib's `connect`. */
  connect?: AmqpConnect;
}

/** One message taken off a queue. */
export interface TakenMessage {
  content: Buffer;
  /** The `content-type` property, if the producer set one. */
  contentType?: string;
  /** The `timestamp` property (AMQP: seconds since the epoch) as a date, if the producer set one. */
  timestamp?: Date;
}

/** Takes messages off named durable queues of one RabbitMQ broker; see {@link createAmqpQueueReader}. */
export interface AmqpQueueReader {
  /**
   * Declares `queue` durable (a queue nothing was sent to yet is empty, not an error), gets up to `max` messages
   * from it, oldest first, acknowledges them and resolves with them. Messages not acknowledged when the take fails
   * (a drop, a timeout) go back to the queue: a take loses nothing, and may hand out a message a failed take saw.
   * @throws BrokerUnavailableError when no connection came back within `takeTimeoutMs`; Error when the queue cannot be
   *   declared (`PRECONDITION_FAILED`: other arguments), the channel fails, or the take did not finish in time;
   *   BusClosedError once `close()` was called; TypeError for an empty queue name or a `max` that is not a positive integer
   */
  take(queue: string, max: number): Promise<TakenMessage[]>;
  /** Whether the reader has a connection right now. */
  isConnected(): boolean;
  /** Stops reconnecting and closes the connection (a take in progress fails, its messages go back). Idempotent. */
  close(): Promise<void>;
}

const defaultConnect: AmqpConnect = (url, socketOptions) => amqplib.connect(url, socketOptions);

/** The message as {@link TakenMessage}. */
function taken(message: GetMessage): TakenMessage {
  const { contentType, timestamp } = message.properties as { contentType?: unknown; timestamp?: unknown };
  return {
    content: message.content,
    ...(typeof contentType === 'string' ? { contentType } : {}),
    ...(typeof timestamp === 'number' ? { timestamp: new Date(timestamp * 1000) } : {}),
  };
}

/** Gets up to `max` messages from `queue` on `channel` and acknowledges them all with one `basic.ack` (multiple). */
async function getAndAck(
  channel: Channel,
  queue: string,
  max: number,
  declare: Parameters<Channel['assertQueue']>[1],
): Promise<TakenMessage[]> {
  await channel.assertQueue(queue, declare);
  const messages: GetMessage[] = [];
  while (messages.length < max) {
    const message = await channel.get(queue, { noAck: false });
    if (message === false) break;
    messages.push(message);
  }
  const last = messages.at(-1);
  if (last !== undefined) channel.ack(last, true);
  return messages.map(taken);
}

/**
 * Connects to RabbitMQ and returns an {@link AmqpQueueReader}: one connection, re-established after a drop with capped
 * exponential back-off; a `take` during an outage waits for the reconnection up to `takeTimeoutMs`.
 * @throws the connection error when the broker cannot be reached at start (no retry then: fail fast)
 */
export async function createAmqpQueueReader(options: AmqpQueueReaderOptions): Promise<AmqpQueueReader> {
  const logger = options.logger.child({ component: 'amqp-queue-reader' });
  const takeTimeoutMs = options.takeTimeoutMs ?? 10_000;
  const declareOptions = { durable: true, ...(options.queueArguments ? { arguments: options.queueArguments } : {}) };
  let closing: Promise<void> | undefined;

  const connection: AmqpConnection = await openAmqpConnection({
    url: options.url,
    logger,
    connect: options.connect ?? defaultConnect,
    connectionName: options.connectionName ?? 'switchyard-queue-reader',
    backoff: reconnectBackoff(options.reconnect),
    onConnect: async () => {},
  });
  logger.info('connected to the broker');

  return {
    isConnected: () => connection.current() !== undefined,

    async take(queue, max) {
      if (closing) throw new BusClosedError();
      if (queue === '') throw new TypeError('the queue name must not be empty');
      if (!Number.isSafeInteger(max) || max < 1) throw new TypeError(`max must be a positive integer, not ${max}`);
      const deadline = Date.now() + takeTimeoutMs;
      const model = await connection.waitForConnection(takeTimeoutMs);
      let channel: Channel | undefined;
      let gaveUp = false;
      const work = (async () => {
        channel = await model.createChannel();
        if (gaveUp) {
          await channel.close();
          return [];
        }
        // The broker closes the channel on a failed declaration: the failure reaches the caller through the rejected call.
        channel.on('error', (error: Error) => logger.warn({ err: error, queue }, 'read channel error'));
        const messages = await getAndAck(channel, queue, max, declareOptions);
        await channel.close();
        return messages;
      })();
      try {
        return await withTimeout(
          work,
          Math.max(1, deadline - Date.now()),
          () => new Error(`take from ${queue} did not finish within ${takeTimeoutMs} ms`),
        );
      } catch (error) {
        gaveUp = true;
        work.catch(() => {});
        // Closing the channel hands its unacknowledged messages back to the queue.
        await channel?.close().catch(() => {});
        throw error;
      }
    },

    close(): Promise<void> {
      closing ??= (async () => {
        await connection.close();
        logger.info('closed');
      })();
      return closing;
    },
  };
}
