import { createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { loadConfigServiceConfig } from './config.ts';
import { startConfigService } from './service.ts';

const config = loadConfigServiceConfig();
const logger = createLogger('config-svc', config.LOG_LEVEL);
const running = await startConfigService(config, logger);
onShutdownSignal(logger, running.close);
