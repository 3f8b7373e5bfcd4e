import type { EventEnvelope } from '@switchyard/contracts';

/**
 * What one consumer reads and how it retries. The queue is durable and outlives the process: bindings
 * accumulate (one removed from the list stays bound until someone unbinds it by hand).
 */
export interface ConsumerSpec {
  /** Queue name, unique per consumer group across the system, e.g. `release-svc.config-read-model`. Letters, digits, `.`, `_`, `-`, `:`; at most 200 characters. */
  queue: string;
  /** Topic patterns bound to the events exchange, e.g. `['update_config.*', 'repo.#']` (`*` one word, `#` zero or more). */
  bindings: readonly string[];
  /** Deliveries in flight at once (handlers run concurrently up to this). Default 10. */
  prefetch?: number;
  /** Tries per message before it is parked, counting the first. Default 5. */
  maxAttempts?: number;
  /**
   * Delays before retry 1, 2, 3, ... in ms; the last one repeats. Default `[1000, 5000, 30000]`.
   * On RabbitMQ each distinct delay is a queue `<queue>.retry.<ms>ms`, so keep the list short.
   */
  retryDelaysMs?: readonly number[];
  /**
   * RabbitMQ only: the quorum queue's `x-delivery-limit`, i.e. how often one message may go back to the
   * queue without an ack (consumer crashed or lost its connection mid-handler) before the broker parks it.
   * This is the guard against messages that kill the process; handler errors are counted by `maxAttempts`.
   * Default 20. Fixed when the queue is first declared.
   */
  deliveryLimit?: number;
}

/** What a handler learns about the delivery besides the event. */
export interface DeliveryContext {
  /** 1 on the first try, 2 on the first retry, ... at most `maxAttempts`. */
  attempt: number;
  /** The queue that delivered the message. */
  queue: string;
  /**
   * True when the broker delivers the message again because an earlier delivery was never acked
   * (connection lost): the work may already have been done, so the handler must be idempotent anyway.
   */
  redelivered: boolean;
}

/**
 * Handles one event. Resolving acks the message; throwing (or rejecting) schedules a retry after the
 * configured delay, and after `maxAttempts` tries parks the message with the error. Must be idempotent:
 * delivery is at-least-once (see `handleOnce`).
 */
export type EventHandler = (event: EventEnvelope, context: DeliveryContext) => Promise<void>;

/**
 * Why a message was parked: `max-attempts` (the handler kept failing), `invalid-envelope` (the body is not an
 * event envelope; it never reached a handler) or `unprocessable-event` (the handler threw `UnprocessableEventError`).
 * On RabbitMQ it is the parked message's `x-parked-reason` header.
 */
export type ParkedReason = 'max-attempts' | 'invalid-envelope' | 'unprocessable-event';

/** A running consumer. */
export interface ConsumerHandle {
  /** The consumer's queue name. */
  readonly queue: string;
  /** Stops deliveries, waits for handlers in flight, releases the channel. The queue and its messages stay. Idempotent. */
  cancel(): Promise<void>;
}

/**
 * The message bus port: domain events in, domain events out, at-least-once.
 *
 * Implementations: `createAmqpBus` (RabbitMQ) and `createInProcessBus` (one process, nothing durable).
 */
export interface MessageBus {
  /**
   * Publishes events to the events exchange, routing key = `event.type`. Resolves once the broker has
   * confirmed every one of them (persisted for durable queues).
   * @throws InvalidEventError when an event is not a valid envelope (nothing is sent)
   * @throws PublishError when any message is nacked, the connection drops before its confirm, or the
   *   publish timeout passes; retry the batch (consumers deduplicate on `id`)
   * @throws BusClosedError after `close()`
   */
  publish(events: readonly EventEnvelope[]): Promise<void>;
  /**
   * Declares the consumer's queues (idempotently), binds them and starts delivering to `handler`.
   * Messages whose body is not a valid `EventEnvelope` go to the parking queue without reaching the handler.
   * @throws InvalidConsumerSpecError for a malformed spec
   * @throws BrokerUnavailableError (AMQP) when there is no connection within the publish timeout
   * @throws BusClosedError after `close()`
   * @throws the broker's error when the topology cannot be declared (e.g. the queue exists with other arguments)
   */
  consume(spec: ConsumerSpec, handler: EventHandler): Promise<ConsumerHandle>;
  /** Cancels all consumers, waits for handlers in flight, then releases connections and timers. Idempotent. */
  close(): Promise<void>;
}
