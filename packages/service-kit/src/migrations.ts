import type { Kysely } from 'kysely';
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
 * Brings a service's schema up to date with Kysely's Migrator. Migrations are given in code (a map from
 * name to module, applied in name order), which works the same under Node, vitest and bundlers.
 * The migration bookkeeping tables live in the service's own schema, so services never share them.
 * @returns the names of the migrations applied by this call (empty when already up to date)
 * @throws MigrationFailedError
 */
export async function migrateToLatest(db: Kysely<unknown>, schema: string, migrations: Record<string, Migration>): Promise<string[]> {
  await db.schema.createSchema(schema).ifNotExists().execute();
  const migrator = new Migrator({
    db,
    migrationTableSchema: schema,
    provider: { getMigrations: async () => migrations },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) throw new MigrationFailedError(schema, results.find((r) => r.status === 'Error')?.migrationName, error);
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
