import { ManifestParseError } from '../errors.ts';
import { groupBy } from '../shared/group.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { normaliseCrateName } from './cargo-toml.ts';

/**
 * The versions Cargo.lock holds, by normalised crate name (`[[package]]` tables with `name` and `version`,
 * https://doc.rust-lang.org/cargo/guide/cargo-toml-vs-cargo-lock.html; a crate can be locked at several
 * versions when semver-incompatible requirements coexist).
 * @throws ManifestParseError when the TOML does not parse or `package` is not an array of tables
 */
export function readCargoLock(file: string, text: string): Map<string, string[]> {
  const doc = parseToml(file, text);
  const packages = doc.package ?? [];
  if (!Array.isArray(packages) || !packages.every(isTable)) throw new ManifestParseError(file, "'package' is not an array of tables");
  const locked = packages.filter((p) => typeof p.name === 'string' && typeof p.version === 'string');
  const byName = groupBy(locked, (p) => normaliseCrateName(p.name as string));
  return new Map([...byName].map(([name, entries]) => [name, entries.map((p) => p.version as string)]));
}
