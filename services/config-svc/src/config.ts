import { DEFAULT_MAX_RESPONSE_BYTES } from '@switchyard/code-host';
import { DOMAIN_EVENTS_EXCHANGE } from '@switchyard/contracts';
import { dependencyApiLimitsEnv } from '@switchyard/dependency-api';
import { baseServiceEnv, databaseEnv, envPort, outboundAllowedHostsEnv, parseConfig, secretsKeyEnv } from '@switchyard/service-kit';
import { z } from 'zod';

/** Environment of config-svc; every variable is optional. */
export const ConfigServiceEnv = z.object({
  ...baseServiceEnv,
  PORT: envPort(8081),
  ...databaseEnv,
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(10_485_760).default(16_384),
  /** Base URL of the code host's REST API: GitHub's by default; GitHub Enterprise's `https://HOST/api/v3`, or the emulator. */
  CODE_HOST_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.github.com'),
  /** Timeout of one code-host request, ms. */
  CODE_HOST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * The most bytes one code-host answer, and one file read through it, may have (default 5 MiB): a bigger one is
   * refused (`too_large`) without being read past the limit.
   */
  CODE_HOST_MAX_RESPONSE_BYTES: z.coerce.number().int().min(1_024).max(1_073_741_824).default(DEFAULT_MAX_RESPONSE_BYTES),
  /** How long what the code host said about a token (its user, accounts, repos, permissions) is reused, ms. */
  CODE_HOST_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
  /**
   * Rejected tokens remembered (`AUTH_REJECTED_TTL_MS`), failed authentications per client address
   * (`AUTH_FAILURE_LIMIT` per `AUTH_FAILURE_WINDOW_MS`), the proxies trusted with `X-Forwarded-For` (`TRUST_PROXY`)
   * and code-host calls per token (`CODE_HOST_TOKEN_BUDGET` per `CODE_HOST_TOKEN_BUDGET_WINDOW_MS`): see the README.
   */
  ...dependencyApiLimitsEnv,
  /**
   * The AES-256-GCM key registry credentials' secrets are sealed with: 32 bytes as 64 hex characters or as base64
   * (`openssl rand -base64 32`). Unset: registry credentials can be listed, read and deleted, but a secret cannot be
   * stored (503). Another length is a configuration error.
   */
  SECRETS_KEY: secretsKeyEnv,
  /**
   * Hosts an account's private registry (`base-url` of a registry credential) may be at besides public addresses
   * (OWASP API7:2023; the README's "Registry credentials"): comma-separated host names (`registry.corp`), `*.corp.example`
   * wildcards, IP addresses (`10.1.2.3`, `[fd00::1]`), each with an optional `:port`, and CIDR ranges (`10.20.0.0/16`).
   * A `base-url` at a loopback, private, link-local (cloud metadata), CGNAT, unique-local or other special address, or a
   * name resolving to one, is refused with 422 unless listed here. Give release-svc's worker the same value: it checks
   * every connection the same way.
   */
  REGISTRY_ALLOWED_HOSTS: outboundAllowedHostsEnv,
  /** RabbitMQ URL; when unset, events go to an in-process bus (one-process mode). */
  AMQP_URL: z.url({ protocol: /^amqps?$/, error: 'must be an amqp:// or amqps:// URL' }).optional(),
  /** The topic exchange domain events are published to. */
  EVENTS_EXCHANGE: z.string().min(1).default(DOMAIN_EVENTS_EXCHANGE),
  /** Queue-name prefix of its consumer (`<prefix>.release-notifications`), so test runs and deployments do not share it. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w.-]+$/)
    .default('config-svc'),
});
export type ConfigServiceConfig = Readonly<z.output<typeof ConfigServiceEnv>>;

/**
 * Reads config-svc's configuration from `env`.
 * @throws ConfigError listing every invalid variable
 */
export function loadConfigServiceConfig(env: Record<string, string | undefined> = process.env): ConfigServiceConfig {
  return parseConfig('config-svc', ConfigServiceEnv, env);
}
