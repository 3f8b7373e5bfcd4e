/**
 * Which config file a repository's setup comes from when it holds more than one (the precedence rule of the package's
 * README).
 */
import type { ParsedConfigFile } from './model.ts';
import { parseConfigFile } from './parse.ts';
import type { ConfigFilePath } from './paths.ts';

/** A config file present in the repository but not read, and why. */
export interface IgnoredConfigFile {
  path: ConfigFilePath;
  reason: string;
}

/** The file chosen (parsed; null when there is none) and the files passed over. */
export interface ConfigFileChoice {
  chosen: ParsedConfigFile | null;
  ignored: IgnoredConfigFile[];
}

/**
 * Chooses among the config files of a repository's default branch (`files`: path → text, only the files that exist)
 * and parses the chosen one.
 *
 * Precedence: `.github/dependabot.yml`, then `.github/dependabot.yaml`, then `.dependabot/config.yml`. A version 2 file
 * is GitHub-native Dependabot's, which replaced Preview: a repository that has one has moved on (Preview's own upgrade
 * pull request deleted `.dependabot/config.yml` and added `.github/dependabot.yml`:
 * https://github.com/wunderio/drupal-project/commit/12bff1b075426a1f7b171312b346dac029701b53), so its
 * `.dependabot/config.yml` is ignored as a whole, never merged. `.yml` wins over `.yaml`, as dependabot-core's
 * `CONFIG_FILE_PATHS` lists it first. The choice is by presence, not validity: an invalid `.github/dependabot.yml` is
 * chosen (and reported invalid) rather than falling back to the v1 file, so a typo never switches the repository to an
 * older setup.
 */
export function chooseConfigFile(files: Partial<Record<ConfigFilePath, string>>): ConfigFileChoice {
  const order: ConfigFilePath[] = ['.github/dependabot.yml', '.github/dependabot.yaml', '.dependabot/config.yml'];
  const present = order.filter((path) => typeof files[path] === 'string');
  const [first, ...rest] = present;
  if (!first) return { chosen: null, ignored: [] };
  const ignored = rest.map((path) => ({ path, reason: `${first} takes precedence over ${path}; ${path} is not read` }));
  return { chosen: parseConfigFile(first, files[first] as string), ignored };
}
