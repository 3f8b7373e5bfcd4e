import { randomUUID } from 'node:crypto';
import { request } from '@switchyard/service-kit/testing';
import { describe, expect, it } from 'vitest';

/**
 * The book catalogue's HTTP contract, as a suite that runs against any base URL: catalog-svc in-process
 * on PostgreSQL, catalog-svc and the gateway as separate processes, and the standalone launcher on
 * PGlite. It creates its own books (with a unique author per test) and assumes nothing else about the data.
 */
export function bookApiSuite(target: () => string): void {
  const call = (method: string, path: string, options?: Parameters<typeof request>[3]) => request(target(), method, path, options);
  const author = () => `Author ${randomUUID()}`;
  const book = (overrides: Record<string, unknown> = {}) => ({
    Name: 'The Left Hand of Darkness',
    Author: author(),
    Price: 8.5,
    Year: 1969,
    ...overrides,
  });

  /** The same body with every field name in lower case (`name`, `author`, ...), as clients of the Go original send. */
  const lowerCase = (body: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(body).map(([key, value]) => [key.toLowerCase(), value]));

  async function create(body: Record<string, unknown>) {
    const res = await call('POST', '/books', { body });
    expect(res.status, res.text).toBe(201);
    return res;
  }

  function expectProblem(res: Awaited<ReturnType<typeof call>>, status: number) {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'about:blank', status });
    expect(typeof res.body.title).toBe('string');
  }

  describe('GET /', () => {
    it('answers a welcome message', async () => {
      const res = await call('GET', '/');
      expect(res.status).toBe(200);
      expect(res.body.message).toMatch(/welcome/i);
    });
  });

  describe('POST /books', () => {
    it('creates a book with a database-assigned Id, Location and ETag', async () => {
      const input = book({ Id: undefined });
      const res = await create(input);
      expect(Object.keys(res.body)).toEqual(['Id', 'Name', 'Author', 'Price', 'Year']);
      expect(res.body).toMatchObject({ Name: input.Name, Author: input.Author, Price: 8.5, Year: 1969 });
      expect(Number.isInteger(res.body.Id) && res.body.Id > 0).toBe(true);
      expect(res.headers.get('location')).toBe(`/books/${res.body.Id}`);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const again = await call('GET', res.headers.get('location') ?? '');
      expect(again.body).toEqual(res.body);
    });

    it('matches field names case-insensitively, as Go encoding/json does, and answers with the canonical names', async () => {
      const input = book();
      for (const body of [lowerCase(input), { NAME: input.Name, author: input.Author, pRiCe: input.Price, YEAR: input.Year }]) {
        const res = await create(body);
        expect(Object.keys(res.body)).toEqual(['Id', 'Name', 'Author', 'Price', 'Year']);
        expect(res.body).toEqual({ Id: res.body.Id, ...input });
        expect((await call('GET', `/books/${res.body.Id}`)).body).toEqual(res.body);
      }
    });

    it('ignores an Id in the body, in any case: the server assigns it', async () => {
      const zero = await create({ id: 0, ...lowerCase(book()) });
      expect(Number.isInteger(zero.body.Id) && zero.body.Id > 0).toBe(true);
      const ninetyNine = await create({ Id: 99, ...book() });
      expect(ninetyNine.body.Id).toBeGreaterThan(zero.body.Id);
      // An id that is certainly taken, so the answer cannot carry it by coincidence.
      const taken = await create(book());
      const res = await create({ ...book({ Name: 'Not a replacement' }), ID: taken.body.Id });
      expect(res.body.Id).not.toBe(taken.body.Id);
      expect(res.headers.get('location')).toBe(`/books/${res.body.Id}`);
      expect((await call('GET', `/books/${taken.body.Id}`)).body).toEqual(taken.body);
    });

    it('assigns distinct ids', async () => {
      const [a, b] = await Promise.all([create(book()), create(book())]);
      expect(a.body.Id).not.toBe(b.body.Id);
    });

    const invalid: Array<[string, unknown, string[]]> = [
      ['missing fields', { Name: 'Only a name' }, ['#/Author', '#/Price', '#/Year']],
      ['wrong types', { Name: 1, Author: true, Price: '12', Year: '1999' }, ['#/Name', '#/Author', '#/Price', '#/Year']],
      ['blank text', { ...book(), Name: '  ', Author: '' }, ['#/Name', '#/Author']],
      ['a negative price', { ...book(), Price: -0.01 }, ['#/Price']],
      ['an absurd year', { ...book(), Year: 250_000 }, ['#/Year']],
      ['a fractional year', { ...book(), Year: 1999.5 }, ['#/Year']],
      ['an unknown field', { ...book(), Isbn: '978-0' }, ['#/Isbn']],
      ['an unknown field among lower-case ones', lowerCase({ ...book(), isbn: '978-0' }), ['#/isbn']],
      ['an array', [book()], ['#/']],
      ['a NUL character', { ...book(), Name: 'a\u0000b' }, ['#/Name']],
    ];
    for (const [what, body, pointers] of invalid) {
      it(`refuses ${what} with 400 naming each field`, async () => {
        const res = await call('POST', '/books', { body });
        expectProblem(res, 400);
        expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(pointers);
        for (const pointer of pointers.filter((p) => p !== '#/')) expect(res.body.detail).toContain(pointer.slice(2));
      });
    }

    it('refuses two spellings of one field with 400 naming the repeated spelling and the field', async () => {
      for (const [body, pointer, field] of [
        [{ ...book(), name: 'Another name' }, '#/name', 'Name'],
        [{ YEAR: 1970, ...book() }, '#/Year', 'Year'],
        [{ ...book(), id: 1, ID: 2 }, '#/ID', 'Id'],
      ] as const) {
        const res = await call('POST', '/books', { body });
        expectProblem(res, 400);
        expect(res.body.errors).toEqual([{ pointer, detail: expect.stringContaining(`field ${field}`) }]);
        expect(res.body.detail).toContain(pointer.slice(2));
      }
    });

    it('refuses malformed JSON, JSON null, an empty body and a non-JSON body', async () => {
      const json = { 'content-type': 'application/json' };
      expectProblem(await call('POST', '/books', { body: '{"Name": "x",', headers: json }), 400);
      expectProblem(await call('POST', '/books', { body: 'null', headers: json }), 400);
      expectProblem(await call('POST', '/books', { headers: json }), 400);
      const form = await call('POST', '/books', { body: 'Name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expectProblem(form, 415);
    });

    it('refuses an oversized body with 413', async () => {
      const res = await call('POST', '/books', { body: { ...book(), Name: 'x'.repeat(100_000) } });
      expectProblem(res, 413);
    });
  });

  describe('GET /books/{id}', () => {
    it('returns the book with its ETag, and 304 for a matching If-None-Match', async () => {
      const created = await create(book());
      const res = await call('GET', `/books/${created.body.Id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created.body);
      const etag = res.headers.get('etag') ?? '';
      expect((await call('GET', `/books/${created.body.Id}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    });

    it('answers 404 for an unknown id and 400 for one that is not a positive 32-bit integer', async () => {
      const missing = await call('GET', '/books/2147483000');
      expectProblem(missing, 404);
      expect(missing.body.detail).toBe('No book with Id 2147483000');
      for (const bad of ['abc', '1.5', '0', '-3', '99999999999', '1e3']) {
        const res = await call('GET', `/books/${bad}`);
        expectProblem(res, 400);
        expect(res.body.errors).toEqual([{ parameter: 'id', detail: expect.any(String) }]);
      }
    });
  });

  describe('PUT /books', () => {
    it('replaces the book the body names and returns it with a new ETag', async () => {
      const created = await create(book());
      const replacement = { Id: created.body.Id, Name: 'Changed', Author: created.body.Author, Price: 20, Year: 1970 };
      const res = await call('PUT', '/books', { body: replacement });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(replacement);
      expect(res.headers.get('etag')).toBe('"2"');
      expect((await call('GET', `/books/${created.body.Id}`)).body).toEqual(replacement);
    });

    it('honours If-Match: 200 when current, 412 when stale', async () => {
      const created = await create(book());
      const etag = created.headers.get('etag') ?? '';
      const body = { ...created.body, Price: 1 };
      const first = await call('PUT', '/books', { body, headers: { 'if-match': etag } });
      expect(first.status).toBe(200);
      const stale = await call('PUT', '/books', { body: { ...body, Price: 2 }, headers: { 'if-match': etag } });
      expectProblem(stale, 412);
      expect((await call('GET', `/books/${created.body.Id}`)).body.Price).toBe(1);
      expect((await call('PUT', '/books', { body, headers: { 'if-match': '*' } })).status).toBe(200);
    });

    it('answers 404 for an unknown Id and 400 for a missing or invalid one', async () => {
      expectProblem(await call('PUT', '/books', { body: { ...book(), Id: 2147483001 } }), 404);
      const missing = await call('PUT', '/books', { body: book() });
      expectProblem(missing, 400);
      expect(missing.body.errors).toEqual([{ pointer: '#/Id', detail: 'is required' }]);
      expectProblem(await call('PUT', '/books', { body: { ...book(), Id: 'seven' } }), 400);
      expectProblem(await call('PUT', '/books', { body: { ...book(), Id: 3, Price: -5 } }), 400);
    });

    it('matches field names case-insensitively, at /books and at /books/{id}', async () => {
      const created = await create(book());
      const replacement = { Id: created.body.Id, Name: 'Lower case', Author: created.body.Author, Price: 3, Year: 1971 };
      const res = await call('PUT', '/books', { body: lowerCase(replacement) });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual(replacement);
      const { Id: _, Year: __, ...withoutIdAndYear } = replacement;
      const atPath = await call('PUT', `/books/${created.body.Id}`, { body: { ...lowerCase(withoutIdAndYear), YEAR: 1972 } });
      expect(atPath.status, atPath.text).toBe(200);
      expect(atPath.body).toEqual({ ...replacement, Year: 1972 });
      const withId = await call('PUT', `/books/${created.body.Id}`, { body: lowerCase({ ...replacement, Price: 4 }) });
      expect(withId.status, withId.text).toBe(200);
      expect((await call('GET', `/books/${created.body.Id}`)).body).toEqual({ ...replacement, Price: 4 });
      const mismatch = await call('PUT', `/books/${created.body.Id}`, { body: lowerCase({ ...replacement, Id: created.body.Id + 1 }) });
      expectProblem(mismatch, 400);
      expect(mismatch.body.errors).toEqual([{ pointer: '#/Id', detail: 'must match the id in the path' }]);
      const twice = await call('PUT', '/books', { body: { ...replacement, price: 5 } });
      expectProblem(twice, 400);
      expect(twice.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['#/price']);
      expect((await call('GET', `/books/${created.body.Id}`)).body.Price).toBe(4);
    });

    it('also replaces at /books/{id}, refusing a body Id that differs', async () => {
      const created = await create(book());
      const res = await call('PUT', `/books/${created.body.Id}`, { body: { ...book(), Name: 'At path' } });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Id: created.body.Id, Name: 'At path' });
      const mismatch = await call('PUT', `/books/${created.body.Id}`, { body: { ...book(), Id: created.body.Id + 1 } });
      expectProblem(mismatch, 400);
      expect(mismatch.body.errors[0].pointer).toBe('#/Id');
    });
  });

  describe('DELETE /books/{id}', () => {
    it('deletes with 204, after which the book is gone (404 on GET, PUT and DELETE)', async () => {
      const created = await create(book());
      const res = await call('DELETE', `/books/${created.body.Id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expectProblem(await call('GET', `/books/${created.body.Id}`), 404);
      expectProblem(await call('PUT', '/books', { body: created.body }), 404);
      expectProblem(await call('DELETE', `/books/${created.body.Id}`), 404);
    });

    it('refuses a stale If-Match with 412 and keeps the book', async () => {
      const created = await create(book());
      expectProblem(await call('DELETE', `/books/${created.body.Id}`, { headers: { 'if-match': '"99"' } }), 412);
      expect((await call('GET', `/books/${created.body.Id}`)).status).toBe(200);
      expect((await call('DELETE', `/books/${created.body.Id}`, { headers: { 'if-match': '"1"' } })).status).toBe(204);
    });

    it('answers 400 for a non-integer id', async () => {
      expectProblem(await call('DELETE', '/books/one'), 400);
    });
  });

  describe('GET /books', () => {
    it('returns a plain array of every book', async () => {
      const created = await create(book());
      const res = await call('GET', '/books');
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body).toContainEqual(created.body);
      expect(Number(res.headers.get('x-total-count'))).toBe(res.body.length);
    });

    it('filters on Author and Year, sorts, and pages with a total and Link header', async () => {
      const who = author();
      for (const [Name, Year, Price] of [
        ['A', 2001, 5],
        ['B', 2003, 1],
        ['C', 2002, 3],
        ['D', 2003, 2],
        ['E', 1999, 4],
      ] as const) {
        await create({ Name, Author: who, Price, Year });
      }
      const byAuthor = await call('GET', `/books?Author=${encodeURIComponent(who)}`);
      expect(byAuthor.body.map((b: { Name: string }) => b.Name)).toEqual(['A', 'B', 'C', 'D', 'E']);
      const year = await call('GET', `/books?Author=${encodeURIComponent(who)}&Year=2003`);
      expect(year.body.map((b: { Name: string }) => b.Name)).toEqual(['B', 'D']);
      const sorted = await call('GET', `/books?Author=${encodeURIComponent(who)}&sort=-Year,Price`);
      expect(sorted.body.map((b: { Name: string }) => b.Name)).toEqual(['B', 'D', 'C', 'A', 'E']);
      const page = await call('GET', `/books?Author=${encodeURIComponent(who)}&sort=Name&limit=2&offset=2`);
      expect(page.body.map((b: { Name: string }) => b.Name)).toEqual(['C', 'D']);
      expect(page.headers.get('x-total-count')).toBe('5');
      const link = page.headers.get('link') ?? '';
      expect(link).toContain('offset=0>; rel="prev"');
      expect(link).toContain('offset=4>; rel="next"');
      const past = await call('GET', `/books?Author=${encodeURIComponent(who)}&limit=2&offset=10`);
      expect(past.body).toEqual([]);
      expect(past.headers.get('x-total-count')).toBe('5');
    });

    it('refuses bad paging, sorting and unknown parameters with 400 naming the parameter', async () => {
      for (const [query, parameter] of [
        ['limit=0', 'limit'],
        ['limit=abc', 'limit'],
        ['limit=5000', 'limit'],
        ['offset=-1', 'offset'],
        ['Year=nineteen', 'Year'],
        ['sort=Price;drop', 'sort'],
        ['limit=1&limit=2', 'limit'],
        ['color=red', 'color'],
        ['Author=%00', 'Author'],
      ]) {
        const res = await call('GET', `/books?${query}`);
        expectProblem(res, 400);
        expect(
          res.body.errors.map((e: { parameter: string }) => e.parameter),
          query,
        ).toContain(parameter);
      }
    });
  });

  describe('methods', () => {
    it('answers 405 with Allow for methods a path does not support', async () => {
      const res = await call('PATCH', '/books');
      expectProblem(res, 405);
      expect(res.headers.get('allow')).toBe('GET, POST, PUT, HEAD');
      expectProblem(await call('POST', '/books/1'), 405);
    });
  });
}
