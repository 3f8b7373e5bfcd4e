import type { Logger } from '@switchyard/service-kit';
import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { publishConfirmed } from './amqp-publish.ts';
import { consumerTopology, declareConsumerTopology, retryQueueName } from './amqp-topology.ts';
import { type BackoffOptions, backoffDelay, withTimeout } from './backoff.ts';
import type { EventHandler, ParkedReason } from './bus.ts';
import { describeError, type ResolvedConsumerSpec, retryDelayFor } from './consumer-spec.ts';
import { decodeEvent } from './envelope-codec.ts';
import { UnprocessableEventError } from './errors.ts';

/** Header with the number of failed tries so far (set on messages sent to retry and parking queues). */
export const ATTEMPTS_HEADER = 'x-attempts';
/** Header with the last handler error (`Name: message`, at most 1000 characters) on retried and parked messages. */
export const LAST_ERROR_HEADER = 'x-last-error';
/** Header on parked messages: `max-attempts`, `invalid-envelope` or `unprocessable-event` (a {@link ParkedReason}). */
export const PARKED_REASON_HEADER = 'x-parked-reason';
/** Header on retried and parked messages: the routing key the message was first published with. */
export const ORIGINAL_ROUTING_KEY_HEADER = 'x-original-routing-key';

/** What a consumer needs from the bus. */
export interface AmqpConsumerOptions {
  exchange: string;
  spec: ResolvedConsumerSpec;
  handler: EventHandler;
  logger: Logger;
  backoff: BackoffOptions;
  /** Bound on forwarding one message to a retry or parking queue (publish + confirm). */
  publishTimeoutMs: number;
  /** Bound on waiting for handlers in flight when stopping. */
  stopTimeoutMs: number;
  /** The bus's current connection, or undefined during an outage. */
  connection: () => ChannelModel | undefined;
}

/** One consumer on its own confirm channel; survives channel and connection loss when driven by the bus. */
export interface AmqpConsumer {
  readonly queue: string;
  /**
   * Declares the topology on `model`, sets prefetch and starts consuming, unless already consuming on it.
   * @throws the broker's error (the channel is closed then)
   */
  ensureStarted(model: ChannelModel): Promise<void>;
  /** Schedules another start after a back-off delay (after `ensureStarted` failed). */
  retryLater(): void;
  /** Cancels the consumer, waits (bounded) for handlers in flight, closes the channel. Idempotent. */
  stop(): Promise<void>;
}

