/**
 * Point-to-point sending: messages go straight to a named durable queue through RabbitMQ's default exchange
 * (routing key = queue name), with publisher confirms, for work queues whose consumers are no domain-event
 * subscribers (peer-svc's client places, for example). Domain events go through `createAmqpBus` instead.
 *
 * It shares the bus's connection handling (`openAmqpConnection`: fail fast at start, then reconnect with capped
 * exponential back-off) and its confirmed publishing (`publishConfirmed`); it declares each queue it sends to,
 * once per channel, so a queue deleted during an outage is there again after the reconnection.
 */
import type { Logger } from '@switchyard/service-kit';
import amqplib, { type ChannelModel, type ConfirmChannel, type Options } from 'amqplib';
import { type ReconnectOptions, reconnectBackoff } from './amqp-bus.ts';
import { type AmqpConnect, type AmqpConnection, openAmqpConnection } from './amqp-connection.ts';
import { publishConfirmed } from './amqp-publish.ts';
import { withTimeout } from './backoff.ts';
import { BusClosedError, PublishError } from './errors.ts';

/** Options of {@link createAmqpQueueSender}. */
export interface AmqpQueueSenderOptions {
  /** `amqp://user:pass@host:5672/vhost` (or `amqps://`). */
  url: string;
  /** Where the sender logs connection changes (never message bodies). */
  logger: Logger;
  /** Reconnection back-off, as the bus's (defaults 200 ms doubling up to 30 s, ±20 %). */
  reconnect?: ReconnectOptions;
  /**
   * Bound on one `send` in ms: waiting for a reconnection during an outage, declaring the queue, the publish and
   * its confirm. Default 10 000.
   */
  publishTimeoutMs?: number;
  /**
   * Arguments every queue is declared with besides `durable` (e.g. `{ 'x-queue-type': 'quorum' }`); default none, a
   * classic durable queue. A queue that already exists with other arguments makes `send` reject (`PRECONDITION_FAILED`).
   */
  queueArguments?: Record<string, unknown>;
  /** Name of the connection in the broker's management UI. Default `switchyard-queue-sender`. */
  connectionName?: string;
  /** Opens the connection; default amqplib's `connect`. Tests wrap it to get hold of the socket. */
  connect?: AmqpConnect;
}

/** Properties of one message; `persistent` is always set, and the routing is the queue's. */
export type QueueMessageOptions = Pick<
  Options.Publish,
  'contentType' | 'contentEncoding' | 'headers' | 'messageId' | 'correlationId' | 'type' | 'appId' | 'timestamp' | 'expiration' | 'priority'
>;

/** Sends messages to named durable queues of one RabbitMQ broker; see {@link createAmqpQueueSender}. */
export interface AmqpQueueSender {
  /**
   * Declares `queue` durable (once per channel), sends `content` to it as a persistent message and resolves when the
   * broker confirmed it (for a durable queue: written to disk). During an outage it waits for the reconnection.
   * @throws PublishError on a nack (e.g. a full queue with `x-overflow: reject-publish`), when the queue cannot be
   *   declared, when the connection drops before the confirm, or after `publishTimeoutMs`; BrokerUnavailableError (a
   *   PublishError) when no connection came back within it; BusClosedError once `close()` was called;
   *   TypeError for an empty queue name
   */
  send(queue: string, content: Buffer, options?: QueueMessageOptions): Promise<void>;
  /** Whether the sender has a connection right now (for `/readyz`). */
  isConnected(): boolean;
  /** Stops reconnecting and closes the channel and the connection; sends still waiting reject. Idempotent. */
  close(): Promise<void>;
}

/** The confirm channel of one connection and the queues declared on it. */
interface SendChannel {
  model: ChannelModel;
  channel: ConfirmChannel;
  declared: Map<string, Promise<void>>;
}

const defaultConnect: AmqpConnect = (url, socketOptions) => amqplib.connect(url, socketOptions);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Connects to RabbitMQ and returns an {@link AmqpQueueSender}: one connection with one confirm channel, re-established
 * after a drop with capped exponential back-off; `send` during an outage waits for the reconnection up to
 * `publishTimeoutMs`, then rejects, as the bus's `publish` does.
 * @throws the connection error when the broker cannot be reached at start (no retry then: fail fast)
 */
export async function createAmqpQueueSender(options: AmqpQueueSenderOptions): Promise<AmqpQueueSender> {
  const logger = options.logger.child({ component: 'amqp-queue-sender' });
  const publishTimeoutMs = options.publishTimeoutMs ?? 10_000;
  const declareOptions: Options.AssertQueue = { durable: true, ...(options.queueArguments ? { arguments: options.queueArguments } : {}) };
  let current: SendChannel | undefined;
  let opening: Promise<SendChannel> | undefined;
  let closing: Promise<void> | undefined;

  async function openChannel(model: ChannelModel): Promise<SendChannel> {
    const channel = await model.createConfirmChannel();
    const state: SendChannel = { model, channel, declared: new Map() };
    channel.on('error', (error: Error) => logger.warn({ err: error }, 'send channel error'));
    channel.on('close', () => {
      if (current === state) current = undefined;
    });
    current = state;
    return state;
  }

  /** The channel on `model`, opened once: callers arriving while it opens wait for that one. */
  async function channelFor(model: ChannelModel): Promise<SendChannel> {
    while (opening) await opening.catch(() => {});
    if (current?.model === model) return current;
    opening = openChannel(model);
    try {
      return await opening;
    } finally {
      opening = undefined;
    }
  }

  /** Declares `queue` on `state`'s channel once; a failed declaration is tried again by the next send. */
  function declare(state: SendChannel, queue: string): Promise<void> {
    let declaring = state.declared.get(queue);
    if (declaring === undefined) {
      declaring = state.channel.assertQueue(queue, declareOptions).then(() => {});
      declaring.catch(() => state.declared.delete(queue));
      state.declared.set(queue, declaring);
    }
    return declaring;
  }

  const connection: AmqpConnection = await openAmqpConnection({
    url: options.url,
    logger,
    connect: options.connect ?? defaultConnect,
    connectionName: options.connectionName ?? 'switchyard-queue-sender',
    backoff: reconnectBackoff(options.reconnect),
    onConnect: async (model) => {
      await channelFor(model);
    },
  });
  logger.info('connected to the broker');

  return {
    isConnected: () => connection.current() !== undefined,

    async send(queue, content, messageOptions = {}) {
      if (closing) throw new BusClosedError();
      if (queue === '') throw new TypeError('the queue name must not be empty');
      const deadline = Date.now() + publishTimeoutMs;
      const remaining = () => Math.max(1, deadline - Date.now());
      const model = await connection.waitForConnection(publishTimeoutMs);
      let state: SendChannel;
      try {
        state = await withTimeout(channelFor(model), remaining(), () => new PublishError(`no send channel within ${publishTimeoutMs} ms`));
        await withTimeout(
          declare(state, queue),
          remaining(),
          () => new PublishError(`queue ${queue} was not declared within ${publishTimeoutMs} ms`),
        );
      } catch (error) {
        if (error instanceof PublishError) throw error;
        throw new PublishError(`could not declare queue ${queue}: ${messageOf(error)}`, { cause: error });
      }
      await publishConfirmed(
        state.channel,
        [{ exchange: '', routingKey: queue, content, options: { ...messageOptions, persistent: true } }],
        remaining(),
      );
    },

    close(): Promise<void> {
      closing ??= (async () => {
        const state = current;
        current = undefined;
        await state?.channel.close().catch(() => {});
        await connection.close();
        logger.info('closed');
      })();
      return closing;
    },
  };
}
