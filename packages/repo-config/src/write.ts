/**
 * The `.github/dependabot.yml` of the "Upgrade to GitHub-native Dependabot" pull request
 * (https://github.com/wunderio/drupal-project/commit/12bff1b075426a1f7b171312b346dac029701b53,
 * https://github.com/OctoLinker/OctoLinker/commit/9c5f7e8ff0b7b356bb7f3b177773a5d8bf86e889): the
 * repository's update configs (made through the API or read from `.dependabot/config.yml`) in the version 2 syntax,
 * and notes for the pull request's body on what could not be carried over.
 */
import type { AutomergeRule, PackageManager, UpdateSchedule } from '@switchyard/contracts';
import type {
  AllowRule,
  CommitMessagePreferences,
  ConfigSchedule,
  DependencyGroup,
  GroupUpdateType,
  IgnoreRule,
  IgnoreUpdateType,
  VersioningStrategy,
  Weekday,
} from './model.ts';
import { ecosystemOf } from './names.ts';
import { parseConfigFile } from './parse.ts';
import { V2_TIME_ZONES } from './schemas.ts';
import { mapping, toYaml, type YamlMapping, type YamlValue } from './yaml-write.ts';

/** The open pull request limit written when a config sets none: the 10 of every Preview upgrade file seen. */
export const UPGRADE_OPEN_PULL_REQUESTS_LIMIT = 10;

/** The longest `commit-message` prefix the v2 schema accepts. */
const MAX_PREFIX_LENGTH = 50;

/** The account settings a schedule takes its time from: `update-run-time` (`HH:MM`), `weekly-update-run-day`, `time-zone` (IANA; UTC when absent). */
export interface AccountSchedule {
  updateRunTime: string;
  weeklyUpdateRunDay: Weekday;
  timeZone?: string;
}

/**
 * One update config to write. The first fields are an API update config's; the optional ones are the further settings
 * of a config read from a file (a `FileUpdateConfig` is one). `ignore` holds every ignore the config has: those of its
 * file, the versions ignored by closing a pull request (`{ dependencyName: 'stylelint-config-standard', versions:
 * ['21.0.0'], updateTypes: [] }`, exact versions) and those of `@dependabot ignore` commands (ranges such as
 * `>= 7.a, < 8`, update types, or neither to ignore the whole dependency). Rules for the same dependency are merged.
 */
export interface WritableUpdateConfig {
  packageManager: PackageManager;
  directory: string;
  directoryGlob?: boolean;
  targetBranch: string | null;
  updateSchedule: UpdateSchedule;
  automergeRuleRuntimeDeps?: AutomergeRule;
  automergeRuleDevelopmentDeps?: AutomergeRule;
  lockfileOnly: boolean;
  securityUpdatesOnly: boolean;
  schedule?: ConfigSchedule;
  versioningStrategy?: VersioningStrategy;
  labels?: string[] | null;
  reviewers?: string[];
  assignees?: string[];
  milestone?: number | null;
  commitMessage?: CommitMessagePreferences | null;
  openPullRequestsLimit?: number | null;
  rebaseStrategy?: 'auto' | 'disabled';
  allow?: AllowRule[];
  ignore?: IgnoreRule[];
  groups?: DependencyGroup[];
  registries?: '*' | string[];
}

/** What {@link writeDependabotYml} writes: the configs, the account's schedule settings, the limit for configs without one (default 10). */
export interface DependabotYmlInput {
  configs: readonly WritableUpdateConfig[];
  account: AccountSchedule;
  openPullRequestsLimit?: number;
}

/** What kind of setting a {@link UpgradeNote} is about. */
export type UpgradeNoteKind =
  | 'live-schedule'
  | 'automerge'
  | 'unsupported-package-manager'
  | 'duplicate-config'
  | 'time-zone'
  | 'commit-message'
  | 'milestone'
  | 'security-allow';

/** A setting not carried over as it was, with a paragraph for the pull request's body. */
export interface UpgradeNote {
  kind: UpgradeNoteKind;
  message: string;
}

/** The file's text and the notes for the pull request's body (each kind once, in the order first met). */
export interface DependabotYml {
  text: string;
  notes: UpgradeNote[];
}

