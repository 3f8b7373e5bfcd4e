import { type Database, databaseTarget, type Logger, listen, migrateToLatest, openDatabase } from '@switchyard/service-kit';
import { createCatalogApp } from './app.ts';
import type { CatalogConfig } from './config.ts';
import { catalogMigrations } from './db/migrations/index.ts';
import { CATALOG_SCHEMA, type CatalogDatabase } from './db/schema.ts';

/** A running catalog-svc: its base URL and a `close()` that stops HTTP, then closes the database. */
export interface RunningCatalog {
  url: string;
  port: number;
  database: Database<CatalogDatabase>;
  close: () => Promise<void>;
}

/** Opens the database that `config` names and brings the `catalog` schema up to date. @throws MigrationFailedError */
export async function openCatalogDatabase(config: CatalogConfig, logger: Logger): Promise<Database<CatalogDatabase>> {
  const database = openDatabase<CatalogDatabase>(databaseTarget(config.DATABASE_URL, config.DATA_DIR, 'catalog', config.DB_POOL_SIZE));
  try {
    const applied = await migrateToLatest(database.db as never, CATALOG_SCHEMA, catalogMigrations);
    logger.info({ database: database.kind, applied }, 'catalog schema up to date');
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Starts catalog-svc: database, migrations, HTTP on `config.HOST:config.PORT`.
 * @throws ConfigError / MigrationFailedError / the listen error
 */
export async function startCatalogService(config: CatalogConfig, logger: Logger): Promise<RunningCatalog> {
  const database = await openCatalogDatabase(config, logger);
  const app = createCatalogApp({
    db: database.db.withSchema(CATALOG_SCHEMA),
    logger,
    ping: database.ping,
    bodyLimitBytes: config.BODY_LIMIT_BYTES,
  });
  const http = await listen(app, config.PORT, config.HOST).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  logger.info({ url: http.url }, 'catalog-svc listening');
  return {
    url: http.url,
    port: http.port,
    database,
    close: async () => {
      await http.close();
      await database.close();
    },
  };
}
