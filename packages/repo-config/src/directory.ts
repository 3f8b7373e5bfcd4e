import { minimatch } from 'minimatch';

/**
 * Directories of update configs: one spelling per directory, so that `/app`, `app` and `/app/` are the same config, and
 * the glob characters v2 allows in `directories` but not in `directory`
 * (https://docs.github.com/en/code-security/dependabot/working-with-dependabot/dependabot-options-reference).
 */

/** Characters that make a directory a glob: `*` and `**` (GitHub's docs), `?`, and the class and brace openers. */
const GLOB_CHARACTERS = /[*?[{]/;

/** Does `directory` hold glob characters? */
export function isGlob(directory: string): boolean {
  return GLOB_CHARACTERS.test(directory);
}

/**
 * `directory` as an absolute path from the repository's root: a leading `/`, no trailing `/` (but for `/`), empty and
 * `.` segments dropped, `..` applied. Undefined when `..` climbs above the root.
 * `normaliseDirectory('app/')` → `/app`; `normaliseDirectory('/a/./b/../c')` → `/a/c`; `normaliseDirectory('/..')` → undefined.
 */
export function normaliseDirectory(directory: string): string | undefined {
  const segments: string[] = [];
  for (const segment of directory.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return undefined;
      continue;
    }
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/**
 * The directories of `directories` (absolute, as {@link normaliseDirectory} spells them: `/`, `/apps/web`) that the v2
 * `directories` glob `pattern` matches, in their order: `*` any characters of one path segment, `**` any number of
 * segments, `?`, classes and braces as in a shell glob (minimatch), dot directories included (`/.github/actions/*`).
 * `expandDirectoryPattern('/lib-*', ['/', '/lib-a', '/lib-a/x'])` → `['/lib-a']`.
 */
export function expandDirectoryPattern(pattern: string, directories: readonly string[]): string[] {
  const absolute = normaliseDirectory(pattern) ?? pattern;
  return directories.filter((directory) => minimatch(directory, absolute, { dot: true }));
}