/** Preview's paragraph for configs that ran `live` (https://github.com/RedHatInsights/patchman-ui/pull/515 and others). */
export const LIVE_SCHEDULE_NOTE =
  'Your previous schedule was set to `live`. This option is no longer supported in the new config file so it has been changed to `daily`.';

/** Preview's paragraph for repositories with automerge rules (the same upgrade pull requests). */
export const AUTOMERGE_NOTE =
  'You have configured automerging on this repository. There is no automerging support in GitHub-native Dependabot, so these settings will not be added to the new config file. Several 3rd-party GitHub Actions and bots can replicate the automerge feature.';

const ALL_GROUP_UPDATE_TYPES: readonly GroupUpdateType[] = ['major', 'minor', 'patch'];
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * The v2 file for `input.configs`, in the style of Preview's upgrade commits:
 *
 * ```yaml
 * version: 2
 * updates:
 * - package-ecosystem: composer
 *   directory: "/"
 *   schedule:
 *     interval: daily
 *     time: "03:00"
 *   open-pull-requests-limit: 10
 * ```
 *
 * Per config: `package-ecosystem` (the README's table of names), `directory` (`directories: [glob]` for a glob), `schedule` (`live` →
 * `daily`; `time` the config's or the account's `updateRunTime`; `day` for weekly, when not Monday; `timezone` when not
 * UTC), `target-branch`, `open-pull-requests-limit` (0 for security updates only, else the config's or
 * `input.openPullRequestsLimit`), then `reviewers`, `assignees`, `labels`, `milestone`, `commit-message`,
 * `versioning-strategy` (`lockfile-only` when `lockfileOnly`), `rebase-strategy`, `registries`, `allow`, `ignore`,
 * `groups`, each when set. Not carried, with a note: automerge rules, `dep` configs (no v2 ecosystem), a second config
 * with the same ecosystem, directory and target branch, a time zone or prefix the schema refuses, a milestone below 1,
 * allow rules that limited which dependencies got security updates. The text validates against the v2 schema with
 * `reviewers`. Throws `RangeError` when `account.updateRunTime` is not `HH:MM`, and `Error` when the written file does not
 * validate (an input outside the shapes above).
 */
export function writeDependabotYml(input: DependabotYmlInput): DependabotYml {
  if (!TIME.test(input.account.updateRunTime))
    throw new RangeError(`update run time ${JSON.stringify(input.account.updateRunTime)} is not HH:MM`);
  const notes = new Map<UpgradeNoteKind, string[]>();
  const note = (kind: UpgradeNoteKind, message: string) => {
    const messages = notes.get(kind) ?? [];
    if (!messages.includes(message)) messages.push(message);
    notes.set(kind, messages);
  };
  const seen = new Set<string>();
  const updates: YamlMapping[] = [];
  for (const config of input.configs) {
    const ecosystem = ecosystemOf(config.packageManager);
    if (!ecosystem) {
      note(
        'unsupported-package-manager',
        `The ${config.packageManager} update config for \`${config.directory}\` is not in the new config file: GitHub-native Dependabot does not support ${config.packageManager}.`,
      );
      continue;
    }
    const key = JSON.stringify([ecosystem, config.directory, config.targetBranch || null]);
    if (seen.has(key)) {
      note(
        'duplicate-config',
        `A second ${ecosystem} update config for \`${config.directory}\` is not in the new config file: each ecosystem, directory and target branch may appear once.`,
      );
      continue;
    }
    seen.add(key);
    if (config.updateSchedule === 'live') note('live-schedule', LIVE_SCHEDULE_NOTE);
    if ((config.automergeRuleRuntimeDeps ?? 'never') !== 'never' || (config.automergeRuleDevelopmentDeps ?? 'never') !== 'never') {
      note('automerge', AUTOMERGE_NOTE);
    }
    updates.push(updateEntry(config, ecosystem, input, note));
  }
  const text = toYaml(
    mapping([
      ['version', 2],
      ['updates', updates],
    ]),
  );
  const check = parseConfigFile('.github/dependabot.yml', text);
  if (!check.valid)
    throw new Error(`the written config file does not validate: ${check.problems.map((problem) => problem.message).join('; ')}`);
  return { text, notes: [...notes].flatMap(([kind, messages]) => messages.map((message) => ({ kind, message }))) };
}

