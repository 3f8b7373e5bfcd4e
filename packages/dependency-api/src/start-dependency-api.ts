import type { RequestListener } from 'node:http';
import { type CodeHost, CodeHostView, createGitHubCodeHost } from '@switchyard/code-host';
import { type ConsumerHandle, type MessageBus, startEventPublishing } from '@switchyard/messaging';
import {
  type Database,
  type DatabaseConfig,
  type DatabaseOverrides,
  type Logger,
  listen,
  type Migration,
  openServiceDatabase,
  type ReadinessCheck,
  type RunningService,
  startService,
} from '@switchyard/service-kit';
import type { DependencyApiLimitsConfig, TrustProxy } from './limits-env.ts';

/**
 * The variables each half of the dependency update API reads (config-svc's and release-svc's API share them), with the
 * limits against token guessing and code-host spending of {@link DependencyApiLimitsConfig}.
 */
export interface DependencyApiConfig extends DatabaseConfig, DependencyApiLimitsConfig {
  HOST: string;
  PORT: number;
  /** RabbitMQ for the events; unset: an in-process bus. */
  AMQP_URL?: string | undefined;
  EVENTS_EXCHANGE: string;
  CODE_HOST_API_URL: string;
  CODE_HOST_TIMEOUT_MS: number;
  /** The most bytes one code-host answer may have (the adapter's `maxResponseBytes`); its default when unset. */
  CODE_HOST_MAX_RESPONSE_BYTES?: number | undefined;
  CODE_HOST_CACHE_TTL_MS: number;
  BODY_LIMIT_BYTES: number;
}

/**
 * What can be handed to either half instead of being built from its configuration (the launcher and tests do),
 * the shared embedded database included.
 */
export interface DependencyApiOverrides extends DatabaseOverrides {
  /** The bus to publish to; default RabbitMQ at `AMQP_URL`, else an in-process bus. Not closed by the service. */
  bus?: MessageBus;
  /** The code host; default the GitHub REST adapter at `CODE_HOST_API_URL`. */
  codeHost?: CodeHost;
}

/** What the API's HTTP app is built from. */
export interface DependencyApiDeps<DB> {
  /** The database scoped to the service's schema (`withSchema`). */
  db: Database<DB>['db'];
  view: CodeHostView;
  logger: Logger;
  /** The database's ping, for `/readyz`. */
  ping: () => Promise<void>;
  /**
   * More checks of `/readyz`: `bus`, non-fatal (`required: false`), when the bus can tell whether it is connected
   * (`degraded` while the broker is unreachable: requests are still served and events wait in the outbox).
   */
  readiness?: readonly ReadinessCheck[];
  bodyLimitBytes: number;
  /** Which proxies may name the client in `X-Forwarded-For` (express's `trust proxy`); default none. */
  trustProxy?: TrustProxy;
}

/** What sets one half of the API apart from the other: its name, schema, migrations and app. */
export interface DependencyApiShape<DB> {
  /** The service's name: in its logs and the code host's user agent (`switchyard-<name>`). */
  name: string;
  /** Its schema, migrated to the latest of `migrations` at start; the outbox of its events lives there. */
  schema: string;
  migrations: Record<string, Migration>;
  createApp: (deps: DependencyApiDeps<DB>) => RequestListener;
  /**
   * Starts the service's consumers of other services' events, if it has any, on the bus its events go to and its
   * schema; they are cancelled on close before the relay stops.
   */
  startConsumers?: (deps: { bus: MessageBus; db: Database<DB>['db'] }) => Promise<ConsumerHandle[]>;
}

/** A running API: its base URL, its database and the bus its events go to. */
export type RunningDependencyApi<DB> = RunningService<{
  url: string;
  port: number;
  database: Database<DB>;
  bus: MessageBus;
}>;

/**
 * Starts one half of the dependency update API (config-svc, or release-svc's API): opens the database and
 * migrates `shape.schema`, starts publishing the events of its outbox (the relay, and a bus unless one is handed in),
 * builds the code host's cached per-token view (the GitHub adapter unless one is handed in) with the configured
 * limits (rejected tokens remembered, failed authentications per address, code-host calls per token), starts
 * `shape.startConsumers` if any, then serves `shape.createApp` on `config.HOST:config.PORT`. `close()` stops HTTP,
 * cancels the consumers, then stops the relay, then the bus it owns, then the database. It starts without RabbitMQ as well: the bus connects in the background (`waitForBroker`), the events wait
 * in the outbox meanwhile, and `/readyz` reports the bus `degraded` (still 200).
 * @throws MigrationFailedError / the listen error (after closing what it had opened)
 */
export function startDependencyApi<DB>(
  shape: DependencyApiShape<DB>,
  config: DependencyApiConfig,
  logger: Logger,
  overrides: DependencyApiOverrides = {},
): Promise<RunningDependencyApi<DB>> {
  return startService(async (scope) => {
    const database = scope.use(await openServiceDatabase<DB>(shape.schema, config, shape.migrations, logger, overrides));
    const events = await startEventPublishing({
      db: database.db,
      schema: shape.schema,
      logger,
      // The relay LISTENs for commits on PostgreSQL; on PGlite the outbox's writes wake it in-process.
      databaseUrl: database.kind === 'postgres' ? config.DATABASE_URL : undefined,
      bus: overrides.bus,
      amqpUrl: config.AMQP_URL,
      exchange: config.EVENTS_EXCHANGE,
    });
    scope.defer(() => events.close());
    const bus = events.bus as MessageBus & { isConnected?: () => boolean };
    const isConnected = bus.isConnected?.bind(bus);
    const readiness: ReadinessCheck[] = isConnected
      ? [
          {
            name: 'bus',
            required: false,
            check: async () => {
              if (!isConnected()) throw new Error('not connected');
            },
          },
        ]
      : [];
    const consumers = (await shape.startConsumers?.({ bus: events.bus, db: database.db.withSchema(shape.schema) })) ?? [];
    scope.defer(async () => {
      for (const consumer of consumers) await consumer.cancel();
    });
    const codeHost =
      overrides.codeHost ??
      createGitHubCodeHost({
        baseUrl: config.CODE_HOST_API_URL,
        userAgent: `switchyard-${shape.name}`,
        timeoutMs: config.CODE_HOST_TIMEOUT_MS,
        maxResponseBytes: config.CODE_HOST_MAX_RESPONSE_BYTES,
        logger,
      });
    const app = shape.createApp({
      db: database.db.withSchema(shape.schema),
      view: new CodeHostView(codeHost, {
        ttlMs: config.CODE_HOST_CACHE_TTL_MS,
        rejectedTokenTtlMs: config.AUTH_REJECTED_TTL_MS,
        tokenBudget: { limit: config.CODE_HOST_TOKEN_BUDGET, windowMs: config.CODE_HOST_TOKEN_BUDGET_WINDOW_MS },
        failedAuthentications: { limit: config.AUTH_FAILURE_LIMIT, windowMs: config.AUTH_FAILURE_WINDOW_MS },
      }),
      logger,
      ping: database.ping,
      readiness,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
      trustProxy: config.TRUST_PROXY,
    });
    const http = scope.use(await listen(app, config.PORT, config.HOST));
    logger.info({ url: http.url }, `${shape.name} listening`);
    return { url: http.url, port: http.port, database, bus: events.bus };
  });
}
