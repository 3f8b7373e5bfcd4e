import type { Migration } from '@switchyard/service-kit';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

export async function up(db: Db): Promise<void> {
  const schema = db.schema.withSchema('peer');
  await schema
    .createTable('peer')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('origin', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('not-contacted'))
    .addColumn('missed', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_heartbeat_at', 'timestamptz')
    .addColumn('registered_at', 'timestamptz')
    .execute();
  await schema
    .createTable('child_directory')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('parent', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('added_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await schema
    .createTable('client_place')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('queue', 'text', (col) => col.notNull())
    .execute();
}

export async function down(db: Db): Promise<void> {
  const schema = db.schema.withSchema('peer');
  await schema.dropTable('client_place').execute();
  await schema.dropTable('child_directory').execute();
  await schema.dropTable('peer').execute();
}
