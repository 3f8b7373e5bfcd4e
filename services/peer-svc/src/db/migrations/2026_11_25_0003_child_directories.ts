import type { Migration } from '@switchyard/service-kit';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

export async function up(db: Db): Promise<void> {
  const schema = db.schema.withSchema('peer');
  await schema
    .alterTable('peer')
    .addColumn('role', 'text', (col) => col.notNull().defaultTo('peer').check(sql`role in ('peer', 'child', 'parent')`))
    .execute();
  await schema
    .createTable('child_entry')
    .addColumn('child', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('data_id', 'text', (col) => col.notNull())
    .addColumn('cost', 'integer', (col) => col.notNull())
    .addColumn('quality', 'integer', (col) => col.notNull())
    .addColumn('expense', 'integer', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('child_entry_pkey', ['child', 'key'])
    .execute();
}

export async function down(db: Db): Promise<void> {
  const schema = db.schema.withSchema('peer');
  await schema.dropTable('child_entry').execute();
  await schema.alterTable('peer').dropColumn('role').execute();
}
