/**
 * The normalised model both config file versions are read into: one {@link FileUpdateConfig} per (package manager,
 * directory, target branch), in the API's vocabulary (`@switchyard/contracts`), plus what the reading found wrong
 * ({@link ConfigProblem}) or could not serve ({@link SkippedEntry}).
 */
import type {
  AutomergeRule,
  AllowRule as ContractAllowRule,
  IgnoreRule as ContractIgnoreRule,
  GroupRule,
  PackageManager,
  UpdateSchedule,
  VERSIONING_STRATEGIES,
  WEEKDAYS,
} from '@switchyard/contracts';
import type { ConfigFilePath } from './paths.ts';

/** A day of the week, lower case (`monday` … `sunday`), as the account's `weekly-update-run-day` and v2 `schedule.day`. */
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * Something that makes the file invalid: `pointer` is a JSON pointer into the YAML document as a URI fragment
 * (`#/update_configs/0/update_schedule`, `#/` for the document), `message` the text shown to the user, in the wording of
 * the Ruby `json-schema` gem Dependabot validated with, e.g.
 * `The property '#/update_configs/0/update_schedule' value "x" did not match one of the following values: live, daily, weekly, monthly`.
 */
export interface ConfigProblem {
  pointer: string;
  message: string;
}

/**
 * Something valid in the file that this service does not serve as written, and what it did instead: a whole entry
 * (`#/updates/3`: an ecosystem it has no support for), one key of an entry (`#/updates/0/cooldown`), one rule
 * (`#/update_configs/0/automerged_updates/2`). Nothing is dropped without one of these.
 */
export interface SkippedEntry {
  pointer: string;
  reason: string;
}

/** v2 `versioning-strategy`; v1 `version_requirement_updates` maps onto it (`off` → `lockfile-only`, by meaning). */
export type VersioningStrategy = (typeof VERSIONING_STRATEGIES)[number];

/** The dependency types an allow rule can name (v1 `dependency_type`, v2 `dependency-type`). */
export type AllowDependencyType = 'direct' | 'indirect' | 'all' | 'production' | 'development';

/**
 * One allow rule (v1 `allowed_updates[].match`, v2 `allow[]`). Absent fields do not restrict: a rule without
 * `dependencyType` matches every type. `updateType: 'security'` (v1 only) allows security updates alone.
 */
export type AllowRule = ContractAllowRule;

/** The semver update types of v2 `ignore[].update-types`. */
export type IgnoreUpdateType = 'version-update:semver-major' | 'version-update:semver-minor' | 'version-update:semver-patch';

/**
 * One ignore rule. `dependencyName` may hold `*` wildcards; `versions` are requirements in the ecosystem's own syntax
 * (exact versions, `4.x`, `^1.0.0`, `~> 2.0`, `[1.4,)`). With neither `versions` nor `updateTypes` every version of the
 * dependency is ignored; with both, the union (dependabot-core's `IgnoreCondition`).
 */
export type IgnoreRule = ContractIgnoreRule;

/** The semver levels a v2 group takes. */
export type GroupUpdateType = 'major' | 'minor' | 'patch';

/**
 * One v2 dependency group, in file order (a dependency joins the first group it matches). `patterns` is `['*']` when
 * the file gave none (a group without patterns takes every dependency); `updateTypes` is all three levels when the file
 * gave none; `appliesTo` defaults to `version-updates`.
 */
export type DependencyGroup = GroupRule;

/**
 * Commit message preferences: `prefix` for every commit (for production dependencies only when `prefixDevelopment`
 * is set), `includeScope` appends `(deps)` / `(deps-dev)`.
 */
export interface CommitMessagePreferences {
  prefix?: string;
  prefixDevelopment?: string;
  includeScope: boolean;
}

/**
 * v2 `schedule` beyond the interval: `day` (weekly), `time` (`HH:MM`), `timeZone` (IANA). Empty for v1 files, whose run
 * time and day are the account's `update-run-time` and `weekly-update-run-day`.
 */
export interface ConfigSchedule {
  day?: Weekday;
  time?: string;
  timeZone?: string;
}

/**
 * One update config read from a file: the API's update config (`packageManager`, `language`, `directory`,
 * `targetBranch`, `updateSchedule`, the two automerge rules, `lockfileOnly`, `securityUpdatesOnly`) and the file's
 * further settings.
 *
 * - `pointer`: the entry it came from (`#/update_configs/0`, `#/updates/2`, `#/updates/2/directories/1` for an entry of
 *   `directories`).
 * - `directory`: starts with `/`, no trailing `/` (but `/` itself), no empty, `.` or `..` segments. `directoryGlob` is
 *   true when it came from v2 `directories` and holds glob characters (`*`, `?`, `[`, `{`): the caller expands it
 *   against the repository's tree.
 * - `targetBranch`: null for the repository's default branch.
 * - `lockfileOnly` is true exactly when `versioningStrategy` is `lockfile-only`.
 * - `securityUpdatesOnly`: v2 `open-pull-requests-limit: 0`; v1 `allowed_updates` whose rules all say
 *   `update_type: security`.
 * - `labels`: null for the defaults (`dependencies` and the language label), `[]` for none.
 * - `openPullRequestsLimit`: null when the file sets none (v1 never does).
 * - `registries`: v2 `registries` (names of the file's top-level registries, or `'*'`); `[]` when absent and for v1.
 */
export interface FileUpdateConfig {
  pointer: string;
  packageManager: PackageManager;
  language: string;
  directory: string;
  directoryGlob: boolean;
  targetBranch: string | null;
  updateSchedule: UpdateSchedule;
  schedule: ConfigSchedule;
  automergeRuleRuntimeDeps: AutomergeRule;
  automergeRuleDevelopmentDeps: AutomergeRule;
  versioningStrategy: VersioningStrategy;
  lockfileOnly: boolean;
  securityUpdatesOnly: boolean;
  labels: string[] | null;
  reviewers: string[];
  assignees: string[];
  milestone: number | null;
  commitMessage: CommitMessagePreferences | null;
  openPullRequestsLimit: number | null;
  rebaseStrategy: 'auto' | 'disabled';
  allow: AllowRule[];
  ignore: IgnoreRule[];
  groups: DependencyGroup[];
  registries: '*' | string[];
}

/**
 * A config file read by `parseConfigFile`. `version` is the file's `version` when it is 1 or 2 (null otherwise, or when
 * the YAML did not parse). `valid` is false when there is at least one problem; an invalid file has no `configs` and no
 * `skipped` (the caller keeps the previous setup, as Dependabot Preview did:
 * https://github.com/dependabot/feedback/issues/357).
 */
export interface ParsedConfigFile {
  path: ConfigFilePath;
  version: 1 | 2 | null;
  valid: boolean;
  configs: FileUpdateConfig[];
  problems: ConfigProblem[];
  skipped: SkippedEntry[];
}
