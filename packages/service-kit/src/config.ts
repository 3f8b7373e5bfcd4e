import { z } from 'zod';

/**
 * Thrown by {@link parseConfig} when one or more environment variables are missing or malformed.
 * `problems` lists every bad variable at once, one `NAME: reason` line each, so an operator fixes them in one go.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];

  constructor(service: string, problems: readonly string[]) {
    super(`${service}: invalid configuration\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * Parses `env` (default `process.env`) with a zod object schema and returns the result frozen.
 * A variable set to the empty string counts as unset (so `DATABASE_URL=` selects the default).
 * @throws ConfigError listing every invalid variable, never just the first one.
 */
export function parseConfig<S extends z.ZodType>(
  service: string,
  schema: S,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.output<S>> {
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = schema.safeParse(set);
  if (!result.success) {
    throw new ConfigError(
      service,
      result.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`),
    );
  }
  return Object.freeze(result.data);
}

/** A TCP port from the environment (`0` lets the OS choose); `fallback` when unset. */
export const envPort = (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback);

/** A boolean from the environment: `true/false`, `1/0`, `yes/no`, `on/off` (case-insensitive); anything else is an error. */
export const envBoolean = (fallback: boolean) =>
  z
    .stringbool()
    .optional()
    .transform((value) => value ?? fallback);

/** A pino log level; `info` when unset. */
export const envLogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/** An optional `postgres://` or `postgresql://` URL. */
export const envPostgresUrl = z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional();

/** The variables every HTTP service reads: where it listens and how much it logs. */
export const baseServiceEnv = {
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: envLogLevel,
};
