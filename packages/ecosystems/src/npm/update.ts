import semver from 'semver';
import { parseJsonObject, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { jsonStringAt, jsonStrings } from '../update/json-spans.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { alias, isRegistrySpec, SECTIONS } from './package-json.ts';
import { npmVersions } from './versions.ts';
import { npmManifests, pinEntries, ROOT_MANIFEST } from './workspace.ts';

const FULL = /^\d+\.\d+\.\d+(?:[-+].*)?$/;

/**
 * node-semver ranges as npm writes them (https://docs.npmjs.com/cli/v10/using-npm/semver): clauses separated by
 * spaces, `||` alternatives, hyphen ranges; a `v` after the operator stays as written. A bare full version or
 * `=1.2.3` is a pin; a bare partial version (`1.2`, `1.x`) is compatible like `^`/`~`. `widen` appends an alternative
 * (`^1.2.3` → `^1.2.3 || ^2.0.1`), the form dependabot-core's npm updater appends (`" || ^#{version}"`).
 */
export const npmSyntax: RequirementSyntax = {
  scheme: npmVersions,
  operators: String.raw`(?:<=|>=|<|>|=|\^|~)?\s*[vV]?`,
  version: String.raw`(?:\d+|[xX*])(?:\.(?:\d+|[xX*])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`,
  between: String.raw`\s*`,
  or: String.raw`\|\|`,
  hyphen: true,
  kind(operator, version) {
    const op = operator.replace(/[\svV]/g, '');
    if (op === '' || op === '=') return FULL.test(version) ? 'exact' : 'compatible';
    if (op === '^' || op === '~') return 'compatible';
    if (op === '<') return 'upper';
    if (op === '<=') return 'upperInclusive';
    return 'lower';
  },
  clauseText: (operator, version) => `${operator.replace(/\s/g, '')}${version}`,
  join: '',
  orSeparator: ' || ',
};

const rewrite = clauseRewriter(npmSyntax);

/**
 * The declarations of the registry package `name` in the `dependencies`, `optionalDependencies`, `devDependencies` and
 * `peerDependencies` of the root package.json and of each workspace or Lerna member read ({@link npmManifests}), keys as
 * given (an `npm:name@range` alias by its real name: only the range is edited). A dist-tag (`latest`) is left
 * unchanged; a git, path, URL, `file:`, `link:` or `workspace:` spec, a pnpm `catalog:` reference or a value with JSON
 * escapes cannot be rewritten.
 *
 * The root's `resolutions` (Yarn) and `overrides` (npm) entries for the package (see {@link pinEntries}) whose value is
 * the requirement of one of those declarations, or an exact version one of them allows (the version the pin makes the
 * one in use), are declarations too: they move with the dependency, as dependabot-core's npm `PackageJsonUpdater`
 * moved them (`update_package_json_resolutions`: a resolution equal to the old requirement becomes the new one, one
 * equal to the version in use the target). Other entries stay; the lockfile update respects them.
 * @throws ManifestParseError when a manifest does not parse
 */
export function locateNpm(files: Readonly<Record<string, string>>, name: string): Located {
  const manifests = npmManifests(files);
  if (manifests.length === 0) return { cannot: 'no package.json' };
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const requirements: string[] = [];
  for (const { path, text } of manifests) {
    const manifest = parseJsonObject(path, text);
    const strings = jsonStrings(text);
    for (const { key: section } of SECTIONS) {
      for (const [key, value] of Object.entries(tableAt(path, manifest, section) ?? {})) {
        if (typeof value !== 'string') continue;
        const aliased = alias(value);
        if ((aliased?.name ?? key) !== name) continue;
        const where = path === ROOT_MANIFEST ? section : `${path} ${section}`;
        if (/^\s*catalog:/.test(value))
          return { cannot: `${where}: '${value}' takes its range from the pnpm workspace catalog, which is not read` };
        if (!aliased && !isRegistrySpec(value))
          return { cannot: `${where}: '${value}' is not a registry range (git, path, URL or workspace source)` };
        const span = jsonStringAt(strings, [section, key]);
        if (!span || text.slice(span.start, span.end) !== value)
          return { cannot: `${where}: the value of '${key}' is written with escapes` };
        const nameEnd = aliased ? value.indexOf(aliased.name) + aliased.name.length : 0;
        const at = aliased ? (value.charAt(nameEnd) === '@' ? nameEnd + 1 : value.length) : 0;
        const range = value.slice(at);
        if (range.trim() === '' || semver.validRange(range) === null) {
          unchanged.push(`${where}: '${value}' is a dist-tag or any version`);
          continue;
        }
        requirements.push(range.trim());
        declarations.push({ file: path, where, parts: [{ start: span.start + at, end: span.end }], rewrite });
      }
    }
  }
  const root = files[ROOT_MANIFEST] ?? '';
  const pins = pinEntries(root).filter((pin) => pin.name === name);
  if (pins.length > 0 && requirements.length > 0) {
    const strings = jsonStrings(root);
    for (const pin of pins) {
      const value = pin.value.trim();
      const follows =
        requirements.includes(value) || (semver.valid(value) !== null && requirements.some((r) => semver.satisfies(value, r)));
      if (!follows) continue;
      const span = jsonStringAt(strings, [pin.section, pin.key]);
      if (!span || root.slice(span.start, span.end) !== pin.value)
        return { cannot: `${pin.section}: the value of '${pin.key}' is written with escapes` };
      declarations.push({ file: ROOT_MANIFEST, where: `${pin.section} '${pin.key}'`, parts: [span], rewrite });
    }
  }
  return { declarations, unchanged };
}
