import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * When each repository's config files were last read (a run asks for them again once a day, should a push have been
 * missed); a request to read them may come without the code host's description of the repository (a run's), which the
 * worker then asks for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('release');
  await schema
    .createTable('config_file_read')
    .addColumn('repo_id', 'bigint', (c) => c.primaryKey())
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await schema
    .alterTable('config_file_check')
    .alterColumn('repository', (c) => c.dropNotNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('release');
  await sql`delete from release.config_file_check where repository is null`.execute(db);
  await schema
    .alterTable('config_file_check')
    .alterColumn('repository', (c) => c.setNotNull())
    .execute();
  await schema.dropTable('config_file_read').execute();
}
