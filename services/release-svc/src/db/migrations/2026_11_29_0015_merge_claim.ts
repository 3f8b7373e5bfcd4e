import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * The merge a worker is making of a job's pull request (`merging_method`: `merge` or `squash`, `merging_at`: when it
 * began), so that a `@dependabot merge` / `squash and merge` / `cancel merge` given meanwhile is not answered as if it
 * still decided how, or whether, the pull request is merged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .alterTable('pull_request_job')
    .addColumn('merging_method', 'text')
    .addColumn('merging_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').alterTable('pull_request_job').dropColumn('merging_method').dropColumn('merging_at').execute();
}
