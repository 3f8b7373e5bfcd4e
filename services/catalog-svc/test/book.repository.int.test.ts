import { createLogger, type Database } from '@switchyard/service-kit';
import { createTestDatabase, type TestDatabase } from '@switchyard/service-kit/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as books from '../src/books/book.repository.ts';
import { loadCatalogConfig } from '../src/config.ts';
import { CATALOG_SCHEMA, type CatalogDatabase } from '../src/db/schema.ts';
import { openCatalogDatabase } from '../src/start.ts';

describe('book repository on PostgreSQL', () => {
  let testDb: TestDatabase;
  let database: Database<CatalogDatabase>;
  let db: Kysely<CatalogDatabase>;

  beforeAll(async () => {
    testDb = await createTestDatabase(inject('databaseUrl'), 'catalog_repo');
    database = await openCatalogDatabase(loadCatalogConfig({ DATABASE_URL: testDb.url }), createLogger('test', 'silent'));
    db = database.db.withSchema(CATALOG_SCHEMA);
  });
  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  const dune = { Name: 'Dune', Author: 'Frank Herbert', Price: 9.99, Year: 1965 };

  it('inserts with an identity id and version 1, and finds by id', async () => {
    const row = await books.insertBook(db, dune);
    expect(row).toMatchObject({ name: 'Dune', author: 'Frank Herbert', price: 9.99, year: 1965, version: 1 });
    expect(await books.findBook(db, row.id)).toEqual(row);
    expect(await books.findBook(db, 2_000_000_000)).toBeUndefined();
  });

  it('replaces a row and bumps its version, and refuses an outdated expected version', async () => {
    const row = await books.insertBook(db, dune);
    const replaced = await books.replaceBook(db, row.id, { ...dune, Price: 12 }, 1);
    expect(replaced).toMatchObject({ id: row.id, price: 12, version: 2 });
    expect(await books.replaceBook(db, row.id, { ...dune, Price: 13 }, 1)).toBeUndefined();
    expect((await books.findBook(db, row.id))?.price).toBe(12);
    expect(await books.replaceBook(db, 2_000_000_000, dune)).toBeUndefined();
  });

  it('deletes once, and only at the expected version when one is given', async () => {
    const row = await books.insertBook(db, dune);
    expect(await books.deleteBook(db, row.id, 5)).toBe(false);
    expect(await books.deleteBook(db, row.id, 1)).toBe(true);
    expect(await books.deleteBook(db, row.id)).toBe(false);
  });

  it('lists with filters, sort keys, a tie-breaking id order and a window total', async () => {
    const author = 'Ursula K. Le Guin';
    const ids = [];
    for (const [Name, Year] of [
      ['Z', 1969],
      ['A', 1974],
      ['M', 1969],
    ] as const) {
      ids.push((await books.insertBook(db, { Name, Author: author, Price: 5, Year })).id);
    }
    const all = await books.listBooks(db, { author, sort: [], offset: 0 });
    expect(all.rows.map((r) => r.id)).toEqual(ids);
    expect(all.total).toBe(3);
    const sorted = await books.listBooks(db, { author, sort: [{ field: 'Year', descending: false }], offset: 0 });
    expect(sorted.rows.map((r) => r.name)).toEqual(['Z', 'M', 'A']);
    const page = await books.listBooks(db, { author, sort: [{ field: 'Name', descending: true }], limit: 1, offset: 1 });
    expect(page).toEqual({ rows: [expect.objectContaining({ name: 'M' })], total: 3 });
    expect(await books.listBooks(db, { author, year: 1974, sort: [], offset: 5, limit: 10 })).toEqual({ rows: [], total: 1 });
  });

  it('rejects a negative price at the database too', async () => {
    await expect(books.insertBook(db, { ...dune, Price: -1 })).rejects.toThrow(/check constraint/);
  });
});
