import { type Book, BookIdParameter, BookListQuery, BookReplacement, BookReplacementAtPath, NewBook } from '@switchyard/contracts';
import { HttpProblem, ifNoneMatchHits, jsonBody, methodNotAllowed, parseInput } from '@switchyard/service-kit';
import { type Request, type Response, Router } from 'express';
import type { Kysely } from 'kysely';
import * as service from '../books/book.service.ts';
import type { CatalogDatabase } from '../db/schema.ts';

/**
 * The book routes (the README's table of routes): `GET/POST/PUT /books`, `GET/PUT/DELETE /books/{id}`.
 * HTTP only: parse with the contracts' schemas, call the service, shape the response.
 */
export function booksRouter(db: Kysely<CatalogDatabase>): Router {
  const router = Router();

  router
    .route('/books')
    .get(async (req, res) => {
      const query = parseInput(BookListQuery, req.query, 'query');
      const { books, total } = await service.listBooks(db, query);
      res.setHeader('x-total-count', String(total));
      if (query.limit !== undefined || query.offset !== undefined) {
        const link = pageLinks(req, query.limit ?? books.length, query.offset ?? 0, books.length, total);
        if (link) res.setHeader('link', link);
      }
      res.json(books);
    })
    .post(async (req, res) => {
      const input = parseInput(NewBook, jsonBody(req), 'body');
      const created = await service.createBook(db, input);
      res.status(201).location(`/books/${created.book.Id}`);
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
      const found = await service.getBook(db, bookId(req));
      if (ifNoneMatchHits(req.get('if-none-match'), found.etag)) {
        res.status(304).setHeader('etag', found.etag).end();
        return;
      }
      sendBook(res, found);
    })
    .put(async (req, res) => {
      const id = bookId(req);
      const { Id, ...input } = parseInput(BookReplacementAtPath, jsonBody(req), 'body');
      if (Id !== undefined && Id !== id) {
        throw new HttpProblem(400, `Body Id ${Id} does not match the path's id ${id}`, {
          errors: [{ pointer: '#/Id', detail: 'must match the id in the path' }],
        });
      }
      sendBook(res, await service.replaceBook(db, id, input, req.get('if-match')));
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

function sendBook(res: Response, { book, etag }: { book: Book; etag: string }): void {
  res.setHeader('etag', etag);
  res.json(book);
}

/** RFC 8288 `Link` header with `first`, `prev` and `next` pages of a paged listing, keeping the other query parameters. */
function pageLinks(req: Request, limit: number, offset: number, returned: number, total: number): string | undefined {
  if (limit <= 0) return undefined;
  const at = (pageOffset: number) => {
    const params = new URLSearchParams(req.query as Record<string, string>);
    params.set('limit', String(limit));
    params.set('offset', String(pageOffset));
    return `<${req.baseUrl}${req.path}?${params.toString()}>`;
  };
  const links = [`${at(0)}; rel="first"`];
  if (offset > 0) links.push(`${at(Math.max(0, offset - limit))}; rel="prev"`);
  if (offset + returned < total) links.push(`${at(offset + limit)}; rel="next"`);
  return links.join(', ');
}
