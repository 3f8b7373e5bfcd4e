import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The GitHub App's installations as the code host last said (webhooks, or the worker's reconciliation): which account,
 * all repositories or selected ones, suspended, removed. A repository of an account whose installation is removed or
 * suspended, or not among its selected ones, is `inactive`: its runs stop.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .createTable('app_installation')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('account_login', 'text', (c) => c.notNull())
    .addColumn('account_type', 'text', (c) => c.notNull())
    .addColumn('repository_selection', 'text', (c) => c.notNull())
    .addColumn('repository_ids', 'jsonb')
    .addColumn('suspended', 'boolean', (c) => c.notNull())
    .addColumn('removed', 'boolean', (c) => c.notNull())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.withSchema('release').createIndex('app_installation_account').on('app_installation').column('account_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').dropTable('app_installation').execute();
}
