import type {
  AccountType,
  AutomergeRule,
  NotificationStatus,
  PackageManager,
  PullRequestJobCreated,
  ScanOutcome,
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
  notification_id: string;
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
  status: Generated<string>;
  created_at: Generated<Date>;
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
