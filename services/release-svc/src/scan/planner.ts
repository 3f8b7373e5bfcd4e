import type { ReleaseNotificationReceived, ScanRequested } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { appendEvents, releaseEvent } from '../events.ts';
import { completeIfScanned, markPlanned } from '../notifications/notification.repository.ts';

/**
 * Plans a notification's scan, in the caller's transaction: every update config of the notified package
 * manager in the notification's organisations (as the read model knows them now), cut into batches of
 * `batchSize`, each published as a `release_notification.scan_requested` event that any worker may take.
 * A notification with nothing to scan is done at once.
 * @returns how many configs the scan covers
 */
export async function planScan(
  trx: Kysely<ReleaseDatabase>,
  notification: ReleaseNotificationReceived,
  batchSize: number,
): Promise<number> {
  const configs = await trx
    .selectFrom('update_config')
    .select('id')
    .where('package_manager', '=', notification.packageManager)
    .where('deleted', '=', false)
    .where(sql<boolean>`account_id = any(${sql.val(notification.accountIds)}::bigint[])`)
    .orderBy('id')
    .execute();
  await markPlanned(trx, notification.id, configs.length);
  const batches = [];
  for (let start = 0; start < configs.length; start += batchSize) {
    const data: ScanRequested = {
      notificationId: notification.id,
      batch: batches.length,
      updateConfigIds: configs.slice(start, start + batchSize).map((c) => c.id),
    };
    batches.push(releaseEvent('release_notification.scan_requested', data));
  }
  await appendEvents(trx, batches);
  if (configs.length === 0) await completeIfScanned(trx, notification.id);
  return configs.length;
}
