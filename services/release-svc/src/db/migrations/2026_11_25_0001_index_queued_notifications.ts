import type { Kysely } from 'kysely';
import { sql } from 'kysely';

// Frozen in time: this file never imports application code.

/** The notifications still waiting to be planned, oldest first: what the worker's checkpoint sweeper looks for every second. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index notification_queued_idx on release.notification (created_at) where status = 'queued'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index release.notification_queued_idx`.execute(db);
}
