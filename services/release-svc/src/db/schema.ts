import type {
  AccountType,
  AutomergeRule,
  DependencyCheckOutcome,
  NotificationStatus,
  PackageManager,
  PullRequestJobCreated,
  PullRequestJobStatus,
  ScanOutcome,
  UpdateRunErrorKind,
  UpdateRunStatus,
  UpdateRunTrigger,
  UpdateSchedule,
} from '@switchyard/contracts';
import type { MessagingTables } from '@switchyard/messaging';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { OsvRange } from '../advisories/advisory-match.ts';

/** The PostgreSQL schema release-svc owns; no other service reads it. */
export const RELEASE_SCHEMA = 'release';

type Id = ColumnType<number, number, never>;

/** `release.account`: read model of config-svc's `account.*` events. */
export interface AccountTable {
  id: Id;
  login: string;
  account_type: AccountType;
  revision: number;
  /** `HH:MM`, wall-clock in `time_zone`: when scheduled runs start. */
  update_run_time: Generated<string>;
  weekly_update_run_day: Generated<string>;
  /** IANA time zone of `update_run_time`. */
  time_zone: Generated<string>;
  /** A config's first run records at most `INITIAL_RUN_JOB_LIMIT` jobs. */
  limit_initial_update_runs: Generated<boolean>;
  /** Merge pull requests with a merge commit (else squash). */
  create_merge_commits: Generated<boolean>;
  /** Recreate a pull request's commit when its target branch moves. */
  automatically_rebase_prs: Generated<boolean>;
  /** At most `OPEN_PULL_REQUEST_LIMIT` open pull requests per config. */
  limit_open_pull_requests: Generated<boolean>;
}

/** `release.repo`: read model of `repo.*` events. */
export interface RepoTable {
  id: Id;
  account_id: number;
  full_name: string;
  default_branch: string;
  archived: boolean;
  revision: number;
}

/** `release.update_config`: read model of `update_config.*` events (`deleted` keeps the revision of a deletion). */
export interface UpdateConfigTable {
  id: Id;
  repo_id: number;
  account_id: number;
  package_manager: PackageManager;
  directory: string;
  target_branch: string | null;
  automerge_rule_runtime_deps: AutomergeRule;
  automerge_rule_development_deps: AutomergeRule;
  lockfile_only: boolean;
  security_updates_only: boolean;
  deleted: boolean;
  revision: number;
  update_schedule: Generated<UpdateSchedule>;
  /** The config's `language` (`javascript`, `python`, …), a label of its pull requests; null until the next event. */
  language: string | null;
  /** When the read model first held the config: slots before it are not the config's. */
  first_seen_at: Generated<Date>;
  /** The next slot of its schedule, or null (`live`, or not computed yet). */
  next_run_at: Date | null;
}

/**
 * `release.notification`: one `POST /release_notifications/private`. A `rejected` one is recorded with its `reason`
 * and never scanned; its `package_manager` is what was sent when that names no package manager (a check constraint
 * keeps `reason` set exactly for `rejected`).
 */
