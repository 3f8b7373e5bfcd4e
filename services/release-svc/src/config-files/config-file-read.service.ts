import type { CodeHost } from '@switchyard/code-host';
import { FileUpdateConfig, type RepoConfigFileRead } from '@switchyard/contracts';
import { CONFIG_FILE_PATHS, chooseConfigFile, type ParsedConfigFile } from '@switchyard/repo-config';
import { fileUpdateConfigs } from './config-file.mapper.ts';
import { expandDirectoryGlobs } from './config-file-directories.policy.ts';

/** A config file's text and what it says, as read for a repository. */
export interface ReadConfigFile {
  /** The event to hand to config-svc. */
  read: RepoConfigFileRead;
  /** The chosen file's parse, or null when the repository has none (for the issue about an invalid file). */
  parsed: ParsedConfigFile | null;
}

/**
 * Reads repository `repo`'s config files from its default branch (`.dependabot/config.yml`, `.github/dependabot.yml`,
 * `.github/dependabot.yaml`: one request where the code host reads several files at once), chooses the one that
 * governs (`chooseConfigFile` of `@switchyard/repo-config`) and describes it as `repo_config_file.read`, its
 * `directories` globs expanded over the default branch's tree (`expandDirectoryGlobs`: one more request, for a file that
 * has globs). A file too large to read counts as an invalid file (its problem says so).
 * @throws CodeHostError when the code host cannot be read (the caller retries later)
 */
export async function readRepoConfigFiles(codeHost: CodeHost, token: string, repo: RepoConfigFileRead['repo']): Promise<ReadConfigFile> {
  const where = { owner: repo.owner.login, name: repo.name };
  const texts: Record<string, string> = {};
  const tooLarge = new Set<string>();
  if (codeHost.readFiles) {
    const reads = await codeHost.readFiles(token, where, CONFIG_FILE_PATHS, { ref: repo.defaultBranch });
    Object.assign(texts, reads.files);
    for (const path of Object.keys(reads.tooLarge)) tooLarge.add(path);
  } else {
    for (const path of CONFIG_FILE_PATHS) {
      const text = await codeHost.readFile(token, where, path, repo.defaultBranch);
      if (text !== undefined) texts[path] = text;
    }
  }
  const readAt = new Date().toISOString();
  const { chosen, ignored } = chooseConfigFile(texts);
  const oversized = chosen === null ? CONFIG_FILE_PATHS.find((path) => tooLarge.has(path)) : undefined;
  if (oversized !== undefined) {
    const problem = { pointer: '#/', message: `The file ${oversized} is too large to read` };
    const file = { path: oversized, version: null, valid: false, problems: [problem], skipped: [], ignoredFiles: [] };
    return { read: { repo, readAt, commitSha: null, file, configs: [] }, parsed: null };
  }
  if (chosen === null) return { read: { repo, readAt, commitSha: null, file: null, configs: [] }, parsed: null };
  // `directories` globs name directories of the tree: one more request, only for a file that has them.
  const entries = chosen.valid ? chosen.configs : [];
  const tree = entries.some((config) => config.directoryGlob) ? await codeHost.listTree?.(token, where, repo.defaultBranch) : undefined;
  const expanded = expandDirectoryGlobs(entries, tree);
  const served = fileUpdateConfigs(expanded.configs);
  const file = {
    path: chosen.path,
    version: chosen.version,
    valid: chosen.valid,
    problems: chosen.problems.slice(0, 200),
    skipped: [...chosen.skipped, ...expanded.skipped, ...served.skipped].slice(0, 200),
    ignoredFiles: ignored.slice(0, 10),
  };
  // Checked against the event's schema here, so a file with more than the event carries fails its read, not the relay.
  const configs = served.configs.slice(0, 200).map((config) => FileUpdateConfig.parse(config));
  return { read: { repo, readAt, commitSha: null, file, configs }, parsed: chosen };
}
