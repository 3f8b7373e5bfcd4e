import { isAbsolute } from 'node:path';
import { baseServiceEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

const upstreamUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional();

/**
 * Environment of the gateway; every variable is optional. An unset `*_SVC_URL` makes that service's routes answer 503;
 * a set `METRICS_PORT` moves `/metrics` off `PORT` onto a port of its own (on the same `HOST`); a set `DASHBOARD_DIR`
 * serves the built dashboard at `/ui/`.
 */
export const GatewayEnv = z
  .object({
    ...baseServiceEnv,
    PORT: envPort(8080),
    /** Where `/metrics` is served instead of `PORT` (`0` lets the OS choose); unset: on `PORT`, with everything else. */
    METRICS_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
    CATALOG_SVC_URL: upstreamUrl,
    CONFIG_SVC_URL: upstreamUrl,
    RELEASE_SVC_URL: upstreamUrl,
    PEER_SVC_URL: upstreamUrl,
    /** Longest wait for an upstream's response headers, and between two body chunks, in ms (then 504). */
    UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Longest wait for a TCP connection to an upstream, in ms (then 504). */
    UPSTREAM_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5_000),
    /** Keep-alive connections kept open to each upstream. */
    UPSTREAM_CONNECTIONS: z.coerce.number().int().min(1).max(1_024).default(128),
    /** Largest request body forwarded, in bytes (then 413). */
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(104_857_600).default(1_048_576),
    /**
     * The built dashboard, served at `/ui/` (`src/http/dashboard.routes.ts`): an absolute path to the folder holding its
     * `index.html` and content-hashed `assets/` (`apps/dashboard/dist` once built). Unset: every `/ui` path answers 404
     * problem+json saying the dashboard is not configured.
     */
    DASHBOARD_DIR: z.string().refine(isAbsolute, { error: 'must be an absolute path' }).optional(),
  })
  .refine((env) => env.METRICS_PORT === undefined || env.METRICS_PORT === 0 || env.METRICS_PORT !== env.PORT, {
    path: ['METRICS_PORT'],
    error: 'must differ from PORT',
  });
export type GatewayConfig = Readonly<z.output<typeof GatewayEnv>>;

/**
 * Reads the gateway's configuration from `env`.
 * @throws ConfigError listing every invalid variable
 */
export function loadGatewayConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  return parseConfig('gateway', GatewayEnv, env);
}
