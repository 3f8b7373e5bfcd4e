import { z } from 'zod';
import { defineEvent } from '../events.ts';
import { AUTOMERGE_RULES, PACKAGE_MANAGERS, UPDATE_SCHEDULES, WEEKDAYS } from './vocabulary.ts';

/*
 * What repositories say about their own updates: the config files `.dependabot/config.yml` (Dependabot Preview's
 * version 1, https://github.com/SchemaStore/schemastore/blob/master/src/schemas/json/dependabot.json) and
 * `.github/dependabot.yml` (version 2, https://docs.github.com/code-security/dependabot/working-with-dependabot/dependabot-options-reference),
 * as release-svc reads them and config-svc stores them. Every list is bounded: a file is the repository's input.
 */

/** The most entries of one list an update config carries (labels, ignores, groups, patterns …). */
const MAX_ENTRIES = 200;
const names = () => z.array(z.string().max(1_000)).max(MAX_ENTRIES);

/** The ways a config changes version requirements (v2 `versioning-strategy`; v1 `version_requirement_updates` by meaning). */
export const VERSIONING_STRATEGIES = ['auto', 'increase', 'increase-if-necessary', 'lockfile-only', 'widen'] as const;
/** `ignore[].update-types` of a v2 file, and what the `@dependabot ignore this … version` commands store. */
export const IGNORED_UPDATE_TYPES = ['version-update:semver-major', 'version-update:semver-minor', 'version-update:semver-patch'] as const;

/** One `allow` rule: a dependency name pattern (`*` matches any run of characters), a dependency type, an update type. */
export const AllowRule = z.object({
  dependencyName: z.string().max(1_000).optional(),
  dependencyType: z.enum(['direct', 'indirect', 'all', 'production', 'development']).optional(),
  updateType: z.enum(['all', 'security']).optional(),
});
export type AllowRule = z.infer<typeof AllowRule>;

/**
 * One ignore: the dependency (a name pattern), and which of its versions: `versions` (ranges in the ecosystem's own
 * syntax, or exact versions), `updateTypes` (relative to the version in use); neither means every version.
 */
export const IgnoreRule = z.object({
  dependencyName: z.string().max(1_000),
  versions: names().default([]),
  updateTypes: z.array(z.enum(IGNORED_UPDATE_TYPES)).max(3).default([]),
});
export type IgnoreRule = z.infer<typeof IgnoreRule>;

/** One v2 `groups` entry: the dependencies it takes (patterns, minus exclusions, of a type and update types), in file order. */
export const GroupRule = z.object({
  name: z.string().max(200),
  patterns: names().default([]),
  excludePatterns: names().default([]),
  dependencyType: z.enum(['production', 'development']).optional(),
  updateTypes: z
    .array(z.enum(['major', 'minor', 'patch']))
    .max(3)
    .default([]),
  appliesTo: z.enum(['version-updates', 'security-updates']).default('version-updates'),
});
export type GroupRule = z.infer<typeof GroupRule>;

/**
 * The settings of an update config beyond the API's attributes, each with the default of a config that does not set
 * it: `labels` null (the `dependencies` label and the config's language), no reviewers, assignees or milestone,
 * commit messages as this service writes them, no limit of its own, rebases on, versioning `auto`, no allow rules (the
 * direct dependencies), no ignores and no groups; `schedule` the v2 file's day, time and time zone (the account's
 * otherwise).
 */
export const UpdateConfigSettings = z.object({
  labels: names().nullable().default(null),
  reviewers: names().default([]),
  assignees: names().default([]),
  milestone: z.int().positive().nullable().default(null),
  commitMessage: z
    .object({
      prefix: z.string().max(50).optional(),
      prefixDevelopment: z.string().max(50).optional(),
      includeScope: z.boolean().default(false),
    })
    .nullable()
    .default(null),
  openPullRequestsLimit: z.int().min(0).nullable().default(null),
  rebaseStrategy: z.enum(['auto', 'disabled']).default('auto'),
  versioningStrategy: z.enum(VERSIONING_STRATEGIES).default('auto'),
  allow: z.array(AllowRule).max(MAX_ENTRIES).default([]),
  ignore: z.array(IgnoreRule).max(MAX_ENTRIES).default([]),
  groups: z.array(GroupRule).max(MAX_ENTRIES).default([]),
  schedule: z
    .object({
      day: z.enum(WEEKDAYS).optional(),
      time: z
        .string()
        .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/)
        .optional(),
      timeZone: z.string().max(100).optional(),
    })
    .prefault({}),
});
export type UpdateConfigSettings = z.infer<typeof UpdateConfigSettings>;

/** The settings of a config that sets none of them. */
export const DEFAULT_UPDATE_CONFIG_SETTINGS: UpdateConfigSettings = UpdateConfigSettings.parse({});

/** One update config as a config file gives it: the API's attributes, its settings, and where in the file it is (`#/updates/2`). */
export const FileUpdateConfig = z.object({
  pointer: z.string().max(200),
  packageManager: z.enum(PACKAGE_MANAGERS),
  language: z.string().max(100),
  updateSchedule: z.enum(UPDATE_SCHEDULES),
  directory: z.string().max(1_000),
  targetBranch: z.string().max(1_000).nullable(),
  automergeRuleRuntimeDeps: z.enum(AUTOMERGE_RULES),
  automergeRuleDevelopmentDeps: z.enum(AUTOMERGE_RULES),
  lockfileOnly: z.boolean(),
  securityUpdatesOnly: z.boolean(),
  settings: UpdateConfigSettings.prefault({}),
});
export type FileUpdateConfig = z.infer<typeof FileUpdateConfig>;

