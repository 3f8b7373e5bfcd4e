/**
 * A schema-valid version 2 file (`.github/dependabot.yml`,
 * https://docs.github.com/en/code-security/dependabot/working-with-dependabot/dependabot-options-reference) → update configs, one per (package
 * manager, directory, target branch): an entry with `directories` gives one config per directory.
 */
import type { PackageManager, UpdateSchedule } from '@switchyard/contracts';
import { isGlob, normaliseDirectory } from './directory.ts';
import type {
  AllowRule,
  CommitMessagePreferences,
  ConfigSchedule,
  DependencyGroup,
  FileUpdateConfig,
  GroupUpdateType,
  IgnoreRule,
  IgnoreUpdateType,
  VersioningStrategy,
  Weekday,
} from './model.ts';
import { languageOf, V2_ECOSYSTEMS } from './names.ts';
import type { Normalised } from './normalised.ts';
import { keysInFileOrder } from './yaml-read.ts';

type Entry = Record<string, unknown>;

/** The intervals this service schedules; the schema's `quarterly`, `semiannually`, `yearly` and `cron` are not among them. */
const INTERVALS: ReadonlySet<string> = new Set<UpdateSchedule>(['daily', 'weekly', 'monthly']);

/** Top-level keys read into the configs. */
const READ_TOP_KEYS = new Set(['version', 'updates']);

/** Keys of an update entry read into its configs. */
const READ_ENTRY_KEYS = new Set([
  'package-ecosystem',
  'directory',
  'directories',
  'schedule',
  'allow',
  'ignore',
  'assignees',
  'reviewers',
  'labels',
  'milestone',
  'commit-message',
  'open-pull-requests-limit',
  'rebase-strategy',
  'target-branch',
  'versioning-strategy',
  'registries',
  'groups',
]);

/** Why a schema-valid key is not served: top-level keys, then update-entry keys. */
const UNSERVED_TOP_KEYS: Readonly<Record<string, string>> = {
  registries: 'private registries are not read from the file: register their credentials through the API (registry credentials)',
  'multi-ecosystem-groups': 'multi-ecosystem groups are not supported: each update config opens its own pull requests',
  'enable-beta-ecosystems': 'beta ecosystems are not offered: only the listed ecosystems are served',
};
const UNSERVED_ENTRY_KEYS: Readonly<Record<string, string>> = {
  'pull-request-branch-name':
    'the separator of branch names is not configurable: branch names are separated by /, as in dependabot/npm_and_yarn/lodash-4.17.21',
  vendor: 'vendoring dependencies is not supported: vendored copies are not updated',
  'insecure-external-code-execution': 'manifests are read without running them, so there is no code execution to allow or deny',
  cooldown: 'cooldown periods are not supported: updates are proposed as soon as the schedule runs',
  'exclude-paths': 'excluding paths is not supported: every manifest of the directory is read',
  name: 'names of update configs are not used',
  'multi-ecosystem-group': 'multi-ecosystem groups are not supported: the config opens its own pull requests',
  patterns: 'patterns belong to multi-ecosystem groups, which are not supported',
};

/**
 * The configs of a schema-valid v2 document. Problems beyond the schema (GitHub-native Dependabot's checks, seen in
 * https://github.com/camunda/camunda-modeler/issues/2529 and https://github.com/Zenable-io/ai-native-python/issues/21): a glob in `directory` (`The property '#/updates/2/directory' must not include a glob pattern`) and a
 * repeated (ecosystem, directory, target branch) (`The property '#/updates/1' is a duplicate. …`). Skipped, with the
 * reason: an ecosystem that has no package manager here (`bun`, `uv`, `helm`, …), an interval this service does not
 * schedule (`quarterly`, `semiannually`, `yearly`, `cron`), an entry without a schedule (a multi-ecosystem group member),
 * a directory above the root, keys it does not serve (`cooldown`, `vendor`, top-level `registries`, …), allow rules with
 * `update-types` and groups' `group-by`. Globs in `directories` are kept as the config's directory with `directoryGlob`.
 */
