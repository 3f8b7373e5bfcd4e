import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type {} from './webhook-delivery.table.ts';

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
