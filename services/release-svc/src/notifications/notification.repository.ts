import type { PullRequestJobStatus, ScanOutcome } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import {
  type NotificationRow,
  RELEASE_SCHEMA,
  type RejectedNotificationRow,
  type ReleaseDatabase,
  type StoredNotificationRow,
} from '../db/schema.ts';
import type { ScanResult } from '../scan/scan-result.repository.ts';
import type { AcceptedNotification, RejectedNotification } from './notification-rules.ts';

type Db = Kysely<ReleaseDatabase>;

/** Stores a new accepted notification (status `queued`) for the organisations `accountIds`, sent by code-host user `notifierId`. */
export async function insertNotification(
  db: Db,
  id: string,
  notification: AcceptedNotification,
  accountIds: readonly number[],
  notifierId: number,
): Promise<NotificationRow> {
  const row = await db
    .insertInto('notification')
    .values({
      id,
      name: notification.name,
      version: notification.version,
      package_manager: notification.packageManager,
      account_ids: [...accountIds],
      notifier_id: notifierId,
      status: 'queued',
      reason: null,
      configs_total: null,
      started_at: null,
      finished_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The values were a canonical package manager and `queued`, as given above.
  return row as NotificationRow;
}

/** Stores a rejected notification (status `rejected`, finished at once) with its reason; it is never scanned. */
export async function insertRejectedNotification(
  db: Db,
  id: string,
  notification: RejectedNotification,
  accountIds: readonly number[],
  notifierId: number,
): Promise<RejectedNotificationRow> {
  const row = await db
    .insertInto('notification')
    .values({
      id,
      name: notification.name,
      version: notification.version,
      package_manager: notification.packageManager,
      account_ids: [...accountIds],
      notifier_id: notifierId,
      status: 'rejected',
      reason: notification.reason,
      configs_total: null,
      started_at: null,
      finished_at: sql<Date>`now()`,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return row as RejectedNotificationRow;
}

/** The notification with `id` if it is one that is scanned (any status but `rejected`), or undefined. */
export async function findNotification(db: Db, id: string): Promise<NotificationRow | undefined> {
  const row = await db.selectFrom('notification').selectAll().where('id', '=', id).where('status', '<>', 'rejected').executeTakeFirst();
  // Not rejected: its package manager is a canonical one (only accepted notifications are stored with another status).
  return row as NotificationRow | undefined;
}

/** The notification with `id`, of any status (`rejected` ones too), or undefined. */
export function findStoredNotification(db: Db, id: string): Promise<StoredNotificationRow | undefined> {
  return db.selectFrom('notification').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Counts of a notification's results by outcome (outcomes without results left out), over the repos `repoIds` only. */
export async function countOutcomes(db: Db, id: string, repoIds: readonly number[]): Promise<Partial<Record<ScanOutcome, number>>> {
  if (repoIds.length === 0) return {};
  const rows = await db
    .selectFrom('scan_result')
    .select(['outcome', sql<number>`count(*)::integer`.as('n')])
    .where('notification_id', '=', id)
    .where(sql<boolean>`repo_id = any(${sql.val([...repoIds])}::bigint[])`)
    .groupBy('outcome')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.outcome, row.n]));
}

/** A skipped or failed result of a notification's scan. */
export type ScanProblem = Pick<ScanResult, 'repoId' | 'updateConfigId' | 'outcome' | 'reason'>;

/** Up to `limit` skipped and failed results of a notification, over the repos `repoIds` only, by config id. */
export async function listProblems(db: Db, id: string, repoIds: readonly number[], limit = 100): Promise<ScanProblem[]> {
  if (repoIds.length === 0) return [];
  const rows = await db
    .selectFrom('scan_result')
    .select(['repo_id', 'update_config_id', 'outcome', 'reason'])
    .where('notification_id', '=', id)
    .where('outcome', 'in', ['skipped', 'failed'])
    .where(sql<boolean>`repo_id = any(${sql.val([...repoIds])}::bigint[])`)
    .orderBy('update_config_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ repoId: row.repo_id, updateConfigId: row.update_config_id, outcome: row.outcome, reason: row.reason }));
}

/** A pull-request job a notification caused, with its pull request once opened. */
export interface NotificationPullRequest {
  repoId: number;
  updateConfigId: number;
  jobId: number;
  status: PullRequestJobStatus;
  pullRequestNumber: number | null;
  pullRequestUrl: string | null;
}

/** Up to `limit` jobs of notification `id` on `repoIds`, oldest first, with their pull requests as they stand. */
export async function listPullRequests(db: Db, id: string, repoIds: readonly number[], limit = 100): Promise<NotificationPullRequest[]> {
  if (repoIds.length === 0) return [];
  const rows = await db
    .selectFrom('pull_request_job')
    .select(['id', 'repo_id', 'update_config_id', 'status', 'pull_request_number', 'pull_request_url'])
    .where('notification_id', '=', id)
    .where(sql<boolean>`repo_id = any(${sql.val([...repoIds])}::bigint[])`)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    repoId: row.repo_id,
    updateConfigId: row.update_config_id,
    jobId: row.id,
    status: row.status,
    pullRequestNumber: row.pull_request_number,
    pullRequestUrl: row.pull_request_url,
  }));
}

/** Marks a planned notification: `scanning`, with the number of configs its scan covers. */
export async function markPlanned(db: Db, id: string, configsTotal: number): Promise<void> {
  await db
    .updateTable('notification')
    .set({ status: 'scanning', configs_total: configsTotal, started_at: sql<Date>`coalesce(started_at, now())` })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'scanning'])
    .execute();
}

/**
 * Marks the notification `done` once every config of its scan has a result (idempotent; the first
 * caller to see the last result wins).
 */
export async function completeIfScanned(db: Db, id: string): Promise<void> {
  await db
    .updateTable('notification')
    .set({ status: 'done', finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'scanning')
    .where(sql<boolean>`configs_total <= (select count(*) from ${sql.id(RELEASE_SCHEMA, 'scan_result')} r where r.notification_id = ${id})`)
    .execute();
}
