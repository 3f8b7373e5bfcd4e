import { type Logger, ServiceUnavailable } from '@switchyard/service-kit';
import type { PeerDb } from '../db/schema.ts';
import { ENQUEUE_QUEUE_FULL } from './enqueue-messages.mapper.ts';
import * as bundles from './work-bundle.repository.ts';
import { openAmqpWorkQueue } from './work-queue.client.ts';

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
   * @throws ServiceUnavailable (503 {@link QUEUE_UNAVAILABLE}) when the broker cannot be read within {@link ENQUEUE_TIMEOUT_MS}
   */
  take(queue: string, max: number): Promise<QueuedBundle[]>;
  /** Closes the connections to the broker, if any. */
  close(): Promise<void>;
}

/** Bound on one enqueue or take on RabbitMQ, waiting for a reconnection during an outage included, in ms. */
export const ENQUEUE_TIMEOUT_MS = 5_000;

/** Body of the 503 when a client place's queue on the broker cannot be read. */
export const QUEUE_UNAVAILABLE = 'Client place queue unavailable';

/** The 503 of an enqueue the queue did not take (upstream's answer when its queue refused a bundle). */
const queueFull = (cause?: unknown) => new ServiceUnavailable(ENQUEUE_QUEUE_FULL, cause === undefined ? {} : { cause });

/** Options of {@link openWorkQueue}. */
export interface WorkQueueOptions {
  /** RabbitMQ URL; unset: the database queue. */
  amqpUrl: string | undefined;
  /** The `peer` schema's handle, for the database queue. */
  db: PeerDb;
  /** Most bundles one queue holds in the database (`WORK_QUEUE_LIMIT`). */
  databaseLimit: number;
  logger: Logger;
}

/**
 * The work queue without a broker: each bundle a row of `peer.work_bundle` (queue, JSON text, enqueue time), committed
 * before the enqueue is answered, so nothing accepted is lost when the process stops; oldest first. `publish` counts and
 * inserts under the queue's advisory lock, so a queue never holds more than `limit` bundles; `take` deletes what it
 * returns in one statement. Works on PostgreSQL and on embedded PGlite alike.
 */
function databaseWorkQueue(db: PeerDb, limit: number): WorkQueue {
  return {
    kind: 'database',
    publish: async (queue, body) => {
      await db.transaction().execute(async (trx) => {
        await bundles.lockQueue(trx, queue);
        if ((await bundles.countBundles(trx, queue)) >= limit) throw queueFull();
        await bundles.insertBundle(trx, queue, body.toString('utf8'));
      });
    },
    take: async (queue, max) =>
      (await bundles.deleteOldestBundles(db, queue, max)).map((bundle) => ({
        body: Buffer.from(bundle.body, 'utf8'),
        enqueuedAt: bundle.enqueuedAt,
      })),
    close: async () => {},
  };
}

/**
 * The work queue: on RabbitMQ at `amqpUrl` (`work-queue.client.ts`: each client place's queue declared durable, bundles
 * persistent as `application/json` with their enqueue time, publisher confirms, reconnection after a drop: an enqueue
 * during an outage waits up to {@link ENQUEUE_TIMEOUT_MS}); without `amqpUrl`, durable rows of `peer.work_bundle`.
 * @throws the connection error when the broker cannot be reached at start
 */
export async function openWorkQueue(options: WorkQueueOptions): Promise<WorkQueue> {
  const { amqpUrl: url, logger } = options;
  if (url === undefined) return databaseWorkQueue(options.db, options.databaseLimit);
  const amqp = await openAmqpWorkQueue({ url, logger, timeoutMs: ENQUEUE_TIMEOUT_MS });
  return {
    kind: 'rabbitmq',
    publish: (queue, body) =>
      amqp.publish(queue, body).catch((error: unknown) => {
        throw queueFull(error);
      }),
    take: (queue, max) =>
      amqp.take(queue, max).catch((error: unknown) => {
        throw new ServiceUnavailable(QUEUE_UNAVAILABLE, { cause: error });
      }),
    close: () => amqp.close(),
  };
}