export interface NotificationTable {
  id: ColumnType<string, string, never>;
  name: string;
  version: string;
  package_manager: string;
  account_ids: number[];
  /** The code-host user whose token sent the notification. */
  notifier_id: number;
  status: NotificationStatus;
  /** Why a `rejected` notification is not scanned; null for every other status. */
  reason: string | null;
  /** Update configs the scan covers, known once it is planned. */
  configs_total: number | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

/** `release.scan_result`: what one notification did with one update config (written once it is final). */
export interface ScanResultTable {
  notification_id: string;
  update_config_id: number;
  repo_id: number;
  account_id: number;
  outcome: ScanOutcome;
  reason: string;
  recorded_at: Generated<Date>;
}

/** `release.pull_request_job`: unique per update config, dependency and target version. */
export interface PullRequestJobTable {
  id: Generated<number>;
  notification_id: string | null;
  update_run_id: string | null;
  unverified: Generated<boolean>;
  update_config_id: number;
  repo_id: number;
  account_id: number;
  package_manager: PackageManager;
  dependency_name: string;
  dependency_type: PullRequestJobCreated['dependencyType'];
  version_in_use: string;
  target_version: string;
  update_kind: PullRequestJobCreated['updateKind'];
  automerge: boolean;
  security_fix: boolean;
  target_branch: string;
  directory: string;
  status: Generated<PullRequestJobStatus>;
  /** The job's branch on the code host, once made. */
  branch: string | null;
  pull_request_number: number | null;
  pull_request_url: string | null;
  /** Why the status is what it is (a failure's reason, who closed it, what superseded it), or null. */
  status_reason: string | null;
  status_changed_at: Generated<Date>;
  created_at: Generated<Date>;
  /** The commit this service made on the branch (a branch whose head is another commit was pushed to by a person). */
  head_sha: string | null;
  /** The target branch's commit `head_sha` was made on (a target branch that moved from it calls for a rebase). */
  base_sha: string | null;
  /** When the open pull request is next looked at (rebase, automerge, reconciliation); null once it is not open. */
  maintain_at: Date | null;
  /** The execution that holds the job (a token of its own), or null. */
  claimed_by: string | null;
  /** That execution's last heartbeat; a claim older than the lease is free to take. */
  claimed_at: Date | null;
}

/** `release.webhook_delivery`: a code-host webhook delivery, recorded once by its delivery id (`X-GitHub-Delivery`). */
export interface WebhookDeliveryTable {
  id: string;
  event: string;
  action: string | null;
  /** What it did: `applied`, `ignored` (an event or job this service does not follow). */
  outcome: string;
  received_at: Generated<Date>;
}

/** `release.advisory`: a security advisory imported from an OSV file. */
export interface AdvisoryTable {
  id: string;
  summary: string | null;
  modified: Date;
  aliases: string[];
}

/** `release.advisory_affected`: one affected package of an advisory, with its OSV ranges and versions. */
export interface AdvisoryAffectedTable {
  advisory_id: string;
  /** The OSV ecosystem, e.g. `npm`, `PyPI`, `Maven`, `RubyGems`, `crates.io`, `Packagist`. */
  ecosystem: string;
  /** The package name normalised as the ecosystem compares names. */
  package_name: string;
  /** OSV `ranges` (ECOSYSTEM and SEMVER types with introduced/fixed/last_affected events). */
  ranges: ColumnType<OsvRange[], string, string>;
  /** OSV `versions`: versions affected, listed one by one. */
  versions: string[];
}

/** `release.update_run`: one run of one update config, unique per config and `trigger_key` (a slot, a version seen, a notification). */
export interface UpdateRunTable {
  id: ColumnType<string, string, never>;
  update_config_id: number;
  repo_id: number;
  account_id: number;
  trigger: UpdateRunTrigger;
  /** `schedule:<slot>`, `live:<name>@<version>`, `notification:<id>`, `initial` or `manual:<run id>`: what makes a run once. */
  trigger_key: string;
  status: Generated<UpdateRunStatus>;
  slot: Date | null;
  notification_id: string | null;
  /** The code-host user who asked for a `manual` run. */
  requested_by: number | null;
  job_limit: number | null;
  dependencies_total: number | null;
  dependencies_checked: Generated<number>;
  jobs_recorded: Generated<number>;
  error: string | null;
  error_kind: UpdateRunErrorKind | null;
  created_at: Generated<Date>;
  started_at: Date | null;
  finished_at: Date | null;
}

/** `release.update_run_dependency`: one dependency as a run checked it. */
export interface UpdateRunDependencyTable {
  run_id: string;
  /** Its place in the manifests' order. */
  position: number;
  name: string;
  dependency_type: 'runtime' | 'development';
  requirement: string | null;
  version_in_use: string | null;
  latest_version: string | null;
  latest_allowed_version: string | null;
  outcome: DependencyCheckOutcome;
  reason: string;
  error_kind: UpdateRunErrorKind | null;
  registry: string | null;
  job_id: number | null;
}

/** `release.config_dependency`: the dependencies a config's last run found (what the registry watch polls for `live` configs). */
export interface ConfigDependencyTable {
  update_config_id: number;
  name: string;
}

/** `release.watched_package`: the newest version the registry watch saw of a package, for an account (its registries). */
export interface WatchedPackageTable {
  account_id: number;
  package_manager: PackageManager;
  name: string;
  latest_version: string | null;
  checked_at: Generated<Date>;
}

/**
 * `release.registry_credential`: read model of config-svc's `registry_credential.*` events; the secret stays sealed
 * (AES-256-GCM under `SECRETS_KEY`) until an update run opens it to ask the registry.
 */
export interface RegistryCredentialTable {
  id: Id;
  account_id: number;
  package_manager: PackageManager;
  base_url: string;
  auth_type: 'token' | 'basic';
  username: string | null;
  sealed_secret: string;
  deleted: boolean;
  revision: number;
}

/** The `release` schema: release-svc's tables, and the outbox and processed-message tables of `@switchyard/messaging`. */
export interface ReleaseDatabase extends MessagingTables {
  account: AccountTable;
  repo: RepoTable;
  update_config: UpdateConfigTable;
  notification: NotificationTable;
  scan_result: ScanResultTable;
  pull_request_job: PullRequestJobTable;
  advisory: AdvisoryTable;
  advisory_affected: AdvisoryAffectedTable;
  update_run: UpdateRunTable;
  update_run_dependency: UpdateRunDependencyTable;
  config_dependency: ConfigDependencyTable;
  watched_package: WatchedPackageTable;
  registry_credential: RegistryCredentialTable;
  webhook_delivery: WebhookDeliveryTable;
}

/** A stored notification of any status, as the status view reads it. */
export type StoredNotificationRow = Selectable<NotificationTable>;
/** A stored notification that is scanned (any status but `rejected`): its package manager is a canonical one. */
export type NotificationRow = Omit<StoredNotificationRow, 'package_manager' | 'status' | 'reason'> & {
  package_manager: PackageManager;
  status: Exclude<NotificationStatus, 'rejected'>;
  reason: null;
};
/** A stored `rejected` notification. */
export type RejectedNotificationRow = Omit<StoredNotificationRow, 'status' | 'reason'> & { status: 'rejected'; reason: string };
/** An update config as the read model holds it. */
export type UpdateConfigRow = Selectable<UpdateConfigTable>;
/** A recorded pull-request job. */
export type PullRequestJobRow = Selectable<PullRequestJobTable>;
/** A recorded update run. */
export type UpdateRunRow = Selectable<UpdateRunTable>;
/** One dependency of a recorded update run. */
export type UpdateRunDependencyRow = Selectable<UpdateRunDependencyTable>;
