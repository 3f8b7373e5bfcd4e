import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { PullRequestCommandRow } from './command.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Records a command from a comment, once per delivery. @returns whether it was new */
export async function recordCommand(
  trx: Db,
  command: Pick<
    PullRequestCommandRow,
    'delivery_id' | 'job_id' | 'repo_id' | 'pull_request_number' | 'comment_id' | 'author' | 'author_is_app' | 'command'
  >,
): Promise<boolean> {
  const inserted = await trx
    .insertInto('pull_request_command')
    .values({ ...command, outcome: null, answer: null, handled_at: null })
    .onConflict((oc) => oc.column('delivery_id').doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Up to `limit` commands waiting and due, oldest first, each pushed `leaseMs` into the future as it is taken (`FOR
 * UPDATE SKIP LOCKED`: another worker takes others), so that one whose worker died is taken again after the lease.
 */
export async function claimCommands(db: Db, limit: number, leaseMs: number): Promise<PullRequestCommandRow[]> {
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('pull_request_command')
      .selectAll()
      .where('outcome', 'is', null)
      .where('due_at', '<=', sql<Date>`now()`)
      .orderBy('received_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await trx
      .updateTable('pull_request_command')
      .set({ due_at: new Date(Date.now() + leaseMs), attempts: sql`attempts + 1` })
      .where(sql<boolean>`delivery_id = any(${sql.val(due.map((c) => c.delivery_id))}::text[])`)
      .execute();
    return due;
  });
}

/** Records how a command ended, with the answer the bot commented. */
export async function finishCommand(db: Db, deliveryId: string, outcome: 'done' | 'refused', answer: string | null): Promise<void> {
  await db
    .updateTable('pull_request_command')
    .set({ outcome, answer, handled_at: new Date() })
    .where('delivery_id', '=', deliveryId)
    .execute();
}

/** Records the job a command was given to, found once its pull request's number was recorded. */
export async function setCommandJob(db: Db, deliveryId: string, jobId: number): Promise<void> {
  await db.updateTable('pull_request_command').set({ job_id: jobId }).where('delivery_id', '=', deliveryId).execute();
}

/**
 * Puts back a command whose job has not recorded its pull request's number yet, due after `delayMs`, its attempts not
 * counted (waiting for the job is no failure).
 */
export async function waitForCommandJob(db: Db, deliveryId: string, delayMs: number): Promise<void> {
  await db
    .updateTable('pull_request_command')
    .set({ due_at: new Date(Date.now() + delayMs), attempts: 0 })
    .where('delivery_id', '=', deliveryId)
    .execute();
}

/** Pushes the lease of commands a worker still holds (taken in one round, not handled yet) `leaseMs` from now. */
export async function renewCommandLeases(db: Db, deliveryIds: readonly string[], leaseMs: number): Promise<void> {
  if (deliveryIds.length === 0) return;
  await db
    .updateTable('pull_request_command')
    .set({ due_at: new Date(Date.now() + leaseMs) })
    .where(sql<boolean>`delivery_id = any(${sql.val([...deliveryIds])}::text[])`)
    .where('outcome', 'is', null)
    .execute();
}

/** Puts a command whose handling failed (the code host was away) back, due after `delayMs`. */
export async function retryCommandLater(db: Db, deliveryId: string, delayMs: number): Promise<void> {
  await db
    .updateTable('pull_request_command')
    .set({ due_at: new Date(Date.now() + delayMs) })
    .where('delivery_id', '=', deliveryId)
    .execute();
}
