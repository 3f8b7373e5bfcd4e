import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * Notifications recorded but not scanned: status `rejected` with a `reason` (unknown package manager, a name the
 * ecosystem cannot have). The statuses are checked from now on, and `reason` is set exactly for `rejected`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const table = () => db.schema.withSchema('release').alterTable('notification');
  await table().addColumn('reason', 'text').execute();
  await table()
    .addCheckConstraint('notification_status_check', sql`status in ('queued', 'scanning', 'done', 'failed', 'rejected')`)
    .execute();
  await table().addCheckConstraint('notification_reason_check', sql`(status = 'rejected') = (reason is not null)`).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const table = () => db.schema.withSchema('release').alterTable('notification');
  await table().dropConstraint('notification_reason_check').execute();
  await table().dropConstraint('notification_status_check').execute();
  await table().dropColumn('reason').execute();
}
