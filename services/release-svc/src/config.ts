import { DEFAULT_MAX_RESPONSE_BYTES } from '@switchyard/code-host';
import { DOMAIN_EVENTS_EXCHANGE } from '@switchyard/contracts';
import { dependencyApiLimitsEnv } from '@switchyard/dependency-api';
import { REGISTRY_PACKAGE_MANAGERS, type RegistryPackageManager } from '@switchyard/registries';
import { baseServiceEnv, databaseEnv, envPort, outboundAllowedHostsEnv, parseConfig, secretsKeyEnv } from '@switchyard/service-kit';
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
   * The worker's own code-host token in personal-token mode (a bot account's token with write access to the
   * organisations' repos): it reads manifests and opens pull requests with it. Callers' tokens are never stored. Unused
   * when `GITHUB_APP_ID` is set (App mode); see the README's "Personal-token mode or GitHub App".
   */
  CODE_HOST_TOKEN: z.string().min(1).optional(),
  /**
   * App mode: the GitHub App's id (or client id) the worker acts as, with an installation token per account
   * (`@octokit/auth-app`). Needs `GITHUB_APP_PRIVATE_KEY`.
   */
  GITHUB_APP_ID: z
    .string()
    .regex(/^(\d{1,12}|Iv[\w.]{1,64})$/, 'must be a GitHub App id (digits) or client id (Iv…)')
    .optional(),
  /**
   * App mode: the App's private key, PEM (newlines may be written `\n`, as in a `.env` file), or the path of a file
   * holding it.
   */
  GITHUB_APP_PRIVATE_KEY: z.string().min(1).optional(),
  /**
   * App mode: how often the worker reconciles the App's installations with the code host (`GET /app/installations`,
   * and each selected installation's repositories), ms; also once at start.
   */
  GITHUB_APP_RECONCILE_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(600_000),
  CODE_HOST_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /**
   * The worker's pacing of content-creating requests per installation (`github`: 80 a minute and 500 an hour, used at
   * 90 %; `off`; or `<limit>:<window ms>,…`); unset: `github` on api.github.com, else off. See the README.
   */
  CODE_HOST_WRITE_LIMITS: z
    .string()
    .regex(/^(github|off|\d+:\d+(,\d+:\d+)*)$/, 'must be github, off, or <limit>:<window ms> pairs, e.g. 80:60000,500:3600000')
    .optional(),
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
  /**
   * The public registry of each package manager, when not its default (`DEFAULT_REGISTRY_URLS` of
   * `@switchyard/registries`: npmjs.org, PyPI, Maven Central (also gradle's), RubyGems.org, crates.io's sparse index,
   * Packagist, Docker Hub, Elm's package site, hex.pm, NuGet's service index, the Go module proxy, the Terraform registry;
   * `submodules`, `dep` and `github_actions` ask `CODE_HOST_API_URL`):
   * `npm_and_yarn=https://npm.example/,pip=https://pypi.example/pypi/`, comma-separated.
   */
  REGISTRY_URLS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const urls: Partial<Record<RegistryPackageManager, string>> = {};
      for (const entry of text
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)) {
        const at = entry.indexOf('=');
        const manager = entry.slice(0, at).trim() as RegistryPackageManager;
        const url = entry.slice(at + 1).trim();
        if (at < 1 || !REGISTRY_PACKAGE_MANAGERS.includes(manager)) {
          ctx.addIssue({
            code: 'custom',
            message: `"${entry}" must be <package manager>=<url>, the package manager one of ${REGISTRY_PACKAGE_MANAGERS.join(', ')}`,
          });
        } else if (!z.url({ protocol: /^https?$/ }).safeParse(url).success) {
          ctx.addIssue({ code: 'custom', message: `${manager}: "${url}" is not an http(s) URL` });
        } else urls[manager] = url;
      }
      return urls;
    }),
  /**
   * Hosts an account's private registry may be at besides public addresses (OWASP API7:2023, see the README's "Outbound
   * guard"): comma-separated host names (`registry.corp`), `*.corp.example` wildcards, IP addresses (`10.1.2.3`,
   * `[fd00::1]`), each with an optional `:port`, and CIDR ranges (`10.20.0.0/16`). Every connection to a registry is
   * checked on the address actually connected to; loopback, private, link-local (cloud metadata), CGNAT, unique-local
   * and the other special ranges are refused unless listed here. The hosts of REGISTRY_URLS, CRATES_API_URL and
   * CODE_HOST_API_URL (the operator's own) are allowed for the public registries' clients only. Must match config-svc's.
   */
  REGISTRY_ALLOWED_HOSTS: outboundAllowedHostsEnv,
  /** crates.io's web API beside a `cargo` registry of REGISTRY_URLS (release dates, links); none: the index alone. */
  CRATES_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The AES-256-GCM key config-svc seals registry credentials' secrets with (the same value as config-svc's): update runs
   * open them to ask an account's private registry. Unset: a dependency whose account has a private registry fails with
   * `registry_auth_failed`, saying the key is missing.
   */
  SECRETS_KEY: secretsKeyEnv,
  /**
   * `on`: the worker turns each pull-request job into a branch, a commit and a pull request on the code host with its
   * own token (`src/pull-requests/`). `off` (the default while lockfiles cannot be updated yet: only directories without
   * one would get pull requests, the others fail with `needs-resolution`): jobs stay `pending`.
   */
  PULL_REQUESTS: z.enum(['on', 'off']).default('off'),
  /** How long a worker's claim on a pull-request job lasts without its heartbeat, ms (another delivery waits for it). */
  PULL_REQUEST_LEASE_MS: z.coerce.number().int().min(1_000).max(600_000).default(20_000),
  /**
   * The secret the code host signs webhook deliveries to `POST /webhooks/github` with (GitHub: the webhook's or the
   * GitHub App's "Webhook secret"). Unset: that route answers 503.
   */
  WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Largest webhook delivery accepted, bytes (GitHub caps payloads at 25 MB; pull-request events are tens of KB). */
  WEBHOOK_BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).max(26_214_400).default(1_048_576),
  /** A delivery whose event is older than this (ms, by its payload's time) is refused as stale. */
  WEBHOOK_MAX_AGE_MS: z.coerce.number().int().min(1_000).max(604_800_000).default(3_600_000),
  /** Timeout of one registry request, ms. */
  REGISTRY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  /** Dependencies a worker checks at once within an update run. */
  UPDATE_RUN_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
  /** How often the scheduler looks for due configs, ms (a slot runs at most this late). */
  SCHEDULER_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** How often the registry watch asks the registries about the packages `live` configs use, ms (see the README). */
  REGISTRY_WATCH_INTERVAL_MS: z.coerce.number().int().min(100).max(86_400_000).default(300_000),
});
export type ReleaseConfig = Readonly<z.output<typeof ReleaseEnv>>;

/** Reads release-svc's configuration from `env`. @throws ConfigError listing every invalid variable */
export function loadReleaseConfig(env: Record<string, string | undefined> = process.env): ReleaseConfig {
  return parseConfig('release-svc', ReleaseEnv, env);
}
