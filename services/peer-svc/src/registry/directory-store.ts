import { sql } from 'kysely';
import type { DirectoryRole, PeerDb, PeerTable } from '../db/schema.ts';
import type { PeerHealth } from '../directory/peer-state.ts';
import { childDirectoryAdded, directoryOutbox, peerChanged, peerRemoved } from './directory-events.ts';

/** A peer as stored. */
export type PeerRow = PeerTable;

/**
 * Reads and writes peers, child directories and client places in the `peer` schema. Directory changes are
 * published through the outbox (`directoryOutbox`): `directory.peer_changed` (the peer's full state, when its health
 * changes or it registers), `directory.peer_removed` and `directory.child_directory_added`, each in the transaction
 * of its change.
 */
export interface DirectoryStore {
  /** The peer stored under its default directory key, if any. */
  getPeer(key: string): Promise<PeerRow | undefined>;
  /** Every known peer, by key. */
  listPeers(): Promise<PeerRow[]>;
  /**
   * Creates or updates a peer's state (`registered` also sets `registered_at` to now; `role`, default `peer`, is written
   * only when the row is created). With `ifState`, only a peer still recorded in that state is updated (and none is
   * created): a heartbeat round that read the peer `up` does not overwrite a `failed` written meanwhile by its
   * FailDirectory.
   * @returns whether the row was written
   */
  savePeer(peer: {
    key: string;
    url: string;
    origin: string;
    state: PeerHealth;
    missed: number;
    registered?: boolean;
    role?: DirectoryRole;
    ifState?: PeerHealth;
  }): Promise<boolean>;
  /**
   * Forgets a peer (and, for a child, its `child_directory` record). With `ifState`, only a peer still recorded in
   * that state (as `savePeer`'s `ifState`).
   * @returns whether a peer was deleted
   */
  deletePeer(key: string, options?: { ifState?: PeerHealth }): Promise<boolean>;
  /**
   * Adds `peer` as `not-contacted` unless it is already known, provided fewer than `max` peers are recorded (checked and
   * inserted under a transaction-scoped advisory lock, so concurrent registrations cannot pass the bound together).
   * @returns `known` (left as it was), `added`, or `full` (nothing written)
   */
  reservePeer(peer: { key: string; url: string; origin: string; role?: DirectoryRole }, max: number): Promise<'known' | 'added' | 'full'>;
  /**
   * Records a heartbeat received from a peer already known under `key` with the same URL (sets `last_heartbeat_at`).
   * Never creates a peer: an unknown sender changes nothing.
   * @returns whether the peer is known
   */
  recordHeartbeat(peer: { key: string; url: string }): Promise<boolean>;
  /** Records a child directory (`key` its default directory key) under `parent` (our directory place URL). */
  addChildDirectory(child: { key: string; parent: string; url: string }): Promise<void>;
  /** The queue of the client place named `name`, if any. */
  clientPlaceQueue(name: string): Promise<string | undefined>;
  /** Creates or updates a client place. */
  saveClientPlace(name: string, queue: string): Promise<void>;
}

/** The {@link DirectoryStore} over `db` (already scoped with `withSchema(PEER_SCHEMA)`). */
export function createDirectoryStore(db: PeerDb): DirectoryStore {
  return {
    getPeer: (key) => db.selectFrom('peer').selectAll().where('key', '=', key).executeTakeFirst(),
    listPeers: () => db.selectFrom('peer').selectAll().orderBy('key').execute(),
    savePeer: async ({ key, url, origin, state, missed, registered, role, ifState }) => {
      const now = new Date();
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('peer').select('state').where('key', '=', key).forUpdate().executeTakeFirst();
        if (ifState !== undefined && before?.state !== ifState) return false;
        const row = await trx
          .insertInto('peer')
          .values({
            key,
            url,
            origin,
            state,
            missed,
            last_heartbeat_at: null,
            registered_at: registered ? now : null,
            role: role ?? 'peer',
          })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet(registered ? { url, origin, state, missed, registered_at: now } : { url, origin, state, missed }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        if (registered || before?.state !== state) await directoryOutbox.append(trx, [peerChanged(row)]);
        return true;
      });
    },
    deletePeer: (key, { ifState } = {}) =>
      db.transaction().execute(async (trx) => {
        let query = trx.deleteFrom('peer').where('key', '=', key);
        if (ifState !== undefined) query = query.where('state', '=', ifState);
        const removed = await query.returningAll().executeTakeFirst();
        if (!removed) return false;
        await trx.deleteFrom('child_directory').where('key', '=', key).execute();
        await directoryOutbox.append(trx, [peerRemoved(removed)]);
        return true;
      }),
    reservePeer: ({ key, url, origin, role }, max) =>
      db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtext('peer.peer:reserve'))`.execute(trx);
        if (await trx.selectFrom('peer').select('key').where('key', '=', key).executeTakeFirst()) return 'known';
        const { count } = await trx
          .selectFrom('peer')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .executeTakeFirstOrThrow();
        if (Number(count) >= max) return 'full';
        const row = await trx
          .insertInto('peer')
          .values({
            key,
            url,
            origin,
            state: 'not-contacted',
            missed: 0,
            last_heartbeat_at: null,
            registered_at: null,
            role: role ?? 'peer',
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await directoryOutbox.append(trx, [peerChanged(row)]);
        return 'added';
      }),
    recordHeartbeat: async ({ key, url }) => {
      const updated = await db
        .updateTable('peer')
        .set({ last_heartbeat_at: new Date() })
        .where('key', '=', key)
        .where('url', '=', url)
        .executeTakeFirst();
      return updated.numUpdatedRows > 0n;
    },
    addChildDirectory: async ({ key, parent, url }) => {
      await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('child_directory')
          .values({ key, parent, url, added_at: new Date() })
          .onConflict((oc) => oc.column('key').doUpdateSet({ parent, url }))
          .returningAll()
          .executeTakeFirstOrThrow();
        await directoryOutbox.append(trx, [childDirectoryAdded(row)]);
      });
    },
    clientPlaceQueue: async (name) =>
      (await db.selectFrom('client_place').select('queue').where('name', '=', name).executeTakeFirst())?.queue,
    saveClientPlace: async (name, queue) => {
      await db
        .insertInto('client_place')
        .values({ name, queue })
        .onConflict((oc) => oc.column('name').doUpdateSet({ queue }))
        .execute();
    },
  };
}
