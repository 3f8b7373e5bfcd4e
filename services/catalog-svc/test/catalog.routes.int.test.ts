import { afterAll, beforeAll, describe } from 'vitest';
import { bookApiSuite } from './api.suite.ts';
import { startTestCatalog, type TestCatalog } from './start-catalog.ts';

describe('catalog-svc routes on PostgreSQL (in-process)', () => {
  let catalog: TestCatalog;

  beforeAll(async () => {
    catalog = await startTestCatalog('catalog_routes');
  });
  afterAll(() => catalog?.close());

  bookApiSuite(() => catalog.url);
});
