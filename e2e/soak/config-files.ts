import type { AutomergeRule, PackageManager } from '@switchyard/contracts';
import { LIVE_PACKAGE_MANAGERS } from '@switchyard/contracts';
import type { Config } from './clients.ts';
import type { FileConfigState } from './journal.ts';
import type { ConfigFilePath } from './world.ts';

/**
 * The config files the soak's people push (`.dependabot/config.yml`, version 1, and `.github/dependabot.yml`, version
 * 2), written from the configs they should make, as a person writes them; and what each version can say: version 2 has
 * no automerge rules (its configs' rules are `never`) and no `live` schedule.
 */

/** One config a config file makes: the soak's config it takes over (by id), and what it says of it. */
export interface FileConfig {
  id: string;
  packageManager: PackageManager;
  directory: string;
  schedule: string;
  runtime: AutomergeRule;
  development: AutomergeRule;
  /** null: the repository's default branch. */
  targetBranch: string | null;
}

/** A file's version by its path. */
export function fileVersion(path: ConfigFilePath): 1 | 2 {
  return path === '.dependabot/config.yml' ? 1 : 2;
}

/**
 * `config` as the file at `path` can say it: version 2 makes both automerge rules `never` and a `live` schedule
 * `daily`; version 1 says everything the soak sets (`live` only where the package manager has it).
 */
export function expressible(path: ConfigFilePath, config: FileConfig): FileConfig {
  if (fileVersion(path) === 1) {
    const live = (LIVE_PACKAGE_MANAGERS as readonly string[]).includes(config.packageManager);
    return { ...config, schedule: config.schedule === 'live' && !live ? 'daily' : config.schedule };
  }
  return { ...config, runtime: 'never', development: 'never', schedule: config.schedule === 'live' ? 'daily' : config.schedule };
}

/** Version 1 `package_manager` names of the API's package managers. */
const V1_NAMES: Readonly<Record<PackageManager, string>> = {
  npm_and_yarn: 'javascript',
  bundler: 'ruby:bundler',
  composer: 'php:composer',
  pip: 'python',
  go_modules: 'go:modules',
  dep: 'go:dep',
  maven: 'java:maven',
  gradle: 'java:gradle',
  nuget: 'dotnet:nuget',
  cargo: 'rust:cargo',
  hex: 'elixir:hex',
  docker: 'docker',
  terraform: 'terraform',
  submodules: 'submodules',
  elm: 'elm',
  github_actions: 'github_actions',
};

/** Version 2 `package-ecosystem` names (dep has none: GitHub-native Dependabot never took it). */
const V2_NAMES: Readonly<Partial<Record<PackageManager, string>>> = {
  npm_and_yarn: 'npm',
  bundler: 'bundler',
  composer: 'composer',
  pip: 'pip',
  go_modules: 'gomod',
  maven: 'maven',
  gradle: 'gradle',
  nuget: 'nuget',
  cargo: 'cargo',
  hex: 'mix',
  docker: 'docker',
  terraform: 'terraform',
  submodules: 'gitsubmodule',
  elm: 'elm',
  github_actions: 'github-actions',
};

/** Version 1 `automerged_updates` items for the two rules (none for `never`; one for both when they are the same). */
function automergedUpdates(runtime: AutomergeRule, development: AutomergeRule): string[] {
  const item = (type: string, rule: AutomergeRule) => [
    '      - match:',
    `          dependency_type: "${type}"`,
    `          update_type: "${rule}"`,
  ];
  if (runtime === development) return runtime === 'never' ? [] : ['    automerged_updates:', ...item('all', runtime)];
  const items = [
    ...(runtime === 'never' ? [] : item('production', runtime)),
    ...(development === 'never' ? [] : item('development', development)),
  ];
  return items.length === 0 ? [] : ['    automerged_updates:', ...items];
}

/**
 * The text of the config file at `path` making `configs` (each as {@link expressible} has it); `invalid` writes the
 * first entry's schedule as `hourly`, which neither version has (the file is refused as a whole).
 * @throws Error for a package manager the version has no name for
 */
export function configFileText(
  path: ConfigFilePath,
  configs: readonly FileConfig[],
  options: { invalid?: boolean; note?: string } = {},
): string {
  const lines: string[] = [`# The setup of this repository's dependency updates${options.note ? ` (${options.note})` : ''}.`];
  if (fileVersion(path) === 1) {
    lines.push('version: 1', 'update_configs:');
    configs.forEach((config, i) => {
      lines.push(
        `  - package_manager: "${V1_NAMES[config.packageManager]}"`,
        `    directory: "${config.directory}"`,
        `    update_schedule: "${options.invalid && i === 0 ? 'hourly' : config.schedule}"`,
      );
      if (config.targetBranch !== null) lines.push(`    target_branch: "${config.targetBranch}"`);
      lines.push(...automergedUpdates(config.runtime, config.development));
    });
  } else {
    lines.push('version: 2', 'updates:');
    configs.forEach((config, i) => {
      const ecosystem = V2_NAMES[config.packageManager];
      if (!ecosystem) throw new Error(`${path} has no package-ecosystem for ${config.packageManager}`);
      lines.push(
        `  - package-ecosystem: "${ecosystem}"`,
        `    directory: "${config.directory}"`,
        '    schedule:',
        `      interval: "${options.invalid && i === 0 ? 'hourly' : config.schedule}"`,
      );
      if (config.targetBranch !== null) lines.push(`    target-branch: "${config.targetBranch}"`);
    });
  }
  return `${lines.join('\n')}\n`;
}

/**
 * How a config as the API lists it differs from what its config file says (`want`, from the file at `path`), or
 * undefined when it does not.
 */
export function fileConfigDiffers(config: Config | undefined, want: FileConfigState, path: string): string | undefined {
  if (!config) return 'not listed';
  const a = config.attributes;
  const differences = [
    a.source === path ? '' : `source ${a.source}`,
    a['update-schedule'] === want.schedule ? '' : `schedule ${a['update-schedule']} (the file: ${want.schedule})`,
    a['automerge-rule-runtime-deps'] === want.runtime ? '' : `runtime rule ${a['automerge-rule-runtime-deps']} (the file: ${want.runtime})`,
    a['automerge-rule-development-deps'] === want.development
      ? ''
      : `development rule ${a['automerge-rule-development-deps']} (the file: ${want.development})`,
    a['target-branch'] === want.targetBranch ? '' : `target branch ${a['target-branch']} (the file: ${want.targetBranch})`,
  ].filter((d) => d !== '');
  return differences.length > 0 ? differences.join(', ') : undefined;
}
