import type { RepoTree } from '@switchyard/code-host';
import type { ConfigFileSkipped } from '@switchyard/contracts';
import { ecosystemFor, unmetRequirement } from '@switchyard/ecosystems';
import { expandDirectoryPattern, type FileUpdateConfig } from '@switchyard/repo-config';

/** Directories one `directories` glob expands to at most; the rest are listed as skipped. */
export const MAX_EXPANDED_DIRECTORIES = 50;

/**
 * A v2 file's `directories` globs (`/lib-*`, `/apps/**`) expanded over the repository's tree at its default branch
 * (`tree`, one `listTree` request), as Dependabot expands them: each directory the glob matches (`expandDirectoryPattern`)
 * that holds the files the config's package manager requires (`package.json` for npm, `requirements.txt` or
 * `pyproject.toml` for pip …) becomes a config of its own (same settings, same pointer), in the tree's order, at most
 * {@link MAX_EXPANDED_DIRECTORIES} per glob; a directory the file also names outright, or another glob matched first,
 * is not made twice. A glob that matches no such directory, one cut short by the limit, and a tree the code host cut
 * short are said in `skipped`. Without a tree (a code host that cannot list one) the globs are left as they are (the
 * mapper skips them, saying so). Configs that are not globs pass unchanged.
 */
export function expandDirectoryGlobs(
  configs: readonly FileUpdateConfig[],
  tree: RepoTree | undefined,
): { configs: FileUpdateConfig[]; skipped: ConfigFileSkipped[] } {
  if (!tree || !configs.some((config) => config.directoryGlob)) return { configs: [...configs], skipped: [] };
  const directories = ['/', ...tree.entries.filter((e) => e.type === 'tree').map((e) => `/${e.path}`)];
  const files = tree.entries.filter((e) => e.type === 'blob').map((e) => e.path);
  const key = (config: FileUpdateConfig) => `${config.packageManager}\u0000${config.directory}\u0000${config.targetBranch ?? ''}`;
  const taken = new Set(configs.filter((config) => !config.directoryGlob).map(key));
  const expanded: FileUpdateConfig[] = [];
  const skipped: ConfigFileSkipped[] = [];
  if (tree.truncated) {
    skipped.push({
      pointer: '#/',
      reason: "the repository's tree is too large for the code host to list whole: directory patterns were expanded over part of it",
    });
  }
  for (const config of configs) {
    if (!config.directoryGlob) {
      expanded.push(config);
      continue;
    }
    const required = ecosystemFor(config.packageManager)?.files.required ?? [];
    const holding = expandDirectoryPattern(config.directory, directories).filter((directory) => {
      const prefix = directory === '/' ? '' : `${directory.slice(1)}/`;
      const inside = files.filter((path) => path.startsWith(prefix)).map((path) => path.slice(prefix.length));
      return unmetRequirement(required, inside) === undefined;
    });
    const fresh = holding.filter((directory) => !taken.has(key({ ...config, directory })));
    if (holding.length === 0) {
      const names = required.map((alternatives) => alternatives.join(' or ')).join(' and ');
      skipped.push({ pointer: config.pointer, reason: `the directory pattern ${config.directory} matches no directory holding ${names}` });
    }
    for (const directory of fresh.slice(0, MAX_EXPANDED_DIRECTORIES)) {
      const one = { ...config, directory, directoryGlob: false };
      taken.add(key(one));
      expanded.push(one);
    }
    if (fresh.length > MAX_EXPANDED_DIRECTORIES) {
      skipped.push({
        pointer: config.pointer,
        reason: `the directory pattern ${config.directory} matches ${fresh.length} directories: the first ${MAX_EXPANDED_DIRECTORIES} are served`,
      });
    }
  }
  return { configs: expanded, skipped };
}
