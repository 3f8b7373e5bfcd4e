import type { EcosystemFiles } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/**
 * File entries of {@link EcosystemFiles} and the gitlinks the files map may hold.
 */

/** Does the entry hold a `*` wildcard? */
export function isFilePattern(entry: string): boolean {
  return entry.includes('*');
}

/**
 * Does `text` (one path segment) match `pattern` (one segment of an entry), where each `*` matches any run of
 * characters and every other character itself? The iterative wildcard match: O(length of text × length of pattern) at
 * worst, never exponential, whatever stars a repository writes (`*a*a*a*a*b` against a long name).
 */
function segmentMatches(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * Does `path` (relative to the config's directory, `/`-separated) match the {@link EcosystemFiles} entry `entry`? Each
 * `*` matches any characters of one path segment except `/`; every other character matches itself:
 * `matchesFilePattern('Dockerfile*', 'Dockerfile.prod')` is true, `matchesFilePattern('*.csproj', 'src/App.csproj')` false.
 * Linear in the path for plain entries and O(path × entry) with stars ({@link segmentMatches}): entries a repository's
 * files give (`files.related`: workspace globs) cannot make it backtrack.
 */
export function matchesFilePattern(entry: string, path: string): boolean {
  if (!isFilePattern(entry)) return entry === path;
  const patterns = entry.split('/');
  const segments = path.split('/');
  return patterns.length === segments.length && patterns.every((pattern, i) => segmentMatches(pattern, segments[i] as string));
}

/** Every path of `paths` that one of `entries` names (as given, or by a pattern), in `paths`' order. */
export function filesMatching(entries: readonly string[], paths: Iterable<string>): string[] {
  return [...paths].filter((path) => entries.some((entry) => matchesFilePattern(entry, path)));
}

/**
 * The first alternatives of `required` ({@link EcosystemFiles}'s `required`: at least one entry of each inner list must
 * exist) that none of `paths` (relative to the config's directory) meets, as an entry or by a pattern; undefined when
 * every one is met. `unmetRequirement([['requirements.txt', 'pyproject.toml']], ['setup.py'])` is both names.
 */
export function unmetRequirement(required: readonly (readonly string[])[], paths: Iterable<string>): readonly string[] | undefined {
  const present = [...paths];
  return required.find((alternatives) => filesMatching(alternatives, present).length === 0);
}

/**
 * The entries of `files` (a files map an ecosystem is given) that `entry` names: the file itself for a plain entry,
 * every matching file for a pattern; as `[path, text]` pairs sorted by path.
 */
export function filesOf(files: Readonly<Record<string, string>>, entry: string): Array<[string, string]> {
  if (!isFilePattern(entry)) {
    const text = files[entry];
    return text === undefined ? [] : [[entry, text]];
  }
  return Object.entries(files)
    .filter(([path]) => matchesFilePattern(entry, path))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const GITLINK = /^Subproject commit ([0-9a-f]{40})\n?$/;

/** The files-map text of a gitlink to `sha` (40 hex): `Subproject commit <sha>\n`, as git shows a gitlink in a diff. */
export function gitlinkText(sha: string): string {
  return `Subproject commit ${sha.toLowerCase()}\n`;
}

/** The commit of a gitlink's files-map text ({@link gitlinkText}), or undefined when the text is not one. */
export function readGitlink(text: string): string | undefined {
  return GITLINK.exec(text)?.[1];
}

/**
 * A `/`-separated relative path with `.` and empty segments dropped and `x/..` pairs collapsed; leading `..` segments
 * stay, as files-map keys allow them (`src/App/../../Directory.Packages.props` → `Directory.Packages.props`,
 * `a/../../b` → `../b`, `./a//b/` → `a/b`, `.` → ``).
 */
export function normaliseRelativePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts.at(-1) !== '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}

/**
 * The repository path of `file`, a files-map path relative to the config's `directory` (`/web`, `/`), which may go up
 * with `../` ({@link EcosystemFiles}' `related`): `repositoryPath('/src/App', '../../Directory.Packages.props')` is
 * `Directory.Packages.props`, `repositoryPath('/web', 'package.json')` is `web/package.json`. Undefined when the path
 * leaves the repository (`repositoryPath('/', '../x')`) or names no file (empty, `.`).
 */
export function repositoryPath(directory: string, file: string): string | undefined {
  const parts: string[] = [];
  for (const part of `${directory}/${file}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('/');
}

/**
 * Rounds of {@link relatedFiles} the worker reads after the first read (release-svc's `readManifestFiles`), each with
 * what the last one added: chains are followed (an included file's own `-r`, a `.proj` naming another) this deep.
 */
export const RELATED_ROUNDS = 3;

/**
 * At most this many paths a call of {@link relatedFiles} gives (one round of the worker's reading): workspace members,
 * includes and parent-directory files of real repositories stay far below it, and a repository that names a hundred
 * thousand includes cannot make the worker read them all.
 */
export const MAX_RELATED_PATHS = 300;

/**
 * The paths relative to the config's directory that `related` ({@link EcosystemFiles}) gives for the files map, without
 * those already in it, those that leave the repository (`directory` being the config's), duplicates, and other names
 * of a file the map already holds (`../web/base.txt` from `/web`, where `base.txt` was read), in order, at most
 * {@link MAX_RELATED_PATHS}. A file that does not parse points at nothing: `related` throwing `ManifestParseError` gives
 * [] here, and the reader reports the file when the dependencies are read (`findDependency`, `listDependencies`).
 */
export function relatedFiles(entries: EcosystemFiles, files: Readonly<Record<string, string>>, directory: string): string[] {
  if (!entries.related) return [];
  let related: string[];
  try {
    related = entries.related(files);
  } catch (error) {
    if (error instanceof ManifestParseError) return [];
    throw error;
  }
  const seen = new Set(Object.keys(files));
  const held = new Set(Object.keys(files).map((path) => repositoryPath(directory, path)));
  const out: string[] = [];
  for (const path of related) {
    if (out.length === MAX_RELATED_PATHS) break;
    const inRepository = repositoryPath(directory, path);
    if (seen.has(path) || inRepository === undefined || (!isFilePattern(path) && held.has(inRepository))) continue;
    seen.add(path);
    held.add(inRepository);
    out.push(path);
  }
  return out;
}