function attemptsSoFar(message: ConsumeMessage): number {
  const value = Number(message.properties.headers?.[ATTEMPTS_HEADER] ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** Properties a forwarded copy keeps (not `expiration`, which would race the retry TTL, nor `userId`, which the broker checks). */
function forwardedProperties(message: ConsumeMessage, headers: Record<string, unknown>): Options.Publish {
  const p = message.properties;
  const { 'x-delivery-count': _deliveryCount, ...kept } = (p.headers ?? {}) as Record<string, unknown>;
  return {
    persistent: true,
    contentType: p.contentType,
    contentEncoding: p.contentEncoding,
    correlationId: p.correlationId,
    messageId: p.messageId,
    timestamp: p.timestamp,
    type: p.type,
    appId: p.appId,
    headers: {
      ...kept,
      [ORIGINAL_ROUTING_KEY_HEADER]: kept[ORIGINAL_ROUTING_KEY_HEADER] ?? message.fields.routingKey,
      ...headers,
    },
  };
}

/**
 * Creates a consumer (not yet started). Per delivery: a body that is not an `EventEnvelope` is forwarded
 * to `<queue>.parking`; otherwise the handler runs; on success the message is acked; on failure it is
 * forwarded to the retry queue for the next delay (or to parking after `maxAttempts` tries) with
 * `x-attempts` and `x-last-error`, and the original acked only once the broker confirmed the copy.
 * If forwarding fails the original is requeued (the quorum queue's delivery limit bounds that loop).
 */
export function createAmqpConsumer(options: AmqpConsumerOptions): AmqpConsumer {
  const { spec, handler, exchange } = options;
  const topology = consumerTopology(exchange, spec);
  const logger = options.logger.child({ queue: spec.queue });
  let channel: ConfirmChannel | undefined;
  let channelModel: ChannelModel | undefined;
  let consumerTag: string | undefined;
  let starting: Promise<void> | undefined;
  let restartTimer: NodeJS.Timeout | undefined;
  let failures = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();

  function settle(ch: ConfirmChannel, message: ConsumeMessage, how: 'ack' | 'requeue'): void {
    try {
      if (how === 'ack') ch.ack(message);
      else ch.nack(message, false, true);
    } catch (error) {
      // The channel is gone: the broker requeues the message itself.
      logger.debug({ err: error, messageId: message.properties.messageId }, 'could not settle a delivery; the broker will redeliver it');
    }
  }

  async function forward(ch: ConfirmChannel, message: ConsumeMessage, target: string, headers: Record<string, unknown>): Promise<void> {
    try {
      await publishConfirmed(
        ch,
        [
          {
            exchange: topology.deadLetterExchange,
            routingKey: target,
            content: message.content,
            options: forwardedProperties(message, headers),
          },
        ],
        options.publishTimeoutMs,
      );
      settle(ch, message, 'ack');
    } catch (error) {
      logger.error({ err: error, messageId: message.properties.messageId, target }, 'could not forward a message; requeueing it');
      settle(ch, message, 'requeue');
    }
  }

  async function handle(ch: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const decoded = decodeEvent(message.content);
    if (!decoded.ok) {
      logger.warn(
        { messageId: message.properties.messageId, routingKey: message.fields.routingKey, reason: decoded.error },
        'message is not an event envelope; parking it',
      );
      await forward(ch, message, topology.parking, { [PARKED_REASON_HEADER]: 'invalid-envelope', [LAST_ERROR_HEADER]: decoded.error });
      return;
    }
    const { event } = decoded;
    const attempt = attemptsSoFar(message) + 1;
    try {
      await handler(event, { attempt, queue: spec.queue, redelivered: message.fields.redelivered });
    } catch (error) {
      const lastError = describeError(error);
      const common = { [ATTEMPTS_HEADER]: attempt, [LAST_ERROR_HEADER]: lastError };
      const unprocessable = error instanceof UnprocessableEventError;
      if (unprocessable || attempt >= spec.maxAttempts) {
        const reason: ParkedReason = unprocessable ? 'unprocessable-event' : 'max-attempts';
        logger.error({ err: error, eventId: event.id, type: event.type, attempt, reason }, 'parking the message');
        await forward(ch, message, topology.parking, { ...common, [PARKED_REASON_HEADER]: reason });
      } else {
        const delayMs = retryDelayFor(spec, attempt);
        logger.warn({ err: error, eventId: event.id, type: event.type, attempt, retryInMs: delayMs }, 'handler failed; retrying later');
        await forward(ch, message, retryQueueName(topology, delayMs), common);
      }
      return;
    }
    settle(ch, message, 'ack');
  }

  function onMessage(ch: ConfirmChannel, message: ConsumeMessage | null): void {
    if (message === null) {
      // The broker cancelled us (queue deleted): drop the channel; the restart redeclares the queue.
      logger.warn('consumer cancelled by the broker; restarting it');
      ch.close().catch(() => {});
      return;
    }
    const task = handle(ch, message).catch((error: unknown) => logger.error({ err: error }, 'unexpected error while handling a delivery'));
    inFlight.add(task);
    task.finally(() => inFlight.delete(task));
  }

  function onChannelClosed(ch: ConfirmChannel): void {
    if (ch !== channel) return;
    channel = undefined;
    channelModel = undefined;
    consumerTag = undefined;
    if (stopped) return;
    logger.warn('consumer channel closed; reopening it (after the reconnection when the connection is down)');
    scheduleRestart();
  }

  function scheduleRestart(): void {
    if (stopped || restartTimer) return;
    failures += 1;
    restartTimer = setTimeout(
      () => {
        restartTimer = undefined;
        const model = options.connection();
        // Without a connection the bus restarts every consumer once it has reconnected.
        if (!model || stopped) return;
        ensureStarted(model).catch((error: unknown) => {
          logger.warn({ err: error, attempt: failures }, 'could not restart the consumer; trying again');
          scheduleRestart();
        });
      },
      backoffDelay(failures, options.backoff),
    );
  }

  async function start(model: ChannelModel): Promise<void> {
    const ch = await model.createConfirmChannel();
    ch.on('error', (error: Error) => logger.warn({ err: error }, 'consumer channel error'));
    ch.on('close', () => onChannelClosed(ch));
    try {
      await declareConsumerTopology(ch, topology, spec);
      await ch.prefetch(spec.prefetch);
      channel = ch;
      channelModel = model;
      const reply = await ch.consume(spec.queue, (message) => onMessage(ch, message), { noAck: false });
      consumerTag = reply.consumerTag;
      failures = 0;
      logger.info({ bindings: spec.bindings, prefetch: spec.prefetch }, 'consuming');
    } catch (error) {
      if (channel === ch) {
        channel = undefined;
        channelModel = undefined;
      }
      await ch.close().catch(() => {});
      throw error;
    }
  }

  async function ensureStarted(model: ChannelModel): Promise<void> {
    while (starting) await starting.catch(() => {});
    if (stopped || (channel && channelModel === model)) return;
    clearTimeout(restartTimer);
    restartTimer = undefined;
    starting = start(model);
    try {
      await starting;
    } finally {
      starting = undefined;
    }
  }

  let stopping: Promise<void> | undefined;
  async function stop(): Promise<void> {
    stopped = true;
    clearTimeout(restartTimer);
    while (starting) await starting.catch(() => {});
    const ch = channel;
    if (ch && consumerTag) await ch.cancel(consumerTag).catch(() => {});
    if (inFlight.size > 0) {
      await withTimeout(Promise.allSettled([...inFlight]), options.stopTimeoutMs, () => new Error('handlers still running')).catch(() =>
        logger.warn({ running: inFlight.size }, 'handlers still running at stop; their messages will be redelivered'),
      );
    }
    channel = undefined;
    channelModel = undefined;
    await ch?.close().catch(() => {});
  }

  return {
    queue: spec.queue,
    ensureStarted,
    retryLater: scheduleRestart,
    stop: () => {
      stopping ??= stop();
      return stopping;
    },
  };
}
