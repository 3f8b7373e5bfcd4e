import type { IgnoreRule } from '@switchyard/contracts';
import { ignoreCondition, type WritableUpdateConfig } from '@switchyard/repo-config';
import type { ConfigIgnoreRow } from '../read-model/config-ignore.table.ts';
import type { KnownUpdateConfig } from '../read-model/scan-target.model.ts';

/**
 * What the "Upgrade to GitHub-native Dependabot" pull request is made of (Dependabot Preview's of 2021: title, branch,
 * body), and the configs its `.github/dependabot.yml` is written from, pure.
 */

/** The pull request's title and commit message. */
export const UPGRADE_TITLE = 'Upgrade to GitHub-native Dependabot';
/** Its branch. */
export const UPGRADE_BRANCH = 'dependabot/add-v2-config-file';
/** The file it adds, and the one it deletes. */
export const V2_PATH = '.github/dependabot.yml';
export const V1_PATH = '.dependabot/config.yml';

/**
 * The ignore rules of a config in its v2 file: its own (its settings'), then those people made on the code host
 * (closing pull requests: the exact versions, as Preview's upgrade files listed them; `@dependabot ignore …`: the
 * dependency, or the version line), one rule per dependency with its versions merged; a dependency ignored whole has
 * no versions.
 */
export function ignoreRulesOf(config: KnownUpdateConfig, held: readonly ConfigIgnoreRow[]): IgnoreRule[] {
  const rules = new Map<string, IgnoreRule>();
  const whole = new Set<string>();
  for (const rule of config.settings?.ignore ?? []) {
    rules.set(rule.dependencyName, { ...rule, versions: [...rule.versions], updateTypes: [...rule.updateTypes] });
    if (rule.versions.length === 0 && rule.updateTypes.length === 0) whole.add(rule.dependencyName);
  }
  for (const ignore of held) {
    if (ignore.update_config_id !== config.id) continue;
    const name = ignore.dependency_name;
    if (ignore.kind === 'dependency' || ignore.version === null) {
      whole.add(name);
      rules.set(name, { dependencyName: name, versions: [], updateTypes: [] });
      continue;
    }
    if (whole.has(name)) continue;
    const condition = ignoreCondition(ignore.kind, ignore.version);
    const rule = rules.get(name) ?? { dependencyName: name, versions: [], updateTypes: [] };
    if (condition !== null && !rule.versions.includes(condition)) rule.versions.push(condition);
    rules.set(name, rule);
  }
  return [...rules.values()];
}

/** A config as the v2 file's writer takes it: its attributes, its settings, and the ignores people made. */
export function writableConfig(config: KnownUpdateConfig, held: readonly ConfigIgnoreRow[]): WritableUpdateConfig {
  const settings = config.settings;
  return {
    packageManager: config.packageManager,
    directory: config.directory,
    targetBranch: config.targetBranch,
    updateSchedule: config.updateSchedule ?? 'daily',
    automergeRuleRuntimeDeps: config.automergeRuleRuntimeDeps,
    automergeRuleDevelopmentDeps: config.automergeRuleDevelopmentDeps,
    lockfileOnly: config.lockfileOnly,
    securityUpdatesOnly: config.securityUpdatesOnly,
    ...(settings
      ? {
          schedule: settings.schedule,
          versioningStrategy: config.lockfileOnly ? 'lockfile-only' : settings.versioningStrategy,
          labels: settings.labels,
          reviewers: settings.reviewers,
          assignees: settings.assignees,
          milestone: settings.milestone,
          commitMessage: settings.commitMessage,
          openPullRequestsLimit: settings.openPullRequestsLimit,
          rebaseStrategy: settings.rebaseStrategy,
          allow: settings.allow,
          groups: settings.groups,
        }
      : {}),
    ignore: ignoreRulesOf(config, held),
  };
}

/**
 * The pull request's body, after Preview's of 2021: what it does (replaces `.dependabot/config.yml`, or writes the
 * configs made through the API or the dashboard into a file), the paragraphs of what could not be carried over
 * (`notes`: a `live` schedule made daily, automerge rules, …), and that commands do not work on it.
 */
export function upgradeBody(hadV1File: boolean, notes: readonly string[]): string {
  return [
    hadV1File
      ? `This pull request updates your config file to the new syntax: it replaces \`${V1_PATH}\` with \`${V2_PATH}\`.`
      : `This pull request moves your configuration from the dashboard and the API to a config file, \`${V2_PATH}\`, using the new syntax.`,
    '',
    'Once it is merged, the update configs of this repository come from the file: change them there, and they are read again at every push to the default branch. The ignores made by closing pull requests and by `@dependabot ignore` commands are carried over as `ignore` entries.',
    '',
    ...notes.flatMap((note) => [note, '']),
    'Please note that regular `@dependabot` commands do not work on this pull request.',
    '',
  ].join('\n');
}
