import { isTable, parseToml, type Table, tableAt } from '../shared/parse.ts';
import { type CrateDeclaration, readCargoToml } from './cargo-toml.ts';

/**
 * Cargo workspaces (https://doc.rust-lang.org/cargo/reference/workspaces.html): the root `Cargo.toml`'s `[workspace]`
 * names its members, whose manifests are read with the root's (`files.related`) and share its Cargo.lock.
 */

type Files = Readonly<Record<string, string>>;

/** The root manifest of the config's directory. */
export const ROOT_MANIFEST = 'Cargo.toml';

/** Dependency tables whose `path` entries make members (with the old underscore spellings Cargo still accepts). */
const DEPENDENCY_TABLES = ['dependencies', 'dev-dependencies', 'dev_dependencies', 'build-dependencies', 'build_dependencies'];

/** A member entry: its directory's path segments (`..` allowed before the rest) and whether a segment is a glob. */
interface MemberEntry {
  segments: string[];
  glob: boolean;
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

/** A regular expression matching one path segment as the glob `segment` does (`*` and `?` within the segment, `[...]` classes). */
function segmentPattern(segment: string): string {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment.charAt(i);
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const close = segment.indexOf(']', i + 2);
      if (close < 0) out += '\\[';
      else {
        const body = segment.slice(i + 1, close);
        const negated = body.startsWith('!');
        out += `[${negated ? '^' : ''}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, '\\$&')}]`;
        i = close;
      }
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return out;
}

/** The string values of `table[key]` when it is an array, else []. */
const strings = (table: Table | undefined, key: string): string[] =>
  Array.isArray(table?.[key]) ? (table[key] as unknown[]).filter((v): v is string => typeof v === 'string') : [];

/** What the root's `[workspace]` says of its members. */
interface Workspace {
  entries: MemberEntry[];
  /** `exclude` paths as segments: a member below one of them is not one. */
  exclude: string[][];
}

/**
 * The root's `[workspace]`: `members` (globs allowed), `default-members` (members already, read too), and the root
 * package's `path` dependencies below the root, which Cargo makes members whether or not `members` lists them
 * ("All path dependencies residing in the workspace directory automatically become members"); `exclude`. Undefined
 * when the root has no `[workspace]` table or no Cargo.toml.
 * @throws ManifestParseError when the root Cargo.toml does not parse
 */
function workspaceOf(files: Files): Workspace | undefined {
  const text = files[ROOT_MANIFEST];
  if (text === undefined) return undefined;
  const doc = parseToml(ROOT_MANIFEST, text);
  const workspace = tableAt(ROOT_MANIFEST, doc, 'workspace');
  if (!workspace) return undefined;
  const paths = [...strings(workspace, 'members'), ...strings(workspace, 'default-members')];
  const dependencyTables: (Table | undefined)[] = DEPENDENCY_TABLES.map((kind) => tableAt(ROOT_MANIFEST, doc, kind));
  for (const body of Object.values(tableAt(ROOT_MANIFEST, doc, 'target') ?? {})) {
    if (isTable(body)) for (const kind of DEPENDENCY_TABLES) dependencyTables.push(isTable(body[kind]) ? body[kind] : undefined);
  }
  for (const table of dependencyTables) {
    for (const value of Object.values(table ?? {})) {
      if (isTable(value) && typeof value.path === 'string' && !segmentsOf(value.path).includes('..')) paths.push(value.path);
    }
  }
  const entries = paths
    .map(segmentsOf)
    .filter((segments) => segments.length > 0)
    .map((segments) => ({ segments, glob: segments.some(isGlob) }))
    // a glob may not go up: `files.related` patterns stay below the directory
    .filter((entry) => !(entry.glob && entry.segments.includes('..')));
  return { entries, exclude: strings(workspace, 'exclude').map(segmentsOf) };
}

/** Is the member directory `segments` below (or at) one of the excluded paths? Cargo's `is_excluded`: a path prefix. */
const excluded = (workspace: Workspace, segments: readonly string[]) =>
  workspace.exclude.some((ex) => ex.length > 0 && ex.length <= segments.length && ex.every((part, i) => segments[i] === part));

/**
 * The member manifests the root Cargo.toml points at, as `files.related` gives them: `tool/Cargo.toml` for a plain
 * member, for `crates/*` the pattern of the `Cargo.toml` of every directory of `crates` (in a glob segment, `?` and
 * `[...]` become `*` too, `lib-[ab]` → `lib-*`, one path segment; what it then matches too widely is filtered out by {@link memberManifests};
 * `**` matches one segment only), `../shared/Cargo.toml` for a member above (a glob may not go up). Members that are the
 * root itself are left out. [] without a `[workspace]`.
 * @throws ManifestParseError when the root Cargo.toml does not parse
 */
export function cargoRelated(files: Files): string[] {
  const workspace = workspaceOf(files);
  if (!workspace) return [];
  const out = workspace.entries
    .filter((entry) => entry.glob || !excluded(workspace, entry.segments))
    .map((entry) =>
      [...entry.segments.map((s) => (isGlob(s) ? s.replace(/\[[^\]]*\]|[*?]/g, '*').replace(/\*+/g, '*') : s)), ROOT_MANIFEST].join('/'),
    );
  return [...new Set(out)];
}

