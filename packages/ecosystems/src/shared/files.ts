import type { EcosystemFiles } from '../ecosystem.ts';
import { ManifestParseError } from '../errors.ts';

/**
 * File entries of {@link EcosystemFiles} and the gitlinks the files map may hold.
 */

/** Does the entry hold a `*` wildcard? */
export function isFilePattern(entry: string): boolean {
  return entry.includes('*');
}

const patternCache = new Map<string, RegExp>();

/**
 * Does `path` (relative to the config's directory, `/`-separated) match the {@link EcosystemFiles} entry `entry`? Each
 * `*` matches any characters of one path segment except `/`; every other character matches itself:
 * `matchesFilePattern('Dockerfile*', 'Dockerfile.prod')` is true, `matchesFilePattern('*.csproj', 'src/App.csproj')` false.
 */
export function matchesFilePattern(entry: string, path: string): boolean {
  let pattern = patternCache.get(entry);
  if (!pattern) {
    const source = entry
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^/]*');
    pattern = new RegExp(`^${source}$`);
    if (patternCache.size < 1_000) patternCache.set(entry, pattern);
  }
  return pattern.test(path);
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
 * The paths relative to the config's directory that `related` ({@link EcosystemFiles}) gives for the files map, without
 * those already in it, those that leave the repository (`directory` being the config's), and duplicates, in order. A
 * file that does not parse points at nothing: `related` throwing `ManifestParseError` gives [] here, and the reader
 * reports the file when the dependencies are read (`findDependency`, `listDependencies`).
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
  const out: string[] = [];
  for (const path of related) {
    if (seen.has(path) || repositoryPath(directory, path) === undefined) continue;
    seen.add(path);
    out.push(path);
  }
  return out;
}
