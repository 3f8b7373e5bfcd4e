import { createLogger } from '@switchyard/service-kit';
import { loadCatalogConfig } from './config.ts';
import { openCatalogDatabase } from './service.ts';

const config = loadCatalogConfig();
const database = await openCatalogDatabase(config, createLogger('catalog-svc', config.LOG_LEVEL));
await database.close();
