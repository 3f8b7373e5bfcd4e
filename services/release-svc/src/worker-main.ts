import { createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { loadReleaseConfig } from './config.ts';
import { startReleaseWorker } from './worker.ts';

const config = loadReleaseConfig();
const logger = createLogger('release-worker', config.LOG_LEVEL);
const running = await startReleaseWorker(config, logger);
onShutdownSignal(logger, running.close);
