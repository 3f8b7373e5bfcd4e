import { type Kysely, sql } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';

export type { Migration } from 'kysely/migration';

/** Thrown when a migration fails; `migration` names it. The schema is left at the last good migration. */
export class MigrationFailedError extends Error {
  readonly migration: string | undefined;

  constructor(schema: string, migration: string | undefined, cause: unknown) {
    super(
      `migrating schema ${schema} failed${migration ? ` at ${migration}` : ''}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'MigrationFailedError';
    this.migration = migration;
  }
}

/**
 * Creates `schema` when it does not exist yet, and leaves an existing one alone without asking for any
 * privilege. PostgreSQL checks `CREATE` on the database before it looks whether the schema exists, even for
 * `CREATE SCHEMA IF NOT EXISTS`; a deployment whose service role owns its schema but may not create schemas
 * (the compose stack's and the Kubernetes README's roles) must not be asked for it.
 * Two processes creating it at the same moment (a service's API and its worker starting together) are both fine:
 * PostgreSQL's `IF NOT EXISTS` does not guard that race (the loser gets a unique violation on
 * `pg_namespace_nspname_index`), so that error is taken as "created by the other one" once the schema is seen.
 * @throws the database's error when the schema is missing and the role may not create it
 */
export async function ensureSchema<DB>(db: Kysely<DB>, schema: string): Promise<void> {
  const exists = async () =>
    (await sql<{ found: number }>`select 1 as found from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db)).rows.length > 0;
  if (await exists()) return;
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    // 23505 unique_violation, 42P06 duplicate_schema: another session created it between the look and the create.
    const code = (error as { code?: unknown }).code;
    if ((code === '23505' || code === '42P06') && (await exists())) return;
    throw error;
  }
}

/**
 * Brings a service's schema up to date with Kysely's Migrator. Migrations are given in code (a map from
 * name to module, applied in name order), which works the same under Node, vitest and bundlers.
 * The migration bookkeeping tables live in the service's own schema, so services never share them.
 * @returns the names of the migrations applied by this call (empty when already up to date)
 * @throws MigrationFailedError
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, schema: string, migrations: Record<string, Migration>): Promise<string[]> {
  await ensureSchema(db, schema);
  const migrator = new Migrator({
    db,
    migrationTableSchema: schema,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw new MigrationFailedError(schema, results.find((r) => r.status === 'Error')?.migrationName, error);
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
