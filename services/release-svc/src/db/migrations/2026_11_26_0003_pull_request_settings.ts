import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * What the job executor needs from config-svc's events: the account settings that only pull requests give meaning to
 * (`create-merge-commits`, `automatically-rebase-prs`, `limit-open-pull-requests`) and the config's language (a label).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s
    .alterTable('account')
    .addColumn('create_merge_commits', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('automatically_rebase_prs', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('limit_open_pull_requests', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await s.alterTable('update_config').addColumn('language', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.alterTable('update_config').dropColumn('language').execute();
  await s
    .alterTable('account')
    .dropColumn('create_merge_commits')
    .dropColumn('automatically_rebase_prs')
    .dropColumn('limit_open_pull_requests')
    .execute();
}
