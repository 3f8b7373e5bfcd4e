import { type Logger, listen, type RunningService, startService } from '@switchyard/service-kit';
import type { GatewayConfig } from './config.ts';
import { createGateway } from './gateway.ts';

/**
 * A running gateway: its base URL, the base URL of its metrics port when `METRICS_PORT` is set, and a `close()`
 * that stops HTTP, then the upstream pools.
 */
export type RunningGateway = RunningService<{
  url: string;
  port: number;
  /** Where `/metrics` is served when `METRICS_PORT` is set (then not on `url`); undefined otherwise. */
  metricsUrl: string | undefined;
}>;

/**
 * Starts the gateway on `config.HOST:config.PORT`, and its metrics on `config.HOST:config.METRICS_PORT` when that
 * is set. @throws the listen error (e.g. `EADDRINUSE`), after closing what was opened
 */
export function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  return startService(async (scope) => {
    const gateway = createGateway(config, logger);
    scope.defer(gateway.close);
    const http = scope.use(await listen(gateway.handler, config.PORT, config.HOST));
    const metrics =
      config.METRICS_PORT === undefined ? undefined : scope.use(await listen(gateway.metricsHandler, config.METRICS_PORT, config.HOST));
    logger.info({ url: http.url, metricsUrl: metrics?.url }, 'gateway listening');
    return { url: http.url, port: http.port, metricsUrl: metrics?.url };
  });
}
