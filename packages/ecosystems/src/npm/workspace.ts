import { ManifestParseError } from '../errors.ts';
import { MAX_GLOB_LENGTH } from '../shared/glob.ts';
import { isTable, parseJsonObject, type Table } from '../shared/parse.ts';
import { globWithinBounds, matchesDirectory, parseSegmentGlob, type SegmentGlob } from './glob.ts';

/**
 * npm, Yarn and Lerna workspaces: the root package.json's `workspaces` (npm 7+,
 * https://docs.npmjs.com/cli/v10/using-npm/workspaces; Yarn 1, https://classic.yarnpkg.com/lang/en/docs/workspaces/, also
 * as `{ "packages": [...] }`) and lerna.json's `packages` (https://github.com/lerna/lerna#lernajson) name directories by
 * globs; the `package.json` of each is a member manifest, read with the root's (`files.related`) as dependabot-core's npm
 * file fetcher read them (`workspace_package_jsons`, `lerna_packages`). Workspace members share the root's lockfile;
 * a Lerna package may hold its own (`packages/a/package-lock.json`, which Dependabot fetched too).
 */

type Files = Readonly<Record<string, string>>;

/** The root manifest of the config's directory. */
export const ROOT_MANIFEST = 'package.json';

/** The Lerna configuration file. */
export const LERNA_JSON = 'lerna.json';

/** npm's and Yarn's lockfiles, in the order the first one present is read. */
export const LOCKFILES = ['npm-shrinkwrap.json', 'package-lock.json', 'yarn.lock'] as const;

/**
 * The lockfiles of members holding their own (a Lerna package's `modules/api/package-lock.json`), as `files.lockfiles`
 * patterns 1 to 5 directories deep: they are read through `files.related` only, and a caller that updates lockfiles
 * when one is present (release-svc matches `files.lockfiles` against the files read) finds them too.
 */
export const MEMBER_LOCKFILE_PATTERNS: readonly string[] = [1, 2, 3, 4, 5].flatMap((depth) =>
  LOCKFILES.map((lock) => `${'*/'.repeat(depth)}${lock}`),
);

/** How many directories a `**` glob segment stands for at most in `files.related` (0 to this many). */
export const GLOBSTAR_DEPTH = 3;

/** How many directory patterns one glob gives `files.related` at most (`a/**\/b/**` gives 16; the first in order are kept). */
export const MAX_DIRECTORIES_PER_GLOB = 64;

/** How many files {@link npmRelated} names at most per call, the first in order (the globs' order). */
export const MAX_RELATED = 200;

/** One glob of a workspace list: its segments and whether it excludes (`!packages/private`). */
interface WorkspaceGlob {
  segments: string[];
  negated: boolean;
  /** From lerna.json's `packages` (a Lerna package may hold its own lockfile), else from package.json's `workspaces`. */
  lerna: boolean;
}

/** The strings of a workspace list: an array, or Yarn's `{ packages: [...] }` (its `nohoist` patterns name hoisting rules, not members). */
function globList(value: unknown): string[] {
  const list = isTable(value) ? value.packages : value;
  return Array.isArray(list) ? list.filter((glob): glob is string => typeof glob === 'string') : [];
}

/**
 * A glob as segments: `./`, empty segments and a trailing `/` dropped, consecutive `**` segments as one (the same
 * directories); undefined for one that goes up (`../x`), names the root, or is out of bounds ({@link globWithinBounds}:
 * longer than 256 characters, or more than 16 wildcard characters once consecutive `**` are one), which is ignored.
 */
function globOf(text: string, lerna: boolean): WorkspaceGlob | undefined {
  const trimmed = text.trim();
  if (trimmed.length > MAX_GLOB_LENGTH) return undefined;
  const negated = trimmed.startsWith('!');
  const segments: string[] = [];
  for (const part of (negated ? trimmed.slice(1) : trimmed).split('/')) {
    if (part === '' || part === '.' || (part === '**' && segments.at(-1) === '**')) continue;
    segments.push(part);
  }
  if (segments.length === 0 || segments.includes('..') || !globWithinBounds(segments.join('/'))) return undefined;
  return { segments, negated, lerna };
}

/**
 * The globs of the root package.json's `workspaces` and lerna.json's `packages`, in that order.
 * @throws ManifestParseError when package.json or lerna.json does not parse
 */
function workspaceGlobs(files: Files): WorkspaceGlob[] {
  const globs: WorkspaceGlob[] = [];
  const root = files[ROOT_MANIFEST];
  if (root !== undefined) {
    for (const glob of globList(parseJsonObject(ROOT_MANIFEST, root).workspaces)) {
      const parsed = globOf(glob, false);
      if (parsed) globs.push(parsed);
    }
  }
  const lerna = files[LERNA_JSON];
  if (lerna !== undefined) {
    for (const glob of globList(parseJsonObject(LERNA_JSON, lerna).packages)) {
      const parsed = globOf(glob, true);
      if (parsed) globs.push(parsed);
    }
  }
  return globs;
}

