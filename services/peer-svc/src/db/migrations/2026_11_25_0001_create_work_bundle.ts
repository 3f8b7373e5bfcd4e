import type { Migration } from '@switchyard/service-kit';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

export async function up(db: Db): Promise<void> {
  const schema = db.schema.withSchema('peer');
  await schema
    .createTable('work_bundle')
    .addColumn('id', 'bigint', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('queue', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('enqueued_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await schema.createIndex('work_bundle_queue_id').on('work_bundle').columns(['queue', 'id']).execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.withSchema('peer').dropTable('work_bundle').execute();
}
