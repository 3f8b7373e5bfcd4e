import semver from 'semver';
import type { DependencyType } from '../ecosystem.ts';
import { parseJsonObject, tableAt } from '../shared/parse.ts';

/** package.json sections, in the order a dependency's requirement is taken from (see {@link findInPackageJson}). */
const SECTIONS: readonly { key: string; type: DependencyType }[] = [
  { key: 'dependencies', type: 'runtime' },
  { key: 'optionalDependencies', type: 'runtime' },
  { key: 'devDependencies', type: 'development' },
  { key: 'peerDependencies', type: 'runtime' },
];

/** A dependency declared in package.json. */
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
}

/** Splits `npm:real-name@range` into its name and range; undefined for any other spec. */
function alias(spec: string): { name: string; range: string } | undefined {
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
 * Finds the package `name` among package.json's `dependencies`, `optionalDependencies`, `devDependencies` and
 * `peerDependencies` (https://docs.npmjs.com/cli/v10/configuring-npm/package-json#dependencies), by its key or,
 * for an alias `"x": "npm:name@^1"`, by the aliased name.
 * The type is `runtime` when the package appears in any section but `devDependencies` (dependabot's rule);
 * the requirement comes from the first section in the order dependencies, optionalDependencies,
 * devDependencies, peerDependencies (peer ranges describe consumers, not what is installed).
 * @throws ManifestParseError when package.json is not a JSON object or a section is not an object
 */
export function findInPackageJson(file: string, text: string, name: string): PackageJsonEntry | undefined {
  const manifest = parseJsonObject(file, text);
  let found: PackageJsonEntry | undefined;
  let runtime = false;
  for (const section of SECTIONS) {
    const table = tableAt(file, manifest, section.key);
    if (!table) continue;
    for (const [key, value] of Object.entries(table)) {
      if (typeof value !== 'string') continue;
      const aliased = alias(value);
      const realName = aliased?.name ?? key;
      if (realName !== name) continue;
      if (section.type === 'runtime') runtime = true;
      found ??= { key, name: realName, type: section.type, spec: value, requirement: aliased ? rangeOf(aliased.range) : rangeOf(value) };
    }
  }
  if (found && runtime) found.type = 'runtime';
  return found;
}
