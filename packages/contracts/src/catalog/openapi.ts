import { jsonContent, jsonSchema, problemResponse } from '../openapi-helpers.ts';
import {
  Book,
  BookReplacement,
  BookReplacementAtPath,
  MAX_BOOK_ID,
  MAX_PAGE_SIZE,
  NewBook,
  SORTABLE_BOOK_FIELDS,
  Welcome,
} from './book.ts';

/** Paths and component schemas of the book catalogue (routes in catalog-svc's README). */
export function catalogOpenApi(): { paths: Record<string, unknown>; schemas: Record<string, unknown> } {
  const etag = { ETag: { description: 'Strong entity tag of this version of the book', schema: { type: 'string' } } };
  const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1, maximum: MAX_BOOK_ID } };
  const ifMatch = {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Change only if the book still has this entity tag (else 412)',
    schema: { type: 'string' },
  };
  const bookResponse = (description: string) => ({ description, headers: etag, content: jsonContent('Book') });
  const common = { '400': problemResponse('Invalid request: `errors` names each invalid field'), '404': problemResponse('No such book') };
  const tags = ['book catalogue'];
  // Request bodies are documented with the canonical names; the server also takes them in any case, as Go's
  // encoding/json does (https://pkg.go.dev/encoding/json#Unmarshal).
  const lenient = 'Field names are matched case-insensitively (`name` fills `Name`); one field spelt twice, or an unknown field, is a 400.';
  const body = (ref: string, description: string) => ({
    required: true,
    description: `${description} ${lenient}`,
    content: jsonContent(ref),
  });
  return {
    paths: {
      '/': { get: { tags, summary: 'Welcome message', responses: { '200': { description: 'Welcome', content: jsonContent('Welcome') } } } },
      '/books': {
        get: {
          tags,
          summary: 'List books (all of them unless limit/offset ask for a page)',
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE } },
            { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } },
            { name: 'Author', in: 'query', description: 'Exact author', schema: { type: 'string' } },
            { name: 'Year', in: 'query', schema: { type: 'integer' } },
            {
              name: 'sort',
              in: 'query',
              description: `Comma-separated fields among ${SORTABLE_BOOK_FIELDS.join(', ')}; prefix - for descending`,
              schema: { type: 'string', example: '-Year,Name' },
            },
          ],
          responses: {
            '200': {
              description: 'The books, ordered by Id unless sort says otherwise',
              headers: {
                'X-Total-Count': { description: 'Matching books over all pages', schema: { type: 'integer' } },
                Link: { description: 'first / prev / next pages (RFC 8288) when paged', schema: { type: 'string' } },
              },
              content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Book' } } } },
            },
            '400': common['400'],
          },
        },
        post: {
          tags,
          summary: 'Add a book; the database assigns its Id',
          requestBody: body('NewBook', 'The book; an `Id` in the body is ignored.'),
          responses: {
            '201': { ...bookResponse('Created'), headers: { ...etag, Location: { schema: { type: 'string' } } } },
            '400': common['400'],
            '413': problemResponse('Body too large'),
            '415': problemResponse('Body is not JSON'),
          },
        },
        put: {
          tags,
          summary: 'Replace the book whose Id the body carries',
          parameters: [ifMatch],
          requestBody: body('BookReplacement', 'The whole book, with the `Id` of the one to replace.'),
          responses: { '200': bookResponse('Replaced'), ...common, '412': problemResponse('If-Match is stale') },
        },
      },
      '/books/{id}': {
        get: {
          tags,
          summary: 'One book',
          parameters: [idParam],
          responses: { '200': bookResponse('The book'), '304': { description: 'Not modified (If-None-Match)' }, ...common },
        },
        put: {
          tags,
          summary: 'Replace book {id} (Id in the body optional, must match)',
          parameters: [idParam, ifMatch],
          requestBody: body('BookReplacementAtPath', "The whole book; an `Id`, if given, must be the path's."),
          responses: { '200': bookResponse('Replaced'), ...common, '412': problemResponse('If-Match is stale') },
        },
        delete: {
          tags,
          summary: 'Delete book {id}',
          parameters: [idParam, ifMatch],
          responses: { '204': { description: 'Deleted' }, ...common, '412': problemResponse('If-Match is stale') },
        },
      },
    },
    schemas: {
      Book: jsonSchema(Book),
      NewBook: jsonSchema(NewBook),
      BookReplacement: jsonSchema(BookReplacement),
      BookReplacementAtPath: jsonSchema(BookReplacementAtPath),
      Welcome: jsonSchema(Welcome),
    },
  };
}
