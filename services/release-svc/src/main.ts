import { createLogger, runService } from '@switchyard/service-kit';
import { loadReleaseConfig } from './config.ts';
import { startReleaseApi } from './start.ts';

await runService('release-svc', async () => {
  const config = loadReleaseConfig();
  const logger = createLogger('release-svc', config.LOG_LEVEL);
  return { logger, service: await startReleaseApi(config, logger) };
});
