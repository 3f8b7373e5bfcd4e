import type { CodeHost, CodeHostTokens } from '@switchyard/code-host';
import type { ConsumerHandle, MessageBus } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { AdvisoryLookup } from './advisories/advisory-source.service.ts';
import type { ReleaseConfig } from './config.ts';
import { consumeConfigState } from './config-changes/config-change.consumer.ts';
import type { ReleaseDatabase } from './db/schema.ts';
import { consumeFanOut } from './notifications/fan-out.consumer.ts';
import { consumeNotifications } from './notifications/notification.consumer.ts';
import { consumePullRequestJobs } from './pipeline/deliver/pull-request.consumer.ts';
import type { RegistryAccess } from './pipeline/resolve/registry-access.client.ts';
import { consumeUpdateRuns } from './pipeline/update-run.consumer.ts';

/** The worker's consumers, each on its queue `<QUEUE_PREFIX>.<name>` (with its parking and retry queues). */
export const RELEASE_CONSUMERS = ['read-model', 'notifications', 'scans', 'update-runs'] as const;

/** The consumer of the worker's own `pull_request_job.created` (`<QUEUE_PREFIX>.pull-requests`), when `PULL_REQUESTS` is `on`. */
export const PULL_REQUEST_CONSUMER = 'pull-requests';

/** Delivery attempts of a fan-out batch, a run or a pull-request job before what is still undone is recorded as failed. */
export const SCAN_ATTEMPTS = 5;

/** What the worker's consumers need. */
export interface ReleaseConsumerDeps {
  /** The `release` schema's handle (`database.db.withSchema(RELEASE_SCHEMA)`). */
  db: Kysely<ReleaseDatabase>;
  codeHost: CodeHost;
  /** The worker's own code-host tokens (per account in App mode), which it reads manifests with. */
  tokens: CodeHostTokens;
  logger: Logger;
  /** The registries the pipeline asks. */
  registries: RegistryAccess;
  /** The advisories the pipeline consults. */
  advisories: AdvisoryLookup;
  config: Pick<
    ReleaseConfig,
    | 'QUEUE_PREFIX'
    | 'SCAN_BATCH_SIZE'
    | 'SCAN_CONCURRENCY'
    | 'WORKER_PREFETCH'
    | 'CONFIG_CHECKPOINT_TIMEOUT_MS'
    | 'UPDATE_RUN_CONCURRENCY'
    | 'PULL_REQUESTS'
    | 'PULL_REQUEST_LEASE_MS'
  >;
}

/**
 * Starts the worker's consumers of catalogued events, each on its own queue (an event of another type or version, or
 * whose payload fails its schema, is parked by `consumeEvents`):
 * - `<QUEUE_PREFIX>.read-model`: config-svc's state events into the read model, settings changes on to the open pull
 *   requests (`config-changes/config-change.consumer.ts`);
 * - `<QUEUE_PREFIX>.notifications`: notifications planned into fan-out batches at their checkpoint
 *   (`notifications/notification.consumer.ts`);
 * - `<QUEUE_PREFIX>.scans`: the fan-out batches through the pipeline (`notifications/fan-out.consumer.ts`),
 *   `SCAN_CONCURRENCY` configs at a time;
 * - `<QUEUE_PREFIX>.update-runs`: runs through the pipeline (`pipeline/update-run.consumer.ts`),
 *   `UPDATE_RUN_CONCURRENCY` dependencies at a time;
 * - `<QUEUE_PREFIX>.pull-requests` when `PULL_REQUESTS` is `on`: jobs delivered as pull requests
 *   (`pipeline/deliver/pull-request.consumer.ts`).
 * The last three take `WORKER_PREFETCH` messages at a time, {@link SCAN_ATTEMPTS} attempts each.
 * @returns the consumers, to cancel on shutdown
 * @throws what `MessageBus.consume` throws (the consumers started so far keep running: cancel them)
 */
export async function startReleaseConsumers(bus: MessageBus, deps: ReleaseConsumerDeps): Promise<ConsumerHandle[]> {
  const { db, logger, config } = deps;
  const prefix = config.QUEUE_PREFIX;
  const work = { db, codeHost: deps.codeHost, tokens: deps.tokens, registries: deps.registries, advisories: deps.advisories, logger };
  const attempts = { prefetch: config.WORKER_PREFETCH, maxAttempts: SCAN_ATTEMPTS };
  const consumers: ConsumerHandle[] = [];
  consumers.push(await consumeConfigState(bus, db, `${prefix}.read-model`));
  consumers.push(
    await consumeNotifications(bus, db, {
      queue: `${prefix}.notifications`,
      batchSize: config.SCAN_BATCH_SIZE,
      logger,
      planOnArrival: config.CONFIG_CHECKPOINT_TIMEOUT_MS === 0,
    }),
  );
  consumers.push(await consumeFanOut(bus, { ...work, concurrency: config.SCAN_CONCURRENCY }, { queue: `${prefix}.scans`, ...attempts }));
  consumers.push(
    await consumeUpdateRuns(bus, { ...work, concurrency: config.UPDATE_RUN_CONCURRENCY }, { queue: `${prefix}.update-runs`, ...attempts }),
  );
  if (config.PULL_REQUESTS === 'on') {
    consumers.push(
      await consumePullRequestJobs(
        bus,
        { ...work, leaseMs: config.PULL_REQUEST_LEASE_MS },
        { queue: `${prefix}.${PULL_REQUEST_CONSUMER}`, ...attempts },
      ),
    );
  }
  return consumers;
}
