import type { Migration } from '@switchyard/service-kit';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

/** The ignores people made on the code host for each update config, as release-svc last published them, and their version. */
export async function up(db: Db): Promise<void> {
  await db.schema
    .withSchema('config')
    .alterTable('update_config')
    .addColumn('held_ignores', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('held_ignores_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.withSchema('config').alterTable('update_config').dropColumn('held_ignores').dropColumn('held_ignores_version').execute();
}
