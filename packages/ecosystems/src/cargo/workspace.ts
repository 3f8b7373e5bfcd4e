import { normaliseRelativePath } from '../shared/files.ts';
import { memoByFiles } from '../shared/files-memo.ts';
import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';
import { type CrateDeclaration, KINDS, readCargoToml } from './cargo-toml.ts';
import { type GlobToken, globWithinBounds, matchesSegment, parseSegmentGlob } from './glob.ts';
import { type CratePatch, cratePatches } from './patch.ts';

/**
 * The manifests a Cargo directory reads (https://doc.rust-lang.org/cargo/reference/workspaces.html): a workspace root's
 * members (its `[workspace]`), the workspace root above a member directory configured on its own, and the manifests of
 * path dependencies (https://doc.rust-lang.org/cargo/reference/specifying-dependencies.html#specifying-path-dependencies),
 * all through `files.related` ({@link cargoRelated}), as dependabot-core's `cargo/.../file_fetcher.rb` fetched them
 * (`workspace_files`, `path_dependency_files`).
 */

type Files = Readonly<Record<string, string>>;

/** The manifest of the config's directory. */
export const ROOT_MANIFEST = 'Cargo.toml';

/** The lockfile beside a workspace root (or a package on its own). */
export const LOCKFILE = 'Cargo.lock';

/**
 * How many parent directories are searched for the workspace root of a member directory configured on its own
 * (`../Cargo.toml` up to `../../../../../Cargo.toml`). Cargo searches every ancestor; five levels hold the members of
 * the workspaces seen (`crates/grep`, `libs/x/y`), and each level costs the worker a read.
 */
export const PARENT_LEVELS = 5;

/** The lockfiles of the workspace roots above the directory that {@link cargoLayout} may take (`../Cargo.lock` …). */
export const PARENT_LOCKFILES: readonly string[] = Array.from({ length: PARENT_LEVELS }, (_, i) => `${'../'.repeat(i + 1)}${LOCKFILE}`);

/**
 * The most files {@link cargoRelated} names per call (member manifests and patterns, parent manifests, path dependencies'
 * manifests, in that order): a `[workspace]` of 200,000 members asks for the first ones only.
 */
export const MAX_RELATED = 200;

/** A member entry: its directory's path segments (`..` allowed before the rest) and whether a segment is a glob. */
interface MemberEntry {
  segments: string[];
  glob: boolean;
  /** The segments joined by `/` (`crates/grep`). */
  path: string;
}

