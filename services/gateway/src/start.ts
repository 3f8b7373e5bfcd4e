import { type Logger, listenHolding } from '@switchyard/service-kit';
import type { GatewayConfig } from './config.ts';
import { createGateway } from './gateway.ts';

/** A running gateway: its base URL and a `close()` that stops HTTP, then the upstream pools. */
export interface RunningGateway {
  url: string;
  port: number;
  close: () => Promise<void>;
}

/** Starts the gateway on `config.HOST:config.PORT`. @throws the listen error (e.g. `EADDRINUSE`) */
export async function startGateway(config: GatewayConfig, logger: Logger): Promise<RunningGateway> {
  const gateway = createGateway(config, logger);
  const http = await listenHolding(gateway.handler, config.PORT, config.HOST, gateway.close);
  logger.info({ url: http.url }, 'gateway listening');
  return {
    url: http.url,
    port: http.port,
    close: () => http.close(),
  };
}
