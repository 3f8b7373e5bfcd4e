import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The read model of repos keeps whether the code host calls a repo private (`repo.*` events carry it): the status badge
 * (`GET /badges/status`) is served for public repos only. A row stored before this migration, whose event did not
 * keep it, counts as private until config-svc sends the repo's state again. Two indexes serve the badge's lookups: a
 * repo by `owner/name`, compared case-insensitively as the code host does, and a repo's live update configs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .alterTable('repo')
    .addColumn('private', 'boolean', (c) => c.notNull().defaultTo(true))
    .execute();
  await sql`create index repo_full_name_idx on release.repo (lower(full_name))`.execute(db);
  await sql`create index update_config_repo_idx on release.update_config (repo_id) where not deleted`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index release.update_config_repo_idx`.execute(db);
  await sql`drop index release.repo_full_name_idx`.execute(db);
  await db.schema.withSchema('release').alterTable('repo').dropColumn('private').execute();
}
