import type { EventEnvelope } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';
import type { ConsumerHandle, ConsumerSpec, EventHandler, MessageBus, ParkedReason } from './bus.ts';
import { describeError, type ResolvedConsumerSpec, resolveConsumerSpec, retryDelayFor } from './consumer-spec.ts';
import { assertValidEvents, decodeEvent, encodeEvent } from './envelope-codec.ts';
import { BusClosedError, UnprocessableEventError } from './errors.ts';
import { topicMatches } from './topic.ts';

/** A message the in-process bus gave up on (the stand-in for a `<queue>.parking` message). */
export interface ParkedMessage {
  /** The consumer queue it was parked from. */
  queue: string;
  /** The routing key it was published with. */
  routingKey: string;
  /** The raw body (UTF-8). */
  body: string;
  /** The event, when the body was a valid envelope. */
  event?: EventEnvelope;
  /** `max-attempts` (the handler kept failing), `invalid-envelope` (never reached a handler) or `unprocessable-event` (see `UnprocessableEventError`). */
  reason: ParkedReason;
  /** The last error (`Name: message`) or why the body is not an envelope. */
  error: string;
  /** Failed tries (0 for an invalid envelope). */
  attempts: number;
  parkedAt: Date;
}

/** The in-process bus, with what tests and the one-process launcher need on top of {@link MessageBus}. */
export interface InProcessBus extends MessageBus {
  /** Parked messages, oldest first, of one queue or of all. A copy: changing it changes nothing. */
  parked(queue?: string): ParkedMessage[];
  /**
   * Routes a raw body as if a foreign producer had published it straight to the exchange, without any check
   * (to exercise the parking of bodies that are not envelopes). Returns the number of queues it reached.
   */
  publishRaw(routingKey: string, body: string): number;
}

/** Options of {@link createInProcessBus}. */
export interface InProcessBusOptions {
  logger: Logger;
}

interface QueuedMessage {
  routingKey: string;
  body: string;
  /** Failed tries so far. */
  attempts: number;
}

interface LocalConsumer {
  spec: ResolvedConsumerSpec;
  handler: EventHandler;
  inFlight: Set<Promise<void>>;
}

interface LocalQueue {
  name: string;
  bindings: Set<string>;
  messages: QueuedMessage[];
  consumers: LocalConsumer[];
  nextConsumer: number;
  scheduled: boolean;
}

/**
 * A {@link MessageBus} inside one process, with the semantics of the AMQP one: topic routing (`*`, `#`),
 * one queue per consumer spec that keeps its bindings and buffers messages while no consumer is attached,
 * competing consumers on one queue, `prefetch` handlers at once per consumer, retries after
 * `retryDelaysMs`, parking after `maxAttempts` or for a body that is not an envelope. Events travel as
 * JSON, so handlers get a copy, never the publisher's object. `publish` resolves once the events are
 * queued (handlers run afterwards, never inside it). Nothing is durable: queued messages and pending retries
 * are lost with the process or at `close()`.
 */
