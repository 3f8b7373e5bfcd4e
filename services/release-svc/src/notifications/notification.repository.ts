import { type Kysely, sql } from 'kysely';
import { RELEASE_SCHEMA, type ReleaseDatabase } from '../db/schema.ts';
import type {} from '../pipeline/record/scan-result.table.ts';
import type { AcceptedNotification, RejectedNotification } from './notification.policy.ts';
import type { NotificationRow, RejectedNotificationRow, StoredNotificationRow } from './notification.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Who sent a notification and for which organisations: the code-host user `notifierId`, the accounts `accountIds`. */
export interface Sender {
  accountIds: readonly number[];
  notifierId: number;
}

/** Stores a new accepted notification (status `queued`). */
export async function insertNotification(db: Db, id: string, notification: AcceptedNotification, sender: Sender): Promise<NotificationRow> {
  // The values are a canonical package manager and `queued`.
  return (await insert(db, id, notification, sender, { status: 'queued', reason: null, finished: false })) as NotificationRow;
}

/** Stores a rejected notification (status `rejected`, finished at once) with its reason; it is never scanned. */
export async function insertRejectedNotification(
  db: Db,
  id: string,
  notification: RejectedNotification,
  sender: Sender,
): Promise<RejectedNotificationRow> {
  const status = { status: 'rejected', reason: notification.reason, finished: true } as const;
  return (await insert(db, id, notification, sender, status)) as RejectedNotificationRow;
}

async function insert(
  db: Db,
  id: string,
  notification: { name: string; version: string; packageManager: string },
  { accountIds, notifierId }: Sender,
  { status, reason, finished }: { status: 'queued' | 'rejected'; reason: string | null; finished: boolean },
): Promise<StoredNotificationRow> {
  return db
    .insertInto('notification')
    .values({
      id,
      name: notification.name,
      version: notification.version,
      package_manager: notification.packageManager,
      account_ids: [...accountIds],
      notifier_id: notifierId,
      status,
      reason,
      configs_total: null,
      started_at: null,
      finished_at: finished ? sql<Date>`now()` : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
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

/** The notification `id` of any status, locked for the caller's transaction (a planner holds it while it plans). */
export function lockNotification(trx: Db, id: string): Promise<StoredNotificationRow | undefined> {
  return trx.selectFrom('notification').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/**
 * Up to `limit` notifications still `queued` `timeoutMs` ms after they were accepted, oldest first, locked for the
 * caller's transaction; rows another transaction holds are skipped (`for update skip locked`).
 */
export function lockOverdueNotifications(trx: Db, timeoutMs: number, limit: number): Promise<StoredNotificationRow[]> {
  return trx
    .selectFrom('notification')
    .selectAll()
    .where('status', '=', 'queued')
    .where(sql<boolean>`created_at < now() - make_interval(secs => ${timeoutMs / 1000})`)
    .orderBy('created_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
}
