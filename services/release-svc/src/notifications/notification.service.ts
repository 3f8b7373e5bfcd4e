import { randomUUID } from 'node:crypto';
import type { Caller, CodeHostView } from '@switchyard/code-host';
import { type ReleaseNotificationBody, ReleaseNotificationReceivedEvent, type ScanOutcome } from '@switchyard/contracts';
import { NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { visibleRepoIds } from '../access/visible-repos.service.ts';
import { releaseOutbox } from '../db/outbox.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import { listNotificationPullRequests, type NotificationPullRequest } from '../jobs/job.repository.ts';
import { countOutcomes, listProblems, type ScanProblem } from '../pipeline/record/scan-result.repository.ts';
import { judgeNotification } from './notification.policy.ts';
import { findStoredNotification, insertNotification, insertRejectedNotification } from './notification.repository.ts';
import type { StoredNotificationRow } from './notification.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** A notification and what its scan did, as one caller may see it. */
export interface NotificationView {
  notification: StoredNotificationRow;
  /**
   * How many configs the scan covered on repos the caller can see: once the notification is `done`, the number of
   * its results on those repos; before, null (counting the planned configs would count repos the caller cannot see).
   */
  configsTotal: number | null;
  /** Results by outcome over the repos the caller can see (outcomes without results left out). */
  counts: Partial<Record<ScanOutcome, number>>;
  /** Up to 100 skipped and failed results over those repos, by config id, with their reasons. */
  problems: ScanProblem[];
  /** Up to 100 jobs it caused on those repos, oldest first, with their pull requests. */
  pullRequests: NotificationPullRequest[];
}

/**
 * Receives a private release notification, for the organisations the caller's token reaches (the original scanned
 * "all repos of every organization that the token has access to", https://github.com/dependabot/api-docs).
 * {@link judgeNotification} decides: an accepted one (its package manager made canonical, e.g. `npm` →
 * `npm_and_yarn`) is stored `queued` with its `release_notification.received` event in one transaction (the
 * transactional outbox), and scanned later in the worker; a rejected one (unknown package manager, a name its
 * ecosystem cannot have, ...) is stored `rejected` with the reason, and no event: it is never scanned. Either is a
 * notification received, as the original answered 204 to both (https://github.com/dependabot/api-docs/issues/18).
 * @returns the stored notification (status `queued` or `rejected`)
 */
export async function receiveNotification(db: Db, caller: Caller, body: ReleaseNotificationBody): Promise<StoredNotificationRow> {
  const accountIds = caller.accounts.filter((account) => account.type === 'org').map((account) => account.id);
  const id = randomUUID();
  const judged = judgeNotification(body);
  const sender = { accountIds, notifierId: caller.user.id };
  if (judged.status === 'rejected') return insertRejectedNotification(db, id, judged, sender);
  return db.transaction().execute(async (trx) => {
    const row = await insertNotification(trx, id, judged, sender);
    await releaseOutbox.append(trx, [
      releaseOutbox.event(ReleaseNotificationReceivedEvent, {
        id,
        name: judged.name,
        version: judged.version,
        packageManager: judged.packageManager,
        accountIds,
      }),
    ]);
    return row;
  });
}

/** The organisations and user of `caller` that `row` concerns: what the caller may see of it. */
function visibleAccounts(caller: Caller, row: StoredNotificationRow): number[] {
  const reached = new Set(caller.accounts.map((account) => account.id));
  return row.account_ids.filter((id) => reached.has(id));
}

/**
 * The notification `id` and what its scan did, counted over the repos the caller's token can see now
 * ({@link visibleRepoIds}): a scan covers every repo of the organisations the sender's token reaches, and what it
 * found on repos another caller cannot see (their names, directories, versions, even how many there are) is not
 * theirs to know. Visible to its sender and to callers who reach one of its organisations; to anyone else it is
 * reported missing.
 * @throws NotFound `No release notification <id>` when it does not exist or the caller may not see it
 * @throws RateLimited or another caller-facing code-host error when the caller's repos cannot be listed
 */
export async function viewNotification(db: Db, view: CodeHostView, caller: Caller, id: string): Promise<NotificationView> {
  const notification = await findStoredNotification(db, id);
  const accounts = notification ? visibleAccounts(caller, notification) : [];
  if (!notification || (accounts.length === 0 && notification.notifier_id !== caller.user.id)) {
    throw new NotFound(`No release notification ${id}`);
  }
  const repoIds = accounts.length === 0 ? [] : await visibleRepoIds(view, caller);
  const [counts, problems, pullRequests] = await Promise.all([
    countOutcomes(db, id, repoIds),
    listProblems(db, id, repoIds),
    listNotificationPullRequests(db, id, repoIds),
  ]);
  const configsTotal = notification.status === 'done' ? Object.values(counts).reduce((sum, n) => sum + n, 0) : null;
  return { notification, configsTotal, counts, problems, pullRequests };
}
