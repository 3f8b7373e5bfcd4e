import { createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { loadReleaseConfig } from './config.ts';
import { startReleaseApi } from './service.ts';

const config = loadReleaseConfig();
const logger = createLogger('release-svc', config.LOG_LEVEL);
const running = await startReleaseApi(config, logger);
onShutdownSignal(logger, running.close);
