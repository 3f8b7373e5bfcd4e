import type { BookListQuery, BookReplacementAtPath, NewBook } from '@switchyard/contracts';
import { InvalidInput, ifMatchSatisfied, NotFound, PreconditionFailed } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { CatalogDatabase } from '../db/schema.ts';
import { etagOf } from './book.policy.ts';
import * as books from './book.repository.ts';
import type { StoredBook } from './book.table.ts';

/** The catalogue's rules: conditional changes (`If-Match` against a book's entity tag, see `etagOf`). */

type Db = Kysely<CatalogDatabase>;

const notFound = (id: number) => new NotFound(`No book with Id ${id}`);
const stale = (id: number) =>
  new PreconditionFailed(`Book ${id} has changed since the entity tag given in If-Match; fetch it again and retry`);

/** Book `id`. @throws NotFound */
export async function getBook(db: Db, id: number): Promise<StoredBook> {
  const row = await books.findBook(db, id);
  if (!row) throw notFound(id);
  return row;
}

/** A listing in the query's order and page, and the total number of matching books over all pages. */
export function listBooks(db: Db, query: BookListQuery): Promise<{ rows: StoredBook[]; total: number }> {
  return books.listBooks(db, {
    author: query.Author,
    year: query.Year,
    sort: query.sort ?? [],
    limit: query.limit,
    offset: query.offset ?? 0,
  });
}

/** Stores a new book; the database assigns its id. */
export function createBook(db: Db, input: NewBook): Promise<StoredBook> {
  return books.insertBook(db, input);
}

/**
 * Replaces book `id` with `input`. With `ifMatch` (an `If-Match` header value), only when the book's
 * current tag satisfies it.
 * @throws NotFound when there is no such book, PreconditionFailed when `ifMatch` is stale
 */
export async function replaceBook(db: Db, id: number, input: NewBook, ifMatch: string | undefined): Promise<StoredBook> {
  if (ifMatch === undefined) {
    const row = await books.replaceBook(db, id, input);
    if (!row) throw notFound(id);
    return row;
  }
  return db.transaction().execute(async (trx) => {
    const current = await books.findBook(trx, id);
    if (!current) throw notFound(id);
    if (!ifMatchSatisfied(ifMatch, etagOf(current.version))) throw stale(id);
    const row = await books.replaceBook(trx, id, input, current.version);
    if (!row) throw stale(id);
    return row;
  });
}

/**
 * `PUT /books/{id}`: {@link replaceBook} with the book the path names; a body `Id`, which may be left out, must name
 * the same book.
 * @throws InvalidInput at `#/Id` when the body's `Id` is another; else as {@link replaceBook}
 */
export async function replaceBookAtPath(
  db: Db,
  id: number,
  replacement: BookReplacementAtPath,
  ifMatch: string | undefined,
): Promise<StoredBook> {
  const { Id, ...input } = replacement;
  if (Id !== undefined && Id !== id) {
    throw new InvalidInput(`Body Id ${Id} does not match the path's id ${id}`, {
      errors: [{ pointer: '#/Id', detail: 'must match the id in the path' }],
    });
  }
  return replaceBook(db, id, input, ifMatch);
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
