import { createLogger, startService } from '@switchyard/service-kit';
import { createTestDatabase } from '@switchyard/service-kit/testing';
import { inject } from 'vitest';
import { loadCatalogConfig } from '../src/config.ts';
import { startCatalogService } from '../src/start.ts';

/** catalog-svc running in this test process on a fresh PostgreSQL database, on a free loopback port. */
export interface TestCatalog {
  url: string;
  /** Stops HTTP, closes the pool and drops the database. */
  close: () => Promise<void>;
}

/** Starts catalog-svc as `main.ts` would, on a database of its own named after `label`. Call from `beforeAll`. */
export function startTestCatalog(label: string): Promise<TestCatalog> {
  return startService(async (scope) => {
    const database = await createTestDatabase(inject('databaseUrl'), label);
    scope.defer(() => database.drop());
    const config = loadCatalogConfig({ DATABASE_URL: database.url, HOST: '127.0.0.1', PORT: '0' });
    const running = scope.use(await startCatalogService(config, createLogger('catalog-svc', 'silent')));
    return { url: running.url };
  });
}
