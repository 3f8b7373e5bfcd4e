import { createAmqpQueueSender } from '@switchyard/messaging';
import { type Logger, ServiceUnavailable } from '@switchyard/service-kit';
import { ENQUEUE_QUEUE_FULL } from '../work-bundle/enqueue-messages.ts';

/** Where enqueued work bundles go: the durable queue of each client place. */
export interface WorkQueue {
  /**
   * Sends `body` (a work bundle as JSON) durably to `queue` and resolves once the broker confirmed it.
   * @throws ServiceUnavailable (`WorkSpaceClientEnqueWorker failed, queue full`, answered 503) when there is no broker,
   *   or it did not confirm in time
   */
  publish(queue: string, body: Buffer): Promise<void>;
  /** Closes the connection to the broker, if any. */
  close(): Promise<void>;
}

/** Bound on one enqueue, waiting for a reconnection during an outage included, in ms. */
export const ENQUEUE_TIMEOUT_MS = 5_000;

const queueFull = (cause?: unknown) => new ServiceUnavailable(ENQUEUE_QUEUE_FULL, cause === undefined ? {} : { cause });

/** A {@link WorkQueue} that refuses every bundle (no `AMQP_URL`). */
export const noWorkQueue: WorkQueue = {
  publish: () => Promise.reject(queueFull()),
  close: async () => {},
};

/**
 * The work queue on RabbitMQ at `url` (no `url`: {@link noWorkQueue}): `@switchyard/messaging`'s queue sender, which
 * declares each client place's queue durable, sends bundles persistent as `application/json` with publisher confirms,
 * and reconnects after a drop (an enqueue during an outage waits up to {@link ENQUEUE_TIMEOUT_MS}).
 * @throws the connection error when the broker cannot be reached at start
 */
export async function openWorkQueue(url: string | undefined, logger: Logger): Promise<WorkQueue> {
  if (url === undefined) return noWorkQueue;
  const sender = await createAmqpQueueSender({ url, logger, publishTimeoutMs: ENQUEUE_TIMEOUT_MS, connectionName: 'peer-svc work queue' });
  return {
    publish: (queue, body) =>
      sender.send(queue, body, { contentType: 'application/json' }).catch((error: unknown) => {
        throw queueFull(error);
      }),
    close: () => sender.close(),
  };
}
