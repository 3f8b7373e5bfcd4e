import { createLogger, runService } from '@switchyard/service-kit';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './start.ts';

await runService('gateway', async () => {
  const config = loadGatewayConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  return { logger, service: await startGateway(config, logger) };
});
