import { sql } from 'kysely';
import type { PeerDb } from '../db/schema.ts';
import type {} from './work-bundle.table.ts';

/**
 * All SQL of `peer.work_bundle`, the client places' queues without a broker. Every function takes the database or a
 * transaction (scoped with `withSchema(PEER_SCHEMA)`).
 */

/** First key of the transaction-level advisory lock that serialises enqueues on one queue (`peer` in ASCII). */
const LOCK_CLASS = 0x70656572;

/** A bundle as it sat on its queue. */
export interface StoredBundle {
  /** The bundle as JSON text. */
  body: string;
  enqueuedAt: Date;
}

/** Takes the transaction-level advisory lock of `queue` (its name hashed): one enqueue on a queue at a time. */
export async function lockQueue(trx: PeerDb, queue: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, hashtext(${queue}))`.execute(trx);
}

/** How many bundles `queue` holds. */
export async function countBundles(db: PeerDb, queue: string): Promise<number> {
  const held = await db
    .selectFrom('work_bundle')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('queue', '=', queue)
    .executeTakeFirstOrThrow();
  return Number(held.count);
}

/** Appends a bundle (JSON text) to `queue`, enqueued now. */
export async function insertBundle(db: PeerDb, queue: string, body: string): Promise<void> {
  await db.insertInto('work_bundle').values({ queue, body }).execute();
}

/**
 * Deletes up to `max` of the oldest bundles of `queue` in one statement (`FOR UPDATE SKIP LOCKED`: two takes at once
 * never return the same bundle).
 * @returns them, oldest first
 */
export async function deleteOldestBundles(db: PeerDb, queue: string, max: number): Promise<StoredBundle[]> {
  const rows = await db
    .deleteFrom('work_bundle')
    .where('id', 'in', (eb) =>
      eb.selectFrom('work_bundle').select('id').where('queue', '=', queue).orderBy('id').limit(max).forUpdate().skipLocked(),
    )
    .returning(['id', 'body', 'enqueued_at'])
    .execute();
  return rows
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .map((row) => ({ body: row.body, enqueuedAt: new Date(row.enqueued_at) }));
}