/** The segments of a `/`-separated relative path without `.` and empty segments (`./crates/a/` → `crates`, `a`). */
function segmentsOf(path: string): string[] {
  return path
    .replaceAll('\\', '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
}

/** Is a path segment a glob of Cargo's `glob` crate (`*`, `?`, `[...]`)? */
const isGlob = (segment: string) => /[*?[]/.test(segment);

/** The string values of `table[key]` when it is an array, else []. */
const strings = (table: Table | undefined, key: string): string[] =>
  Array.isArray(table?.[key]) ? (table[key] as unknown[]).filter((v): v is string => typeof v === 'string') : [];

/** What a root's `[workspace]` says of its members. */
interface Workspace {
  entries: MemberEntry[];
  /** `exclude` paths, their segments joined by `/`: a member below one of them is not one. */
  exclude: Set<string>;
}

/** Every dependency table of a manifest (also under `[target.'cfg(...)']`), as `[path in the document, table]`. */
function dependencyTables(file: string, doc: Table): Array<[string[], Table | undefined]> {
  const out: Array<[string[], Table | undefined]> = KINDS.map(([kind]) => [[kind], tableAt(file, doc, kind)]);
  for (const [cfg, body] of Object.entries(tableAt(file, doc, 'target') ?? {})) {
    if (isTable(body)) for (const [kind] of KINDS) out.push([['target', cfg, kind], tableAt(file, body, kind)]);
  }
  return out;
}

/**
 * A manifest's `[workspace]`: `members` (globs allowed), `default-members` (members already, read too), and the root
 * package's `path` dependencies below the root, which Cargo makes members whether or not `members` lists them ("All path
 * dependencies residing in the workspace directory automatically become members"); `exclude`. Undefined when the manifest
 * has no `[workspace]` table.
 * @throws ManifestParseError when a table it reads is not one
 */
function workspaceOf(file: string, doc: Table): Workspace | undefined {
  const workspace = tableAt(file, doc, 'workspace');
  if (!workspace) return undefined;
  const paths = [...strings(workspace, 'members'), ...strings(workspace, 'default-members')];
  for (const [, table] of dependencyTables(file, doc)) {
    for (const value of Object.values(table ?? {})) {
      if (isTable(value) && typeof value.path === 'string' && !segmentsOf(value.path).includes('..')) paths.push(value.path);
    }
  }
  const entries: MemberEntry[] = [];
  for (const written of paths) {
    const segments = segmentsOf(written);
    if (segments.length === 0) continue;
    const path = segments.join('/');
    const glob = isGlob(path);
    // a glob may not go up (`files.related` patterns stay below the directory), nor be too long (see `globWithinBounds`)
    if (glob && (segments.includes('..') || !globWithinBounds(path))) continue;
    entries.push({ segments, glob, path });
  }
  const exclude = new Set<string>();
  for (const path of strings(workspace, 'exclude')) {
    const segments = segmentsOf(path);
    if (segments.length > 0) exclude.add(segments.join('/'));
  }
  return { entries, exclude };
}

/** Is the member directory `segments` below (or at) one of the excluded paths? Cargo's `is_excluded`: a path prefix. */
function excluded(workspace: Workspace, segments: readonly string[]): boolean {
  if (workspace.exclude.size === 0) return false;
  let prefix = '';
  for (const [i, segment] of segments.entries()) {
    prefix = i === 0 ? segment : `${prefix}/${segment}`;
    if (workspace.exclude.has(prefix)) return true;
  }
  return false;
}

/**
 * Can one of the workspace's member entries name a directory `depth` levels below the root? A plain entry of `depth`
 * segments, a glob entry of `depth` segments, or one with `**` (any number of directories) and at most `depth` others;
 * never one that goes up. The directory's own name is not known here (the files map is keyed relative to it), so this is
 * the test of "the root lists this member" for a root above.
 */
function canList(workspace: Workspace, depth: number): boolean {
  return workspace.entries.some((entry) => {
    if (entry.segments.includes('..')) return false;
    const any = entry.segments.filter((s) => s === '**').length;
    return any > 0 ? depth >= entry.segments.length - any : entry.segments.length === depth;
  });
}

/** The `[workspace.dependencies]` of a parsed root manifest, undefined when there is none. */
function workspaceDependenciesOf(file: string, doc: Table): Table | undefined {
  const workspace = tableAt(file, doc, 'workspace');
  return workspace ? tableAt(file, workspace, 'dependencies') : undefined;
}

/**
 * Does a manifest without `[workspace]` inherit anything from a workspace root: a `[package]` key `x.workspace = true`
 * (`version`, `edition`…), `[package] workspace = "…"` (the root named explicitly), `[lints] workspace = true`, or a
 * dependency `{ workspace = true }` (https://doc.rust-lang.org/cargo/reference/workspaces.html#the-package-table)?
 * @throws ManifestParseError when a dependency table is not one
 */
function inheritsFromWorkspace(file: string, doc: Table): boolean {
  const pkg = doc.package;
  if (isTable(pkg) && (typeof pkg.workspace === 'string' || Object.values(pkg).some((v) => isTable(v) && v.workspace === true))) {
    return true;
  }
  if (isTable(doc.lints) && doc.lints.workspace === true) return true;
  return dependencyTables(file, doc).some(([, table]) => Object.values(table ?? {}).some((v) => isTable(v) && v.workspace === true));
}

/**
 * The segments of `path` (a manifest's relative path, `/` or `\` separated) resolved from the directory `from` (segments
 * relative to the config's directory, leading `..` allowed): `..` removes the last segment or, at the top, is kept
 * (`['crates', 'a']` + `../b` → `crates`, `b`; `[]` + `../x` → `..`, `x`). Undefined for an absolute path or one
 * holding `*` (which a files-map key would read as a pattern).
 */
function resolveFrom(from: readonly string[], path: string): string[] | undefined {
  const normal = path.replaceAll('\\', '/');
  if (normal.startsWith('/') || /^[A-Za-z]:/.test(normal) || normal.includes('*')) return undefined;
  const resolved = normaliseRelativePath([...from, normal].join('/'));
  return resolved === '' ? [] : resolved.split('/');
}

/** The directory segments of a files-map key (`../crates/a/Cargo.toml` → `..`, `crates`, `a`). */
const directoryOf = (file: string) => file.split('/').slice(0, -1);

/** The `Cargo.toml` key of a directory given as segments. */
const manifestAt = (segments: readonly string[]) => [...segments, ROOT_MANIFEST].join('/');

/** How many `..` a files-map key starts with. */
const levelsUp = (file: string) => {
  const segments = directoryOf(file);
  const index = segments.findIndex((s) => s !== '..');
  return index < 0 ? segments.length : index;
};

/**
 * The `path` values of a manifest (Dependabot's `path_dependency_paths_from_file`): its dependency tables (also under
 * `[target.'cfg(...)']`), `[workspace.dependencies]`, every `[patch.<source>]` table and `[replace]`.
 * @throws ManifestParseError when one of those tables is not one
 */
function pathDependencies(file: string, doc: Table): string[] {
  const tables = dependencyTables(file, doc).map(([, table]) => table);
  tables.push(workspaceDependenciesOf(file, doc));
  const patch = tableAt(file, doc, 'patch') ?? {};
  for (const source of Object.keys(patch)) tables.push(tableAt(file, patch, source));
  tables.push(tableAt(file, doc, 'replace'));
  return tables.flatMap((table) =>
    Object.values(table ?? {}).flatMap((value) => (isTable(value) && typeof value.path === 'string' ? [value.path] : [])),
  );
}

/** One manifest read, with the `[workspace.dependencies]` its `workspace = true` dependencies inherit. */
export interface ReadManifest {
  file: string;
  text: string;
  /** The workspace root's table for a manifest that is not the root, undefined otherwise (or when none is read). */
  inherited: Table | undefined;
}

/** Where a Cargo directory's manifests are, as {@link cargoLayout} reads the files map. */
export interface CargoLayout {
  /**
   * The workspace root read: `Cargo.toml` when the directory is the root or a package on its own, `../Cargo.toml` …
   * for a member directory whose root is read; undefined for a member whose root is not read.
   */
  root: string | undefined;
  /** The directory's manifests, whose dependencies are listed and updated: the root then its members, or `Cargo.toml` alone. */
  manifests: ReadManifest[];
  /** The root above the directory, when it is one (its own dependencies and `[workspace.dependencies]` bind Cargo.lock). */
  rootAbove: ReadManifest | undefined;
  /** The manifests of path dependencies read that are not members: their dependencies bind Cargo.lock, never listed. */
  pathPackages: ReadManifest[];
  /** The lockfile's key: `Cargo.lock`, or the one beside a root above (`../Cargo.lock`). */
  lockfile: string;
  /** What the root's `[patch]` and `[replace]` take from elsewhere (the directory's own when no root is read). */
  patches: CratePatch[];
  /** The files the layout points at that are not read yet: member patterns, parent manifests, the root's lockfile, path dependencies. */
  related: string[];
  /**
   * Path dependencies read that are the directory's own `Cargo.toml` seen from above (`../grep/Cargo.toml` from a path
   * package of the member directory `grep`): same text, as many segments down as up. They are not read twice.
   */
  aliases: string[];
}

/**
 * The member manifests a root `Cargo.toml` points at, as `files.related` gives them: `tool/Cargo.toml` for a plain
 * member, for `crates/*` the pattern of the `Cargo.toml` of every directory of `crates` (in a glob segment, `?` and
 * `[...]` become `*` too, `lib-[ab]` → `lib-*`, one path segment; what it then matches too widely is filtered out by
 * {@link memberManifests}; `**` matches one segment only), `../shared/Cargo.toml` for a member above (a glob may not go
 * up). Members that are the root itself are left out.
 */
function memberPatterns(workspace: Workspace): string[] {
  const out = new Set<string>();
  for (const entry of workspace.entries) {
    // the rest would be cut by `MAX_RELATED`
    if (out.size >= MAX_RELATED) break;
    if (!entry.glob) {
      if (!excluded(workspace, entry.segments)) out.add(`${entry.path}/${ROOT_MANIFEST}`);
    } else out.add(manifestAt(entry.segments.map((s) => (isGlob(s) ? s.replace(/\[[^\]]*\]|[*?]/g, '*').replace(/\*+/g, '*') : s))));
  }
  return [...out];
}

/**
 * The member manifests present in `files` (keys such as `crates/grep/Cargo.toml`), sorted by path: those a member
 * entry names (a glob entry matching as Cargo's `glob` does, within path segments), not below an `exclude`d path, and
 * not the root.
 */
function memberManifests(workspace: Workspace, files: Files): string[] {
  const candidates = Object.keys(files).filter((path) => path !== ROOT_MANIFEST && path.endsWith(`/${ROOT_MANIFEST}`));
  if (candidates.length === 0) return [];
  const directories = new Set(candidates.map((path) => path.slice(0, -ROOT_MANIFEST.length - 1)));
  // the candidates a plain entry names (looked up in the few files, not the many entries)
  const plain = new Set<string>();
  const globs: Array<Array<string | GlobToken[]>> = [];
  for (const entry of workspace.entries) {
    if (entry.glob) globs.push(entry.segments.map((s) => (isGlob(s) ? parseSegmentGlob(s) : s)));
    else if (directories.has(entry.path)) plain.add(`${entry.path}/${ROOT_MANIFEST}`);
  }
  const matchedByGlob = (directory: readonly string[]) =>
    globs.some(
      (glob) =>
        glob.length === directory.length &&
        glob.every((part, i) => {
          const name = directory[i] ?? '';
          return typeof part === 'string' ? part === name : matchesSegment(part, name);
        }),
    );
  return candidates
    .filter((path) => {
      const directory = directoryOf(path);
      return (plain.has(path) || matchedByGlob(directory)) && !excluded(workspace, directory);
    })
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The workspace root above a member directory configured on its own, among the files read: the root its `[package]
 * workspace = "…"` names (a parent directory up to {@link PARENT_LEVELS} levels: Cargo's explicit root), else the nearest
 * `../Cargo.toml`, `../../Cargo.toml` … whose `[workspace]` can list a directory at that depth ({@link canList}). Cargo takes
 * the nearest `[workspace]` that does not exclude the member and refuses a member its root does not list; without the
 * directory's name the two cannot be told apart, so a `[workspace]` that cannot list the directory is passed over.
 * Parent manifests without `[workspace]` (other packages) are passed over, as Cargo does.
 * @throws ManifestParseError when a parent manifest read does not parse
 */
function rootAboveOf(files: Files, doc: Table): string | undefined {
  const pkg = doc.package;
  const candidates: string[] = [];
  if (isTable(pkg) && typeof pkg.workspace === 'string') {
    const segments = resolveFrom([], pkg.workspace);
    if (!segments || segments.length === 0 || segments.length > PARENT_LEVELS || segments.some((s) => s !== '..')) return undefined;
    candidates.push(manifestAt(segments));
  } else {
    for (let level = 1; level <= PARENT_LEVELS; level++) candidates.push(`${'../'.repeat(level)}${ROOT_MANIFEST}`);
  }
  for (const file of candidates) {
    const text = files[file];
    if (text === undefined) continue;
    const workspace = workspaceOf(file, parseToml(file, text));
    if (workspace && canList(workspace, levelsUp(file))) return file;
  }
  return undefined;
}

/** The parent manifests a member directory asks for: the root its `[package] workspace` names, else each level up. */
function parentManifests(doc: Table): string[] {
  const pkg = doc.package;
  if (isTable(pkg) && typeof pkg.workspace === 'string') {
    const segments = resolveFrom([], pkg.workspace);
    if (!segments || segments.length === 0 || segments.length > PARENT_LEVELS || segments.some((s) => s !== '..')) return [];
    return [manifestAt(segments)];
  }
  return Array.from({ length: PARENT_LEVELS }, (_, i) => `${'../'.repeat(i + 1)}${ROOT_MANIFEST}`);
}

/**
 * Reads where the directory's manifests are (see {@link CargoLayout}):
 * - a `Cargo.toml` with `[workspace]` is the root: its members present in `files` ({@link memberManifests}) are read
 *   after it, inheriting from its `[workspace.dependencies]`;
 * - a `Cargo.toml` without `[workspace]` that inherits from a workspace ({@link inheritsFromWorkspace}) is a member
 *   configured on its own: its root is looked for above ({@link rootAboveOf}); the directory's manifest inherits that
 *   root's `[workspace.dependencies]`, and the root's `Cargo.lock` beside it is the lockfile (a `Cargo.lock` in the
 *   member directory is not the one Cargo uses then); without a root read, inherited dependencies have no requirement;
 * - otherwise a package on its own, its own root.
 * Then the manifests of path dependencies, followed from every manifest read (the directory's, the root above, and path
 * packages themselves), are path packages unless they are members; a path package below the root's directory
 * inherits from it too. The root's `[patch]`/`[replace]` ({@link cratePatches}).
 * @throws ManifestParseError when a manifest read does not parse (naming it)
 */
function readLayout(files: Files): CargoLayout {
  const text = files[ROOT_MANIFEST];
  const empty: CargoLayout = {
    root: undefined,
    manifests: [],
    rootAbove: undefined,
    pathPackages: [],
    lockfile: LOCKFILE,
    patches: [],
    related: [],
    aliases: [],
  };
  if (text === undefined) return empty;
  const doc = parseToml(ROOT_MANIFEST, text);
  const parsed = new Map<string, Table>([[ROOT_MANIFEST, doc]]);
  const parse = (file: string, body: string) => {
    const known = parsed.get(file);
    if (known) return known;
    const result = parseToml(file, body);
    parsed.set(file, result);
    return result;
  };
  const related: string[] = [];
  const own = workspaceOf(ROOT_MANIFEST, doc);
  let root: string | undefined = ROOT_MANIFEST;
  let manifests: ReadManifest[];
  let rootAbove: ReadManifest | undefined;
  let inherited: Table | undefined;
  if (own) {
    inherited = workspaceDependenciesOf(ROOT_MANIFEST, doc);
    const members = memberManifests(own, files).map((file) => ({ file, text: files[file] ?? '', inherited }));
    manifests = [{ file: ROOT_MANIFEST, text, inherited: undefined }, ...members];
    for (const pattern of memberPatterns(own)) related.push(pattern);
  } else if (inheritsFromWorkspace(ROOT_MANIFEST, doc)) {
    for (const parent of parentManifests(doc)) related.push(parent);
    root = rootAboveOf(files, doc);
    if (root !== undefined) {
      const rootText = files[root] ?? '';
      inherited = workspaceDependenciesOf(root, parse(root, rootText));
      rootAbove = { file: root, text: rootText, inherited: undefined };
      related.push(root.replace(/Cargo\.toml$/, LOCKFILE));
    }
    manifests = [{ file: ROOT_MANIFEST, text, inherited }];
  } else {
    manifests = [{ file: ROOT_MANIFEST, text, inherited: undefined }];
  }
  // Path dependencies, followed from every manifest read.
  const known = new Set([...manifests.map((m) => m.file), ...(rootAbove ? [rootAbove.file] : [])]);
  const queue = [...manifests, ...(rootAbove ? [rootAbove] : [])];
  const pathPackages: ReadManifest[] = [];
  const aliases: string[] = [];
  const rootLevels = root === undefined ? -1 : levelsUp(root);
  for (let index = 0; index < queue.length; index++) {
    const next = queue[index] as ReadManifest;
    for (const path of pathDependencies(next.file, parse(next.file, next.text))) {
      const segments = resolveFrom(directoryOf(next.file), path);
      if (!segments) continue;
      const file = manifestAt(segments);
      if (known.has(file)) continue;
      known.add(file);
      const body = files[file];
      if (body === undefined) {
        related.push(file);
        continue;
      }
      const up = levelsUp(file);
      if (up > 0 && segments.length === 2 * up && body === text) {
        aliases.push(file);
        continue;
      }
      const read = { file, text: body, inherited: levelsUp(file) <= rootLevels ? inherited : undefined };
      pathPackages.push(read);
      queue.push(read);
    }
  }
  const patchRoot = root ?? ROOT_MANIFEST;
  return {
    root,
    manifests,
    rootAbove,
    pathPackages,
    lockfile: rootAbove ? rootAbove.file.replace(/Cargo\.toml$/, LOCKFILE) : LOCKFILE,
    patches: cratePatches(patchRoot, parse(patchRoot, files[patchRoot] ?? '')),
    related: [...new Set(related)].filter((file) => file !== ROOT_MANIFEST).slice(0, MAX_RELATED),
    aliases,
  };
}

/**
 * {@link readLayout}, remembered per files map (the readers ask for it several times per call).
 * @throws ManifestParseError when a manifest read does not parse (naming it)
 */
export const cargoLayout: (files: Files) => CargoLayout = memoByFiles(readLayout);

/**
 * `files.related` of Cargo: what the files read point at ({@link CargoLayout}'s `related`), as dependabot-core's Cargo file
 * fetcher followed them:
 * - a workspace root's members: `tool/Cargo.toml`, `crates/*` as the pattern `crates/*\/Cargo.toml`, `../shared/Cargo.toml`;
 * - for a member directory configured on its own that inherits from its workspace, the parent manifests
 *   `../Cargo.toml` … up to {@link PARENT_LEVELS} levels (or the one its `[package] workspace` names), and once its root
 *   is read, that root's `Cargo.lock` (`../Cargo.lock`);
 * - the `Cargo.toml` of every `path` dependency of the manifests read (dependency tables, `[workspace.dependencies]`,
 *   `[patch.*]`, `[replace]`), resolved from the declaring manifest's directory (`../geo-types/Cargo.toml`), and in
 *   later rounds those of the path packages read.
 * At most {@link MAX_RELATED} files, the first in that order; member globs longer than 256 characters or with more than
 * 16 wildcards are ignored ({@link globWithinBounds}). [] without a Cargo.toml.
 * @throws ManifestParseError when a manifest read does not parse
 */
export function cargoRelated(files: Files): string[] {
  return cargoLayout(files).related;
}

/**
 * The directory's manifests as `[path, text]`: the root then its members present in `files`, or `Cargo.toml` alone
 * (see {@link CargoLayout}); [] without a Cargo.toml.
 * @throws ManifestParseError when a manifest read does not parse
 */
export function cargoManifests(files: Files): Array<[string, string]> {
  return cargoLayout(files).manifests.map((m): [string, string] => [m.file, m.text]);
}

/** A dependency declared in one of the directory's manifests: the declaration and the manifest's path (`crates/grep/Cargo.toml`). */
export interface ManifestDeclaration extends CrateDeclaration {
  file: string;
}

/** The declarations of manifests read, each by {@link readCargoToml} with what it inherits, tagged with its file. */
const declarationsOf = (manifests: readonly ReadManifest[]): ManifestDeclaration[] =>
  manifests.flatMap(({ file, text, inherited }) => readCargoToml(file, text, inherited).map((d) => ({ ...d, file })));

/**
 * Every dependency declaration of the directory's manifests ({@link cargoManifests}: the root, then its members by path;
 * or the member directory's own), each manifest read by {@link readCargoToml}; `workspace = true` dependencies inherit
 * from the workspace root's `[workspace.dependencies]` (the directory's, or the root above).
 * @throws ManifestParseError when a manifest does not parse (naming it)
 */
export function readCargoManifests(files: Files): ManifestDeclaration[] {
  return declarationsOf(cargoLayout(files).manifests);
}

/**
 * Every declaration whose requirement Cargo.lock must keep allowing: the directory's ({@link readCargoManifests}), the
 * root above's own (its `[dependencies]` and its `[workspace.dependencies]`, which other members inherit), and the path
 * packages'.
 * @throws ManifestParseError when a manifest does not parse (naming it)
 */
export function readLockedManifests(files: Files): ManifestDeclaration[] {
  const layout = cargoLayout(files);
  return declarationsOf([...layout.manifests, ...(layout.rootAbove ? [layout.rootAbove] : []), ...layout.pathPackages]);
}

/**
 * The `[package] name` of every manifest read (the directory's, the root above and the path packages): the packages
 * Cargo.lock holds without a source.
 * @throws ManifestParseError when a manifest does not parse (naming it)
 */
export function ownPackageNames(files: Files): Set<string> {
  const layout = cargoLayout(files);
  const all = [...layout.manifests, ...(layout.rootAbove ? [layout.rootAbove] : []), ...layout.pathPackages];
  return new Set(
    all.flatMap(({ file, text }) => {
      const doc = parseToml(file, text);
      return isTable(doc.package) && typeof doc.package.name === 'string' ? [doc.package.name] : [];
    }),
  );
}
