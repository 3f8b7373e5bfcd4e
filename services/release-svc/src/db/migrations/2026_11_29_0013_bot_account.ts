import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/** The login the code host shows as the sender of what the service's workers do (one row). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .createTable('bot_account')
    .addColumn('id', 'boolean', (c) => c.primaryKey().defaultTo(true).check(sql`id`))
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').dropTable('bot_account').execute();
}