/**
 * The member manifests present in `files` (keys such as `crates/grep/Cargo.toml`), sorted by path: those a member
 * entry names (a glob entry matching as Cargo's `glob` does, within path segments), not below an `exclude`d path, and
 * not the root. [] without a `[workspace]`.
 * @throws ManifestParseError when the root Cargo.toml does not parse
 */
export function memberManifests(files: Files): string[] {
  const workspace = workspaceOf(files);
  if (!workspace) return [];
  const matchers = workspace.entries.map((entry) => {
    const source = entry.segments.map((s) => (isGlob(s) ? segmentPattern(s) : s.replace(/[.+*?^${}()|[\]\\]/g, '\\$&'))).join('/');
    return new RegExp(`^${source}/Cargo\\.toml$`);
  });
  return Object.keys(files)
    .filter((path) => path !== ROOT_MANIFEST && matchers.some((m) => m.test(path)))
    .filter((path) => !excluded(workspace, segmentsOf(path).slice(0, -1)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The manifests of the directory, root first, then its workspace members present in `files` ({@link memberManifests}),
 * as `[path, text]`; [] without a root Cargo.toml.
 * @throws ManifestParseError when the root Cargo.toml does not parse
 */
export function cargoManifests(files: Files): Array<[string, string]> {
  const root = files[ROOT_MANIFEST];
  if (root === undefined) return [];
  return [[ROOT_MANIFEST, root], ...memberManifests(files).map((path): [string, string] => [path, files[path] ?? ''])];
}

/**
 * The root's `[workspace.dependencies]`, which members inherit with `workspace = true`; undefined when there is none.
 * @throws ManifestParseError when the root Cargo.toml does not parse or the table is not one
 */
export function workspaceDependencies(files: Files): Table | undefined {
  const text = files[ROOT_MANIFEST];
  if (text === undefined) return undefined;
  const workspace = tableAt(ROOT_MANIFEST, parseToml(ROOT_MANIFEST, text), 'workspace');
  return workspace ? tableAt(ROOT_MANIFEST, workspace, 'dependencies') : undefined;
}

/** A dependency declared in one of the directory's manifests: the declaration and the manifest's path (`crates/grep/Cargo.toml`). */
export interface ManifestDeclaration extends CrateDeclaration {
  file: string;
}

/**
 * Every dependency declaration of the directory's manifests ({@link cargoManifests}: the root, then its members by path),
 * each manifest read by {@link readCargoToml}; a member's `workspace = true` dependencies inherit from the root's
 * `[workspace.dependencies]`.
 * @throws ManifestParseError when a manifest does not parse (naming it)
 */
export function readCargoManifests(files: Files): ManifestDeclaration[] {
  const manifests = cargoManifests(files);
  if (manifests.length === 0) return [];
  const inherited = workspaceDependencies(files);
  return manifests.flatMap(([file, text]) =>
    readCargoToml(file, text, file === ROOT_MANIFEST ? undefined : inherited).map((d) => ({ ...d, file })),
  );
}
