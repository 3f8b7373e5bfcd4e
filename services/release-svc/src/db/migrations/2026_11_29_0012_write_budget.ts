import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/** The token buckets of content-creating code-host requests, per installation (or token) and limit window. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .createTable('write_budget')
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_ms', 'integer', (c) => c.notNull())
    .addColumn('tokens', 'double precision', (c) => c.notNull())
    .addColumn('at_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('write_budget_pkey', ['key', 'window_ms'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').dropTable('write_budget').execute();
}
