import { type CodeHost, createGitHubCodeHost } from '@switchyard/code-host';
import { ReleaseNotificationReceived, ScanRequested } from '@switchyard/contracts';
import { type ConsumerHandle, handleOnce, type MessageBus, startEventPublishing } from '@switchyard/messaging';
import {
  ConfigError,
  createServiceApp,
  type Database,
  type Listening,
  type Logger,
  listen,
  openServiceDatabase,
} from '@switchyard/service-kit';
import type { ReleaseConfig } from './config.ts';
import { releaseMigrations } from './db/migrations/index.ts';
import { RELEASE_SCHEMA, type ReleaseDatabase } from './db/schema.ts';
import { applyConfigEvent, READ_MODEL_BINDINGS } from './read-model/read-model.ts';
import { planScan } from './scan/planner.ts';
import { scanBatch } from './scan/scanner.ts';

/** What can be handed to the worker instead of being built from its configuration (the launcher and tests do). */
export interface ReleaseWorkerOverrides {
  /** The bus; default RabbitMQ at `AMQP_URL` (required then). Not closed by the worker. */
  bus?: MessageBus;
  codeHost?: CodeHost;
  /** The database, already migrated (the one-process launcher shares the API's: one embedded PGlite per folder). Not closed by the worker. */
  database?: Database<ReleaseDatabase>;
  /** Serve `/healthz` and `/readyz` on `WORKER_PORT` (default true). */
  health?: boolean;
}

/** A running worker. */
export interface RunningReleaseWorker {
  database: Database<ReleaseDatabase>;
  health: Listening | undefined;
  close: () => Promise<void>;
}

/** Delivery attempts of a scan batch before its still-undecided configs are recorded as failed. */
export const SCAN_ATTEMPTS = 5;

/**
 * Starts release-svc's worker: the read model of config-svc's events, the planner of notifications and
 * the scanner of batches, each its own queue (`<QUEUE_PREFIX>.read-model`, `.notifications`, `.scans`),
 * with idempotent consumers (`handleOnce`, acked after commit) and the outbox relay of the events it
 * writes. Several workers may run: they share the queues.
 * @throws ConfigError when `CODE_HOST_TOKEN` or (without an injected bus) `AMQP_URL` is missing
 */
export async function startReleaseWorker(
  config: ReleaseConfig,
  logger: Logger,
  overrides: ReleaseWorkerOverrides = {},
): Promise<RunningReleaseWorker> {
  const missing = [
    ...(config.CODE_HOST_TOKEN ? [] : ["CODE_HOST_TOKEN: required by the worker (the token it reads repos' manifests with)"]),
    ...(overrides.bus || config.AMQP_URL ? [] : ['AMQP_URL: required by a worker in its own process']),
  ];
  if (missing.length > 0) throw new ConfigError('release-worker', missing);
  const token = config.CODE_HOST_TOKEN as string;
  const database = overrides.database ?? (await openServiceDatabase<ReleaseDatabase>(RELEASE_SCHEMA, config, releaseMigrations, logger));
  const db = database.db.withSchema(RELEASE_SCHEMA);
  const events = await startEventPublishing({
    db: database.db as never,
    schema: RELEASE_SCHEMA,
    logger,
    bus: overrides.bus,
    amqpUrl: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
  });
  const bus = events.bus;
  const codeHost =
    overrides.codeHost ??
    createGitHubCodeHost({
      baseUrl: config.CODE_HOST_API_URL,
      userAgent: 'switchyard-release-worker',
      // The scan retries a batch on `rate_limited`; the throttling queue would cap this process at ~100 repos/s.
      throttle: false,
      timeoutMs: config.CODE_HOST_TIMEOUT_MS,
      logger,
    });
  const consumers: ConsumerHandle[] = [];
  const prefix = config.QUEUE_PREFIX;

  consumers.push(
    await bus.consume({ queue: `${prefix}.read-model`, bindings: READ_MODEL_BINDINGS, prefetch: 32 }, async (event) => {
      await handleOnce(db, RELEASE_SCHEMA, event, (trx) => applyConfigEvent(trx, event));
    }),
  );
  consumers.push(
    await bus.consume({ queue: `${prefix}.notifications`, bindings: ['release_notification.received'], prefetch: 4 }, async (event) => {
      const notification = ReleaseNotificationReceived.parse(event.data);
      await handleOnce(db, RELEASE_SCHEMA, event, async (trx) => {
        const total = await planScan(trx, notification, config.SCAN_BATCH_SIZE);
        logger.info({ notification: notification.id, configs: total }, 'release notification planned');
      });
    }),
  );
  consumers.push(
    await bus.consume(
      {
        queue: `${prefix}.scans`,
        bindings: ['release_notification.scan_requested'],
        prefetch: config.WORKER_PREFETCH,
        maxAttempts: SCAN_ATTEMPTS,
      },
      async (event, context) => {
        // Not through handleOnce: a batch is resumable (results are kept per config) and may need several attempts.
        await scanBatch(
          { db, codeHost, token, logger, concurrency: config.SCAN_CONCURRENCY },
          ScanRequested.parse(event.data),
          context.attempt >= SCAN_ATTEMPTS,
        );
      },
    ),
  );

  const health =
    overrides.health === false
      ? undefined
      : await listen(
          createServiceApp({
            logger,
            readiness: [
              { name: 'database', check: database.ping },
              {
                name: 'bus',
                check: async () => {
                  const connected = (bus as { isConnected?: () => boolean }).isConnected?.() ?? true;
                  if (!connected) throw new Error('not connected');
                },
              },
            ],
            routes: () => {},
          }),
          config.WORKER_PORT,
          config.HOST,
        );
  logger.info({ queues: consumers.map((c) => c.queue), health: health?.url }, 'release worker consuming');
  return {
    database,
    health,
    close: async () => {
      for (const consumer of consumers) await consumer.cancel();
      await health?.close();
      await events.close();
      if (!overrides.database) await database.close();
    },
  };
}
