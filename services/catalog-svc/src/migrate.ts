import { createLogger, migrateCommand } from '@switchyard/service-kit';
import { loadCatalogConfig } from './config.ts';
import { catalogMigrations } from './db/migrations/index.ts';
import { CATALOG_SCHEMA } from './db/schema.ts';

// `pnpm migrate`: brings the `catalog` schema of DATABASE_URL up to date.
const config = loadCatalogConfig();
await migrateCommand('catalog-svc', CATALOG_SCHEMA, config, catalogMigrations, createLogger('catalog-svc', config.LOG_LEVEL));
