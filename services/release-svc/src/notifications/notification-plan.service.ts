import { PackageManager, type ReleaseNotificationReceived, ScanRequestedEvent, type UpdateConfigCheckpoint } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { releaseOutbox } from '../db/outbox.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { configsBehind, listConfigIdsToScan } from '../read-model/read-model.repository.ts';
import { completeIfScanned, lockNotification, lockOverdueNotifications, markPlanned } from './notification.repository.ts';
import type { StoredNotificationRow } from './notification.table.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * When a notification's scan is planned. A notification accepted after a config's creation was answered must scan
 * that config, and release-svc learns of configs through config-svc's events, which may still be on their way. So
 * config-svc answers each `release_notification.received` with an `update_config.checkpoint` listing the configs
 * (id, revision) the notification must scan, written after everything it had committed; the worker plans once its
 * read model holds every listed config at that revision ({@link planOnCheckpoint}), and scans exactly those. Without a
 * checkpoint within `CONFIG_CHECKPOINT_TIMEOUT_MS` (config-svc down or absent), the sweeper
 * ({@link planOverdueNotifications}) plans from the read model as it is. No service calls another on the way.
 */

/** Raised to have a checkpoint delivered again later: the read model has not caught up with it yet. */
export class ReadModelBehindError extends Error {
  constructor(notificationId: string, behind: readonly number[]) {
    super(
      `the read model lacks ${behind.length} update config(s) of notification ${notificationId}'s checkpoint yet: ${behind.slice(0, 10).join(', ')}`,
    );
    this.name = 'ReadModelBehindError';
  }
}

/** The `release_notification.received` payload of a stored (queued) notification. */
function receivedOf(row: StoredNotificationRow): ReleaseNotificationReceived {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    packageManager: PackageManager.parse(row.package_manager),
    accountIds: row.account_ids,
  };
}

/**
 * Plans a notification's fan-out, in the caller's transaction: every update config of the notified package manager in
 * the notification's organisations (as the read model knows them now; of those, only the ids in `only` when given: the
 * configs config-svc's checkpoint listed), cut into batches of `batchSize`, each written as a
 * `release_notification.scan_requested` event that any worker may take (the pipeline's fan-out). A notification with
 * nothing to scan is done at once.
 * @returns how many configs the fan-out covers
 */
export async function planScan(
  trx: Db,
  notification: ReleaseNotificationReceived,
  batchSize: number,
  only?: ReadonlySet<number>,
): Promise<number> {
  const candidates = await listConfigIdsToScan(trx, notification.packageManager, notification.accountIds);
  const configIds = only ? candidates.filter((id) => only.has(id)) : candidates;
  await markPlanned(trx, notification.id, configIds.length);
  const batches = [];
  for (let start = 0; start < configIds.length; start += batchSize) {
    batches.push(
      releaseOutbox.event(ScanRequestedEvent, {
        notificationId: notification.id,
        batch: batches.length,
        updateConfigIds: configIds.slice(start, start + batchSize),
      }),
    );
  }
  await releaseOutbox.append(trx, batches);
  if (configIds.length === 0) await completeIfScanned(trx, notification.id);
  return configIds.length;
}

/** What planning needs: the configs per scan batch and the log. */
export interface PlanOptions {
  batchSize: number;
  logger: Logger;
}

/**
 * Plans the notification of `checkpoint` once the read model has caught up with it: with every listed config at its
 * revision (or later) and its repo, the scan covers the listed configs the read model still finds to scan (not deleted
 * since, same package manager). A notification that is not `queued` any more (planned already, by an earlier
 * delivery or the sweeper) or unknown here is left alone. On the last attempt (`lastAttempt`) it plans with what the
 * read model has, and says which configs it lacked.
 * @throws ReadModelBehindError while the read model lacks listed configs and this is not the last attempt
 */
export async function planOnCheckpoint(
  db: Db,
  checkpoint: UpdateConfigCheckpoint,
  lastAttempt: boolean,
  { batchSize, logger }: PlanOptions,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await lockNotification(trx, checkpoint.notificationId);
    if (row?.status !== 'queued') return;
    const behind = await configsBehind(trx, checkpoint.configs);
    if (behind.length > 0) {
      if (!lastAttempt) throw new ReadModelBehindError(row.id, behind);
      logger.warn({ notification: row.id, missing: behind.slice(0, 20) }, 'planning without update configs the read model never received');
    }
    const listed = new Set(checkpoint.configs.map((config) => config.id));
    const total = await planScan(trx, receivedOf(row), batchSize, listed);
    logger.info({ notification: row.id, configs: total }, 'release notification planned at its checkpoint');
  });
}

/**
 * The sweeper's round: plans up to `limit` notifications still `queued` `timeoutMs` after they were accepted, from
 * the read model as it is (no checkpoint came: config-svc is down or absent), each with a warning. Rows locked by
 * another worker are skipped (`for update skip locked`), so no notification is planned twice.
 * @returns how many it planned
 */
export async function planOverdueNotifications(db: Db, timeoutMs: number, options: PlanOptions, limit = 20): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const rows = await lockOverdueNotifications(trx, timeoutMs, limit);
    for (const row of rows) {
      const total = await planScan(trx, receivedOf(row), options.batchSize);
      options.logger.warn(
        { notification: row.id, configs: total, timeoutMs },
        'no checkpoint from config-svc in time: release notification planned from the read model as it is',
      );
    }
    return rows.length;
  });
}

/**
 * Plans a notification as it arrives, from the read model as it is, in the caller's transaction (the idempotent
 * consumer's): only when `CONFIG_CHECKPOINT_TIMEOUT_MS` is 0, release-svc deployed without config-svc's checkpoints.
 * @returns how many configs the fan-out covers
 */
export async function planOnArrival(
  trx: Db,
  notification: ReleaseNotificationReceived,
  { batchSize, logger }: PlanOptions,
): Promise<number> {
  const total = await planScan(trx, notification, batchSize);
  logger.info({ notification: notification.id, configs: total }, 'release notification planned');
  return total;
}
