import { loadCatalogConfig } from '@switchyard/catalog-svc/config';
import { startCatalogService } from '@switchyard/catalog-svc/service';
import { loadGatewayConfig } from '@switchyard/gateway/config';
import { startGateway } from '@switchyard/gateway/service';
import { ConfigError, createLogger, onShutdownSignal } from '@switchyard/service-kit';
import { banner } from './banner.ts';

/**
 * `pnpm start`: the whole stack in one process, each service on its own port behind the gateway.
 * With nothing configured it uses embedded PGlite under `DATA_DIR` (default `.data/`);
 * `DATABASE_URL` switches every service to that PostgreSQL server (each in its own schema).
 * `GATEWAY_PORT` (8080) and `CATALOG_PORT` (8083) move the ports; `LOG_LEVEL` defaults to `warn` here.
 */
const env: Record<string, string | undefined> = { LOG_LEVEL: 'warn', ...process.env };
const loopback = '127.0.0.1';

try {
  const catalogConfig = loadCatalogConfig({ ...env, HOST: loopback, PORT: env.CATALOG_PORT ?? '8083' });
  const catalog = await startCatalogService(catalogConfig, createLogger('catalog-svc', catalogConfig.LOG_LEVEL));
  const gatewayConfig = loadGatewayConfig({ ...env, PORT: env.GATEWAY_PORT ?? '8080', CATALOG_SVC_URL: catalog.url });
  const gatewayLogger = createLogger('gateway', gatewayConfig.LOG_LEVEL);
  const gateway = await startGateway(gatewayConfig, gatewayLogger);

  process.stdout.write(banner({ gatewayUrl: gateway.url, database: catalog.database.kind, dataDir: catalogConfig.DATA_DIR }));
  onShutdownSignal(gatewayLogger, async () => {
    await gateway.close();
    await catalog.close();
    process.stdout.write('switchyard stopped\n');
  });
} catch (error) {
  process.stderr.write(
    `switchyard could not start: ${error instanceof ConfigError ? error.message : String((error as Error).stack ?? error)}\n`,
  );
  process.exit(1);
}
