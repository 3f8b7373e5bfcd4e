import { ScanRequestedEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import type { PipelineDeps } from '../pipeline/run.service.ts';
import { scanBatch } from './fan-out.service.ts';

/**
 * Consumes, on `queue`, `release_notification.scan_requested`: each batch of a notification's fan-out through the
 * pipeline (`scanBatch`), `prefetch` at a time, `maxAttempts` attempts, the last of which records the configs still
 * unread as failed (not through `handleOnce`: a batch is resumable, its results kept per config, and may take several
 * attempts).
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeFanOut(
  bus: MessageBus,
  deps: PipelineDeps,
  options: { queue: string; prefetch: number; maxAttempts: number },
): Promise<ConsumerHandle> {
  return consumeEvents(
    bus,
    { queue: options.queue, events: [ScanRequestedEvent], prefetch: options.prefetch, maxAttempts: options.maxAttempts },
    (event, context) => scanBatch(deps, event.data, context.attempt >= options.maxAttempts),
  );
}
