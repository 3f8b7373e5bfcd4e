import { baseServiceEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';
import { GITHUB_SECONDARY_LIMITS, type SecondaryLimits } from './secondary-limits/limiter.ts';

/**
 * The secondary limits `CODE_HOST_SECONDARY_LIMITS` names: `off` → none; `github` → {@link GITHUB_SECONDARY_LIMITS}
 * (100 in flight, 80 content-generating requests a minute, 500 an hour); `<concurrent>,<per minute>,<per hour>` → those
 * (positive integers, e.g. `100,8,50` to run into the content limit sooner).
 */
function secondaryLimitsOf(value: string): SecondaryLimits | undefined {
  if (value === 'off') return undefined;
  if (value === 'github') return { ...GITHUB_SECONDARY_LIMITS };
  const [concurrent, contentPerMinute, contentPerHour] = value.split(',').map(Number) as [number, number, number];
  return { concurrent, contentPerMinute, contentPerHour };
}

/** Environment of the standalone emulator (`main.ts`); every variable is optional. */
export const EmulatorEnv = z.object({
  ...baseServiceEnv,
  /** Port of the emulated REST API. */
  PORT: envPort(8090),
  /** Path of a JSON seed file; the bundled demo seed when unset. */
  CODE_HOST_SEED: z.string().min(1).optional(),
  /** Web root used in `html_url` and clone URLs. */
  CODE_HOST_HTML_URL: z.url().default('https://github.com'),
  /**
   * Where `push`, `pull_request`, `status`, `issues` and `issue_comment` webhooks are POSTed, and the GitHub App's
   * `installation` and `installation_repositories`; none are sent when unset.
   */
  CODE_HOST_WEBHOOK_URL: z.url().optional(),
  /** The secret of the webhooks' `X-Hub-Signature-256`; unsigned when unset. */
  CODE_HOST_WEBHOOK_SECRET: z.string().min(1).optional(),
  /**
   * A folder to keep the world in across restarts (`dataDir` of `startGitHubEmulator`); in memory only when unset or
   * `memory://` (as the services and the registry emulator read it).
   */
  DATA_DIR: z.string().min(1).optional(),
  /**
   * Requests an hour each user may make (REST, and GraphQL apart) instead of the seed's `rateLimit.limit`: a long run on
   * a sped-up clock (`pnpm soak`) packs weeks of a bot's requests into minutes.
   */
  CODE_HOST_RATE_LIMIT: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  /**
   * How long an installation access token lives, in ms (`installationTokenTtlMs`; GitHub's hour when unset): shorter, a
   * client's refreshing of its tokens can be seen within a test or a demo.
   */
  CODE_HOST_INSTALLATION_TOKEN_TTL_MS: z.coerce.number().int().min(1_000).max(86_400_000).optional(),
  /**
   * Where to write the private key (PEM) of the seed's first App that has one, the demo App's with the demo seed
   * (`appPrivateKeyFile`), for the client running as that App; nothing is written when unset.
   */
  CODE_HOST_APP_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  /**
   * GitHub's secondary rate limits (`secondaryLimits`): `off` (the default: none), `github` (GitHub's: 100 requests in
   * flight, 80 content-generating requests a minute and 500 an hour, per user or installation), or
   * `<concurrent>,<per minute>,<per hour>` (positive integers).
   */
  CODE_HOST_SECONDARY_LIMITS: z
    .string()
    .trim()
    .regex(
      /^(?:off|github|[1-9]\d{0,8},[1-9]\d{0,8},[1-9]\d{0,8})$/,
      'must be off, github, or <concurrent>,<per minute>,<per hour> (positive integers)',
    )
    .optional()
    .transform((value) => (value === undefined ? undefined : secondaryLimitsOf(value))),
});
/** The emulator's parsed configuration. */
export type EmulatorConfig = Readonly<z.output<typeof EmulatorEnv>>;

/**
 * Reads the emulator's configuration from `env`.
 * @throws ConfigError listing every invalid variable
 */
export function loadEmulatorConfig(env: Record<string, string | undefined> = process.env): EmulatorConfig {
  return parseConfig('github-emulator', EmulatorEnv, env);
}
