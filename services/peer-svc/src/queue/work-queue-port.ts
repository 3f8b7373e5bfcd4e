import { ServiceUnavailable } from '@switchyard/service-kit';
import { ENQUEUE_QUEUE_FULL } from '../work-bundle/enqueue-messages.ts';

/** A work bundle as it sat on a client place's queue. */
export interface QueuedBundle {
  /** The bundle as JSON (UTF-8), as it was enqueued. */
  body: Buffer;
  /** When it was enqueued (RabbitMQ: to the second), if known. */
  enqueuedAt: Date | undefined;
}

/** Where enqueued work bundles go: the queue of each client place, on RabbitMQ or in the database. */
export interface WorkQueue {
  /** `rabbitmq` (AMQP_URL) or `database` (the `peer.work_bundle` table). */
  readonly kind: 'rabbitmq' | 'database';
  /**
   * Stores `body` (a work bundle as JSON) durably on `queue` and resolves once it is: confirmed by the broker, or
   * committed.
   * @throws ServiceUnavailable (`WorkSpaceClientEnqueWorker failed, queue full`, answered 503) when the broker did not
   *   confirm in time, or the queue in the database holds its limit already
   */
  publish(queue: string, body: Buffer): Promise<void>;
  /**
   * Takes up to `max` bundles off `queue`, oldest first: they are removed from it. An unknown or empty queue gives `[]`.
   * @throws ServiceUnavailable (503) when the broker cannot be read within {@link ENQUEUE_TIMEOUT_MS}
   */
  take(queue: string, max: number): Promise<QueuedBundle[]>;
  /** Closes the connections to the broker, if any. */
  close(): Promise<void>;
}

/** Bound on one enqueue or take on RabbitMQ, waiting for a reconnection during an outage included, in ms. */
export const ENQUEUE_TIMEOUT_MS = 5_000;

/** Body of the 503 when a client place's queue on the broker cannot be read. */
export const QUEUE_UNAVAILABLE = 'Client place queue unavailable';

/** The 503 of an enqueue the queue did not take. */
export const queueFull = (cause?: unknown) => new ServiceUnavailable(ENQUEUE_QUEUE_FULL, cause === undefined ? {} : { cause });
