import type { PullRequestJobStatus } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';

type Db = Kysely<ReleaseDatabase>;

/**
 * Records a delivery by its id, in the caller's transaction.
 * @returns false when it was recorded before (a redelivery: nothing more to do)
 */
export async function recordDeliveryOnce(
  trx: Db,
  delivery: { id: string; event: string; action: string | null; outcome: string },
): Promise<boolean> {
  const inserted = await trx
    .insertInto('webhook_delivery')
    .values(delivery)
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/**
 * Moves the job of pull request `number` of repo `repoId` to `status` (with `reason`), unless it already is in one of
 * `unless` (a merged job is not closed again; a superseded one stays superseded).
 * @returns how many jobs changed (0 or 1)
 */
export async function setPullRequestStatus(
  trx: Db,
  repoId: number,
  number: number,
  status: PullRequestJobStatus,
  reason: string | null,
  unless: readonly PullRequestJobStatus[],
): Promise<number> {
  let query = trx
    .updateTable('pull_request_job')
    .set({ status, status_reason: reason, status_changed_at: sql`now()`, maintain_at: status === 'open' ? sql`now()` : null })
    .where('repo_id', '=', repoId)
    .where('pull_request_number', '=', number)
    .where('status', '!=', status);
  if (unless.length > 0) query = query.where('status', 'not in', [...unless]);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
