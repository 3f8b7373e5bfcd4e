import { type Kysely, sql } from 'kysely';

// Frozen in time: this file never imports application code.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .withSchema('catalog')
    .createTable('book')
    .addColumn('id', 'integer', (col) => col.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('author', 'text', (col) => col.notNull())
    .addColumn('price', 'float8', (col) => col.notNull().check(sql`price >= 0`))
    .addColumn('year', 'integer', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.withSchema('catalog').createIndex('book_author_idx').on('book').column('author').execute();
  await db.schema.withSchema('catalog').createIndex('book_year_idx').on('book').column('year').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.withSchema('catalog').dropTable('book').execute();
}
