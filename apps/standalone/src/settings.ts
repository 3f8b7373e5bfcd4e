import { ConfigError, issueLines } from '@switchyard/service-kit';
import { z } from 'zod';
import type { ClockSettings } from './clock.ts';

/** The largest `CLOCK_RATE`: a simulated year in about half a minute. */
export const MAX_CLOCK_RATE = 1_000_000;

/** What the launcher reads for itself beyond the services' variables (those a long run such as `pnpm soak` sets). */
export interface LauncherSettings {
  /** `CLOCK_START` and `CLOCK_RATE`: the release worker's scheduler clock. */
  clock: ClockSettings;
  /**
   * `CODE_HOST_RATE_LIMIT`: requests an hour each user may make to the GitHub emulator (REST, and GraphQL apart), or
   * undefined for the seed's (5,000, GitHub's). A sped-up clock packs weeks of a bot's requests into minutes.
   */
  codeHostRateLimit: number | undefined;
  /**
   * `CODE_HOST_INSTALLATION_TOKEN_TTL_MS`: how long the GitHub emulator's installation tokens live, ms (GitHub's hour when
   * undefined): shorter, the worker is seen making new ones as they expire.
   */
  installationTokenTtlMs: number | undefined;
}

const LauncherEnv = z.object({
  CLOCK_START: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 time with a zone, e.g. 2026-12-07T00:00:00Z' })
    .transform((text) => new Date(text))
    .optional(),
  CLOCK_RATE: z.coerce
    .number({ error: 'must be a number' })
    .refine((rate) => Number.isFinite(rate) && rate >= 1 && rate <= MAX_CLOCK_RATE, `must be a number from 1 to ${MAX_CLOCK_RATE}`)
    .default(1),
  CODE_HOST_RATE_LIMIT: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000_000_000, 'must be at most 1000000000')
    .optional(),
  CODE_HOST_INSTALLATION_TOKEN_TTL_MS: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1_000, 'must be at least 1000')
    .max(86_400_000, 'must be at most 86400000')
    .optional(),
});

/**
 * Reads the launcher's own variables from `env` (an empty variable counts as unset).
 * @throws ConfigError (service `switchyard`) listing each invalid variable
 */
export function readLauncherSettings(env: Record<string, string | undefined>): LauncherSettings {
  const names = ['CLOCK_START', 'CLOCK_RATE', 'CODE_HOST_RATE_LIMIT', 'CODE_HOST_INSTALLATION_TOKEN_TTL_MS'];
  const set = Object.fromEntries(names.flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const parsed = LauncherEnv.safeParse(set);
  if (!parsed.success) throw new ConfigError('switchyard', issueLines(parsed.error, '(env)'));
  const { CLOCK_START, CLOCK_RATE, CODE_HOST_RATE_LIMIT, CODE_HOST_INSTALLATION_TOKEN_TTL_MS } = parsed.data;
  return {
    clock: { start: CLOCK_START, rate: CLOCK_RATE },
    codeHostRateLimit: CODE_HOST_RATE_LIMIT,
    installationTokenTtlMs: CODE_HOST_INSTALLATION_TOKEN_TTL_MS,
  };
}
