import semver from 'semver';
import type { DependencyType } from '../ecosystem.ts';
import { parseJsonObject, tableAt } from '../shared/parse.ts';

/** package.json sections (exported for the manifest updater), in the order a dependency's requirement is taken from (see {@link readPackageJson}). */
export const SECTIONS: readonly { key: string; type: DependencyType }[] = [
  { key: 'dependencies', type: 'runtime' },
  { key: 'optionalDependencies', type: 'runtime' },
  { key: 'devDependencies', type: 'development' },
  { key: 'peerDependencies', type: 'runtime' },
];

/** A dependency declared in package.json (all its declarations merged, see {@link readPackageJson}). */
export interface PackageJsonEntry {
  /** The key in package.json: the install name (an alias's own name for `"alias": "npm:real@^1"`). */
  key: string;
  /** The package's registry name (the real name for an `npm:` alias). */
  name: string;
  type: DependencyType;
  /** The value as written, e.g. `^4.17.0`, `npm:lodash@^4`, `github:user/repo`. */
  spec: string;
  /** The semver range in `spec` (after `npm:name@` or `workspace:`), null when the spec is not a range (dist-tag, URL, path). */
  requirement: string | null;
  /** Does `spec` install from the registry (a range, version, dist-tag or `npm:` alias), not a path, URL, git repo or workspace link? */
  registry: boolean;
}

/** Splits `npm:real-name@range` into its name and range (`*` when none); undefined for any other spec. */
export function alias(spec: string): { name: string; range: string } | undefined {
  const match = /^npm:((?:@[^/@\s]+\/)?[^@\s]+)(?:@(.*))?$/.exec(spec.trim());
  if (!match?.[1]) return undefined;
  return { name: match[1], range: match[2] ?? '*' };
}

function rangeOf(spec: string): string | null {
  const trimmed = spec.trim();
  const candidate = trimmed.startsWith('workspace:') ? trimmed.slice('workspace:'.length) : trimmed;
  return semver.validRange(candidate) === null ? null : candidate;
}

/**
 * Is a (non-alias) spec fetched from the registry? Following npm-package-arg's classification
 * (https://github.com/npm/npm-package-arg#readme): a `protocol:` spec (`file:`, `link:`, `git+https:`, `github:`,
 * `http:`, `workspace:`, Yarn's `patch:`), a path (`./x`, `../x`, `/x`, `~/x`) and a `user/repo` GitHub shorthand
 * are not; a range, a version, a dist-tag and a pnpm `catalog:` reference (a range kept in the workspace's catalog,
 * https://pnpm.io/catalogs) are.
 */
export function isRegistrySpec(spec: string): boolean {
  const trimmed = spec.trim();
  if (/^catalog:/.test(trimmed)) return true;
  return !/^[a-z][a-z0-9+.-]*:/i.test(trimmed) && !/^(?:\.\.?(?:\/|$)|~\/|\/)/.test(trimmed) && !trimmed.includes('/');
}

/**
 * Reads the dependencies of package.json's `dependencies`, `optionalDependencies`, `devDependencies` and
 * `peerDependencies` (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#dependencies), one entry per
 * registry name (the aliased name for `"x": "npm:name@^1"`), in that section order and file order within a
 * section. The type is `runtime` when the package appears in any section but `devDependencies` (dependabot's
 * rule); the key, spec and requirement come from the first section in the order dependencies,
 * optionalDependencies, devDependencies, peerDependencies (peer ranges describe consumers, not what is installed).
 * Entries whose value is not a string are ignored.
 * @throws ManifestParseError when package.json is not a JSON object or a section is not an object
 */
export function readPackageJson(file: string, text: string): PackageJsonEntry[] {
  const manifest = parseJsonObject(file, text);
  const entries = new Map<string, PackageJsonEntry>();
  for (const section of SECTIONS) {
    const table = tableAt(file, manifest, section.key);
    if (!table) continue;
    for (const [key, value] of Object.entries(table)) {
      if (typeof value !== 'string') continue;
      const aliased = alias(value);
      const name = aliased?.name ?? key;
      const known = entries.get(name);
      if (known) {
        if (section.type === 'runtime') known.type = 'runtime';
        continue;
      }
      entries.set(name, {
        key,
        name,
        type: section.type,
        spec: value,
        requirement: aliased ? rangeOf(aliased.range) : rangeOf(value),
        registry: aliased !== undefined || isRegistrySpec(value),
      });
    }
  }
  return [...entries.values()];
}
