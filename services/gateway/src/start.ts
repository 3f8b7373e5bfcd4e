import { type Logger, listen, type RunningService, startService } from '@switchyard/service-kit';
import type { GatewayConfig } from './config.ts';
import { createGateway } from './gateway.ts';

/** A running gateway: its base URL and a `close()` that stops HTTP, then the upstream pools. */
export type RunningGateway = RunningService<{
  url: string;
  port: number;
}>;

/** Starts the gateway on `config.HOST:config.PORT`. @throws the listen error (e.g. `EADDRINUSE`), after closing the upstream pools */
export function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  return startService(async (scope) => {
    const gateway = createGateway(config, logger);
    scope.defer(gateway.close);
    const http = scope.use(await listen(gateway.handler, config.PORT, config.HOST));
    logger.info({ url: http.url }, 'gateway listening');
    return { url: http.url, port: http.port };
  });
}
