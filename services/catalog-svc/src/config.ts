import { baseServiceEnv, databaseEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

/** Environment of catalog-svc; every variable is optional. */
export const CatalogEnv = z.object({
  ...baseServiceEnv,
  /** Port of the HTTP API. */
  PORT: envPort(8083),
  ...databaseEnv,
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
