import { DOMAIN_EVENTS_EXCHANGE, type EventEnvelope } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';
import amqplib, { type ChannelModel, type ConfirmChannel } from 'amqplib';
import { type AmqpConnect, type AmqpConnection, openAmqpConnection } from './amqp-connection.ts';
import { type AmqpConsumer, createAmqpConsumer } from './amqp-consumer.ts';
import { publishConfirmed } from './amqp-publish.ts';
import { declareExchanges } from './amqp-topology.ts';
import type { BackoffOptions } from './backoff.ts';
import type { ConsumerHandle, ConsumerSpec, EventHandler, MessageBus } from './bus.ts';
import { resolveConsumerSpec } from './consumer-spec.ts';
import { assertValidEvents, encodeEvent } from './envelope-codec.ts';
import { BusClosedError, PublishError } from './errors.ts';

/** Reconnection back-off of the AMQP bus (connection and consumer channels). */
export interface ReconnectOptions {
  /** First delay, ms. Default 200. */
  initialDelayMs?: number;
  /** Cap, ms. Default 30 000. */
  maxDelayMs?: number;
  /** Growth per failed try. Default 2. */
  factor?: number;
  /** Random spread, fraction of the delay. Default 0.2. */
  jitter?: number;
}

/** {@link ReconnectOptions} with their defaults filled in: the back-off of every AMQP connection of this package. */
export function reconnectBackoff(reconnect: ReconnectOptions = {}): BackoffOptions {
  return {
    initialDelayMs: reconnect.initialDelayMs ?? 200,
    maxDelayMs: reconnect.maxDelayMs ?? 30_000,
    factor: reconnect.factor ?? 2,
    jitter: reconnect.jitter ?? 0.2,
  };
}

/** Options of {@link createAmqpBus}. */
export interface AmqpBusOptions {
  /** `amqp://user:pass@host:5672/vhost` (or `amqps://`). */
  url: string;
  /** The durable topic exchange of domain events. Default `DOMAIN_EVENTS_EXCHANGE` (`switchyard.events`). */
  exchange?: string;
  /** Where the bus logs (connection changes, retries, parked messages; never message bodies). */
  logger: Logger;
  reconnect?: ReconnectOptions;
  /**
   * Bound on one `publish` call in ms, waiting for a reconnection during an outage included, and on
   * forwarding one message to a retry or parking queue. Default 10 000.
   */
  publishTimeoutMs?: number;
  /** Bound on waiting for handlers in flight in `close()` / `cancel()`, ms. Default 10 000. */
  closeTimeoutMs?: number;
  /** Name of the connection in the broker's management UI. Default `switchyard`. */
  connectionName?: string;
  /** Opens the connection; default amqplib's `connect`. Tests wrap it to get hold of the socket. */
  connect?: AmqpConnect;
  /**
   * Start without the broker: when the first connection fails, `createAmqpBus` resolves anyway and keeps trying in
   * the background with the `reconnect` back-off, as after a lost connection. Meanwhile `isConnected()` is false,
   * `publish` waits up to `publishTimeoutMs` and rejects with `BrokerUnavailableError`, and `consume` registers the
   * consumer and resolves at once; it starts consuming when the connection comes. Default false: the first
   * connection's error is thrown (fail fast).
   */
  waitForBroker?: boolean;
}

/** The RabbitMQ message bus. */
export interface AmqpBus extends MessageBus {
  /** Whether the bus has a connection right now (for `/readyz`). */
  isConnected(): boolean;
}

const defaultConnect: AmqpConnect = (url, socketOptions) => amqplib.connect(url, socketOptions);

/**
 * Connects to RabbitMQ and returns a {@link MessageBus} on it: one connection; a confirm channel for
 * publishing; per consumer its own confirm channel with prefetch, a quorum queue with an explicit
 * `x-delivery-limit` dead-lettering to `<queue>.parking`, retry queues with message TTL dead-lettering
 * back to it, and the parking queue (see `declareConsumerTopology`). When the connection or a channel
 * drops it reconnects with capped exponential back-off, redeclares the topology and restarts consumers;
 * `publish` during an outage waits for the reconnection up to `publishTimeoutMs`, then rejects.
 * With `waitForBroker` an unreachable broker at start is an outage like any other (see {@link AmqpBusOptions.waitForBroker}).
 * @throws the connection error when the broker cannot be reached at start, unless `waitForBroker` (fail fast)
 */
