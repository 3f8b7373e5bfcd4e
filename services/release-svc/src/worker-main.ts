import { createLogger, runService } from '@switchyard/service-kit';
import { loadReleaseConfig } from './config.ts';
import { startReleaseWorker } from './worker.ts';

await runService('release-worker', async () => {
  const config = loadReleaseConfig();
  const logger = createLogger('release-worker', config.LOG_LEVEL);
  return { logger, service: await startReleaseWorker(config, logger) };
});
