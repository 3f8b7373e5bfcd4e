import type { DirectoryRole } from '@switchyard/contracts';
import { sql } from 'kysely';
import type { PeerDb } from '../db/schema.ts';
import type { PeerHealth } from '../directory/peer-state.policy.ts';
import type { ChildDirectoryTable, PeerRow } from './peer.table.ts';

/**
 * All SQL of `peer.peer` and `peer.child_directory`. Every function takes the database or a transaction (scoped with
 * `withSchema(PEER_SCHEMA)`); the ones that lock must run in a transaction.
 */

/** The peer stored under its default directory key, if any. */
export function findPeer(db: PeerDb, key: string): Promise<PeerRow | undefined> {
  return db.selectFrom('peer').selectAll().where('key', '=', key).executeTakeFirst();
}

/** Every peer, by key. */
export function listPeers(db: PeerDb): Promise<PeerRow[]> {
  return db.selectFrom('peer').selectAll().orderBy('key').execute();
}

/** The state of peer `key` with its row locked (`FOR UPDATE`) until the transaction ends; undefined when unknown. */
export async function lockPeerState(trx: PeerDb, key: string): Promise<PeerHealth | undefined> {
  return (await trx.selectFrom('peer').select('state').where('key', '=', key).forUpdate().executeTakeFirst())?.state;
}

/** A peer's columns as a save writes them. */
export interface PeerValues {
  key: string;
  url: string;
  origin: string;
  state: PeerHealth;
  missed: number;
  role: DirectoryRole;
}

/**
 * Inserts the peer (`last_heartbeat_at` null, `registered_at` = `registeredAt` or null), or updates the `url`, `origin`,
 * `state`, `missed` (and `registered_at`, when `registeredAt` is given) of the one under its key; `role` is written only
 * by the insert.
 * @returns the row as written
 */
export function upsertPeer(db: PeerDb, peer: PeerValues, registeredAt: Date | undefined): Promise<PeerRow> {
  const { key, url, origin, state, missed, role } = peer;
  return db
    .insertInto('peer')
    .values({ key, url, origin, state, missed, last_heartbeat_at: null, registered_at: registeredAt ?? null, role })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet(
          registeredAt === undefined ? { url, origin, state, missed } : { url, origin, state, missed, registered_at: registeredAt },
        ),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Inserts a peer not known yet. @returns the row. @throws the unique violation when `key` is taken */
export function insertPeer(db: PeerDb, row: PeerRow): Promise<PeerRow> {
  return db.insertInto('peer').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Deletes peer `key`; with `ifState`, only while it is recorded in that state. @returns the deleted row, if any */
export function deletePeer(db: PeerDb, key: string, ifState?: PeerHealth): Promise<PeerRow | undefined> {
  let query = db.deleteFrom('peer').where('key', '=', key);
  if (ifState !== undefined) query = query.where('state', '=', ifState);
  return query.returningAll().executeTakeFirst();
}

/** Takes the transaction-scoped advisory lock that serialises peer reservations (so a bound on peers holds). */
export async function lockPeerReservations(trx: PeerDb): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('peer.peer:reserve'))`.execute(trx);
}

/** Whether a peer is stored under `key`. */
export async function peerExists(db: PeerDb, key: string): Promise<boolean> {
  return (await db.selectFrom('peer').select('key').where('key', '=', key).executeTakeFirst()) !== undefined;
}

/** How many peers are stored. */
export async function countPeers(db: PeerDb): Promise<number> {
  const { count } = await db
    .selectFrom('peer')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** Sets `last_heartbeat_at` to `at` on the peer stored under `key` with `url`. @returns whether there is one */
export async function touchPeer(db: PeerDb, key: string, url: string, at: Date): Promise<boolean> {
  const updated = await db
    .updateTable('peer')
    .set({ last_heartbeat_at: at })
    .where('key', '=', key)
    .where('url', '=', url)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

/** Inserts a child directory, or updates `parent` and `url` of the one under its key. @returns the row */
export function upsertChildDirectory(db: PeerDb, child: ChildDirectoryTable): Promise<ChildDirectoryTable> {
  return db
    .insertInto('child_directory')
    .values(child)
    .onConflict((oc) => oc.column('key').doUpdateSet({ parent: child.parent, url: child.url }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes the child directory record under `key`, if any. */
export async function deleteChildDirectory(db: PeerDb, key: string): Promise<void> {
  await db.deleteFrom('child_directory').where('key', '=', key).execute();
}
