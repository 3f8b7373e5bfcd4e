import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { KINDS, normaliseCrateName } from './cargo-toml.ts';
import { patchOf } from './patch.ts';
import { cargoVersions } from './versions.ts';
import { cargoLayout, readCargoManifests } from './workspace.ts';

const FULL = /^\d+\.\d+\.\d+(?:[-+].*)?$/;

/**
 * Cargo requirements as written (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html):
 * comma-separated comparators; a bare version is a caret requirement (compatible, like `^` and `~`), `=1.2.3`
 * a pin, `=1.2` compatible; wildcards (`1.*`) compatible.
 */
export const cargoSyntax: RequirementSyntax = {
  scheme: cargoVersions,
  operators: String.raw`>=|<=|>|<|=|\^|~`,
  version: String.raw`(?:\d+|[*xX])(?:\.(?:\d+|[*xX])){0,2}(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?`,
  between: String.raw`[\s,]*`,
  or: null,
  hyphen: false,
  kind(operator, version) {
    if (operator === '=') return FULL.test(version) ? 'exact' : 'compatible';
    if (operator === '' || operator === '^' || operator === '~') return 'compatible';
    if (operator === '<') return 'upper';
    if (operator === '<=') return 'upperInclusive';
    return 'lower';
  },
  clauseText: (operator, version) => `${operator}${version}`,
  join: '',
  // Cargo has no alternatives: `widen` writes a compatible requirement as a comparator range (`1.2` → `>=1.2, <3.0`).
  range: (lower, upper) => `>=${lower}, <${upper}`,
};

const rewrite = clauseRewriter(cargoSyntax);

/**
 * The declarations of crate `name` (by registry name, `-`/`_` and case alike) in the directory's manifests (the root
 * Cargo.toml, then its workspace members present in `files`: `crates/grep/Cargo.toml`; or a member directory's own
 * Cargo.toml, see {@link cargoLayout}): every dependency table (also under `[target.'cfg(...)']`) and the root's
 * `[workspace.dependencies]`, as a string (`serde = "1.0"`), an inline or dotted table's `version`
 * (`{ version = "1.0", features = [...] }`, `[dependencies.serde]`). A `workspace = true` dependency is edited through the
 * workspace root's `[workspace.dependencies]` entry it inherits, also when that root is above the directory (returned
 * under its key, `../Cargo.toml`). A table without `version` is unchanged; `path`/`git` dependencies, inheritance from a
 * workspace root that is not read (or has no such entry), a crate the root's `[patch]`/`[replace]` takes from a path, a
 * git repository or another registry (Cargo builds the patch, not the registry's version: see {@link cratePatches}) and
 * multi-line or escaped strings cannot be rewritten. Path packages' declarations are not the directory's: they stay.
 * @throws ManifestParseError when a manifest does not parse
 */
export function locateCargo(files: Readonly<Record<string, string>>, name: string): Located {
  const layout = cargoLayout(files);
  if (layout.manifests.length === 0) return { cannot: 'no Cargo.toml' };
  const wanted = normaliseCrateName(name);
  const registries = new Set(
    readCargoManifests(files).flatMap((d) => (normaliseCrateName(d.name) === wanted && d.source === 'registry' ? [d.registry] : [])),
  );
  for (const registry of registries) {
    const patch = patchOf(layout.patches, wanted, registry);
    if (patch)
      return {
        cannot: `${patch.file} [${patch.table}]: '${patch.key}' is ${patch.reason}: Cargo builds that, not the registry's versions`,
      };
  }
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const inheritedKeys = new Set<string>();
  for (const { file, text, inherited } of layout.manifests) {
    const located = locateIn(file, text, wanted, inherited);
    if ('cannot' in located) return { cannot: located.cannot };
    for (const declaration of located.declarations) declarations.push(declaration);
    for (const text of located.unchanged) unchanged.push(text);
    for (const key of located.inherits) inheritedKeys.add(key);
  }
  const root = layout.rootAbove;
  if (root && inheritedKeys.size > 0) {
    // The root above is not one of the directory's manifests: only the entries the directory inherits are edited.
    const table = layout.manifests[0]?.inherited ?? {};
    const strings = tomlStrings(root.text);
    for (const key of inheritedKeys) {
      const located = locateValue(root.file, root.text, strings, ['workspace', 'dependencies'], key, table[key]);
      if ('cannot' in located) return located;
      if ('unchanged' in located) unchanged.push(located.unchanged);
      else declarations.push(located);
    }
  }
  return { declarations, unchanged };
}