export function normaliseV2(document: Record<string, unknown>): Normalised {
  const result: Normalised = { configs: [], problems: [], skipped: [] };
  for (const key of Object.keys(document)) {
    if (!READ_TOP_KEYS.has(key)) result.skipped.push({ pointer: `#/${key}`, reason: UNSERVED_TOP_KEYS[key] ?? `${key} is not served` });
  }
  const seen = new Set<string>();
  const entries = document.updates as Entry[];
  entries.forEach((entry, index) => {
    const pointer = `#/updates/${index}`;
    const ecosystem = entry['package-ecosystem'] as string;
    const targetBranch = (entry['target-branch'] as string | undefined) ?? null;
    const single = entry.directory;
    if (typeof single === 'string' && isGlob(single)) {
      result.problems.push({
        pointer: `${pointer}/directory`,
        message: `The property '${pointer}/directory' must not include a glob pattern`,
      });
      return;
    }
    const directories: Array<{ raw: string; at: string }> =
      typeof single === 'string'
        ? [{ raw: single, at: pointer }]
        : (entry.directories as string[]).map((raw, position) => ({ raw, at: `${pointer}/directories/${position}` }));
    let duplicate = false;
    for (const { raw } of directories) {
      const key = JSON.stringify([ecosystem, normaliseDirectory(raw) ?? raw, targetBranch]);
      if (seen.has(key)) duplicate = true;
      seen.add(key);
    }
    if (duplicate) {
      result.problems.push({
        pointer,
        message: `The property '${pointer}' is a duplicate. Update configs must have a unique combination of 'package-ecosystem', 'directory', and 'target-branch'`,
      });
      return;
    }
    const packageManager = Object.hasOwn(V2_ECOSYSTEMS, ecosystem) ? V2_ECOSYSTEMS[ecosystem] : undefined;
    if (!packageManager) {
      result.skipped.push({
        pointer,
        reason: `package-ecosystem ${ecosystem} is not served: the ecosystems served are ${Object.keys(V2_ECOSYSTEMS).join(', ')}`,
      });
      return;
    }
    const schedule = entry.schedule as Entry | undefined;
    if (!schedule) {
      result.skipped.push({ pointer, reason: 'an update config without a schedule (a multi-ecosystem group member) is not served' });
      return;
    }
    const interval = schedule.interval as string;
    if (!INTERVALS.has(interval)) {
      result.skipped.push({
        pointer: `${pointer}/schedule/interval`,
        reason: `interval ${interval} is not offered: update configs run daily, weekly or monthly; the entry is not served`,
      });
      return;
    }
    const settings = readSettings(entry, pointer, packageManager, interval as UpdateSchedule, result);
    for (const { raw, at } of directories) {
      const directory = normaliseDirectory(raw);
      if (directory === undefined) {
        result.skipped.push({
          pointer: at,
          reason: `directory ${JSON.stringify(raw)} climbs above the repository's root; it is not served`,
        });
        continue;
      }
      result.configs.push({ pointer: at, directory, directoryGlob: isGlob(raw), ...structuredClone(settings) });
    }
  });
  return result;
}

/** Everything of a config but its pointer and directory, read from `entry` (at `pointer`); what is not served goes to `result.skipped`. */
function readSettings(
  entry: Entry,
  pointer: string,
  packageManager: PackageManager,
  updateSchedule: UpdateSchedule,
  result: Normalised,
): Omit<FileUpdateConfig, 'pointer' | 'directory' | 'directoryGlob'> {
  for (const key of Object.keys(entry)) {
    if (!READ_ENTRY_KEYS.has(key))
      result.skipped.push({ pointer: `${pointer}/${key}`, reason: UNSERVED_ENTRY_KEYS[key] ?? `${key} is not served` });
  }
  const limit = (entry['open-pull-requests-limit'] as number | undefined) ?? null;
  const versioningStrategy = (entry['versioning-strategy'] as VersioningStrategy | undefined) ?? 'auto';
  return {
    packageManager,
    language: languageOf(packageManager),
    targetBranch: (entry['target-branch'] as string | undefined) ?? null,
    updateSchedule,
    schedule: readSchedule(entry.schedule as Entry),
    automergeRuleRuntimeDeps: 'never',
    automergeRuleDevelopmentDeps: 'never',
    versioningStrategy,
    lockfileOnly: versioningStrategy === 'lockfile-only',
    securityUpdatesOnly: limit === 0,
    labels: (entry.labels as string[] | undefined) ?? null,
    reviewers: (entry.reviewers as string[] | undefined) ?? [],
    assignees: (entry.assignees as string[] | undefined) ?? [],
    milestone: (entry.milestone as number | undefined) ?? null,
    commitMessage: readCommitMessage(entry['commit-message'] as Entry | undefined),
    openPullRequestsLimit: limit,
    rebaseStrategy: (entry['rebase-strategy'] as 'auto' | 'disabled' | undefined) ?? 'auto',
    allow: readAllow((entry.allow as Entry[] | undefined) ?? [], pointer, result),
    ignore: readIgnore((entry.ignore as Entry[] | undefined) ?? []),
    groups: readGroups(entry.groups as Record<string, Entry> | undefined, pointer, result),
    registries: (entry.registries as '*' | string[] | undefined) ?? [],
  };
}