/** A schema or YAML error of a config file: where (a JSON pointer, `#/updates/0/schedule/time`) and the message. */
export const ConfigFileProblem = z.object({ pointer: z.string().max(1_000), message: z.string().max(2_000) });
export type ConfigFileProblem = z.infer<typeof ConfigFileProblem>;

/** An entry, or a whole file, this service read and does not act on, with the reason. */
export const ConfigFileSkipped = z.object({ pointer: z.string().max(1_000), reason: z.string().max(2_000) });
export type ConfigFileSkipped = z.infer<typeof ConfigFileSkipped>;

/**
 * What a repository's config file says, as read from its default branch: `path` (`.github/dependabot.yml`, …),
 * `version` (1 or 2; null when unreadable), whether it is `valid` (an invalid file changes nothing: the previous
 * setup stays, as Dependabot Preview kept it), its `problems`, the entries `skipped`, and the other config files that
 * were there and not used (`ignoredFiles`, with why).
 */
export const ConfigFileState = z.object({
  path: z.string().max(200),
  version: z.union([z.literal(1), z.literal(2)]).nullable(),
  valid: z.boolean(),
  problems: z.array(ConfigFileProblem).max(MAX_ENTRIES),
  skipped: z.array(ConfigFileSkipped).max(MAX_ENTRIES),
  ignoredFiles: z.array(z.object({ path: z.string().max(200), reason: z.string().max(2_000) })).max(10),
});
export type ConfigFileState = z.infer<typeof ConfigFileState>;

/**
 * `repo_config_file.read` (release-svc → config-svc): a repository's config files were read at `readAt` from commit
 * `commitSha` of its default branch. `repo` is the repository as the code host described it (so config-svc can know
 * a repository it has not seen); `file` is null when the repository has no config file (its file-made configs go);
 * `configs` are the valid file's update configs (empty otherwise). A read older than the last one applied changes
 * nothing.
 */
export const RepoConfigFileRead = z.object({
  repo: z.object({
    id: z.int(),
    name: z.string(),
    fullName: z.string(),
    owner: z.object({ id: z.int(), login: z.string(), type: z.enum(['user', 'org']) }),
    private: z.boolean(),
    fork: z.boolean(),
    archived: z.boolean(),
    htmlUrl: z.string(),
    language: z.string().nullable(),
    defaultBranch: z.string(),
  }),
  readAt: z.iso.datetime(),
  commitSha: z.string().nullable(),
  file: ConfigFileState.nullable(),
  configs: z.array(FileUpdateConfig).max(MAX_ENTRIES),
});
export type RepoConfigFileRead = z.infer<typeof RepoConfigFileRead>;

/** `repo_config_file.read` (see {@link RepoConfigFileRead}). */
export const RepoConfigFileReadEvent = defineEvent('repo_config_file.read', RepoConfigFileRead);

/**
 * `repo-upgrades` (this service's extension: `POST` and `GET /repos/{id}/upgrade`): the "Upgrade to GitHub-native
 * Dependabot" pull request asked for a repo: `pending` until a worker opens it, `opened` (its number and address), or
 * `failed` (`reason`). `id` is the repo's.
 */
export const RepoUpgradeResource = z.object({
  id: z.string(),
  type: z.literal('repo-upgrades'),
  attributes: z.object({
    status: z.enum(['pending', 'opened', 'failed']),
    reason: z.string().nullable(),
    'pull-request-number': z.int().nullable(),
    'pull-request-url': z.string().nullable(),
    'requested-at': z.string(),
  }),
  relationships: z.object({ repo: z.object({ data: z.object({ id: z.string(), type: z.literal('repos') }) }) }),
});
export type RepoUpgradeResource = z.infer<typeof RepoUpgradeResource>;

/**
 * One ignore a person made on the code host, as `update_config.ignores_changed` carries it: of `dependencyName`, every
 * version (`dependency`), the line of `version` (`major`, `minor`, `patch`: `@dependabot ignore this … version`), or
 * `version` alone (a pull request closed unmerged, or `@dependabot close`); `source` says which, `pullRequestJobId`
 * the job whose pull request made it (reopening it removes the ignore), `createdBy` who.
 */
export const HeldIgnore = z.object({
  id: z.int(),
  dependencyName: z.string(),
  kind: z.enum(['dependency', 'major', 'minor', 'patch', 'version']),
  version: z.string().nullable(),
  source: z.enum(['command', 'closed-pull-request']),
  pullRequestJobId: z.int().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type HeldIgnore = z.infer<typeof HeldIgnore>;

/**
 * `update_config.ignores_changed` (release-svc → config-svc): every ignore people made for the config now, after a
 * change (`version` grows with each: a consumer applies only a newer one).
 */
export const UpdateConfigIgnores = z.object({
  updateConfigId: z.int(),
  version: z.int(),
  ignores: z.array(HeldIgnore).max(1_000),
});
export type UpdateConfigIgnores = z.infer<typeof UpdateConfigIgnores>;

/** `update_config.ignores_changed` (see {@link UpdateConfigIgnores}). */
export const UpdateConfigIgnoresChangedEvent = defineEvent('update_config.ignores_changed', UpdateConfigIgnores);
