import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The "Upgrade to GitHub-native Dependabot" pull request a person asked for a repository: one row a repository, waiting
 * for a worker (`pending`) or done (`opened`, with the pull request, or `failed`, with why).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .createTable('repo_upgrade')
    .addColumn('repo_id', 'bigint', (c) => c.primaryKey())
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('requested_by', 'bigint', (c) => c.notNull())
    .addColumn('requested_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('due_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'opened', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('pull_request_number', 'integer')
    .addColumn('pull_request_url', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').dropTable('repo_upgrade').execute();
}
