import { z } from 'zod';
import { Book, BookReplacement, MAX_BOOK_ID, MAX_PAGE_SIZE, NewBook, SORTABLE_BOOK_FIELDS, Welcome } from './catalog/book.ts';
import { PROBLEM_CONTENT_TYPE, ProblemDetails } from './problem.ts';

/**
 * The OpenAPI 3.1 description of every API the gateway serves, generated from the zod schemas of this
 * package (JSON Schema 2020-12, which OpenAPI 3.1 uses as it is). Served by the gateway at `/openapi.json`.
 */
export function openApiDocument(): Record<string, unknown> {
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' });
  const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });
  const problem = (description: string) => ({
    description,
    content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
  });
  const etag = { ETag: { description: 'Strong entity tag of this version of the book', schema: { type: 'string' } } };
  const idParam = {
    name: 'id',
    in: 'path',
    required: true,
    schema: { type: 'integer', minimum: 1, maximum: MAX_BOOK_ID },
  };
  const ifMatch = {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Change only if the book still has this entity tag (else 412)',
    schema: { type: 'string' },
  };
  const bookResponse = (description: string) => ({ description, headers: etag, content: json('Book') });
  const common = { '400': problem('Invalid request: `errors` names each invalid field'), '404': problem('No such book') };
  return {
    openapi: '3.1.0',
    info: {
      title: 'switchyard',
      version: '0.1.0',
      description: 'Book catalogue, dependency update service and peer directory endpoints, behind one gateway.',
    },
    paths: {
      '/': {
        get: {
          tags: ['catalogue'],
          summary: 'Welcome message',
          responses: { '200': { description: 'Welcome', content: json('Welcome') } },
        },
      },
      '/books': {
        get: {
          tags: ['catalogue'],
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
          tags: ['catalogue'],
          summary: 'Add a book; the database assigns its Id',
          requestBody: { required: true, content: json('NewBook') },
          responses: {
            '201': { ...bookResponse('Created'), headers: { ...etag, Location: { schema: { type: 'string' } } } },
            '400': common['400'],
            '413': problem('Body too large'),
            '415': problem('Body is not JSON'),
          },
        },
        put: {
          tags: ['catalogue'],
          summary: 'Replace the book whose Id the body carries',
          parameters: [ifMatch],
          requestBody: { required: true, content: json('BookReplacement') },
          responses: { '200': bookResponse('Replaced'), ...common, '412': problem('If-Match is stale') },
        },
      },
      '/books/{id}': {
        get: {
          tags: ['catalogue'],
          summary: 'One book',
          parameters: [idParam],
          responses: { '200': bookResponse('The book'), '304': { description: 'Not modified (If-None-Match)' }, ...common },
        },
        put: {
          tags: ['catalogue'],
          summary: 'Replace book {id} (Id in the body optional, must match)',
          parameters: [idParam, ifMatch],
          requestBody: { required: true, content: json('NewBook') },
          responses: { '200': bookResponse('Replaced'), ...common, '412': problem('If-Match is stale') },
        },
        delete: {
          tags: ['catalogue'],
          summary: 'Delete book {id}',
          parameters: [idParam, ifMatch],
          responses: { '204': { description: 'Deleted' }, ...common, '412': problem('If-Match is stale') },
        },
      },
    },
    components: {
      schemas: {
        Book: schema(Book),
        NewBook: schema(NewBook),
        BookReplacement: schema(BookReplacement),
        Welcome: schema(Welcome),
        ProblemDetails: schema(ProblemDetails),
      },
    },
  };
}
