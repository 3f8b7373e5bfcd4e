import type { NotificationStatus, PackageManager } from '@switchyard/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

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

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    notification: NotificationTable;
  }
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
