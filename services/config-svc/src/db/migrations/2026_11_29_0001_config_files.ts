import type { Migration } from '@switchyard/service-kit';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

type Db = Parameters<Migration['up']>[0];

/**
 * Repositories' config files: where each update config comes from (`api`, or the file's path) and its settings beyond
 * the API's attributes; per repo, the file last read (its path, state and when it was read).
 */
export async function up(db: Db): Promise<void> {
  const schema = db.schema.withSchema('config');
  await schema
    .alterTable('update_config')
    .addColumn('source', 'text', (col) => col.notNull().defaultTo('api'))
    .addColumn('settings', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await schema.alterTable('repo').addColumn('config_file', 'jsonb').addColumn('config_file_read_at', 'timestamptz').execute();
}

export async function down(db: Db): Promise<void> {
  const schema = db.schema.withSchema('config');
  await schema.alterTable('repo').dropColumn('config_file').dropColumn('config_file_read_at').execute();
  await schema.alterTable('update_config').dropColumn('source').dropColumn('settings').execute();
}
