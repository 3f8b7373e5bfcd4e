import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Open pull requests are kept current: each job remembers the commit this service made on its branch (`head_sha`: a
 * branch whose head is another commit was pushed to by a person and is not rebased), the target branch's commit that
 * commit was made on (`base_sha`: a target branch that moved from it calls for a rebase) and when its pull request is next
 * looked at (`maintain_at`: rebase, automerge, reconciliation of missed webhooks; null once it is no longer open); and
 * which execution of a job holds it (`claimed_by`, a token per execution, and `claimed_at`, its heartbeat), so that two
 * deliveries of one job never run at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s
    .alterTable('pull_request_job')
    .addColumn('head_sha', 'text')
    .addColumn('base_sha', 'text')
    .addColumn('maintain_at', 'timestamptz')
    .addColumn('claimed_by', 'text')
    .addColumn('claimed_at', 'timestamptz')
    .execute();
  await s
    .createIndex('pull_request_job_maintain_idx')
    .on('pull_request_job')
    .column('maintain_at')
    .where(sql.ref('maintain_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.dropIndex('release.pull_request_job_maintain_idx').execute();
  await s
    .alterTable('pull_request_job')
    .dropColumn('head_sha')
    .dropColumn('base_sha')
    .dropColumn('maintain_at')
    .dropColumn('claimed_by')
    .dropColumn('claimed_at')
    .execute();
}
