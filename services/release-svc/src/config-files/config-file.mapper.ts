import type { ConfigFileSkipped, FileUpdateConfig } from '@switchyard/contracts';
import type { FileUpdateConfig as ReadUpdateConfig } from '@switchyard/repo-config';

/**
 * A config file's entries as `repo_config_file.read` carries them: the API's attributes, and the rest as the config's
 * settings. An entry of v2 `directories` that is still a glob (`/packages/*`: the code host could not list the tree to
 * expand it, `expandDirectoryGlobs`) is not served; it goes to `skipped` with that reason.
 */
export function fileUpdateConfigs(configs: readonly ReadUpdateConfig[]): { configs: FileUpdateConfig[]; skipped: ConfigFileSkipped[] } {
  const mapped: FileUpdateConfig[] = [];
  const skipped: ConfigFileSkipped[] = [];
  for (const config of configs) {
    if (config.directoryGlob) {
      skipped.push({
        pointer: config.pointer,
        reason: `the directory pattern ${config.directory} is not expanded (the code host did not list the repository's tree): list each directory in \`directories\``,
      });
      continue;
    }
    mapped.push({
      pointer: config.pointer,
      packageManager: config.packageManager,
      language: config.language,
      updateSchedule: config.updateSchedule,
      directory: config.directory,
      targetBranch: config.targetBranch,
      automergeRuleRuntimeDeps: config.automergeRuleRuntimeDeps,
      automergeRuleDevelopmentDeps: config.automergeRuleDevelopmentDeps,
      lockfileOnly: config.lockfileOnly,
      securityUpdatesOnly: config.securityUpdatesOnly,
      settings: {
        labels: config.labels,
        reviewers: config.reviewers,
        assignees: config.assignees,
        milestone: config.milestone,
        commitMessage: config.commitMessage ? { includeScope: config.commitMessage.includeScope, ...prefixes(config.commitMessage) } : null,
        openPullRequestsLimit: config.openPullRequestsLimit,
        rebaseStrategy: config.rebaseStrategy,
        versioningStrategy: config.versioningStrategy,
        allow: config.allow,
        ignore: config.ignore,
        groups: config.groups,
        schedule: config.schedule,
      },
    });
  }
  return { configs: mapped, skipped };
}

/** The commit-message prefixes that are set. */
function prefixes(message: NonNullable<ReadUpdateConfig['commitMessage']>): { prefix?: string; prefixDevelopment?: string } {
  return {
    ...(message.prefix === undefined ? {} : { prefix: message.prefix }),
    ...(message.prefixDevelopment === undefined ? {} : { prefixDevelopment: message.prefixDevelopment }),
  };
}
