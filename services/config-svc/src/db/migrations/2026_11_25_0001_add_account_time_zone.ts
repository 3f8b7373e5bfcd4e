import type { Migration } from '@switchyard/service-kit';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

export async function up(db: Db): Promise<void> {
  await db.schema
    .withSchema('config')
    .alterTable('account')
    .addColumn('time_zone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.withSchema('config').alterTable('account').dropColumn('time_zone').execute();
}
