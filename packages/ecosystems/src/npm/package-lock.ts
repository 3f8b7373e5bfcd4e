import { ManifestParseError } from '../errors.ts';
import { isTable, parseJsonObject, tableAt } from '../shared/parse.ts';

/** The version of a lock entry's `version` field: `npm:real@1.2.3` (v1 alias) → `1.2.3`; URLs, paths and links → null. */
function versionOf(entry: unknown): string | null {
  if (!isTable(entry) || typeof entry.version !== 'string') return null;
  const version = entry.version;
  if (version.startsWith('npm:')) return version.slice(version.lastIndexOf('@') + 1) || null;
  return /^[0-9v=]/.test(version) ? version : null;
}

/**
 * The version locked for a package key declared by the manifest of `directory` (`` for the root, `packages/a` for a
 * workspace member): the version, null without a registry version, undefined when absent.
 */
export type PackageLockLookup = (key: string, directory?: string) => string | null | undefined;

/**
 * Parses an npm lockfile (package-lock.json or npm-shrinkwrap.json,
 * https://docs.npmjs.com/cli/v10/configuring-npm/package-lock-json) once and returns the lookup of the installed
 * version of the top-level package installed as `key`: lockfileVersion 2/3 `packages["node_modules/<key>"].version`,
 * else v1's `dependencies[<key>].version` (top level only). For a workspace member's dependency (`directory`
 * `packages/a`), the member's own `packages["packages/a/node_modules/<key>"]` comes first, then the hoisted entry, as
 * dependabot-core's npm lockfile parser looks it up (`node_modules_path`). The lookup gives the version, null when the
 * entry exists without a registry version (git, file, link), undefined when absent.
 * @throws ManifestParseError when the file is not a JSON object or `packages`/`dependencies` is not an object
 */
export function readPackageLock(file: string, text: string): PackageLockLookup {
  const lock = parseJsonObject(file, text);
  if (lock.lockfileVersion !== undefined && typeof lock.lockfileVersion !== 'number') {
    throw new ManifestParseError(file, "'lockfileVersion' is not a number");
  }
  const packages = tableAt(file, lock, 'packages');
  const dependencies = tableAt(file, lock, 'dependencies');
  return (key, directory = '') => {
    const entry = (directory === '' ? undefined : packages?.[`${directory}/node_modules/${key}`]) ?? packages?.[`node_modules/${key}`];
    if (entry !== undefined) return versionOf(entry);
    const legacy = dependencies?.[key];
    return legacy === undefined ? undefined : versionOf(legacy);
  };
}
