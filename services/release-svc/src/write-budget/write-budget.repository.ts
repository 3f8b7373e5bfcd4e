import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { type BucketState, bookWrites, type WriteLimit } from './write-budget.policy.ts';
import type {} from './write-budget.table.ts';

/**
 * Books `cost` content-creating requests of `key` at `now` (epoch ms) in the shared buckets of `limits` (see
 * `bookWrites`), in one transaction that locks the key's rows, so that workers book one after another.
 * @returns how long the caller waits before sending them, ms (0: now)
 */
export async function bookSharedWrites(
  db: Kysely<ReleaseDatabase>,
  key: string,
  limits: readonly WriteLimit[],
  cost: number,
  now: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('write_budget')
      .values(limits.map((limit) => ({ key, window_ms: limit.windowMs, tokens: 0, at_ms: -1 })))
      .onConflict((oc) => oc.columns(['key', 'window_ms']).doNothing())
      .execute();
    const rows = await trx.selectFrom('write_budget').selectAll().where('key', '=', key).forUpdate().execute();
    const booked = bookWrites(limits, statesOf(limits, rows), cost, now);
    for (const [i, limit] of limits.entries()) {
      const state = booked.states[i];
      if (!state) continue;
      await trx
        .updateTable('write_budget')
        .set({ tokens: state.tokens, at_ms: state.at })
        .where('key', '=', key)
        .where('window_ms', '=', limit.windowMs)
        .execute();
    }
    return booked.waitMs;
  });
}

/**
 * How long `cost` content-creating requests of `key` would wait if booked at `now` (epoch ms), ms (0: none), from the
 * shared buckets as they stand; nothing is booked or locked.
 */
export async function expectedSharedWait(
  db: Kysely<ReleaseDatabase>,
  key: string,
  limits: readonly WriteLimit[],
  cost: number,
  now: number,
): Promise<number> {
  const rows = await db.selectFrom('write_budget').selectAll().where('key', '=', key).execute();
  return bookWrites(limits, statesOf(limits, rows), cost, now).waitMs;
}

/** The bucket states of `limits` in the key's rows (undefined: a bucket never used, full). */
function statesOf(
  limits: readonly WriteLimit[],
  rows: ReadonlyArray<{ window_ms: number; tokens: number; at_ms: number }>,
): (BucketState | undefined)[] {
  const byWindow = new Map(rows.map((row) => [Number(row.window_ms), row]));
  return limits.map((limit) => {
    const row = byWindow.get(limit.windowMs);
    // A row just made (at -1) is a bucket never used: full.
    return row === undefined || Number(row.at_ms) < 0 ? undefined : { tokens: Number(row.tokens), at: Number(row.at_ms) };
  });
}