/** Is a segment a glob (`*`, `?`, `[...]`, `{a,b}`, extglobs `!(...)`, `@(...)`)? */
const isGlob = (segment: string) => /[*?[{]|[!@+]\(/.test(segment);

/**
 * The `*` patterns a glob's directory stands for in `files.related`: each glob segment one `*`, `**` 0 to
 * {@link GLOBSTAR_DEPTH} of them; without duplicates, the first {@link MAX_DIRECTORIES_PER_GLOB} (shallow ones first).
 */
function directoryPatterns(segments: readonly string[]): string[] {
  let out: string[] = [''];
  const join = (prefix: string, part: string) => (prefix === '' ? part : part === '' ? prefix : `${prefix}/${part}`);
  for (const segment of segments) {
    const parts =
      segment === '**'
        ? Array.from({ length: GLOBSTAR_DEPTH + 1 }, (_, n) => Array<string>(n).fill('*').join('/'))
        : [isGlob(segment) ? '*' : segment];
    const next = new Set<string>();
    for (const prefix of out) {
      for (const part of parts) {
        if (next.size < MAX_DIRECTORIES_PER_GLOB) next.add(join(prefix, part));
      }
    }
    out = [...next];
  }
  return out.filter((pattern) => pattern !== '');
}

/** A glob's segments as {@link matchesDirectory} takes them. */
const segmentGlobs = (segments: readonly string[]): SegmentGlob[] =>
  segments.map((segment) => (segment === '**' ? '**' : parseSegmentGlob(segment)));

/**
 * The files the root package.json's `workspaces` and lerna.json's `packages` point at, as `files.related` gives them:
 * `packages/*\/package.json` for `packages/*` (every glob segment becomes one `*`: `{a,b}`, `?`, `[...]` and Yarn's
 * `!(private)` are matched exactly by {@link npmManifests} afterwards), `apps/web/package.json` for a plain path; a `**`
 * segment stands for 0 to {@link GLOBSTAR_DEPTH} directories (deeper members are not read). A Lerna glob also names the
 * package's own lockfiles (`packages/*\/package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock`), as Dependabot fetched
 * them. Negated globs (`!packages/private`) name nothing; globs that go up (`../x`) or are out of bounds (longer than
 * 256 characters, more than 16 wildcard characters) are dropped. At most {@link MAX_DIRECTORIES_PER_GLOB} directory
 * patterns per glob and {@link MAX_RELATED} files in all, the first in order. [] without either list.
 * @throws ManifestParseError when package.json or lerna.json does not parse
 */
export function npmRelated(files: Files): string[] {
  const out = new Set<string>();
  const add = (file: string) => {
    if (out.size < MAX_RELATED) out.add(file);
  };
  for (const glob of workspaceGlobs(files)) {
    if (out.size >= MAX_RELATED) break;
    if (glob.negated) continue;
    for (const directory of directoryPatterns(glob.segments)) {
      add(`${directory}/${ROOT_MANIFEST}`);
      if (glob.lerna) for (const lock of LOCKFILES) add(`${directory}/${lock}`);
    }
  }
  return [...out];
}

/** A manifest of the directory: the root package.json or a member's. */
export interface NpmManifest {
  /** The files-map path: `package.json`, `packages/core/package.json`. */
  path: string;
  /** The member's directory (`packages/core`), `` for the root. */
  directory: string;
  text: string;
  /** A member named by package.json's `workspaces` (it shares the root's lockfile unless it holds its own). */
  workspace: boolean;
}

/**
 * The manifests of the directory, root first, then the members present in `files` sorted by directory (a parent
 * before its subdirectories): the `package.json`
 * of each directory a glob of `workspaces` or lerna.json's `packages` matches (as npm's map-workspaces and Lerna glob
 * them: `*`, `?`, `[...]`, `{a,b}`, `**`, extglobs such as Yarn's `!(private)`), unless a negated glob matches it too
 * (npm's `!packages/private`), and never one below a `node_modules` directory. [] without a root package.json.
 * @throws ManifestParseError when package.json or lerna.json does not parse
 */
export function npmManifests(files: Files): NpmManifest[] {
  const root = files[ROOT_MANIFEST];
  if (root === undefined) return [];
  const globs = workspaceGlobs(files).map((glob) => ({ ...glob, matcher: segmentGlobs(glob.segments) }));
  const manifests: NpmManifest[] = [{ path: ROOT_MANIFEST, directory: '', text: root, workspace: false }];
  if (globs.length === 0) return manifests;
  const suffix = `/${ROOT_MANIFEST}`;
  const directories = Object.keys(files)
    .filter((path) => path.endsWith(suffix) && !path.split('/').includes('node_modules') && !path.startsWith('../'))
    .map((path) => path.slice(0, -suffix.length))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const directory of directories) {
    const path = `${directory}${suffix}`;
    const segments = directory.split('/');
    if (segments.includes('')) continue;
    const matched = (negated: boolean, lerna?: boolean) =>
      globs.some(
        (glob) => glob.negated === negated && (lerna === undefined || glob.lerna === lerna) && matchesDirectory(glob.matcher, segments),
      );
    if (!matched(false) || matched(true)) continue;
    manifests.push({ path, directory, text: files[path] ?? '', workspace: matched(false, false) });
  }
  return manifests;
}

/**
 * The package names of the members (their package.json `name`), which dependabot-core's npm file parser left out of the
 * dependencies (`workspace_package_names`): npm and Yarn link a member rather than fetch it from a registry.
 * @throws ManifestParseError when a manifest does not parse
 */
export function memberNames(manifests: readonly NpmManifest[]): Set<string> {
  const names = new Set<string>();
  for (const manifest of manifests) {
    if (manifest.directory === '') continue;
    const name = parseJsonObject(manifest.path, manifest.text).name;
    if (typeof name === 'string' && name.trim() !== '') names.add(name.trim());
  }
  return names;
}

/** The first lockfile present in a member's own directory (`packages/a/package-lock.json`, a Lerna package's), as its files-map path. */
export function ownLockfile(files: Files, directory: string): { path: string; name: (typeof LOCKFILES)[number] } | undefined {
  if (directory === '') return undefined;
  for (const name of LOCKFILES) {
    const path = `${directory}/${name}`;
    if (files[path] !== undefined) return { path, name };
  }
  return undefined;
}

/**
 * The manifests the root's lockfiles lock: the root package.json and the members of its `workspaces` that do not hold
 * their own lockfile (a Lerna package outside `workspaces` is installed on its own, `lerna bootstrap`).
 * @throws ManifestParseError when a manifest does not parse
 */
export function rootScope(files: Files): NpmManifest[] {
  return npmManifests(files).filter(
    (manifest) => manifest.directory === '' || (manifest.workspace && ownLockfile(files, manifest.directory) === undefined),
  );
}

/**
 * The root package.json's `resolutions` (Yarn, https://classic.yarnpkg.com/lang/en/docs/selective-version-resolutions/)
 * and `overrides` (npm, https://docs.npmjs.com/cli/v10/configuring-npm/package-json#overrides) entries whose value is a
 * string, with the package name each applies to (the last name of a Yarn path `**\/a/@s/b` → `@s/b`; an npm key
 * `name@range` → `name`). Nested npm override objects are not read.
 * @throws ManifestParseError when package.json does not parse or a section is not an object
 */
export function pinEntries(text: string): { section: 'resolutions' | 'overrides'; key: string; name: string; value: string }[] {
  const manifest: Table = parseJsonObject(ROOT_MANIFEST, text);
  const out: { section: 'resolutions' | 'overrides'; key: string; name: string; value: string }[] = [];
  for (const section of ['resolutions', 'overrides'] as const) {
    const table = manifest[section];
    if (table === undefined) continue;
    if (!isTable(table)) throw new ManifestParseError(ROOT_MANIFEST, `'${section}' is not an object`);
    for (const [key, value] of Object.entries(table)) {
      if (typeof value !== 'string') continue;
      out.push({ section, key, name: section === 'resolutions' ? resolutionName(key) : overrideName(key), value });
    }
  }
  return out;
}

/** The package a Yarn resolution key applies to: its last name (`a/**\/b` → `b`, `**\/@s/b` → `@s/b`, `b@npm:^1` → `b`). */
function resolutionName(key: string): string {
  const parts = key.split('/');
  const last = parts.at(-1) ?? '';
  const previous = parts.at(-2);
  const name = previous?.startsWith('@') ? `${previous}/${last}` : last;
  const at = name.indexOf('@', 1);
  return at > 0 ? name.slice(0, at) : name;
}

/** The package an npm override key applies to: `a` of `a` and `a@^1`, `@s/a` of `@s/a@^1`. */
function overrideName(key: string): string {
  const at = key.indexOf('@', 1);
  return at > 0 ? key.slice(0, at) : key;
}

/**
 * Does a Yarn resolution key apply to `name` as a dependency of `parent` (a package name; undefined for the root's and
 * members' own dependencies)? `name` and `**\/name` apply everywhere, `parent/name` and `**\/parent/name` below `parent`.
 */
export function resolutionApplies(key: string, name: string, parent?: string): boolean {
  const unprefixed = key.startsWith('**/') ? key.slice(3) : key;
  // the range (`@^1`, `@npm:^1`) starts at the first `@` of the last name not at its start (a linear scan: the key is
  // repository content, and a lookahead per `@` is quadratic)
  const at = unprefixed.indexOf('@', unprefixed.lastIndexOf('/') + 2);
  const path = at < 0 ? unprefixed : unprefixed.slice(0, at);
  if (path === name) return true;
  return parent !== undefined && (path === `${parent}/${name}` || path === `${parent}/**/${name}`);
}