export async function createAmqpBus(options: AmqpBusOptions): Promise<AmqpBus> {
  const exchange = options.exchange ?? DOMAIN_EVENTS_EXCHANGE;
  const logger = options.logger.child({ component: 'amqp-bus', exchange });
  const publishTimeoutMs = options.publishTimeoutMs ?? 10_000;
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  const backoff = reconnectBackoff(options.reconnect);
  const consumers = new Set<AmqpConsumer>();
  let publishChannel: { model: ChannelModel; channel: ConfirmChannel } | undefined;
  let openingPublishChannel: Promise<ConfirmChannel> | undefined;
  let closing: Promise<void> | undefined;

  async function openPublishChannel(model: ChannelModel): Promise<ConfirmChannel> {
    const channel = await model.createConfirmChannel();
    channel.on('error', (error: Error) => logger.warn({ err: error }, 'publish channel error'));
    channel.on('close', () => {
      if (publishChannel?.channel === channel) publishChannel = undefined;
    });
    await declareExchanges(channel, exchange);
    publishChannel = { model, channel };
    return channel;
  }

  async function publishChannelFor(model: ChannelModel): Promise<ConfirmChannel> {
    while (openingPublishChannel) await openingPublishChannel.catch(() => {});
    if (publishChannel?.model === model) return publishChannel.channel;
    openingPublishChannel = openPublishChannel(model);
    try {
      return await openingPublishChannel;
    } finally {
      openingPublishChannel = undefined;
    }
  }

  const connection: AmqpConnection = await openAmqpConnection({
    url: options.url,
    logger,
    connect: options.connect ?? defaultConnect,
    connectionName: options.connectionName ?? 'switchyard',
    backoff,
    retryFirstConnection: options.waitForBroker ?? false,
    async onConnect(model) {
      await publishChannelFor(model);
      for (const consumer of consumers) {
        await consumer.ensureStarted(model).catch((error: unknown) => {
          logger.warn({ err: error, queue: consumer.queue }, 'could not restore a consumer after reconnecting; retrying it');
          consumer.retryLater();
        });
      }
    },
  });
  if (connection.current()) logger.info('connected to the broker');

  function consumerConnection(): ChannelModel | undefined {
    return connection.current();
  }

  return {
    isConnected: () => connection.current() !== undefined,

    async publish(events: readonly EventEnvelope[]): Promise<void> {
      if (closing) throw new BusClosedError();
      assertValidEvents(events);
      if (events.length === 0) return;
      const deadline = Date.now() + publishTimeoutMs;
      const model = await connection.waitForConnection(publishTimeoutMs);
      let channel: ConfirmChannel;
      try {
        channel = await publishChannelFor(model);
      } catch (error) {
        throw new PublishError('could not open a publish channel', { cause: error });
      }
      await publishConfirmed(
        channel,
        events.map((event) => ({
          exchange,
          routingKey: event.type,
          content: encodeEvent(event),
          options: {
            persistent: true,
            messageId: event.id,
            type: event.type,
            contentType: 'application/json',
            timestamp: Math.floor(Date.parse(event.time) / 1000),
            appId: event.source,
          },
        })),
        Math.max(1, deadline - Date.now()),
      );
      logger.debug({ count: events.length }, 'published');
    },

    async consume(spec: ConsumerSpec, handler: EventHandler): Promise<ConsumerHandle> {
      if (closing) throw new BusClosedError();
      const resolved = resolveConsumerSpec(spec);
      const consumer = createAmqpConsumer({
        exchange,
        spec: resolved,
        handler,
        logger,
        backoff,
        publishTimeoutMs,
        stopTimeoutMs: closeTimeoutMs,
        connection: consumerConnection,
      });
      // Registered first, so a reconnection while it starts restores it too.
      consumers.add(consumer);
      const cancel = async () => {
        consumers.delete(consumer);
        await consumer.stop();
      };
      if (options.waitForBroker && !connection.current()) {
        // Started by the (re)connection's onConnect; this wait covers a connection that completes right after the
        // check above, whose onConnect may have run before the consumer was registered (ensureStarted is idempotent).
        connection
          .waitForConnection()
          .then((model) => consumer.ensureStarted(model))
          .catch((error: unknown) => {
            if (error instanceof BusClosedError || closing) return;
            logger.warn({ err: error, queue: consumer.queue }, 'could not start a consumer after connecting; retrying it');
            consumer.retryLater();
          });
        logger.info({ queue: resolved.queue }, 'consumer registered; it starts once the broker is reachable');
        return { queue: resolved.queue, cancel };
      }
      try {
        await consumer.ensureStarted(await connection.waitForConnection(publishTimeoutMs));
      } catch (error) {
        consumers.delete(consumer);
        await consumer.stop();
        throw error;
      }
      return { queue: resolved.queue, cancel };
    },

    close(): Promise<void> {
      closing ??= (async () => {
        await Promise.all([...consumers].map((consumer) => consumer.stop()));
        consumers.clear();
        const channel = publishChannel?.channel;
        publishChannel = undefined;
        await channel?.close().catch(() => {});
        await connection.close();
        logger.info('closed');
      })();
      return closing;
    },
  };
}
