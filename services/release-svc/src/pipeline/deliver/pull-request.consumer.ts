import { PullRequestJobCreatedEvent } from '@switchyard/contracts';
import { type ConsumerHandle, consumeEvents, type MessageBus } from '@switchyard/messaging';
import { executeJob, type JobExecutorDeps } from './pull-request.service.ts';

/**
 * Consumes, on `queue`, the worker's own `pull_request_job.created`: the deliver stage turns each job into a pull
 * request (`executeJob`), `prefetch` at a time, `maxAttempts` attempts.
 * @returns the consumer, to cancel on shutdown
 * @throws what `MessageBus.consume` throws
 */
export function consumePullRequestJobs(
  bus: MessageBus,
  deps: JobExecutorDeps,
  options: { queue: string; prefetch: number; maxAttempts: number },
): Promise<ConsumerHandle> {
  return consumeEvents(
    bus,
    { queue: options.queue, events: [PullRequestJobCreatedEvent], prefetch: options.prefetch, maxAttempts: options.maxAttempts },
    (event, context) => executeJob(deps, event.data.id, context.attempt >= options.maxAttempts),
  );
}
