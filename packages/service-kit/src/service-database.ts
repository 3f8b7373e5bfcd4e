import { z } from 'zod';
import { envPostgresUrl } from './config.ts';
import { type Database, type DatabaseOverrides, databaseTarget, openDatabase } from './database.ts';
import type { Logger } from './logger.ts';
import { type Migration, migrateToLatest } from './migrations.ts';

/** The database variables every service reads: spread into its env schema. */
export const databaseEnv = {
  /** PostgreSQL URL; when unset the service runs on embedded PGlite under `DATA_DIR`. */
  DATABASE_URL: envPostgresUrl,
  /** Folder of the embedded database (`memory://` keeps it in memory). */
  DATA_DIR: z.string().min(1).default('.data'),
  /** Connections in the PostgreSQL pool. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * `on`: queries go to PostgreSQL as named prepared statements, planned once per connection (`PreparingClient`);
   * `off` for a connection pooler in transaction mode that does not keep them (PgBouncer before 1.21).
   */
  DB_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
};

/** The parsed {@link databaseEnv}. */
export interface DatabaseConfig {
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
  DB_POOL_SIZE: number;
  DB_PREPARED_STATEMENTS?: 'on' | 'off';
}

/**
 * Opens a service's database (PostgreSQL at `DATABASE_URL`, else the shared `overrides.embeddedDatabase`, else PGlite
 * under `DATA_DIR/<schema>`) and brings the service's schema up to date; the database is closed again when migrating
 * fails.
 * @throws MigrationFailedError
 */
export async function openServiceDatabase<DB>(
  schema: string,
  config: DatabaseConfig,
  migrations: Record<string, Migration>,
  logger: Logger,
  overrides: DatabaseOverrides = {},
): Promise<Database<DB>> {
  const database = openDatabase<DB>(
    !config.DATABASE_URL && overrides.embeddedDatabase
      ? { kind: 'pglite', embedded: overrides.embeddedDatabase }
      : databaseTarget(config.DATABASE_URL, config.DATA_DIR, schema, config.DB_POOL_SIZE, config.DB_PREPARED_STATEMENTS !== 'off'),
  );
  try {
    const applied = await migrateToLatest(database.db, schema, migrations);
    logger.info({ database: database.kind, applied }, `${schema} schema up to date`);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * The body of a service's `pnpm migrate` script: migrates the schema of `DATABASE_URL` and exits
 * (2 when `DATABASE_URL` is unset: an embedded database is migrated by the service when it starts).
 */
export async function migrateCommand(
  service: string,
  schema: string,
  config: DatabaseConfig & { LOG_LEVEL: string },
  migrations: Record<string, Migration>,
  logger: Logger,
): Promise<void> {
  if (!config.DATABASE_URL) {
    process.stderr.write(`${service} migrate: set DATABASE_URL to the PostgreSQL server to migrate\n`);
    process.exit(2);
  }
  const database = await openServiceDatabase(schema, config, migrations, logger);
  await database.close();
}
