import type { PeerDb } from '../db/schema.ts';
import type {} from './client-place.table.ts';

/** All SQL of `peer.client_place`. Every function takes the database or a transaction (scoped with `withSchema(PEER_SCHEMA)`). */

/** The queue of the client place named `name` exactly, if any. */
export async function findClientPlaceQueue(db: PeerDb, name: string): Promise<string | undefined> {
  return (await db.selectFrom('client_place').select('queue').where('name', '=', name).executeTakeFirst())?.queue;
}

/** Creates the client place `name`, or points it at `queue`. */
export async function saveClientPlace(db: PeerDb, name: string, queue: string): Promise<void> {
  await db
    .insertInto('client_place')
    .values({ name, queue })
    .onConflict((oc) => oc.column('name').doUpdateSet({ queue }))
    .execute();
}
