/**
 * A schema-valid version 1 file (`.dependabot/config.yml`, https://dependabot.com/docs/config-file/ as archived;
 * its keys in https://github.com/taiki-e/dependabot-config `src/v1.rs`) → update configs. The v1 schema
 * leaves much open (no `additionalProperties: false`, no enum for `allowed_updates` `dependency_type`, no required
 * `match`), so each value is still checked here, and what cannot be served is reported in `skipped`.
 */
import { LIVE_PACKAGE_MANAGERS, liveScheduleProblem, type PackageManager, type UpdateSchedule } from '@switchyard/contracts';
import { automergeRules } from './automerge.ts';
import { isGlob, normaliseDirectory } from './directory.ts';
import type { AllowDependencyType, AllowRule, CommitMessagePreferences, FileUpdateConfig, IgnoreRule } from './model.ts';
import { languageOf, V1_PACKAGE_MANAGERS, V1_VERSIONING } from './names.ts';
import type { Normalised } from './normalised.ts';

/** The keys of a v1 file's top level and of its `update_configs` entries (SchemaStore's `dependabot.json`). */
const TOP_KEYS = new Set(['version', 'update_configs']);
const ENTRY_KEYS = new Set([
  'package_manager',
  'directory',
  'update_schedule',
  'target_branch',
  'default_reviewers',
  'default_assignees',
  'default_labels',
  'default_milestone',
  'allowed_updates',
  'ignored_updates',
  'automerged_updates',
  'version_requirement_updates',
  'commit_message',
]);

const ALLOW_TYPES: ReadonlySet<string> = new Set<AllowDependencyType>(['direct', 'indirect', 'all', 'production', 'development']);

type Entry = Record<string, unknown>;

/** The `match` object of a rule item, or undefined when the item has none. */
function matchOf(item: unknown): Record<string, unknown> | undefined {
  const match = (item as { match?: unknown } | null)?.match;
  return match !== null && typeof match === 'object' && !Array.isArray(match) ? (match as Record<string, unknown>) : undefined;
}

/**
 * The configs of a schema-valid v1 document. Problems beyond the schema: a glob in `directory` and two entries with
 * the same package manager, directory and target branch (worded as GitHub-native Dependabot words the v2 duplicate).
 * Skipped: unknown keys; a directory above the root; `live` for a package manager whose versions cannot be watched (runs
 * `daily` instead); allow and ignore items that name nothing this service can apply; automerge items the API's rules
 * cannot express.
 */
export function normaliseV1(document: Record<string, unknown>): Normalised {
  const result: Normalised = { configs: [], problems: [], skipped: [] };
  for (const key of Object.keys(document)) {
    if (!TOP_KEYS.has(key))
      result.skipped.push({ pointer: `#/${key}`, reason: `${key} is not a key of the version 1 file and has no effect` });
  }
  const seen = new Set<string>();
  const entries = document.update_configs as Entry[];
  entries.forEach((entry, index) => {
    const pointer = `#/update_configs/${index}`;
    const packageManager = V1_PACKAGE_MANAGERS[entry.package_manager as string] as PackageManager;
    const rawDirectory = entry.directory as string;
    const targetBranch = typeof entry.target_branch === 'string' && entry.target_branch !== '' ? entry.target_branch : null;
    if (isGlob(rawDirectory)) {
      result.problems.push({
        pointer: `${pointer}/directory`,
        message: `The property '${pointer}/directory' must not include a glob pattern`,
      });
      return;
    }
    const directory = normaliseDirectory(rawDirectory);
    const key = JSON.stringify([packageManager, directory ?? rawDirectory, targetBranch]);
    if (seen.has(key)) {
      result.problems.push({
        pointer,
        message: `The property '${pointer}' is a duplicate. Update configs must have a unique combination of 'package_manager', 'directory', and 'target_branch'`,
      });
      return;
    }
    seen.add(key);
    if (directory === undefined) {
      result.skipped.push({
        pointer: `${pointer}/directory`,
        reason: `directory ${JSON.stringify(rawDirectory)} climbs above the repository's root; the entry is not served`,
      });
      return;
    }
    for (const name of Object.keys(entry)) {
      if (!ENTRY_KEYS.has(name)) {
        result.skipped.push({
          pointer: `${pointer}/${name}`,
          reason: `${name} is not a key of a version 1 update config and has no effect`,
        });
      }
    }
    let updateSchedule = entry.update_schedule as UpdateSchedule;
    if (updateSchedule === 'live' && !(LIVE_PACKAGE_MANAGERS as readonly PackageManager[]).includes(packageManager)) {
      updateSchedule = 'daily';
      result.skipped.push({
        pointer: `${pointer}/update_schedule`,
        reason: `${liveScheduleProblem(packageManager)}; the config runs daily`,
      });
    }
    const allow = readAllowed((entry.allowed_updates as unknown[] | undefined) ?? [], pointer, result);
    const ignore = readIgnored((entry.ignored_updates as unknown[] | undefined) ?? [], pointer, result);
    const automerge = automergeRules((entry.automerged_updates as unknown[] | undefined) ?? [], pointer);
    result.skipped.push(...automerge.skipped);
    const versioningStrategy = V1_VERSIONING[(entry.version_requirement_updates as string | undefined) ?? 'auto'] ?? 'auto';
    const config: FileUpdateConfig = {
      pointer,
      packageManager,
      language: languageOf(packageManager),
      directory,
      directoryGlob: false,
      targetBranch,
      updateSchedule,
      schedule: {},
      automergeRuleRuntimeDeps: automerge.runtime,
      automergeRuleDevelopmentDeps: automerge.development,
      versioningStrategy,
      lockfileOnly: versioningStrategy === 'lockfile-only',
      securityUpdatesOnly: allow.length > 0 && allow.every((rule) => rule.updateType === 'security'),
      labels: (entry.default_labels as string[] | undefined) ?? null,
      reviewers: (entry.default_reviewers as string[] | undefined) ?? [],
      assignees: (entry.default_assignees as string[] | undefined) ?? [],
      milestone: (entry.default_milestone as number | undefined) ?? null,
      commitMessage: readCommitMessage(entry.commit_message as Record<string, unknown> | undefined),
      openPullRequestsLimit: null,
      rebaseStrategy: 'auto',
      allow,
      ignore,
      groups: [],
      registries: [],
    };
    // A copy: entries that share values through YAML aliases must not share them as configs.
    result.configs.push(structuredClone(config));
  });
  return result;
}

