import { baseServiceEnv, envPort, envPostgresUrl, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

/** Environment of catalog-svc; every variable is optional. */
export const CatalogEnv = z.object({
  ...baseServiceEnv,
  /** Port of the HTTP API. */
  PORT: envPort(8083),
  /** PostgreSQL URL; when unset the service runs on embedded PGlite under `DATA_DIR`. */
  DATABASE_URL: envPostgresUrl,
  /** Folder of the embedded database (`memory://` keeps it in memory). */
  DATA_DIR: z.string().min(1).default('.data'),
  /** Connections in the PostgreSQL pool. */
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** Largest accepted JSON body, in bytes. */
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(10_485_760).default(16_384),
});
export type CatalogConfig = Readonly<z.output<typeof CatalogEnv>>;

/**
 * Reads catalog-svc's configuration from `env`.
 * @throws ConfigError listing every invalid variable
 */
export function loadCatalogConfig(env: Record<string, string | undefined> = process.env): CatalogConfig {
  return parseConfig('catalog-svc', CatalogEnv, env);
}
