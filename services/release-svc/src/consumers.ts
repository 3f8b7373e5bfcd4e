import type { CodeHost } from '@switchyard/code-host';
import {
  CONFIG_STATE_EVENTS,
  PullRequestJobCreatedEvent,
  ReleaseNotificationReceivedEvent,
  ScanRequestedEvent,
  UpdateConfigCheckpointEvent,
  UpdateRunRequestedEvent,
} from '@switchyard/contracts';
import { CONSUMER_DEFAULTS, type ConsumerHandle, consumeEvents, handleOnce, type MessageBus } from '@switchyard/messaging';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseConfig } from './config.ts';
import { RELEASE_SCHEMA, type ReleaseDatabase } from './db/schema.ts';
import { executeJob } from './pull-requests/job.executor.ts';
import { applyConfigEvent } from './read-model/read-model.service.ts';
import { planOnCheckpoint } from './scan/plan.service.ts';
import { planScan, scanBatch } from './scan/scan.service.ts';
import type { RegistryAccess } from './update-runs/registry-access.ts';
import { type AdvisoryLookup, executeRun } from './update-runs/run-update.service.ts';

/** The worker's consumers, each on its queue `<QUEUE_PREFIX>.<name>` (with its parking and retry queues). */
export const RELEASE_CONSUMERS = ['read-model', 'notifications', 'scans', 'update-runs'] as const;

/** The consumer of the worker's own `pull_request_job.created` (`<QUEUE_PREFIX>.pull-requests`), when `PULL_REQUESTS` is `on`. */
export const PULL_REQUEST_CONSUMER = 'pull-requests';

/** Delivery attempts of a scan batch before its still-undecided configs are recorded as failed. */
export const SCAN_ATTEMPTS = 5;

/** What the worker's consumers need. */
export interface ReleaseConsumerDeps {
  /** The `release` schema's handle (`database.db.withSchema(RELEASE_SCHEMA)`). */
  db: Kysely<ReleaseDatabase>;
  codeHost: CodeHost;
  /** The worker's own code-host token, which it reads manifests with. */
  token: string;
  logger: Logger;
  /** The registries update runs ask. */
  registries: RegistryAccess;
  /** The advisories update runs consult. */
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
 * Starts the worker's three consumers of catalogued events, each on its own queue:
 * - `<QUEUE_PREFIX>.read-model`: config-svc's state events into the read model, once per event (`handleOnce`), 32 at a time;
 * - `<QUEUE_PREFIX>.notifications`: config-svc's `update_config.checkpoint`, which plans its notification into scan
 *   batches once the read model has caught up with it (`planOnCheckpoint`, delivered again until then), and
 *   `release_notification.received`, which plans at once only when `CONFIG_CHECKPOINT_TIMEOUT_MS` is 0 (else the
 *   checkpoint, or the sweeper, plans it); 4 at a time;
 * - `<QUEUE_PREFIX>.scans`: `release_notification.scan_requested`, `WORKER_PREFETCH` at a time, {@link SCAN_ATTEMPTS}
 *   attempts, the last of which records the configs still unread as failed (not through `handleOnce`: a batch is
 *   resumable, its results kept per config, and may take several attempts);
 * - `<QUEUE_PREFIX>.update-runs`: `update_run.requested`, `WORKER_PREFETCH` at a time, {@link SCAN_ATTEMPTS} attempts
 *   (a run is resumable: its dependencies are decided once each; the last attempt fails a run whose files the code
 *   host still does not give);
 * - `<QUEUE_PREFIX>.pull-requests` when `PULL_REQUESTS` is `on`: the worker's own `pull_request_job.created`, each job
 *   turned into a pull request (`executeJob`), `WORKER_PREFETCH` at a time, {@link SCAN_ATTEMPTS} attempts.
 * An event of another type or version, or whose payload fails its schema, is parked (`consumeEvents`).
 * @returns the consumers, to cancel on shutdown
 * @throws what `MessageBus.consume` throws (the consumers started so far keep running: cancel them)
 */
export async function startReleaseConsumers(bus: MessageBus, deps: ReleaseConsumerDeps): Promise<ConsumerHandle[]> {
  const { db, logger, config } = deps;
  const prefix = config.QUEUE_PREFIX;
  const consumers: ConsumerHandle[] = [];
  // What the scans, the update runs and the job executor share.
  const work = { db, codeHost: deps.codeHost, token: deps.token, registries: deps.registries, advisories: deps.advisories, logger };
  consumers.push(
    await consumeEvents(bus, { queue: `${prefix}.read-model`, events: CONFIG_STATE_EVENTS, prefetch: 32 }, async (event) => {
      await handleOnce(db, RELEASE_SCHEMA, event, (trx) => applyConfigEvent(trx, event));
    }),
  );
  consumers.push(
    await consumeEvents(
      bus,
      { queue: `${prefix}.notifications`, events: [ReleaseNotificationReceivedEvent, UpdateConfigCheckpointEvent], prefetch: 4 },
      async (event, context) => {
        if (event.type === UpdateConfigCheckpointEvent.type) {
          // Delivered again after 1 s and 5 s while the read model lags (the bus's default delays); the sweeper plans the
          // notification anyway once CONFIG_CHECKPOINT_TIMEOUT_MS has passed, and a later delivery then finds it planned.
          const lastAttempt = context.attempt >= CONSUMER_DEFAULTS.maxAttempts;
          await planOnCheckpoint(db, event.data, lastAttempt, { batchSize: config.SCAN_BATCH_SIZE, logger });
          return;
        }
        if (config.CONFIG_CHECKPOINT_TIMEOUT_MS > 0) return;
        await handleOnce(db, RELEASE_SCHEMA, event, async (trx) => {
          const total = await planScan(trx, event.data, config.SCAN_BATCH_SIZE);
          logger.info({ notification: event.data.id, configs: total }, 'release notification planned');
        });
      },
    ),
  );
  consumers.push(
    await consumeEvents(
      bus,
      { queue: `${prefix}.scans`, events: [ScanRequestedEvent], prefetch: config.WORKER_PREFETCH, maxAttempts: SCAN_ATTEMPTS },
      async (event, context) => {
        await scanBatch({ ...work, concurrency: config.SCAN_CONCURRENCY }, event.data, context.attempt >= SCAN_ATTEMPTS);
      },
    ),
  );
  consumers.push(
    await consumeEvents(
      bus,
      { queue: `${prefix}.update-runs`, events: [UpdateRunRequestedEvent], prefetch: config.WORKER_PREFETCH, maxAttempts: SCAN_ATTEMPTS },
      async (event, context) => {
        await executeRun({ ...work, concurrency: config.UPDATE_RUN_CONCURRENCY }, event.data.id, context.attempt >= SCAN_ATTEMPTS);
      },
    ),
  );
  if (config.PULL_REQUESTS === 'on') {
    consumers.push(
      await consumeEvents(
        bus,
        {
          queue: `${prefix}.${PULL_REQUEST_CONSUMER}`,
          events: [PullRequestJobCreatedEvent],
          prefetch: config.WORKER_PREFETCH,
          maxAttempts: SCAN_ATTEMPTS,
        },
        async (event, context) => {
          await executeJob({ ...work, leaseMs: config.PULL_REQUEST_LEASE_MS }, event.data.id, context.attempt >= SCAN_ATTEMPTS);
        },
      ),
    );
  }
  return consumers;
}