/** `schedule` → its day, time and time zone (the interval is the config's `updateSchedule`). */
function readSchedule(schedule: Entry): ConfigSchedule {
  const read: ConfigSchedule = {};
  if (typeof schedule.day === 'string') read.day = schedule.day as Weekday;
  if (typeof schedule.time === 'string') read.time = schedule.time;
  if (typeof schedule.timezone === 'string') read.timeZone = schedule.timezone;
  return read;
}

/** `commit-message` → preferences (`include: scope` → `includeScope`). */
function readCommitMessage(message: Entry | undefined): CommitMessagePreferences | null {
  if (!message) return null;
  const preferences: CommitMessagePreferences = { includeScope: message.include === 'scope' };
  if (typeof message.prefix === 'string') preferences.prefix = message.prefix;
  if (typeof message['prefix-development'] === 'string') preferences.prefixDevelopment = message['prefix-development'];
  return preferences;
}

/**
 * `allow` → allow rules. A rule with `update-types` (in SchemaStore's schema since 2026, refused by GitHub in 2026-02:
 * https://github.com/trinodb/trino/issues/28163) is skipped whole: allowing it without its update types would allow more than the file says.
 */
function readAllow(items: readonly Entry[], pointer: string, result: Normalised): AllowRule[] {
  const rules: AllowRule[] = [];
  items.forEach((item, index) => {
    if (item['update-types'] !== undefined) {
      result.skipped.push({
        pointer: `${pointer}/allow/${index}`,
        reason: 'allow rules limited to update-types are not supported; the rule allows nothing',
      });
      return;
    }
    const rule: AllowRule = {};
    if (typeof item['dependency-name'] === 'string') rule.dependencyName = item['dependency-name'];
    if (typeof item['dependency-type'] === 'string') rule.dependencyType = item['dependency-type'] as AllowRule['dependencyType'];
    rules.push(rule);
  });
  return rules;
}

/** `ignore` → ignore rules: `versions` as a list (one string becomes a list of one), a missing `dependency-name` as `*`. */
function readIgnore(items: readonly Entry[]): IgnoreRule[] {
  return items.map((item) => {
    const versions = item.versions;
    return {
      dependencyName: (item['dependency-name'] as string | undefined) ?? '*',
      versions: typeof versions === 'string' ? [versions] : [...((versions as string[] | undefined) ?? [])],
      updateTypes: [...((item['update-types'] as IgnoreUpdateType[] | undefined) ?? [])],
    };
  });
}

/** `groups` → groups in the file's order, with the defaults of {@link DependencyGroup}; `group-by` is skipped. */
function readGroups(groups: Record<string, Entry> | undefined, pointer: string, result: Normalised): DependencyGroup[] {
  if (!groups) return [];
  return keysInFileOrder(groups).map((name) => {
    const rule = groups[name] as Entry;
    if (rule['group-by'] !== undefined) {
      result.skipped.push({
        pointer: `${pointer}/groups/${name.replaceAll('~', '~0').replaceAll('/', '~1')}/group-by`,
        reason: 'grouping across directories is not supported: the group applies within each directory',
      });
    }
    const group: DependencyGroup = {
      name,
      patterns: [...((rule.patterns as string[] | undefined) ?? ['*'])],
      excludePatterns: [...((rule['exclude-patterns'] as string[] | undefined) ?? [])],
      updateTypes: [...((rule['update-types'] as GroupUpdateType[] | undefined) ?? ['major', 'minor', 'patch'])],
      appliesTo: (rule['applies-to'] as DependencyGroup['appliesTo'] | undefined) ?? 'version-updates',
    };
    if (typeof rule['dependency-type'] === 'string') group.dependencyType = rule['dependency-type'] as DependencyGroup['dependencyType'];
    return group;
  });
}
