import { createLogger, runService } from '@switchyard/service-kit';
import { loadConfigServiceConfig } from './config.ts';
import { startConfigService } from './start.ts';

await runService('config-svc', async () => {
  const config = loadConfigServiceConfig();
  const logger = createLogger('config-svc', config.LOG_LEVEL);
  return { logger, service: await startConfigService(config, logger) };
});
