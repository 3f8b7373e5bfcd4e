import { baseServiceEnv, envPort, parseConfig } from '@switchyard/service-kit';
import { z } from 'zod';

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