/** One `updates` entry. */
function updateEntry(
  config: WritableUpdateConfig,
  ecosystem: string,
  input: DependabotYmlInput,
  note: (kind: UpgradeNoteKind, message: string) => void,
): YamlMapping {
  const where = `\`${config.directory}\` (${ecosystem})`;
  const limit = config.securityUpdatesOnly
    ? 0
    : config.openPullRequestsLimit && config.openPullRequestsLimit > 0
      ? config.openPullRequestsLimit
      : (input.openPullRequestsLimit ?? UPGRADE_OPEN_PULL_REQUESTS_LIMIT);
  let milestone: number | undefined;
  if (config.milestone !== undefined && config.milestone !== null) {
    if (Number.isInteger(config.milestone) && config.milestone >= 1) milestone = config.milestone;
    else note('milestone', `The milestone ${config.milestone} of ${where} is not a milestone number, so it is not in the new config file.`);
  }
  const versioning = config.lockfileOnly
    ? 'lockfile-only'
    : config.versioningStrategy && config.versioningStrategy !== 'auto'
      ? config.versioningStrategy
      : undefined;
  return mapping([
    ['package-ecosystem', ecosystem],
    config.directoryGlob ? ['directories', [config.directory]] : ['directory', config.directory],
    ['schedule', scheduleEntry(config, input.account, where, note)],
    ['target-branch', config.targetBranch || undefined],
    ['open-pull-requests-limit', limit],
    ['reviewers', people(config.reviewers)],
    ['assignees', people(config.assignees)],
    ['labels', config.labels ? unique(config.labels) : undefined],
    ['milestone', milestone],
    ['commit-message', commitMessageEntry(config.commitMessage, where, note)],
    ['versioning-strategy', versioning],
    ['rebase-strategy', config.rebaseStrategy === 'disabled' ? 'disabled' : undefined],
    ['registries', registriesEntry(config.registries)],
    ['allow', allowEntries(config.allow ?? [], where, note)],
    ['ignore', ignoreEntries(config.ignore ?? [])],
    ['groups', groupEntries(config.groups ?? [])],
  ]);
}

/** `schedule`: the interval (`live` → `daily`), the weekly day when not Monday, the time, the time zone when not UTC. */
function scheduleEntry(
  config: WritableUpdateConfig,
  account: AccountSchedule,
  where: string,
  note: (kind: UpgradeNoteKind, message: string) => void,
): YamlMapping {
  const interval = config.updateSchedule === 'live' ? 'daily' : config.updateSchedule;
  const day = interval === 'weekly' ? (config.schedule?.day ?? account.weeklyUpdateRunDay) : undefined;
  const time = config.schedule?.time && TIME.test(config.schedule.time) ? config.schedule.time : account.updateRunTime;
  let timeZone = config.schedule?.timeZone ?? account.timeZone ?? 'UTC';
  if (timeZone !== 'UTC' && !V2_TIME_ZONES.has(timeZone)) {
    note('time-zone', `The time zone ${timeZone} of ${where} is not one the new config file accepts, so its schedule runs at ${time} UTC.`);
    timeZone = 'UTC';
  }
  return mapping([
    ['interval', interval],
    ['day', day && day !== 'monday' ? day : undefined],
    ['time', time],
    ['timezone', timeZone === 'UTC' ? undefined : timeZone],
  ]);
}

/** Strings without empties and repeats, in their order. */
function unique(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => value !== ''))];
}

/** `reviewers` / `assignees`: undefined when there are none (the schema wants at least one). */
function people(values: readonly string[] | undefined): string[] | undefined {
  const list = unique(values ?? []);
  return list.length > 0 ? list : undefined;
}

/** `registries`: `"*"` or the names; undefined for none. */
function registriesEntry(registries: '*' | readonly string[] | undefined): YamlValue | undefined {
  if (registries === '*') return '*';
  const names = unique(registries ?? []);
  return names.length > 0 ? names : undefined;
}

