import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Jobs become pull requests: each job keeps its branch, its pull request's number and URL, why its status is what it
 * is, and when that changed; `webhook_delivery` records each code-host webhook delivery once (by its delivery id).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s
    .alterTable('pull_request_job')
    .addColumn('branch', 'text')
    .addColumn('pull_request_number', 'integer')
    .addColumn('pull_request_url', 'text')
    .addColumn('status_reason', 'text')
    .addColumn('status_changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await s.createIndex('pull_request_job_pull_request_idx').on('pull_request_job').columns(['repo_id', 'pull_request_number']).execute();
  await s.createIndex('pull_request_job_status_idx').on('pull_request_job').columns(['status', 'id']).execute();
  await s
    .createTable('webhook_delivery')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('action', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await s.createIndex('webhook_delivery_received_idx').on('webhook_delivery').column('received_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const s = db.schema.withSchema('release');
  await s.dropTable('webhook_delivery').execute();
  await s.dropIndex('release.pull_request_job_status_idx').execute();
  await s.dropIndex('release.pull_request_job_pull_request_idx').execute();
  await s
    .alterTable('pull_request_job')
    .dropColumn('branch')
    .dropColumn('pull_request_number')
    .dropColumn('pull_request_url')
    .dropColumn('status_reason')
    .dropColumn('status_changed_at')
    .execute();
}
