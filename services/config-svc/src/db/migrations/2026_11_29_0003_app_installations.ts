import type { Migration } from '@switchyard/service-kit';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

/**
 * The service's GitHub App installations as release-svc last published them (`app_installation.changed`): which repos
 * of an account are covered (`installation-state`), and the revision, so an older state arriving late changes nothing.
 */
export async function up(db: Db): Promise<void> {
  await db.schema
    .withSchema('config')
    .createTable('app_installation')
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('account_id', 'bigint', (col) => col.notNull())
    .addColumn('repository_selection', 'text', (col) => col.notNull())
    .addColumn('repository_ids', 'jsonb')
    .addColumn('suspended', 'boolean', (col) => col.notNull())
    .addColumn('removed', 'boolean', (col) => col.notNull())
    .addColumn('revision', 'integer', (col) => col.notNull())
    .execute();
  await db.schema.withSchema('config').createIndex('app_installation_account').on('app_installation').column('account_id').execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.withSchema('config').dropTable('app_installation').execute();
}
