import { type CodeHost, CodeHostView, createGitHubCodeHost } from '@switchyard/code-host';
import { type MessageBus, startEventPublishing } from '@switchyard/messaging';
import { type Database, type Logger, listenHolding, openServiceDatabase } from '@switchyard/service-kit';
import { createReleaseApp } from './app.ts';
import type { ReleaseConfig } from './config.ts';
import { releaseMigrations } from './db/migrations/index.ts';
import { RELEASE_SCHEMA, type ReleaseDatabase } from './db/schema.ts';

/** What can be handed to the API instead of being built from its configuration. */
export interface ReleaseApiOverrides {
  /** The bus to publish to; default RabbitMQ at `AMQP_URL`, else an in-process bus. Not closed by the service. */
  bus?: MessageBus;
  codeHost?: CodeHost;
}

/** A running release-svc API. */
export interface RunningReleaseApi {
  url: string;
  port: number;
  database: Database<ReleaseDatabase>;
  close: () => Promise<void>;
}

/** Opens the database and brings the `release` schema up to date. @throws MigrationFailedError */
export function openReleaseDatabase(config: ReleaseConfig, logger: Logger): Promise<Database<ReleaseDatabase>> {
  return openServiceDatabase<ReleaseDatabase>(RELEASE_SCHEMA, config, releaseMigrations, logger);
}

/**
 * Starts release-svc's HTTP API on `config.HOST:config.PORT`, with the outbox relay of the
 * notifications it receives. The scanning happens in the worker (`worker.ts`).
 */
export async function startReleaseApi(
  config: ReleaseConfig,
  logger: Logger,
  overrides: ReleaseApiOverrides = {},
): Promise<RunningReleaseApi> {
  const database = await openReleaseDatabase(config, logger);
  const events = await startEventPublishing({
    db: database.db as never,
    schema: RELEASE_SCHEMA,
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
      userAgent: 'switchyard-release-svc',
      timeoutMs: config.CODE_HOST_TIMEOUT_MS,
      logger,
    });
  const app = createReleaseApp({
    db: database.db.withSchema(RELEASE_SCHEMA),
    view: new CodeHostView(codeHost, config.CODE_HOST_CACHE_TTL_MS),
    logger,
    ping: database.ping,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
  });
  const http = await listenHolding(app, config.PORT, config.HOST, async () => {
    await events.close();
    await database.close();
  });
  logger.info({ url: http.url }, 'release-svc listening');
  return {
    url: http.url,
    port: http.port,
    database,
    close: () => http.close(),
  };
}
