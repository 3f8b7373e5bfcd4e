import type { BookSortKey, NewBook, SortableBookField } from '@switchyard/contracts';
import { type CompiledQuery, createQueryId, type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { CatalogDatabase } from '../db/schema.ts';
import type { StoredBook } from './book.table.ts';

/** All SQL of the `catalog.book` table. Every function takes the database or a transaction explicitly. */

type Db = Kysely<CatalogDatabase>;

/** The columns every statement here reads back: those of {@link StoredBook}. */
const columns = ['id', 'name', 'author', 'price', 'year', 'version'] as const satisfies readonly (keyof StoredBook)[];

const columnOf: Record<SortableBookField, 'id' | 'name' | 'author' | 'price' | 'year'> = {
  Id: 'id',
  Name: 'name',
  Author: 'author',
  Price: 'price',
  Year: 'year',
};

/** Filters, order and page of a listing; `limit` undefined means every matching row. */
export interface BookListing {
  author?: string | undefined;
  year?: number | undefined;
  sort: readonly BookSortKey[];
  limit?: number | undefined;
  offset: number;
}

/**
 * `findBook`'s statement per database handle, compiled once: the hottest query of the service, where Kysely would
 * otherwise build and compile the same SQL on every request (Kysely's "execute compiled queries" recipe, with the
 * parameter swapped in).
 */
const findBookStatements = new WeakMap<Db, CompiledQuery<StoredBook>>();

/** The book with `id`, or undefined. */
export async function findBook(db: Db, id: number): Promise<StoredBook | undefined> {
  let compiled = findBookStatements.get(db);
  if (!compiled) {
    compiled = db.selectFrom('book').select(columns).where('id', '=', 0).compile();
    findBookStatements.set(db, compiled);
  }
  const statement: CompiledQuery<StoredBook> = { ...compiled, parameters: [id], queryId: createQueryId() };
  const { rows } = await db.executeQuery(statement);
  return rows[0];
}

/** The listing's filters as one condition (`true` when there are none). */
function matching(listing: BookListing) {
  return (eb: ExpressionBuilder<CatalogDatabase, 'book'>) => {
    const conditions: Expression<SqlBool>[] = [];
    if (listing.author !== undefined) conditions.push(eb('author', '=', listing.author));
    if (listing.year !== undefined) conditions.push(eb('year', '=', listing.year));
    return eb.and(conditions);
  };
}

/**
 * Lists books matching `listing` in its order (ties broken by id). `total` is the number of matching
 * rows over all pages: counted by a scalar subquery in the same statement when a full page comes
 * back, derived from the page itself when it is the last one.
 */
export async function listBooks(db: Db, listing: BookListing): Promise<{ rows: StoredBook[]; total: number }> {
  let query = db.selectFrom('book').select(columns).where(matching(listing));
  for (const key of listing.sort) query = query.orderBy(columnOf[key.field], key.descending ? 'desc' : 'asc');
  if (!listing.sort.some((key) => key.field === 'Id')) query = query.orderBy('id', 'asc');
  if (listing.limit === undefined && listing.offset === 0) {
    const rows = await query.execute();
    return { rows, total: rows.length };
  }
  const counted = await query
    .select((eb) => eb.selectFrom('book').select(sql<number>`count(*)::integer`.as('n')).where(matching(listing)).as('total'))
    .limit(listing.limit ?? 2_147_483_647)
    .offset(listing.offset)
    .execute();
  const rows = counted.map(({ total: _total, ...row }) => row);
  if (counted[0]) return { rows, total: Number(counted[0].total) };
  const { n } = await db
    .selectFrom('book')
    .select(sql<number>`count(*)::integer`.as('n'))
    .where(matching(listing))
    .executeTakeFirstOrThrow();
  return { rows, total: n };
}

/** Inserts a book; the database assigns its id. */
export function insertBook(db: Db, book: NewBook): Promise<StoredBook> {
  return db
    .insertInto('book')
    .values({ name: book.Name, author: book.Author, price: book.Price, year: book.Year })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

/**
 * Replaces every field of book `id` and bumps its version. With `expectedVersion`, only when the row
 * still has that version (optimistic concurrency).
 * @returns the updated row, or undefined when no row matched
 */
export function replaceBook(db: Db, id: number, book: NewBook, expectedVersion?: number): Promise<StoredBook | undefined> {
  let query = db
    .updateTable('book')
    .set((eb) => ({
      name: book.Name,
      author: book.Author,
      price: book.Price,
      year: book.Year,
      version: eb('version', '+', 1),
      updated_at: sql<Date>`now()`,
    }))
    .where('id', '=', id);
  if (expectedVersion !== undefined) query = query.where('version', '=', expectedVersion);
  return query.returning(columns).executeTakeFirst();
}

/**
 * Deletes book `id` (only at `expectedVersion` when given).
 * @returns whether a row was deleted
 */
export async function deleteBook(db: Db, id: number, expectedVersion?: number): Promise<boolean> {
  let query = db.deleteFrom('book').where('id', '=', id);
  if (expectedVersion !== undefined) query = query.where('version', '=', expectedVersion);
  const result = await query.executeTakeFirst();
  return result.numDeletedRows > 0n;
}
