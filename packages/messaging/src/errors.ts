/** Thrown by `publish` or `consume` once `close()` has been called on the bus. */
export class BusClosedError extends Error {
  constructor() {
    super('the message bus is closed');
    this.name = 'BusClosedError';
  }
}

/**
 * Thrown by `publish` when the broker did not confirm every message: a nack, the connection or channel
 * dropping before the confirm, no connection within the publish timeout, or no confirm within it.
 * Some messages of the batch may have been delivered anyway; the caller retries the whole batch
 * (at-least-once), which consumers absorb by deduplicating on the event id.
 */
export class PublishError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PublishError';
  }
}

/**
 * Thrown by `publish` and `appendToOutbox` when an event is not a valid `EventEnvelope`; nothing of the
 * batch is sent or stored. `index` is the position of the first bad event, `issues` what is wrong with it.
 */
export class InvalidEventError extends Error {
  readonly index: number;
  readonly issues: readonly string[];

  constructor(index: number, issues: readonly string[]) {
    super(`event #${index} is not a valid EventEnvelope: ${issues.join('; ')}`);
    this.name = 'InvalidEventError';
    this.index = index;
    this.issues = issues;
  }
}

/**
 * Thrown by the AMQP bus's `publish` and `consume` when there is no connection to the broker and none comes
 * back within `publishTimeoutMs`. A `PublishError`, so publishers handle both alike (retry later).
 */
export class BrokerUnavailableError extends PublishError {
  constructor(timeoutMs: number) {
    super(`no connection to the broker within ${timeoutMs} ms`);
    this.name = 'BrokerUnavailableError';
  }
}

/** Thrown by `consume` when a `ConsumerSpec` is malformed (empty queue name, bad pattern, attempts below 1, ...). */
export class InvalidConsumerSpecError extends Error {
  constructor(message: string) {
    super(`invalid consumer spec: ${message}`);
    this.name = 'InvalidConsumerSpecError';
  }
}

/**
 * Thrown by a handler (or `consumeEvents`) for an event no retry can help: an unknown type or payload version, or
 * a payload that fails its schema. The bus parks the message at once with reason `unprocessable-event` and this
 * message, instead of retrying it `maxAttempts` times.
 */
export class UnprocessableEventError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnprocessableEventError';
  }
}
