import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

/** The labels this service made (or found) in each repository, and the claims of workers making them. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('release')
    .createTable('repo_label')
    .addColumn('repo_id', 'bigint', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('made_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('repo_label_pkey', ['repo_id', 'name'])
    .execute();
  await db.schema
    .withSchema('release')
    .createTable('repo_label_claim')
    .addColumn('repo_id', 'bigint', (c) => c.primaryKey())
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('release').dropTable('repo_label_claim').execute();
  await db.schema.withSchema('release').dropTable('repo_label').execute();
}
