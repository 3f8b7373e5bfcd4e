import type { Book, BookListQuery, NewBook } from '@switchyard/contracts';
import { ifMatchSatisfied, NotFound, PreconditionFailed } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { CatalogDatabase } from '../db/schema.ts';
import * as books from './book.repository.ts';

/** The catalogue's rules: what a book looks like on the wire, its entity tag, and conditional changes. */

type Db = Kysely<CatalogDatabase>;

/** A book with its current entity tag. */
export interface TaggedBook {
  book: Book;
  etag: string;
}

/** The strong entity tag of a stored version of a book: `"<version>"`. */
export function etagOf(version: number): string {
  return `"${version}"`;
}

function toTagged(row: books.StoredBook): TaggedBook {
  return { book: { Id: row.id, Name: row.name, Author: row.author, Price: row.price, Year: row.year }, etag: etagOf(row.version) };
}

const notFound = (id: number) => new NotFound(`No book with Id ${id}`);
const stale = (id: number) =>
  new PreconditionFailed(`Book ${id} has changed since the entity tag given in If-Match; fetch it again and retry`);

/** Book `id` with its tag. @throws NotFound */
export async function getBook(db: Db, id: number): Promise<TaggedBook> {
  const row = await books.findBook(db, id);
  if (!row) throw notFound(id);
  return toTagged(row);
}

/** A listing and the total number of matching books over all pages. */
export async function listBooks(db: Db, query: BookListQuery): Promise<{ books: Book[]; total: number }> {
  const { rows, total } = await books.listBooks(db, {
    author: query.Author,
    year: query.Year,
    sort: query.sort ?? [],
    limit: query.limit,
    offset: query.offset ?? 0,
  });
  return { books: rows.map((row) => toTagged(row).book), total };
}

/** Stores a new book; the database assigns `Id`. */
export async function createBook(db: Db, input: NewBook): Promise<TaggedBook> {
  return toTagged(await books.insertBook(db, input));
}

/**
 * Replaces book `id` with `input`. With `ifMatch` (an `If-Match` header value), only when the book's
 * current tag satisfies it.
 * @throws NotFound when there is no such book, PreconditionFailed when `ifMatch` is stale
 */
export async function replaceBook(db: Db, id: number, input: NewBook, ifMatch: string | undefined): Promise<TaggedBook> {
  if (ifMatch === undefined) {
    const row = await books.replaceBook(db, id, input);
    if (!row) throw notFound(id);
    return toTagged(row);
  }
  return db.transaction().execute(async (trx) => {
    const current = await books.findBook(trx, id);
    if (!current) throw notFound(id);
    if (!ifMatchSatisfied(ifMatch, etagOf(current.version))) throw stale(id);
    const row = await books.replaceBook(trx, id, input, current.version);
    if (!row) throw stale(id);
    return toTagged(row);
  });
}

/**
 * Deletes book `id`, honouring `If-Match` as {@link replaceBook} does.
 * @throws NotFound when there is no such book, PreconditionFailed when `ifMatch` is stale
 */
export async function deleteBook(db: Db, id: number, ifMatch: string | undefined): Promise<void> {
  if (ifMatch === undefined) {
    if (!(await books.deleteBook(db, id))) throw notFound(id);
    return;
  }
  const current = await books.findBook(db, id);
  if (!current) throw notFound(id);
  if (!ifMatchSatisfied(ifMatch, etagOf(current.version))) throw stale(id);
  if (!(await books.deleteBook(db, id, current.version))) throw stale(id);
}
