import { UpdateRunRequestedEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import { executeRun, type PipelineDeps } from './run.service.ts';

/**
 * Consumes, on `queue`, `update_run.requested` (a schedule slot, the registry watch, "bump now"): each run through the
 * pipeline (`executeRun`), `prefetch` at a time, `maxAttempts` attempts (a run is resumable: its dependencies are
 * decided once each; the last attempt fails a run whose files the code host still does not give).
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumeUpdateRuns(
  bus: MessageBus,
  deps: PipelineDeps,
  options: { queue: string; prefetch: number; maxAttempts: number },
): Promise<ConsumerHandle> {
  return consumeEvents(
    bus,
    { queue: options.queue, events: [UpdateRunRequestedEvent], prefetch: options.prefetch, maxAttempts: options.maxAttempts },
    (event, context) => executeRun(deps, event.data.id, context.attempt >= options.maxAttempts),
  );
}
