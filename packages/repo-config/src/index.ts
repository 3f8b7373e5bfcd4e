/**
 * `@switchyard/repo-config`: the repository config files of Dependabot's users (`.dependabot/config.yml`, version 1;
 * `.github/dependabot.yml`, version 2), read, validated and turned into this service's update configs, and the version 2
 * file written from update configs for the "Upgrade to GitHub-native Dependabot" pull request.
 */
export { type AutomergeReading, automergeIncludes, automergeRules } from './automerge.ts';
export { type ConfigFileChoice, chooseConfigFile, type IgnoredConfigFile } from './choose.ts';
export { expandDirectoryPattern, isGlob, normaliseDirectory } from './directory.ts';
export { type IgnoredLine, ignoreCondition, leadingNumbers, meetsIgnoreCondition } from './ignore-conditions.ts';
export { type ConfigFileIssue, type ConfigFileIssueOptions, configFileIssue, MAX_ISSUE_PROBLEMS } from './issue.ts';
export { allowsDependency, type DependencyFacts, matchesDependencyName } from './match.ts';
export type {
  AllowDependencyType,
  AllowRule,
  CommitMessagePreferences,
  ConfigProblem,
  ConfigSchedule,
  DependencyGroup,
  FileUpdateConfig,
  GroupUpdateType,
  IgnoreRule,
  IgnoreUpdateType,
  ParsedConfigFile,
  SkippedEntry,
  VersioningStrategy,
  Weekday,
} from './model.ts';
export { ecosystemOf, languageOf, V1_PACKAGE_MANAGERS, V1_VERSIONING, V2_ECOSYSTEMS } from './names.ts';
export { MAX_PROBLEMS, parseConfigFile } from './parse.ts';
export { CONFIG_FILE_PATHS, type ConfigFilePath, isConfigFilePath, versionOfPath } from './paths.ts';
export { DEPENDABOT_V1_SCHEMA, DEPENDABOT_V2_SCHEMA, REVIEWERS_OVERLAY, V2_TIME_ZONES, withReviewers } from './schemas.ts';
export {
  type AccountSchedule,
  AUTOMERGE_NOTE,
  type DependabotYml,
  type DependabotYmlInput,
  LIVE_SCHEDULE_NOTE,
  UPGRADE_OPEN_PULL_REQUESTS_LIMIT,
  type UpgradeNote,
  type UpgradeNoteKind,
  type WritableUpdateConfig,
  writeDependabotYml,
} from './write.ts';
export { MAX_ALIAS_COUNT, MAX_CONFIG_FILE_BYTES, MAX_NESTING } from './yaml-read.ts';
