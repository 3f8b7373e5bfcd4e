import { type CodeHost, type CodeHostTokens, createGitHubCodeHost } from '@switchyard/code-host';
import { type MessageBus, startEventPublishing } from '@switchyard/messaging';
import {
  ConfigError,
  createOutboundGuard,
  createServiceApp,
  type Database,
  type Listening,
  type Logger,
  listen,
  openServiceDatabase,
  type RunningService,
  startService,
} from '@switchyard/service-kit';
import { codeHostAdvisories, combinedAdvisories, importedAdvisories } from './advisories/advisory-source.service.ts';
import { startBotAccountCheck } from './bot-account/bot-account.loop.ts';
import { botLoginReader, workerCodeHostAuth } from './code-host-auth.ts';
import type { ReleaseConfig } from './config.ts';
import { startConfigFileChecks } from './config-files/config-file-check.loop.ts';
import { startReleaseConsumers } from './consumers.ts';
import { releaseMigrations } from './db/migrations/index.ts';
import { RELEASE_SCHEMA, type ReleaseDatabase } from './db/schema.ts';
import { startInstallationReconciliation } from './installations/app-installation.loop.ts';
import { recordedInstallationTokens } from './installations/recorded-installation-tokens.service.ts';
import { startCheckpointSweeper } from './notifications/checkpoint-sweeper.loop.ts';
import { privateRegistries } from './pipeline/resolve/private-registry.service.ts';
import { codeHostRegistryCredentials, codeHostRegistryUrls, RegistryAccess } from './pipeline/resolve/registry-access.client.ts';
import { startPullRequestLoops } from './pull-requests/pull-requests.loop.ts';
import { findAccountLogin } from './read-model/read-model.repository.ts';
import { startRegistryWatch } from './registry-watch/registry-watch.loop.ts';
import { startScheduler } from './schedules/scheduler.loop.ts';
import { startRunRetention } from './update-runs/run-retention.loop.ts';
import { startUpgrades } from './upgrades/upgrade.loop.ts';
import { writeLimitsOf } from './write-budget/write-budget.policy.ts';
import { sharedWriteBudget } from './write-budget/write-budget.service.ts';

/** What can be handed to the worker instead of being built from its configuration (the launcher and tests do). */
export interface ReleaseWorkerOverrides {
  /** The bus; default RabbitMQ at `AMQP_URL` (required then). Not closed by the worker. */
  bus?: MessageBus;
  codeHost?: CodeHost;
  /** The worker's code-host tokens; default from `GITHUB_APP_ID` (App mode) or `CODE_HOST_TOKEN`. */
  tokens?: CodeHostTokens;
  /** The database, already migrated (the one-process launcher shares the API's: one embedded PGlite per folder). Not closed by the worker. */
  database?: Database<ReleaseDatabase>;
  /** Serve `/healthz` and `/readyz` on `WORKER_PORT` (default true). */
  health?: boolean;
  /** The clock of the scheduler, the registry watch and the retention of runs (tests move it). Default: the system's. */
  now?: () => Date;
}

/** A running worker: its database, its health listener (unless `health: false`) and `close()`. */
export type RunningReleaseWorker = RunningService<{
  database: Database<ReleaseDatabase>;
  health: Listening | undefined;
}>;

/**
 * Starts release-svc's worker: the read model of config-svc's events, the planner of notifications and
 * the scanner of batches, each its own queue (`<QUEUE_PREFIX>.read-model`, `.notifications`, `.scans`),
 * with idempotent consumers (`handleOnce`, acked after commit) and the outbox relay of the events it
 * writes; the update runs (`<QUEUE_PREFIX>.update-runs`), with the scheduler that requests them at their configs' slots,
 * the registry watch of `live` configs and the 90-day retention of runs; the reading of repositories' config files a
 * push asked for. Several workers may run: they share the queues,
 * and a slot runs once whichever worker takes it.
 * It starts without RabbitMQ as well: the bus it makes waits for the broker (`waitForBroker`), the consumers are
 * registered and start once it connects, and until then `/healthz` answers 200 while `/readyz` answers 503 with
 * `"bus": "not connected"` (a worker that cannot consume is not ready; it is alive, so no restart loop).
 * `close()` stops the health listener, cancels the consumers, stops the relay and closes the bus it owns, then the
 * database it opened (an injected bus or database is left open).
 * @throws ConfigError when neither `CODE_HOST_TOKEN` nor `GITHUB_APP_ID` (with its key) is set, or (without an injected bus)
 * `AMQP_URL` is missing; MigrationFailedError /
 * the listen error (after closing what it had opened)
 */
