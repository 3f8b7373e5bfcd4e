import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/** The version of each config's list of ignores, one more at each change, carried by `update_config.ignores_changed`. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .createTable('config_ignore_version')
    .addColumn('update_config_id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').dropTable('config_ignore_version').execute();
}
