import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/**
 * A run keeps the declarations its files hold that it could not read and left out (a Docker `FROM` whose image cannot
 * be read), each `{ file, line, text, reason }`, so that one unreadable line is reported instead of failing the run.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .alterTable('update_run')
    .addColumn('skipped_declarations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').alterTable('update_run').dropColumn('skipped_declarations').execute();
}
