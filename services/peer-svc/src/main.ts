import { createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { loadPeerConfig } from './config.ts';
import { startPeerService } from './service.ts';

const config = loadPeerConfig();
const logger = createLogger('peer-svc', config.LOG_LEVEL);
const running = await startPeerService(config, logger);
onShutdownSignal(logger, running.close);
