import type { Migration } from '@switchyard/service-kit';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

export async function up(db: Db): Promise<void> {
  const schema = db.schema.withSchema('peer');
  await schema
    .createTable('directory_entry')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('data_id', 'text', (col) => col.notNull())
    .addColumn('cost', 'integer', (col) => col.notNull())
    .addColumn('quality', 'integer', (col) => col.notNull())
    .addColumn('expense', 'integer', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('seen_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('directory_entry_cost_check', sql`cost >= 0`)
    .addCheckConstraint('directory_entry_quality_check', sql`quality between 0 and 100`)
    .execute();
  await schema.createIndex('directory_entry_data_id_expense_idx').on('directory_entry').columns(['data_id', 'expense']).execute();
  await schema.createIndex('directory_entry_source_idx').on('directory_entry').column('source').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.withSchema('peer').dropTable('directory_entry').execute();
}
