import { ManifestParseError } from '../errors.ts';
import { isTable, parseToml } from '../shared/parse.ts';
import { normaliseCrateName } from './cargo-toml.ts';

/**
 * The versions Cargo.lock holds for crate `name` (`[[package]]` tables with `name` and `version`; a crate can
 * be locked at several versions when semver-incompatible requirements coexist).
 * @throws ManifestParseError when the TOML does not parse or `package` is not an array of tables
 */
export function versionsInCargoLock(file: string, text: string, name: string): string[] {
  const doc = parseToml(file, text);
  const packages = doc.package ?? [];
  if (!Array.isArray(packages) || !packages.every(isTable)) throw new ManifestParseError(file, "'package' is not an array of tables");
  const wanted = normaliseCrateName(name);
  return packages
    .filter((p) => typeof p.name === 'string' && normaliseCrateName(p.name) === wanted && typeof p.version === 'string')
    .map((p) => p.version as string);
}
