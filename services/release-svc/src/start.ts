import { type DependencyApiOverrides, type RunningDependencyApi, startDependencyApi } from '@switchyard/dependency-api';
import { type Database, type Logger, openServiceDatabase } from '@switchyard/service-kit';
import { createReleaseApp } from './app.ts';
import type { ReleaseConfig } from './config.ts';
import { releaseMigrations } from './db/migrations/index.ts';
import { RELEASE_SCHEMA, type ReleaseDatabase } from './db/schema.ts';

/** What can be handed to the API instead of being built from its configuration: a bus (not closed by the service), a code host. */
export type ReleaseApiOverrides = DependencyApiOverrides;

/** A running release-svc API: its base URL, database and bus, and `close()`. */
export type RunningReleaseApi = RunningDependencyApi<ReleaseDatabase>;

/** Opens the database and brings the `release` schema up to date. @throws MigrationFailedError */
export function openReleaseDatabase(config: ReleaseConfig, logger: Logger): Promise<Database<ReleaseDatabase>> {
  return openServiceDatabase<ReleaseDatabase>(RELEASE_SCHEMA, config, releaseMigrations, logger);
}

/**
 * Starts release-svc's HTTP API on `config.HOST:config.PORT`, with the outbox relay of the notifications it
 * receives (`startDependencyApi`). The scanning happens in the worker (`worker.ts`). `close()` stops HTTP, then the
 * relay, then the bus it owns, then the database.
 * @throws MigrationFailedError / the broker's connection error / the listen error (after closing what it had opened)
 */
export function startReleaseApi(config: ReleaseConfig, logger: Logger, overrides: ReleaseApiOverrides = {}): Promise<RunningReleaseApi> {
  return startDependencyApi(
    {
      name: 'release-svc',
      schema: RELEASE_SCHEMA,
      migrations: releaseMigrations,
      createApp: (deps) =>
        createReleaseApp({
          ...deps,
          webhooks: { secret: config.WEBHOOK_SECRET, maxBytes: config.WEBHOOK_BODY_LIMIT_BYTES, maxAgeMs: config.WEBHOOK_MAX_AGE_MS },
        }),
    },
    config,
    logger,
    overrides,
  );
}
