import { readFileSync } from 'node:fs';
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
    throw new ConfigError(service, issueLines(result.error, '(env)'));
  }
  return Object.freeze(result.data);
}

/**
 * Each issue of a failed zod parse as one `path: reason` line, `root` standing for the path of an issue about the whole
 * input (e.g. `PORT: Too big`, `repos.0.name: duplicate repository acme/web`). An invalid record key gives the reason
 * of its own issue (zod's `invalid_key` wraps it).
 */
export function issueLines(error: z.ZodError, root: string): string[] {
  return error.issues.map((issue) => {
    const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
    return `${issue.path.join('.') || root}: ${message}`;
  });
}

/**
 * Reads and parses the JSON file at `path` (UTF-8), e.g. an emulator's seed.
 * @throws what `invalid(reason)` returns when the text is not JSON (`reason`: `not JSON: <parser's message>`); the fs
 *   error when the file cannot be read
 */
export function readJsonFile(path: string, invalid: (reason: string) => Error): unknown {
  const text = readFileSync(path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw invalid(`not JSON: ${(error as Error).message}`);
  }
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