/** `commit-message`: prefixes of at most 50 characters, `include: scope`; undefined when nothing is left. */
function commitMessageEntry(
  message: CommitMessagePreferences | null | undefined,
  where: string,
  note: (kind: UpgradeNoteKind, message: string) => void,
): YamlMapping | undefined {
  if (!message) return undefined;
  const prefix = (value: string | undefined, name: string): string | undefined => {
    if (value === undefined || value === '') return undefined;
    if (value.length <= MAX_PREFIX_LENGTH) return value;
    note(
      'commit-message',
      `The commit message ${name} of ${where} is longer than ${MAX_PREFIX_LENGTH} characters, so it is not in the new config file.`,
    );
    return undefined;
  };
  const entry = mapping([
    ['prefix', prefix(message.prefix, 'prefix')],
    ['prefix-development', prefix(message.prefixDevelopment, 'development prefix')],
    ['include', message.includeScope ? 'scope' : undefined],
  ]);
  return entry.entries.length > 0 ? entry : undefined;
}

/**
 * `allow`: the rules for version updates. A v1 rule for security updates only has no v2 form (v2 `allow` does not
 * touch security updates, which always cover every dependency): it is left out, with a note when it limited which
 * dependencies got them. A rule naming neither dependency nor type is written as `dependency-type: all`.
 */
function allowEntries(
  rules: readonly AllowRule[],
  where: string,
  note: (kind: UpgradeNoteKind, message: string) => void,
): YamlMapping[] | undefined {
  const entries: YamlMapping[] = [];
  for (const rule of rules) {
    if (rule.updateType === 'security') {
      if (rule.dependencyName !== undefined || (rule.dependencyType ?? 'all') !== 'all') {
        note(
          'security-allow',
          `${where} limited which dependencies got security updates; GitHub-native Dependabot offers security updates for every dependency.`,
        );
      }
      continue;
    }
    entries.push(
      mapping([
        ['dependency-name', rule.dependencyName],
        ['dependency-type', rule.dependencyType ?? (rule.dependencyName === undefined ? 'all' : undefined)],
      ]),
    );
  }
  return entries.length > 0 ? entries : undefined;
}

/**
 * `ignore`: one entry per dependency name, in first-seen order, its rules merged (versions and update types
 * united; a rule with neither ignores every version, and so does the merged entry).
 */
function ignoreEntries(rules: readonly IgnoreRule[]): YamlMapping[] | undefined {
  const merged = new Map<string, { versions: Set<string>; updateTypes: Set<IgnoreUpdateType>; everything: boolean }>();
  for (const rule of rules) {
    const entry = merged.get(rule.dependencyName) ?? { versions: new Set(), updateTypes: new Set(), everything: false };
    for (const version of rule.versions) if (version !== '') entry.versions.add(version);
    for (const updateType of rule.updateTypes) entry.updateTypes.add(updateType);
    if (rule.versions.length === 0 && rule.updateTypes.length === 0) entry.everything = true;
    merged.set(rule.dependencyName, entry);
  }
  const entries = [...merged].map(([name, { versions, updateTypes, everything }]) =>
    mapping([
      ['dependency-name', name],
      ['versions', everything || versions.size === 0 ? undefined : [...versions]],
      ['update-types', everything || updateTypes.size === 0 ? undefined : [...updateTypes]],
    ]),
  );
  return entries.length > 0 ? entries : undefined;
}

/** `groups`: name → rule in the groups' order (the first group of a name kept), defaults left out. */
function groupEntries(groups: readonly DependencyGroup[]): YamlMapping | undefined {
  const entries: Array<readonly [string, YamlValue]> = [];
  const names = new Set<string>();
  for (const group of groups) {
    if (names.has(group.name)) continue;
    names.add(group.name);
    const patterns = unique(group.patterns);
    const excluded = unique(group.excludePatterns);
    const updateTypes = [...new Set(group.updateTypes)];
    entries.push([
      group.name,
      mapping([
        ['applies-to', group.appliesTo === 'security-updates' ? 'security-updates' : undefined],
        ['dependency-type', group.dependencyType],
        ['patterns', patterns.length > 0 ? patterns : ['*']],
        ['exclude-patterns', excluded.length > 0 ? excluded : undefined],
        [
          'update-types',
          updateTypes.length > 0 && !ALL_GROUP_UPDATE_TYPES.every((type) => updateTypes.includes(type)) ? updateTypes : undefined,
        ],
      ]),
    ]);
  }
  return entries.length > 0 ? { entries } : undefined;
}
