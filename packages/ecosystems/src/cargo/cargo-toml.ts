import type { DependencyType } from '../ecosystem.ts';
import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';

/** A dependency declared in Cargo.toml. */
export interface CrateDeclaration {
  /** The crate's registry name (`package = "..."` of a renamed dependency, else the key). */
  name: string;
  /** The key in Cargo.toml (the name the code uses). */
  key: string;
  type: DependencyType;
  /** The `version` requirement as written, null for path/git dependencies without one or `workspace = true` without a local workspace entry. */
  requirement: string | null;
  /** e.g. `dependencies`, `target.'cfg(windows)'.dev-dependencies`, `workspace.dependencies`. */
  section: string;
  /** `path` / `git` when the table (or the workspace entry it inherits) has that key, else `registry` (crates.io or a `registry = "..."`). */
  source: 'registry' | 'path' | 'git';
  /** The `registry = "..."` name of the table (or of the workspace entry it inherits), null for crates.io (also `registry = "crates-io"`). */
  registry: string | null;
}

/** The source of a dependency table: `path` and `git` keys win over `version` (Cargo uses the path/git locally). */
function sourceOf(value: unknown): CrateDeclaration['source'] {
  if (!isTable(value)) return 'registry';
  if (typeof value.path === 'string') return 'path';
  return typeof value.git === 'string' ? 'git' : 'registry';
}

/** The registry a dependency table names (`registry = "my-registry"`), null for crates.io (Cargo's name for it is `crates-io`). */
function registryOf(value: unknown): string | null {
  return isTable(value) && typeof value.registry === 'string' && value.registry !== 'crates-io' ? value.registry : null;
}

/** Dependency table keys and their type (with the old underscore spellings Cargo still accepts). */
export const KINDS: readonly [string, DependencyType][] = [
  ['dependencies', 'runtime'],
  ['dev-dependencies', 'development'],
  ['dev_dependencies', 'development'],
  ['build-dependencies', 'development'],
  ['build_dependencies', 'development'],
];

/** Crates.io treats `-` and `_` alike and names case-insensitively. */
export const normaliseCrateName = (name: string) => name.trim().toLowerCase().replaceAll('_', '-');

/**
 * Reads every dependency of a Cargo.toml (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html):
 * `[dependencies]` (runtime), `[dev-dependencies]` and `[build-dependencies]` (development), the same under
 * `[target.'cfg(...)'.*]`, and `[workspace.dependencies]` (runtime). Values are a requirement string or a
 * table (`{ version = "1.2", features = [...] }`, `package = "real-name"`, `path`, `git`, `workspace = true`,
 * the latter resolved from `[workspace.dependencies]` of the same file when present, else from `rootDependencies`: the
 * workspace root's, for a member manifest, https://doc.rust-lang.org/cargo/reference/workspaces.html#the-dependencies-table).
 * @throws ManifestParseError when the TOML does not parse or a dependency section is not a table
 */
export function readCargoToml(file: string, text: string, rootDependencies?: Table): CrateDeclaration[] {
  const doc = parseToml(file, text);
  const out: CrateDeclaration[] = [];
  const workspace = tableAt(file, doc, 'workspace');
  const ownWorkspaceDeps = workspace ? tableAt(file, workspace, 'dependencies') : undefined;
  const workspaceDeps = ownWorkspaceDeps ?? rootDependencies;
  const read = (table: Table | undefined, type: DependencyType, section: string) => {
    for (const [key, value] of Object.entries(table ?? {})) {
      let requirement: string | null = null;
      let name = key;
      let source = sourceOf(value);
      let registry = registryOf(value);
      if (typeof value === 'string') requirement = value.trim();
      else if (isTable(value)) {
        if (typeof value.package === 'string') name = value.package;
        if (typeof value.version === 'string') requirement = value.version.trim();
        else if (value.workspace === true && workspaceDeps) {
          const inherited = workspaceDeps[key];
          if (typeof inherited === 'string') requirement = inherited.trim();
          else if (isTable(inherited) && typeof inherited.version === 'string') requirement = inherited.version.trim();
          if (isTable(inherited) && typeof inherited.package === 'string') name = inherited.package;
          source = sourceOf(inherited);
          registry = registryOf(inherited);
        }
      }
      out.push({ name, key, type, requirement, section, source, registry });
    }
  };
  for (const [kind, type] of KINDS) read(tableAt(file, doc, kind), type, kind);
  for (const [cfg, body] of Object.entries(tableAt(file, doc, 'target') ?? {})) {
    if (!isTable(body)) continue;
    for (const [kind, type] of KINDS) read(tableAt(file, body, kind), type, `target.'${cfg}'.${kind}`);
  }
  read(ownWorkspaceDeps, 'runtime', 'workspace.dependencies');
  return out;
}
