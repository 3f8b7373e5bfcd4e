import { createLogger, runService } from '@switchyard/service-kit';
import { loadPeerConfig } from './config.ts';
import { startPeerService } from './start.ts';

await runService('peer-svc', async () => {
  const config = loadPeerConfig();
  const logger = createLogger('peer-svc', config.LOG_LEVEL);
  return { logger, service: await startPeerService(config, logger) };
});
