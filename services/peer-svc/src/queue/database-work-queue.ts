import { sql } from 'kysely';
import type { PeerDb } from '../db/schema.ts';
import { type QueuedBundle, queueFull, type WorkQueue } from './work-queue-port.ts';

/** First key of the transaction-level advisory lock that serialises enqueues on one queue (`peer` in ASCII). */
const LOCK_CLASS = 0x70656572;

/**
 * The work queue without a broker: each bundle a row of `peer.work_bundle` (queue, JSON text, enqueue time), committed
 * before the enqueue is answered, so nothing accepted is lost when the process stops; oldest first by `id`.
 *
 * - `publish` holds a transaction-level advisory lock on the queue's name while it counts and inserts, so a queue never
 *   holds more than `limit` bundles; at the limit it throws ServiceUnavailable (`WorkSpaceClientEnqueWorker failed,
 *   queue full`, 503), upstream's answer when its queue refused a bundle.
 * - `take` deletes up to `max` of the queue's oldest rows in one statement and returns them (`FOR UPDATE SKIP LOCKED`:
 *   two takes at once never return the same bundle).
 *
 * Works on PostgreSQL and on embedded PGlite alike.
 */
export function createDatabaseWorkQueue(db: PeerDb, limit: number): WorkQueue {
  return {
    kind: 'database',
    publish: async (queue, body) => {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, hashtext(${queue}))`.execute(trx);
        const held = await trx
          .selectFrom('work_bundle')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('queue', '=', queue)
          .executeTakeFirstOrThrow();
        if (Number(held.count) >= limit) throw queueFull();
        await trx
          .insertInto('work_bundle')
          .values({ queue, body: body.toString('utf8') })
          .execute();
      });
    },
    take: async (queue, max): Promise<QueuedBundle[]> => {
      const rows = await db
        .deleteFrom('work_bundle')
        .where('id', 'in', (eb) =>
          eb.selectFrom('work_bundle').select('id').where('queue', '=', queue).orderBy('id').limit(max).forUpdate().skipLocked(),
        )
        .returning(['id', 'body', 'enqueued_at'])
        .execute();
      return rows
        .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
        .map((row) => ({ body: Buffer.from(row.body, 'utf8'), enqueuedAt: new Date(row.enqueued_at) }));
    },
    close: async () => {},
  };
}
