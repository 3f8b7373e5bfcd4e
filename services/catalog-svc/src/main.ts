import { createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { loadCatalogConfig } from './config.ts';
import { startCatalogService } from './service.ts';

const config = loadCatalogConfig();
const logger = createLogger('catalog-svc', config.LOG_LEVEL);
const running = await startCatalogService(config, logger);
onShutdownSignal(logger, running.close);
