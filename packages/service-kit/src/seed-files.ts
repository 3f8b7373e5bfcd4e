import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { issueLines, readJsonFile } from './config.ts';

/**
 * Seed files of the emulators (the GitHub emulator's users and repositories, the registry emulator's packages): JSON
 * validated with a zod schema, every problem reported at once. The emulators are independent packages with seeds of
 * their own; what reading and validating a seed file means is written here once.
 */

/** A seed that is not valid; `problems` lists every problem as `path: reason` (`(seed)` for the whole document). */
export class SeedError extends Error {
  readonly problems: readonly string[];

  /** `what` names the kind of seed (`GitHub emulator seed`), `source` where it came from (a file's path, or `seed`). */
  constructor(what: string, source: string, problems: readonly string[]) {
    super(`invalid ${what} (${source}):\n  ${problems.join('\n  ')}`);
    this.name = 'SeedError';
    this.problems = problems;
  }
}

/** How one kind of seed is read: see {@link seedFormat}. */
export interface SeedFormat<Schema extends z.ZodType> {
  /**
   * Validates a seed as written (defaults applied in the result).
   * @throws SeedError naming `source` (default `seed`) and listing every problem the schema finds
   */
  parse(input: unknown, source?: string): z.output<Schema>;
  /**
   * Reads and validates the JSON seed file at `path` (UTF-8).
   * @throws SeedError naming the file when it is not JSON or not a valid seed; the fs error when it cannot be read
   */
  loadFile(path: string): z.output<Schema>;
  /**
   * Reads a JSON file of a seed without validating it (a demo seed's part, merged before validation).
   * @throws SeedError naming the file when it is not JSON; the fs error when it cannot be read
   */
  readJson(path: string): unknown;
  /** A {@link SeedError} of this kind of seed, for a problem the caller finds itself (e.g. a part of the wrong shape). */
  error(source: string, problems: readonly string[]): SeedError;
}

/**
 * The reading of one kind of seed: `what` names it in {@link SeedError} messages (`invalid <what> (<source>): ...`),
 * `schema` validates it (its `superRefine` rules included).
 */
export function seedFormat<Schema extends z.ZodType>(what: string, schema: Schema): SeedFormat<Schema> {
  const error = (source: string, problems: readonly string[]) => new SeedError(what, source, problems);
  const readJson = (path: string) => readJsonFile(path, (reason) => error(path, [reason]));
  const parse = (input: unknown, source = 'seed'): z.output<Schema> => {
    const result = schema.safeParse(input);
    if (!result.success) throw error(source, issueLines(result.error, '(seed)'));
    return result.data;
  };
  return { parse, loadFile: (path) => parse(readJson(path), path), readJson, error };
}

/**
 * The paths of the `.json` files directly in `directory`, in file-name order (a demo seed's parts, merged in that
 * order); none when the directory does not exist.
 */
export function jsonFilesIn(directory: string): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => join(directory, file));
}
