import { createLogger, runService } from '@switchyard/service-kit';
import { loadCatalogConfig } from './config.ts';
import { startCatalogService } from './start.ts';

await runService('catalog-svc', async () => {
  const config = loadCatalogConfig();
  const logger = createLogger('catalog-svc', config.LOG_LEVEL);
  return { logger, service: await startCatalogService(config, logger) };
});
