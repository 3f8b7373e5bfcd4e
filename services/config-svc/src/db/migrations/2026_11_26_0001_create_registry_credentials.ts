import type { Migration } from '@switchyard/service-kit';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

export async function up(db: Db): Promise<void> {
  await db.schema
    .withSchema('config')
    .createTable('registry_credential')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('account_id', 'bigint', (col) => col.notNull().references('account.id'))
    .addColumn('package_manager', 'text', (col) => col.notNull())
    .addColumn('base_url', 'text', (col) => col.notNull())
    .addColumn('auth_type', 'text', (col) => col.notNull().check(sql`auth_type in ('token', 'basic')`))
    .addColumn('username', 'text')
    .addColumn('sealed_secret', 'text', (col) => col.notNull())
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('registry_credential_account_package_manager_key', ['account_id', 'package_manager'])
    .addCheckConstraint('registry_credential_username_check', sql`(auth_type = 'basic') = (username is not null)`)
    .execute();
}

export async function down(db: Db): Promise<void> {
  await db.schema.withSchema('config').dropTable('registry_credential').execute();
}
