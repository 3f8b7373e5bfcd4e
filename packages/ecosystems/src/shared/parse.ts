import { parse as parseTomlText } from 'smol-toml';
import { ManifestParseError } from '../errors.ts';

/** A plain JSON/TOML object (not an array, not null). */
export type Table = Record<string, unknown>;

/** Is `value` a plain object (a JSON object / TOML table)? */
export function isTable(value: unknown): value is Table {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a JSON file whose top level must be an object.
 * @throws ManifestParseError naming `file`, with the parser's message (or "top level is not an object")
 */
export function parseJsonObject(file: string, text: string): Table {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ManifestParseError(file, `invalid JSON: ${(error as Error).message}`);
  }
  if (!isTable(value)) throw new ManifestParseError(file, 'top level is not a JSON object');
  return value;
}

/**
 * Parses a TOML file (TOML 1.0, via smol-toml).
 * @throws ManifestParseError naming `file`, with the parser's message and position
 */
export function parseToml(file: string, text: string): Table {
  try {
    return parseTomlText(text) as Table;
  } catch (error) {
    throw new ManifestParseError(file, `invalid TOML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/**
 * The object under `key` of `table`, `undefined` when absent.
 * @throws ManifestParseError when the key is present but not an object (e.g. `"dependencies": []`)
 */
export function tableAt(file: string, table: Table, key: string): Table | undefined {
  const value = table[key];
  if (value === undefined) return undefined;
  if (!isTable(value)) throw new ManifestParseError(file, `'${key}' is not a table/object`);
  return value;
}

/** The entry of `table` whose key normalises (with `normalise`) to `wanted` (already normalised): `[key, value]`. */
export function entryByName(table: Table | undefined, wanted: string, normalise: (name: string) => string): [string, unknown] | undefined {
  if (!table) return undefined;
  for (const [key, value] of Object.entries(table)) {
    if (normalise(key) === wanted) return [key, value];
  }
  return undefined;
}
