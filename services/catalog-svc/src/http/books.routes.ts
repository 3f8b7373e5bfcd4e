import { BookIdParameter, BookListQuery, BookReplacement, BookReplacementAtPath, NewBook } from '@switchyard/contracts';
import { ifNoneMatchHits, jsonBody, methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { type Request, type Response, Router } from 'express';
import type { Kysely } from 'kysely';
import * as service from '../books/book.service.ts';
import type { StoredBook } from '../books/book.table.ts';
import type { CatalogDatabase } from '../db/schema.ts';
import { bookResource, pageLinks, taggedBook } from './book.mapper.ts';

/**
 * The book routes (the README's table of routes): `GET/POST/PUT /books`, `GET/PUT/DELETE /books/{id}`.
 * HTTP only: parse with the contracts' schemas, call the service, shape the response (`book.mapper.ts`).
 */
export function booksRouter(db: Kysely<CatalogDatabase>): Router {
  const router = Router();

  router
    .route('/books')
    .get(async (req, res) => {
      const query = parseInput(BookListQuery, req.query, 'query');
      const { rows, total } = await service.listBooks(db, query);
      res.setHeader('x-total-count', String(total));
      if (query.limit !== undefined || query.offset !== undefined) {
        const page = { limit: query.limit ?? rows.length, offset: query.offset ?? 0, returned: rows.length, total };
        const link = pageLinks(`${req.baseUrl}${req.path}`, req.query as Record<string, string>, page);
        if (link) res.setHeader('link', link);
      }
      res.json(rows.map(bookResource));
    })
    .post(async (req, res) => {
      const input = parseInput(NewBook, jsonBody(req), 'body');
      const created = await service.createBook(db, input);
      res.status(201).location(`/books/${created.id}`);
      sendBook(res, created);
    })
    .put(async (req, res) => {
      const { Id, ...input } = parseInput(BookReplacement, jsonBody(req), 'body');
      sendBook(res, await service.replaceBook(db, Id, input, req.get('if-match')));
    })
    .all(methodNotAllowed(['GET', 'POST', 'PUT']));

  router
    .route('/books/:id')
    .get(async (req, res) => {
      const found = taggedBook(await service.getBook(db, bookId(req)));
      if (ifNoneMatchHits(req.get('if-none-match'), found.etag)) {
        res.status(304).setHeader('etag', found.etag).end();
        return;
      }
      res.setHeader('etag', found.etag);
      res.json(found.book);
    })
    .put(async (req, res) => {
      const id = bookId(req);
      const replacement = parseInput(BookReplacementAtPath, jsonBody(req), 'body');
      sendBook(res, await service.replaceBookAtPath(db, id, replacement, req.get('if-match')));
    })
    .delete(async (req, res) => {
      await service.deleteBook(db, bookId(req), req.get('if-match'));
      res.status(204).end();
    })
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  return router;
}

function bookId(req: Request): number {
  return parseInput(BookIdParameter, req.params.id, 'path', 'id');
}

/** Answers `row` with its `ETag`. */
function sendBook(res: Response, row: StoredBook): void {
  const { book, etag } = taggedBook(row);
  res.setHeader('etag', etag);
  res.json(book);
}
