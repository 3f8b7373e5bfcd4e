import type { ScanRequested } from '@switchyard/contracts';
import { executeFanOut, type PipelineDeps } from '../pipeline/run.service.ts';
import { completeIfScanned, findNotification } from './notification.repository.ts';

/**
 * Hands one batch of a notification's fan-out (`release_notification.scan_requested`) to the pipeline
 * (`executeFanOut`: scope the notified dependency, with the notified version as a hint), then marks the notification
 * `done` once every config of it has a result. A notification that is unknown or done already is left alone (a
 * redelivery).
 * @throws TransientScanError when configs were left undecided (the bus delivers the batch again); the database's errors
 */
export async function scanBatch(deps: PipelineDeps, request: ScanRequested, lastAttempt: boolean): Promise<void> {
  const notification = await findNotification(deps.db, request.notificationId);
  if (!notification || notification.status === 'done') return;
  const scope = {
    kind: 'one-dependency',
    notificationId: notification.id,
    name: notification.name,
    version: notification.version,
    packageManager: notification.package_manager,
  } as const;
  await executeFanOut(deps, scope, request.updateConfigIds, lastAttempt);
  await completeIfScanned(deps.db, notification.id);
}
