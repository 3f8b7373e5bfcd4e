import {
  type Database,
  type DatabaseOverrides,
  type Logger,
  listen,
  openServiceDatabase,
  type RunningService,
  startService,
} from '@switchyard/service-kit';
import { createCatalogApp } from './app.ts';
import type { CatalogConfig } from './config.ts';
import { catalogMigrations } from './db/migrations/index.ts';
import { CATALOG_SCHEMA, type CatalogDatabase } from './db/schema.ts';

/** A running catalog-svc: its base URL and a `close()` that stops HTTP, then closes the database. */
export type RunningCatalog = RunningService<{
  url: string;
  port: number;
  database: Database<CatalogDatabase>;
}>;

/**
 * Opens the database `config` names (or the shared embedded one in `overrides`) and brings the `catalog` schema up to
 * date. @throws MigrationFailedError
 */
export function openCatalogDatabase(
  config: CatalogConfig,
  logger: Logger,
  overrides: DatabaseOverrides = {},
): Promise<Database<CatalogDatabase>> {
  return openServiceDatabase<CatalogDatabase>(CATALOG_SCHEMA, config, catalogMigrations, logger, overrides);
}

/**
 * Starts catalog-svc: database (`overrides.embeddedDatabase` when the launcher shares one), migrations, HTTP on
 * `config.HOST:config.PORT`. `close()` stops HTTP, then closes the database.
 * @throws MigrationFailedError / the listen error (after closing what it had opened)
 */
export function startCatalogService(config: CatalogConfig, logger: Logger, overrides: DatabaseOverrides = {}): Promise<RunningCatalog> {
  return startService(async (scope) => {
    const database = scope.use(await openCatalogDatabase(config, logger, overrides));
    const app = createCatalogApp({
      db: database.db.withSchema(CATALOG_SCHEMA),
      logger,
      ping: database.ping,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    });
    const http = scope.use(await listen(app, config.PORT, config.HOST));
    logger.info({ url: http.url }, 'catalog-svc listening');
    return { url: http.url, port: http.port, database };
  });
}