export function createInProcessBus(options: InProcessBusOptions): InProcessBus {
  const logger = options.logger.child({ component: 'in-process-bus' });
  const queues = new Map<string, LocalQueue>();
  const parkedMessages: ParkedMessage[] = [];
  const retryTimers = new Set<NodeJS.Timeout>();
  let closed = false;
  let closing: Promise<void> | undefined;

  function route(routingKey: string, body: string): number {
    let reached = 0;
    for (const queue of queues.values()) {
      if ([...queue.bindings].some((pattern) => topicMatches(pattern, routingKey))) {
        queue.messages.push({ routingKey, body, attempts: 0 });
        schedule(queue);
        reached += 1;
      }
    }
    return reached;
  }

  function schedule(queue: LocalQueue): void {
    if (queue.scheduled || closed) return;
    queue.scheduled = true;
    setImmediate(() => {
      queue.scheduled = false;
      dispatch(queue);
    });
  }

  function dispatch(queue: LocalQueue): void {
    while (!closed && queue.messages.length > 0) {
      const consumer = pickConsumer(queue);
      if (!consumer) return;
      const message = queue.messages.shift();
      if (!message) return;
      const task = deliver(queue, consumer, message);
      consumer.inFlight.add(task);
      task.finally(() => {
        consumer.inFlight.delete(task);
        schedule(queue);
      });
    }
  }

  function pickConsumer(queue: LocalQueue): LocalConsumer | undefined {
    const count = queue.consumers.length;
    for (let i = 0; i < count; i++) {
      const consumer = queue.consumers[(queue.nextConsumer + i) % count];
      if (consumer && consumer.inFlight.size < consumer.spec.prefetch) {
        queue.nextConsumer = (queue.nextConsumer + i + 1) % count;
        return consumer;
      }
    }
    return undefined;
  }

  function park(queue: LocalQueue, message: QueuedMessage, entry: Omit<ParkedMessage, 'queue' | 'routingKey' | 'body' | 'parkedAt'>): void {
    parkedMessages.push({ queue: queue.name, routingKey: message.routingKey, body: message.body, parkedAt: new Date(), ...entry });
  }

  async function deliver(queue: LocalQueue, consumer: LocalConsumer, message: QueuedMessage): Promise<void> {
    const decoded = decodeEvent(Buffer.from(message.body, 'utf8'));
    if (!decoded.ok) {
      logger.warn(
        { queue: queue.name, routingKey: message.routingKey, reason: decoded.error },
        'message is not an event envelope; parking it',
      );
      park(queue, message, { reason: 'invalid-envelope', error: decoded.error, attempts: 0 });
      return;
    }
    const { event } = decoded;
    const attempt = message.attempts + 1;
    try {
      await consumer.handler(event, { attempt, queue: queue.name, redelivered: false });
    } catch (error) {
      const lastError = describeError(error);
      const unprocessable = error instanceof UnprocessableEventError;
      if (unprocessable || attempt >= consumer.spec.maxAttempts) {
        logger.error(
          { err: error, queue: queue.name, eventId: event.id, type: event.type, attempt },
          unprocessable ? 'event cannot be processed; parking' : 'handler failed for the last time; parking',
        );
        park(queue, message, {
          event,
          reason: unprocessable ? 'unprocessable-event' : 'max-attempts',
          error: lastError,
          attempts: attempt,
        });
        return;
      }
      if (closed) return;
      const delayMs = retryDelayFor(consumer.spec, attempt);
      logger.warn(
        { err: error, queue: queue.name, eventId: event.id, type: event.type, attempt, retryInMs: delayMs },
        'handler failed; retrying later',
      );
      const timer = setTimeout(() => {
        retryTimers.delete(timer);
        queue.messages.push({ ...message, attempts: attempt });
        schedule(queue);
      }, delayMs);
      retryTimers.add(timer);
    }
  }

  async function waitFor(consumers: readonly LocalConsumer[]): Promise<void> {
    await Promise.allSettled(consumers.flatMap((consumer) => [...consumer.inFlight]));
  }

  return {
    async publish(events: readonly EventEnvelope[]): Promise<void> {
      if (closed) throw new BusClosedError();
      assertValidEvents(events);
      for (const event of events) route(event.type, encodeEvent(event).toString('utf8'));
    },

    publishRaw(routingKey: string, body: string): number {
      if (closed) throw new BusClosedError();
      return route(routingKey, body);
    },

    async consume(spec: ConsumerSpec, handler: EventHandler): Promise<ConsumerHandle> {
      if (closed) throw new BusClosedError();
      const resolved = resolveConsumerSpec(spec);
      let queue = queues.get(resolved.queue);
      if (!queue) {
        queue = { name: resolved.queue, bindings: new Set(), messages: [], consumers: [], nextConsumer: 0, scheduled: false };
        queues.set(queue.name, queue);
      }
      for (const pattern of resolved.bindings) queue.bindings.add(pattern);
      const consumer: LocalConsumer = { spec: resolved, handler, inFlight: new Set() };
      queue.consumers.push(consumer);
      schedule(queue);
      const owner = queue;
      let cancelled: Promise<void> | undefined;
      return {
        queue: resolved.queue,
        cancel: () => {
          cancelled ??= (async () => {
            owner.consumers = owner.consumers.filter((c) => c !== consumer);
            await waitFor([consumer]);
          })();
          return cancelled;
        },
      };
    },

    parked(queue?: string): ParkedMessage[] {
      return parkedMessages.filter((message) => queue === undefined || message.queue === queue).map((message) => ({ ...message }));
    },

    close(): Promise<void> {
      closing ??= (async () => {
        closed = true;
        for (const timer of retryTimers) clearTimeout(timer);
        retryTimers.clear();
        const all = [...queues.values()].flatMap((queue) => queue.consumers);
        for (const queue of queues.values()) queue.consumers = [];
        await waitFor(all);
      })();
      return closing;
    },
  };
}
