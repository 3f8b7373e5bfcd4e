import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A command given on a pull request whose job has not recorded its number yet (a comment within moments of the pull
 * request's opening): kept with its repository and pull request number, its job found when a worker takes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('release');
  await schema
    .alterTable('pull_request_command')
    .addColumn('repo_id', 'bigint')
    .addColumn('pull_request_number', 'integer')
    .alterColumn('job_id', (c) => c.dropNotNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const schema = db.schema.withSchema('release');
  await db
    .deleteFrom('release.pull_request_command' as never)
    .where('job_id' as never, 'is', null)
    .execute();
  await schema
    .alterTable('pull_request_command')
    .dropColumn('repo_id')
    .dropColumn('pull_request_number')
    .alterColumn('job_id', (c) => c.setNotNull())
    .execute();
}
