import { createLogger } from '@switchyard/service-kit';
import { loadCatalogConfig } from './config.ts';
import { openCatalogDatabase } from './service.ts';

// `pnpm migrate`: brings the `catalog` schema of DATABASE_URL up to date. (An embedded PGlite database
// is migrated by the service itself when it starts.)
const config = loadCatalogConfig();
if (!config.DATABASE_URL) {
  process.stderr.write('catalog-svc migrate: set DATABASE_URL to the PostgreSQL server to migrate\n');
  process.exit(2);
}
const database = await openCatalogDatabase(config, createLogger('catalog-svc', config.LOG_LEVEL));
await database.close();
