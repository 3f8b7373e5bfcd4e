/**
 * Where the two kinds of repository config file live: Dependabot Preview's `.dependabot/config.yml` (version 1) and
 * GitHub-native Dependabot's `.github/dependabot.yml` or `.github/dependabot.yaml` (version 2), each at the repository's
 * root on its default branch (https://dependabot.com/docs/config-file/; GitHub's docs; dependabot-core's
 * `CONFIG_FILE_PATHS`, https://github.com/dependabot/dependabot-core/issues/3059).
 */

/** The config file paths this package reads, v1 first, then the two spellings of v2 (`.yml` before `.yaml`). */
export const CONFIG_FILE_PATHS = ['.dependabot/config.yml', '.github/dependabot.yml', '.github/dependabot.yaml'] as const;

/** One of {@link CONFIG_FILE_PATHS}. */
export type ConfigFilePath = (typeof CONFIG_FILE_PATHS)[number];

/** The file version a path holds: 1 for `.dependabot/config.yml`, 2 for the `.github/` files. */
export function versionOfPath(path: ConfigFilePath): 1 | 2 {
  return path === '.dependabot/config.yml' ? 1 : 2;
}

/** Is `path` one of {@link CONFIG_FILE_PATHS}? */
export function isConfigFilePath(path: string): path is ConfigFilePath {
  return (CONFIG_FILE_PATHS as readonly string[]).includes(path);
}