/**
 * `allowed_updates` → allow rules. `update_type` (or `kind`, its January 2019 name,
 * https://github.com/dependabot/feedback/issues/70) is `security`
 * or `all`; absent means `all`, as dependabot-core reads a missing `update-type`. An item without a `match`, or with a
 * `dependency_type` or `kind` outside the documented values, is skipped.
 */
function readAllowed(items: readonly unknown[], pointer: string, result: Normalised): AllowRule[] {
  const rules: AllowRule[] = [];
  items.forEach((item, index) => {
    const at = `${pointer}/allowed_updates/${index}`;
    const match = matchOf(item);
    if (!match) {
      result.skipped.push({ pointer: at, reason: 'an allowed update without a match object allows nothing' });
      return;
    }
    const type = match.dependency_type;
    if (type !== undefined && (typeof type !== 'string' || !ALLOW_TYPES.has(type))) {
      result.skipped.push({
        pointer: `${at}/match/dependency_type`,
        reason: `dependency_type ${JSON.stringify(type)} is not one of development, production, direct, indirect, all`,
      });
      return;
    }
    const field = match.update_type === undefined && match.kind !== undefined ? 'kind' : 'update_type';
    const updateType = match[field];
    if (updateType !== undefined && updateType !== 'security' && updateType !== 'all') {
      result.skipped.push({
        pointer: `${at}/match/${field}`,
        reason: `${field} ${JSON.stringify(updateType)} is not one of security, all`,
      });
      return;
    }
    const rule: AllowRule = {};
    if (typeof match.dependency_name === 'string') rule.dependencyName = match.dependency_name;
    if (type !== undefined) rule.dependencyType = type as AllowDependencyType;
    rule.updateType = updateType === 'security' ? 'security' : 'all';
    rules.push(rule);
  });
  return rules;
}

/**
 * `ignored_updates` → ignore rules: `dependency_name` with its `version_requirement` as the one version range (none:
 * every version). An item without a `match` or without a `dependency_name` is skipped.
 */
function readIgnored(items: readonly unknown[], pointer: string, result: Normalised): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  items.forEach((item, index) => {
    const at = `${pointer}/ignored_updates/${index}`;
    const match = matchOf(item);
    if (typeof match?.dependency_name !== 'string') {
      result.skipped.push({ pointer: at, reason: 'an ignored update without a dependency_name ignores nothing' });
      return;
    }
    const requirement = match.version_requirement;
    rules.push({ dependencyName: match.dependency_name, versions: typeof requirement === 'string' ? [requirement] : [], updateTypes: [] });
  });
  return rules;
}

/** `commit_message` → preferences; null when it sets nothing (no prefix, no scope). */
function readCommitMessage(message: Record<string, unknown> | undefined): CommitMessagePreferences | null {
  if (!message) return null;
  const preferences: CommitMessagePreferences = { includeScope: message.include_scope === true };
  if (typeof message.prefix === 'string') preferences.prefix = message.prefix;
  if (typeof message.prefix_development === 'string') preferences.prefixDevelopment = message.prefix_development;
  return preferences.prefix === undefined && preferences.prefixDevelopment === undefined && !preferences.includeScope ? null : preferences;
}
