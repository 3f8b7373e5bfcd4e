import { bufferedStdout, createLogger, runService } from '@switchyard/service-kit';
import { loadGatewayConfig } from './config.ts';
import { startGateway } from './start.ts';

await runService('gateway', async () => {
  const config = loadGatewayConfig();
  // One line per forwarded request at `info`: written in batches, not one `write(2)` each.
  const logger = createLogger('gateway', config.LOG_LEVEL, bufferedStdout());
  return { logger, service: await startGateway(config, logger) };
});
