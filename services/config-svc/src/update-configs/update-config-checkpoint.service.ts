import { type ReleaseNotificationReceived, UpdateConfigCheckpointEvent } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { listConfigRevisions } from './update-config.repository.ts';

/**
 * Answers a `release_notification.received` with an `update_config.checkpoint`: in one transaction, the id and
 * revision of every config the notification must scan (its package manager, on repos of its organisations), as
 * config-svc holds them now, written to the outbox. Every config whose creation was answered before the notification
 * was accepted is committed by now, so it is in the list; release-svc plans the scan once its read model has caught up
 * with the list (see release-svc's README, "A notification sees every config created before it"). Answering the same
 * notification twice is harmless: release-svc plans a notification once.
 * @returns how many configs the checkpoint lists
 */
export function writeCheckpoint(db: Kysely<ConfigDatabase>, notification: ReleaseNotificationReceived): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const configs = await listConfigRevisions(trx, notification.packageManager, notification.accountIds);
    await configOutbox.append(trx, [configOutbox.event(UpdateConfigCheckpointEvent, { notificationId: notification.id, configs })]);
    return configs.length;
  });
}
