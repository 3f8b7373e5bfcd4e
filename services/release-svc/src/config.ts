import { DEFAULT_MAX_RESPONSE_BYTES } from '@switchyard/code-host';
import { DOMAIN_EVENTS_EXCHANGE } from '@switchyard/contracts';
import { dependencyApiLimitsEnv } from '@switchyard/dependency-api';
import { baseServiceEnv, databaseEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

/** Environment of release-svc's API and worker; every variable is optional. */
export const ReleaseEnv = z.object({
  ...baseServiceEnv,
  ...databaseEnv,
  /** Port of the HTTP API (`main.ts`); the worker (`worker-main.ts`) serves only `/healthz` and `/readyz` on `WORKER_PORT`. */
  PORT: envPort(8082),
  WORKER_PORT: envPort(8085),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(10_485_760).default(16_384),
  /** Base URL of the code host's REST API (GitHub by default, or the emulator). */
  CODE_HOST_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.github.com'),
  /**
   * The worker's own code-host token (a GitHub App installation token or a bot account's token with read
   * access to the organisations' repos): it reads manifests with it. Callers' tokens are never stored.
   */
  CODE_HOST_TOKEN: z.string().min(1).optional(),
  CODE_HOST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * The most bytes one code-host answer, and one file read through it, may have (default 5 MiB): a bigger one is
   * refused (`too_large`) without being read past the limit.
   */
  CODE_HOST_MAX_RESPONSE_BYTES: z.coerce.number().int().min(1_024).max(1_073_741_824).default(DEFAULT_MAX_RESPONSE_BYTES),
  CODE_HOST_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * Rejected tokens remembered (`AUTH_REJECTED_TTL_MS`), failed authentications per client address
   * (`AUTH_FAILURE_LIMIT` per `AUTH_FAILURE_WINDOW_MS`), the proxies trusted with `X-Forwarded-For` (`TRUST_PROXY`)
   * and code-host calls per token (`CODE_HOST_TOKEN_BUDGET` per `CODE_HOST_TOKEN_BUDGET_WINDOW_MS`): see the README.
   */
  ...dependencyApiLimitsEnv,
  /** RabbitMQ URL; when unset, an in-process bus (one-process mode only: API and worker must then share the process). */
  AMQP_URL: z.url({ protocol: /^amqps?$/, error: 'must be an amqp:// or amqps:// URL' }).optional(),
  EVENTS_EXCHANGE: z.string().min(1).default(DOMAIN_EVENTS_EXCHANGE),
  /** Queue-name prefix of the worker's consumers (so test runs and deployments do not share queues). */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('release-svc'),
  /**
   * How long a worker waits for config-svc's checkpoint of a notification before planning it from the read model as
   * it is (with a warning), ms; 0: never wait, plan as soon as the notification arrives (release-svc without
   * config-svc, or a test that plays config-svc's state events only). See the README.
   */
  CONFIG_CHECKPOINT_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /** Update configs per scan batch (one message each, any worker takes it). */
  SCAN_BATCH_SIZE: z.coerce.number().int().min(1).max(1_000).default(50),
  /** Configs a worker scans at once within a batch, and batches it takes at once. */
  SCAN_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  WORKER_PREFETCH: z.coerce.number().int().min(1).max(64).default(4),
});
export type ReleaseConfig = Readonly<z.output<typeof ReleaseEnv>>;

/** Reads release-svc's configuration from `env`. @throws ConfigError listing every invalid variable */
export function loadReleaseConfig(env: Record<string, string | undefined> = process.env): ReleaseConfig {
  return parseConfig('release-svc', ReleaseEnv, env);
}