export async function startReleaseWorker(
  config: ReleaseConfig,
  logger: Logger,
  overrides: ReleaseWorkerOverrides = {},
): Promise<RunningReleaseWorker> {
  if (!overrides.bus && !config.AMQP_URL) throw new ConfigError('release-worker', ['AMQP_URL: required by a worker in its own process']);
  const clientOptions = {
    baseUrl: config.CODE_HOST_API_URL,
    userAgent: 'switchyard-release-worker',
    timeoutMs: config.CODE_HOST_TIMEOUT_MS,
    logger,
  };
  const auth = overrides.tokens ? { tokens: overrides.tokens, app: undefined } : await workerCodeHostAuth(config, clientOptions);
  const { app } = auth;
  return startService(async (scope) => {
    // An injected database is its owner's to close: only one opened here is registered.
    const database =
      overrides.database ?? scope.use(await openServiceDatabase<ReleaseDatabase>(RELEASE_SCHEMA, config, releaseMigrations, logger));
    const db = database.db.withSchema(RELEASE_SCHEMA);
    // App mode: an installation recorded anew (the App installed again) is used at once.
    const tokens = app ? recordedInstallationTokens(db, app, auth.tokens) : auth.tokens;
    const events = await startEventPublishing({
      db: database.db,
      schema: RELEASE_SCHEMA,
      logger,
      // The relay LISTENs for commits on PostgreSQL (an injected database is on DATABASE_URL too); on PGlite the
      // outbox's writes wake it in-process.
      databaseUrl: database.kind === 'postgres' ? config.DATABASE_URL : undefined,
      bus: overrides.bus,
      amqpUrl: config.AMQP_URL,
      exchange: config.EVENTS_EXCHANGE,
    });
    scope.defer(() => events.close());
    const bus = events.bus;
    // GitHub's secondary limits on content creation: every content-creating request is booked in the installation's
    // budget, shared by the workers, before the adapter sends it.
    const limits = writeLimitsOf(config.CODE_HOST_WRITE_LIMITS, config.CODE_HOST_API_URL);
    const writes = limits ? sharedWriteBudget(db, tokens, limits) : undefined;
    const codeHost =
      overrides.codeHost ??
      createGitHubCodeHost({
        ...clientOptions,
        ...(writes ? { beforeContentCreation: (token: string) => writes.beforeContentCreation(token) } : {}),
        // A job holds its installation's token from its first read to its last write: renewed before it expires.
        ...(app ? { currentToken: (token: string, rejected: boolean) => app.currentToken(token, rejected) } : {}),
        // The scan retries a batch on `rate_limited`; the throttling queue would cap this process at ~100 repos/s.
        throttle: false,
        // A file bigger than this (a huge lockfile) fails its config instead of filling the worker's memory.
        maxResponseBytes: config.CODE_HOST_MAX_RESPONSE_BYTES,
      });
    const registries = new RegistryAccess({
      publicUrls: { ...codeHostRegistryUrls(config.CODE_HOST_API_URL), ...config.REGISTRY_URLS },
      ...(config.GITHUB_APP_ID === undefined && config.CODE_HOST_TOKEN
        ? { publicCredentials: codeHostRegistryCredentials(config.CODE_HOST_TOKEN) }
        : {
            codeHostCredentials: async (accountId: number) => ({
              token: await tokens.forOwner((await findAccountLogin(db, accountId)) ?? ''),
            }),
          }),
      cratesApiUrl: config.CRATES_API_URL,
      timeoutMs: config.REGISTRY_TIMEOUT_MS,
      privateRegistry: privateRegistries(db, config.SECRETS_KEY),
      outboundGuard: createOutboundGuard({ allowedHosts: config.REGISTRY_ALLOWED_HOSTS, setting: 'REGISTRY_ALLOWED_HOSTS' }),
    });
    scope.defer(() => registries.close());
    // The code host's global advisories (GitHub's GET /advisories) and the imported OSV records, both.
    const advisories = combinedAdvisories(
      importedAdvisories(db),
      codeHostAdvisories(codeHost, tokens, { ttlMs: 3_600_000, maxPackages: 10_000 }),
    );
    const consumers = await startReleaseConsumers(bus, { db, codeHost, tokens, logger, config, registries, advisories });
    scope.defer(async () => {
      for (const consumer of consumers) await consumer.cancel();
    });
    const now = overrides.now ?? (() => new Date());
    // Every periodic job, each stopped on shutdown (service-kit's startLoop: rounds never overlap).
    scope.use(startScheduler(db, config.SCHEDULER_INTERVAL_MS, now, logger));
    scope.use(
      startRegistryWatch({ db, registries, logger, concurrency: config.UPDATE_RUN_CONCURRENCY }, config.REGISTRY_WATCH_INTERVAL_MS, logger),
    );
    if (config.PULL_REQUESTS === 'on') {
      const jobs = { db, codeHost, tokens, registries, logger, leaseMs: config.PULL_REQUEST_LEASE_MS, ...(writes ? { writes } : {}) };
      for (const loop of startPullRequestLoops(jobs, config.SCHEDULER_INTERVAL_MS, logger)) scope.use(loop);
      scope.use(startUpgrades({ db, codeHost, tokens, logger }, config.SCHEDULER_INTERVAL_MS, logger));
    }
    scope.use(startRunRetention(db, now, logger));
    // Who the workers are on the code host: the webhook intake tells their own actions' echoes from people's.
    scope.use(startBotAccountCheck(db, botLoginReader(auth, codeHost), logger));
    // App mode: the installations, as the code host has them, decide which repositories are active (webhooks between).
    if (app) scope.use(startInstallationReconciliation(db, app, config.GITHUB_APP_RECONCILE_INTERVAL_MS, logger));
    scope.use(startConfigFileChecks({ db, codeHost, tokens, logger }, config.SCHEDULER_INTERVAL_MS, logger));
    if (config.CONFIG_CHECKPOINT_TIMEOUT_MS > 0) {
      const timeoutMs = config.CONFIG_CHECKPOINT_TIMEOUT_MS;
      scope.use(startCheckpointSweeper(db, timeoutMs, Math.min(1_000, timeoutMs), { batchSize: config.SCAN_BATCH_SIZE, logger }));
    }

    const health =
      overrides.health === false
        ? undefined
        : scope.use(
            await listen(
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
            ),
          );
    const waiting = (bus as { isConnected?: () => boolean }).isConnected?.() === false;
    logger.info(
      { queues: consumers.map((c) => c.queue), health: health?.url },
      waiting ? 'release worker started; it consumes once the broker is reachable' : 'release worker consuming',
    );
    return { database, health };
  });
}
