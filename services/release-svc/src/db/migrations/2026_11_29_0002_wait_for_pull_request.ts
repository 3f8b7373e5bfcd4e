import type { Kysely } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A dependency has one pull request at a time: a newer version's job waits (`queued-limit`) while an older version's
 * pull request that someone else pushed to is open, and `waits_for_job_id` names that older job. Once it is no longer
 * open (merged or closed, as the code host says), the waiting job is taken up first, in that pull request's place under
 * the open pull-request limit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .alterTable('pull_request_job')
    .addColumn('waits_for_job_id', 'integer', (c) => c.references('release.pull_request_job.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').alterTable('pull_request_job').dropColumn('waits_for_job_id').execute();
}
