import { createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './service.ts';

const config = loadGatewayConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);
const running = await startGateway(config, logger);
onShutdownSignal(logger, running.close);
