import { createLogger, type Listening, listen } from '@switchyard/service-kit';
import { createTestDatabase, type TestDatabase } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { createCatalogApp } from '../src/app.ts';
import { loadCatalogConfig } from '../src/config.ts';
import { CATALOG_SCHEMA } from '../src/db/schema.ts';
import { openCatalogDatabase } from '../src/service.ts';
import { bookApiSuite } from './api.suite.ts';

describe('catalog-svc routes on PostgreSQL (in-process)', () => {
  let testDb: TestDatabase;
  let http: Listening;
  let close: () => Promise<void>;

  beforeAll(async () => {
    testDb = await createTestDatabase(inject('databaseUrl'), 'catalog_routes');
    const config = loadCatalogConfig({ DATABASE_URL: testDb.url, LOG_LEVEL: 'silent' });
    const logger = createLogger('catalog-svc', 'silent');
    const database = await openCatalogDatabase(config, logger);
    const app = createCatalogApp({
      db: database.db.withSchema(CATALOG_SCHEMA),
      logger,
      ping: database.ping,
      bodyLimitBytes: config.BODY_LIMIT_BYTES,
    });
    http = await listen(app, 0, '127.0.0.1');
    close = async () => {
      await http.close(100);
      await database.close();
    };
  });
  afterAll(async () => {
    await close?.();
    await testDb?.drop();
  });

  bookApiSuite(() => http.url);
});
