import { randomUUID } from 'node:crypto';
import type { Caller } from '@switchyard/code-host';
import type { ReleaseNotificationBody, ReleaseNotificationReceived, ReleaseNotificationResource } from '@switchyard/contracts';
import { HttpProblem } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { NotificationRow, ReleaseDatabase } from '../db/schema.ts';
import { appendEvents, releaseEvent } from '../events.ts';
import { countOutcomes, findNotification, insertNotification, listProblems } from './notification.repository.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * `POST /release_notifications/private`: stores the notification and its `release_notification.received`
 * event in one transaction (the transactional outbox), for the organisations the caller's token reaches
 * (seeds/000: "all repos of every organization that the token has access to"). The scan runs later, in
 * the worker.
 */
export async function receiveNotification(db: Db, caller: Caller, body: ReleaseNotificationBody): Promise<NotificationRow> {
  const accountIds = caller.accounts.filter((account) => account.type === 'org').map((account) => account.id);
  const id = randomUUID();
  return db.transaction().execute(async (trx) => {
    const row = await insertNotification(trx, id, body, accountIds, caller.user.id);
    const data: ReleaseNotificationReceived = {
      id,
      name: body.name,
      version: body.version,
      packageManager: body['package-manager'],
      accountIds,
    };
    await appendEvents(trx, [releaseEvent('release_notification.received', data)]);
    return row;
  });
}

/** The organisations and user of `caller` that `row` concerns: what the caller may see of it. */
function visibleAccounts(caller: Caller, row: NotificationRow): number[] {
  const reached = new Set(caller.accounts.map((account) => account.id));
  return row.account_ids.filter((id) => reached.has(id));
}

/**
 * `GET /release_notifications/:id`: the notification and what its scan did, counted over the
 * organisations the caller reaches. Visible to its sender and to callers who reach one of its
 * organisations; to anyone else it is reported missing.
 * @throws HttpProblem 404
 */
export async function viewNotification(db: Db, caller: Caller, id: string): Promise<ReleaseNotificationResource> {
  const row = await findNotification(db, id);
  const accounts = row ? visibleAccounts(caller, row) : [];
  if (!row || (accounts.length === 0 && row.notifier_id !== caller.user.id)) throw new HttpProblem(404, `No release notification ${id}`);
  return notificationResource(row, await countOutcomes(db, id, accounts), await listProblems(db, id, accounts));
}

/** The resource of a notification, from its row, its outcome counts and its skipped and failed results. */
export function notificationResource(
  row: NotificationRow,
  counts: Record<string, number>,
  problems: ReadonlyArray<{ repo_id: number; update_config_id: number; outcome: string; reason: string }>,
): ReleaseNotificationResource {
  const count = (outcome: string) => counts[outcome] ?? 0;
  return {
    id: row.id,
    type: 'release-notifications',
    attributes: {
      name: row.name,
      version: row.version,
      'package-manager': row.package_manager as ReleaseNotificationResource['attributes']['package-manager'],
      status: row.status,
      'configs-total': row.configs_total,
      'repos-scanned': Object.values(counts).reduce((sum, n) => sum + n, 0),
      'jobs-recorded': count('job-recorded'),
      'repos-skipped': count('skipped'),
      'repos-failed': count('failed'),
      'created-at': row.created_at.toISOString(),
      'finished-at': row.finished_at ? row.finished_at.toISOString() : null,
      outcomes: problems.map((p) => ({
        'repo-id': String(p.repo_id),
        'update-config-id': String(p.update_config_id),
        outcome: p.outcome as 'skipped' | 'failed',
        reason: p.reason,
      })),
    },
  };
}