/**
 * The declaration of `key` = `value` in `section` of manifest `file`: its requirement's span, `unchanged` for a table
 * without `version`, `cannot` for a path or git dependency or a string the span scanner does not give as written.
 */
function locateValue(
  file: string,
  text: string,
  strings: ReturnType<typeof tomlStrings>,
  section: readonly string[],
  key: string,
  value: unknown,
): Declaration | { unchanged: string } | { cannot: string } {
  const where = section.length === 3 ? `target.'${section[1]}'.${section[2]}` : section.join('.');
  if (isTable(value) && (typeof value.path === 'string' || typeof value.git === 'string')) {
    return { cannot: `${file} ${where}: '${key}' is a path or git dependency` };
  }
  const path = typeof value === 'string' ? [...section, key] : [...section, key, 'version'];
  const written = typeof value === 'string' ? value : isTable(value) ? value.version : undefined;
  if (typeof written !== 'string') return { unchanged: `${file} ${where}: '${key}' has no version requirement` };
  const span = tomlStringAt(strings, path);
  if (!span || text.slice(span.start, span.end) !== written)
    return { cannot: `${file} ${where}: the version of '${key}' is a multi-line or escaped string` };
  return { file, where, parts: [{ start: span.start, end: span.end }], rewrite };
}

/**
 * The declarations of the crate `wanted` (normalised) in one manifest `file` (see {@link locateCargo}), and the keys of
 * its `workspace = true` declarations (`inherits`), which are edited in the workspace root's table; `rootDependencies` is
 * the workspace root's `[workspace.dependencies]` for a member (its own table when it has one).
 * @throws ManifestParseError when the manifest does not parse
 */
function locateIn(file: string, text: string, wanted: string, rootDependencies: Table | undefined): Located & { inherits: string[] } {
  const doc = parseToml(file, text);
  const workspace = tableAt(file, doc, 'workspace');
  const ownWorkspaceDeps = workspace ? tableAt(file, workspace, 'dependencies') : undefined;
  const workspaceDeps = ownWorkspaceDeps ?? rootDependencies;
  const sections: [string[], Table | undefined][] = KINDS.map(([kind]) => [[kind], tableAt(file, doc, kind)]);
  for (const [cfg, body] of Object.entries(tableAt(file, doc, 'target') ?? {})) {
    if (isTable(body)) for (const [kind] of KINDS) sections.push([['target', cfg, kind], tableAt(file, body, kind)]);
  }
  sections.push([['workspace', 'dependencies'], ownWorkspaceDeps]);
  const strings = tomlStrings(text);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  const inherits: string[] = [];
  for (const [section, table] of sections) {
    const where = section.length === 3 ? `target.'${section[1]}'.${section[2]}` : section.join('.');
    for (const [key, value] of Object.entries(table ?? {})) {
      const inherited = isTable(value) && value.workspace === true ? workspaceDeps?.[key] : undefined;
      const realName =
        (isTable(value) && typeof value.package === 'string' ? value.package : undefined) ??
        (isTable(inherited) && typeof inherited.package === 'string' ? inherited.package : key);
      if (normaliseCrateName(realName) !== wanted) continue;
      if (isTable(value) && value.workspace === true && typeof value.path !== 'string' && typeof value.git !== 'string') {
        if (inherited === undefined) {
          return {
            cannot: `${file} ${where}: '${key}' inherits its version from a workspace root that is not read or does not declare it`,
            inherits,
          };
        }
        // edited through the root's [workspace.dependencies] entry: the directory's own when it is the root (located
        // there as a section of its own), else the root above's
        if (ownWorkspaceDeps === undefined) inherits.push(key);
        continue;
      }
      const located = locateValue(file, text, strings, section, key, value);
      if ('cannot' in located) return { ...located, inherits };
      if ('unchanged' in located) unchanged.push(located.unchanged);
      else declarations.push(located);
    }
  }
  return { declarations, unchanged, inherits };
}
