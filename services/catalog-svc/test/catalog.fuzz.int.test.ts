import { request } from '@switchyard/service-kit/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestCatalog, type TestCatalog } from './start-catalog.ts';

/**
 * Property: whatever a client sends, catalog-svc answers below 500, and every 4xx is problem+json.
 * Bodies are arbitrary JSON values and near-valid books with fields of any type; ids and query
 * strings are arbitrary text.
 */
describe('catalog-svc under arbitrary input (PostgreSQL)', () => {
  let catalog: TestCatalog;

  beforeAll(async () => {
    catalog = await startTestCatalog('catalog_fuzz');
  });
  afterAll(() => catalog?.close());

  const anyValue = fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary' }), fc.double(), fc.constant(null));
  const nearBook = fc.record({ Id: anyValue, Name: anyValue, Author: anyValue, Price: anyValue, Year: anyValue }, { requiredKeys: [] });
  // Books that pass most checks, with text of any code points, so the database sees odd values too.
  const awkward = fc.constantFrom('\u0000', '\ud800', '\uffff', '\n', '"', '\\', "'", '%', ';', '\u202e');
  const unit = fc.oneof(awkward, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }));
  const text = fc.string({ unit, minLength: 1, maxLength: 60 });
  const plausibleBook = fc.record({
    Id: fc.integer({ min: 1, max: 50 }),
    Name: text,
    Author: text,
    Price: fc.double({ min: 0, max: 1e9, noNaN: true }),
    Year: fc.integer({ min: -3000, max: 2030 }),
  });
  const body = fc.oneof(fc.jsonValue(), nearBook, plausibleBook);

  async function expectNoServerError(method: string, path: string, options: Parameters<typeof request>[3] = {}) {
    const res = await request(catalog.url, method, path, options);
    expect(res.status, `${method} ${path} ${JSON.stringify(options)} -> ${res.text}`).toBeLessThan(500);
    if (res.status >= 400) expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  }

  it('never answers 5xx to arbitrary bodies on POST and PUT', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST /books', 'PUT /books', 'PUT /books/1'), body, async (route, value) => {
        const [method = 'POST', path = '/books'] = route.split(' ');
        await expectNoServerError(method, path, { body: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
      }),
      { numRuns: 300 },
    );
  });

  it('never answers 5xx to arbitrary ids and query strings', async () => {
    const part = fc
      .string({
        unit: fc.oneof(
          awkward.filter((c) => c !== '\ud800'),
          fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
        ),
        maxLength: 40,
      })
      .map(encodeURIComponent);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('GET', 'PUT', 'DELETE'), part, part, part, async (method, id, key, value) => {
        await expectNoServerError(method, `/books/${id}`);
        await expectNoServerError('GET', `/books?${key}=${value}`);
        await expectNoServerError('GET', `/books?Author=${value}`);
        await expectNoServerError('GET', `/books?Author=${value}&sort=${key}&limit=${id}`);
      }),
      { numRuns: 200 },
    );
  });
});
