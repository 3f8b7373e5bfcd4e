import type { Book } from '@switchyard/contracts';
import { etagOf } from '../books/book.policy.ts';
import type { StoredBook } from '../books/book.table.ts';

/** A book as the API answers it (the seed's field names `Id`, `Name`, `Author`, `Price`, `Year`; no version). */
export function bookResource(row: StoredBook): Book {
  return { Id: row.id, Name: row.name, Author: row.author, Price: row.price, Year: row.year };
}

/** A book's answer: its body and the `ETag` it is sent with. */
export interface TaggedBook {
  book: Book;
  etag: string;
}

/** A stored book as it is answered, with its entity tag. */
export function taggedBook(row: StoredBook): TaggedBook {
  return { book: bookResource(row), etag: etagOf(row.version) };
}

/**
 * The RFC 8288 `Link` header of a page of a listing at `path`: `first`, then `prev` when `offset` is past the start and
 * `next` when matching books remain past the page's `returned` ones (of `total`), each with `query`'s other parameters
 * kept and its own `limit` and `offset`; undefined when `limit` is not positive.
 */
export function pageLinks(
  path: string,
  query: Record<string, string>,
  page: { limit: number; offset: number; returned: number; total: number },
): string | undefined {
  const { limit, offset, returned, total } = page;
  if (limit <= 0) return undefined;
  const at = (pageOffset: number) => {
    const params = new URLSearchParams(query);
    params.set('limit', String(limit));
    params.set('offset', String(pageOffset));
    return `<${path}?${params.toString()}>`;
  };
  const links = [`${at(0)}; rel="first"`];
  if (offset > 0) links.push(`${at(Math.max(0, offset - limit))}; rel="prev"`);
  if (offset + returned < total) links.push(`${at(offset + limit)}; rel="next"`);
  return links.join(', ');
}
