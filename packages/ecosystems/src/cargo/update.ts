import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';
import type { Declaration, Located } from '../update/declarations.ts';
import { clauseRewriter, type RequirementSyntax } from '../update/rewrite.ts';
import { tomlStringAt, tomlStrings } from '../update/toml-spans.ts';
import { normaliseCrateName } from './cargo-toml.ts';
import { cargoVersions } from './versions.ts';

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
 * The declarations of crate `name` (by registry name, `-`/`_` and case alike) in Cargo.toml: every dependency
 * table (also under `[target.'cfg(...)']`) and `[workspace.dependencies]`, as a string (`serde = "1.0"`), an
 * inline or dotted table's `version` (`{ version = "1.0", features = [...] }`, `[dependencies.serde]`). A
 * `workspace = true` member is edited through the `[workspace.dependencies]` entry it inherits. A table without
 * `version` is unchanged; `path`/`git` dependencies, inheritance from a workspace root that is not this file and
 * multi-line or escaped strings cannot be rewritten.
 * @throws ManifestParseError when Cargo.toml does not parse
 */
export function locateCargo(files: Readonly<Record<string, string>>, name: string): Located {
  const text = files['Cargo.toml'];
  if (text === undefined) return { cannot: 'no Cargo.toml' };
  const doc = parseToml('Cargo.toml', text);
  const wanted = normaliseCrateName(name);
  const workspace = tableAt('Cargo.toml', doc, 'workspace');
  const workspaceDeps = workspace ? tableAt('Cargo.toml', workspace, 'dependencies') : undefined;
  const sections: [string[], Table | undefined][] = KINDS.map((kind) => [[kind], tableAt('Cargo.toml', doc, kind)]);
  for (const [cfg, body] of Object.entries(tableAt('Cargo.toml', doc, 'target') ?? {})) {
    if (isTable(body)) for (const kind of KINDS) sections.push([['target', cfg, kind], tableAt('Cargo.toml', body, kind)]);
  }
  sections.push([['workspace', 'dependencies'], workspaceDeps]);
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
        return { cannot: `${where}: '${key}' is a path or git dependency` };
      }
      if (isTable(value) && value.workspace === true) {
        if (inherited === undefined) return { cannot: `${where}: '${key}' inherits its version from a workspace root that is not read` };
        continue; // edited through its [workspace.dependencies] entry
      }
      const path = typeof value === 'string' ? [...section, key] : [...section, key, 'version'];
      const written = typeof value === 'string' ? value : isTable(value) ? value.version : undefined;
      if (typeof written !== 'string') {
        unchanged.push(`${where}: '${key}' has no version requirement`);
        continue;
      }
      const span = tomlStringAt(strings, path);
      if (!span || text.slice(span.start, span.end) !== written)
        return { cannot: `${where}: the version of '${key}' is a multi-line or escaped string` };
      declarations.push({ file: 'Cargo.toml', where, parts: [{ start: span.start, end: span.end }], rewrite });
    }
  }
  return { declarations, unchanged };
}
