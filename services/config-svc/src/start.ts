import { type CodeHost, CodeHostView, createGitHubCodeHost } from '@switchyard/code-host';
import { type MessageBus, startEventPublishing } from '@switchyard/messaging';
import { type Database, type Logger, listenHolding, openServiceDatabase } from '@switchyard/service-kit';
import { createConfigApp } from './app.ts';
import type { ConfigServiceConfig } from './config.ts';
import { configMigrations } from './db/migrations/index.ts';
import { CONFIG_SCHEMA, type ConfigDatabase } from './db/schema.ts';

/** What can be handed to config-svc instead of being built from its configuration (the launcher and tests do). */
export interface ConfigServiceOverrides {
  /** The bus to publish to; default: RabbitMQ at `AMQP_URL`, else an in-process bus. Not closed by the service. */
  bus?: MessageBus;
  /** The code host; default: the GitHub REST adapter at `CODE_HOST_API_URL`. */
  codeHost?: CodeHost;
}

/** A running config-svc. */
export interface RunningConfigService {
  url: string;
  port: number;
  database: Database<ConfigDatabase>;
  bus: MessageBus;
  close: () => Promise<void>;
}

/** Opens the database `config` names and brings the `config` schema up to date. @throws MigrationFailedError */
export function openConfigDatabase(config: ConfigServiceConfig, logger: Logger): Promise<Database<ConfigDatabase>> {
  return openServiceDatabase<ConfigDatabase>(CONFIG_SCHEMA, config, configMigrations, logger);
}

/**
 * Starts config-svc: database and migrations, the message bus, the outbox relay, and HTTP on
 * `config.HOST:config.PORT`. `close()` stops HTTP, then the relay, then the bus it owns, then the database.
 */
export async function startConfigService(
  config: ConfigServiceConfig,
  logger: Logger,
  overrides: ConfigServiceOverrides = {},
): Promise<RunningConfigService> {
  const database = await openConfigDatabase(config, logger);
  const events = await startEventPublishing({
    db: database.db as never,
    schema: CONFIG_SCHEMA,
    logger,
    bus: overrides.bus,
    amqpUrl: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
  }).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const codeHost =
    overrides.codeHost ??
    createGitHubCodeHost({
      baseUrl: config.CODE_HOST_API_URL,
      userAgent: 'switchyard-config-svc',
      timeoutMs: config.CODE_HOST_TIMEOUT_MS,
      logger,
    });
  const app = createConfigApp({
    db: database.db.withSchema(CONFIG_SCHEMA),
    view: new CodeHostView(codeHost, config.CODE_HOST_CACHE_TTL_MS),
    logger,
    ping: database.ping,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
  });
  const http = await listenHolding(app, config.PORT, config.HOST, async () => {
    await events.close();
    await database.close();
  });
  logger.info({ url: http.url }, 'config-svc listening');
  return {
    url: http.url,
    port: http.port,
    database,
    bus: events.bus,
    close: () => http.close(),
  };
}
