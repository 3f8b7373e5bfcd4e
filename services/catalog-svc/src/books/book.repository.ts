import type { BookSortKey, NewBook, SortableBookField } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { CatalogDatabase } from '../db/schema.ts';
import type { BookRow } from './book.table.ts';

/** All SQL of the `catalog.book` table. Every function takes the database or a transaction explicitly. */

type Db = Kysely<CatalogDatabase>;

const columns = ['id', 'name', 'author', 'price', 'year', 'version'] as const;
/** A book row as the service reads it (no timestamps). */
export type StoredBook = Pick<BookRow, (typeof columns)[number]>;

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

/** The book with `id`, or undefined. */
export function findBook(db: Db, id: number): Promise<StoredBook | undefined> {
  return db.selectFrom('book').select(columns).where('id', '=', id).executeTakeFirst();
}

/**
 * Lists books matching `listing` in its order (ties broken by id). When a page is asked for, `total`
 * is the number of matching rows over all pages (one query, with a window count).
 */
export async function listBooks(db: Db, listing: BookListing): Promise<{ rows: StoredBook[]; total: number }> {
  let query = db.selectFrom('book').select(columns);
  if (listing.author !== undefined) query = query.where('author', '=', listing.author);
  if (listing.year !== undefined) query = query.where('year', '=', listing.year);
  for (const key of listing.sort) query = query.orderBy(columnOf[key.field], key.descending ? 'desc' : 'asc');
  if (!listing.sort.some((key) => key.field === 'Id')) query = query.orderBy('id', 'asc');
  if (listing.limit === undefined && listing.offset === 0) {
    const rows = await query.execute();
    return { rows, total: rows.length };
  }
  const rows = await query
    .select(sql<number>`(count(*) over ())::integer`.as('total'))
    .limit(listing.limit ?? 2_147_483_647)
    .offset(listing.offset)
    .execute();
  const total = rows[0]?.total ?? (await countBooks(db, listing));
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

async function countBooks(db: Db, listing: BookListing): Promise<number> {
  let query = db.selectFrom('book').select(sql<number>`count(*)::integer`.as('n'));
  if (listing.author !== undefined) query = query.where('author', '=', listing.author);
  if (listing.year !== undefined) query = query.where('year', '=', listing.year);
  const { n } = await query.executeTakeFirstOrThrow();
  return n;
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
