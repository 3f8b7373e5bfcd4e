import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { normaliseCrateName } from './cargo-toml.ts';
import { cargoVersions } from './versions.ts';
import { cargoManifests, ROOT_MANIFEST, workspaceDependencies } from './workspace.ts';

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

const KINDS = ['dependencies', 'dev-dependencies', 'dev_dependencies', 'build-dependencies', 'build_dependencies'];

/**
 * The declarations of crate `name` (by registry name, `-`/`_` and case alike) in the directory's manifests (the root
 * Cargo.toml, then its workspace members present in `files`: `crates/grep/Cargo.toml`, see {@link cargoManifests}):
 * every dependency table (also under `[target.'cfg(...)']`) and the root's `[workspace.dependencies]`, as a string
 * (`serde = "1.0"`), an inline or dotted table's `version` (`{ version = "1.0", features = [...] }`,
 * `[dependencies.serde]`). A `workspace = true` dependency, in the root or a member, is edited through the root's
 * `[workspace.dependencies]` entry it inherits. A table without `version` is unchanged; `path`/`git` dependencies,
 * inheritance from a workspace root that is not read (or has no such entry) and multi-line or escaped strings cannot be
 * rewritten.
 * @throws ManifestParseError when a manifest does not parse
 */
export function locateCargo(files: Readonly<Record<string, string>>, name: string): Located {
  const manifests = cargoManifests(files);
  if (manifests.length === 0) return { cannot: 'no Cargo.toml' };
  const rootDependencies = workspaceDependencies(files);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const [file, text] of manifests) {
    const located = locateIn(file, text, name, file === ROOT_MANIFEST ? undefined : rootDependencies);
    if ('cannot' in located) return located;
    declarations.push(...located.declarations);
    unchanged.push(...located.unchanged);
  }
  return { declarations, unchanged };
}

/**
 * The declarations of crate `name` in one manifest `file` (see {@link locateCargo}); `rootDependencies` is the workspace
 * root's `[workspace.dependencies]` for a member (its own table when it has one).
 * @throws ManifestParseError when the manifest does not parse
 */
function locateIn(file: string, text: string, name: string, rootDependencies: Table | undefined): Located {
  const doc = parseToml(file, text);
  const wanted = normaliseCrateName(name);
  const workspace = tableAt(file, doc, 'workspace');
  const ownWorkspaceDeps = workspace ? tableAt(file, workspace, 'dependencies') : undefined;
  const workspaceDeps = ownWorkspaceDeps ?? rootDependencies;
  const sections: [string[], Table | undefined][] = KINDS.map((kind) => [[kind], tableAt(file, doc, kind)]);
  for (const [cfg, body] of Object.entries(tableAt(file, doc, 'target') ?? {})) {
    if (isTable(body)) for (const kind of KINDS) sections.push([['target', cfg, kind], tableAt(file, body, kind)]);
  }
  sections.push([['workspace', 'dependencies'], ownWorkspaceDeps]);
  const strings = tomlStrings(text);
  const declarations: Declaration[] = [];
  const unchanged: string[] = [];
  for (const [section, table] of sections) {
    const where = section.length === 3 ? `target.'${section[1]}'.${section[2]}` : section.join('.');
    for (const [key, value] of Object.entries(table ?? {})) {
      const inherited = isTable(value) && value.workspace === true ? workspaceDeps?.[key] : undefined;
      const realName =
        (isTable(value) && typeof value.package === 'string' ? value.package : undefined) ??
        (isTable(inherited) && typeof inherited.package === 'string' ? inherited.package : key);
      if (normaliseCrateName(realName) !== wanted) continue;
      if (isTable(value) && (typeof value.path === 'string' || typeof value.git === 'string')) {
        return { cannot: `${file} ${where}: '${key}' is a path or git dependency` };
      }
      if (isTable(value) && value.workspace === true) {
        if (inherited === undefined) {
          return {
            cannot: `${file} ${where}: '${key}' inherits its version from a workspace root that is not read or does not declare it`,
          };
        }
        continue; // edited through the root's [workspace.dependencies] entry
      }
      const path = typeof value === 'string' ? [...section, key] : [...section, key, 'version'];
      const written = typeof value === 'string' ? value : isTable(value) ? value.version : undefined;
      if (typeof written !== 'string') {
        unchanged.push(`${file} ${where}: '${key}' has no version requirement`);
        continue;
      }
      const span = tomlStringAt(strings, path);
      if (!span || text.slice(span.start, span.end) !== written)
        return { cannot: `${file} ${where}: the version of '${key}' is a multi-line or escaped string` };
      declarations.push({ file, where, parts: [{ start: span.start, end: span.end }], rewrite });
    }
  }
  return { declarations, unchanged };
}
