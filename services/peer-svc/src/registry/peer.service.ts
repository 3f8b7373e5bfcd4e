import type { DirectoryRole } from '@switchyard/contracts';
import { directoryOutbox } from '../db/outbox.ts';
import type { PeerDb } from '../db/schema.ts';
import type { PeerHealth } from '../directory/peer-state.policy.ts';
import { childDirectoryAdded, peerChanged, peerRemoved } from './directory-event.mapper.ts';
import * as peers from './peer.repository.ts';
import type { PeerRow } from './peer.table.ts';

/**
 * The directories this one knows (peers, children, its parent), with their directory events: `directory.peer_changed`
 * (the peer's full state, when its health changes or it registers), `directory.peer_removed` and
 * `directory.child_directory_added`, each written to the outbox in the transaction of its change.
 */
export interface PeerService {
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
}

/** The {@link PeerService} over `db` (already scoped with `withSchema(PEER_SCHEMA)`). */
export function createPeerService(db: PeerDb): PeerService {
  return {
    getPeer: (key) => peers.findPeer(db, key),
    listPeers: () => peers.listPeers(db),
    savePeer: async ({ key, url, origin, state, missed, registered, role, ifState }) => {
      const now = new Date();
      return db.transaction().execute(async (trx) => {
        const before = await peers.lockPeerState(trx, key);
        if (ifState !== undefined && before !== ifState) return false;
        const row = await peers.upsertPeer(trx, { key, url, origin, state, missed, role: role ?? 'peer' }, registered ? now : undefined);
        if (registered || before !== state) await directoryOutbox.append(trx, [peerChanged(row)]);
        return true;
      });
    },
    deletePeer: (key, { ifState } = {}) =>
      db.transaction().execute(async (trx) => {
        const removed = await peers.deletePeer(trx, key, ifState);
        if (!removed) return false;
        await peers.deleteChildDirectory(trx, key);
        await directoryOutbox.append(trx, [peerRemoved(removed)]);
        return true;
      }),
    reservePeer: ({ key, url, origin, role }, max) =>
      db.transaction().execute(async (trx) => {
        await peers.lockPeerReservations(trx);
        if (await peers.peerExists(trx, key)) return 'known';
        if ((await peers.countPeers(trx)) >= max) return 'full';
        const row = await peers.insertPeer(trx, {
          key,
          url,
          origin,
          state: 'not-contacted',
          missed: 0,
          last_heartbeat_at: null,
          registered_at: null,
          role: role ?? 'peer',
        });
        await directoryOutbox.append(trx, [peerChanged(row)]);
        return 'added';
      }),
    recordHeartbeat: ({ key, url }) => peers.touchPeer(db, key, url, new Date()),
    addChildDirectory: async ({ key, parent, url }) => {
      await db.transaction().execute(async (trx) => {
        const row = await peers.upsertChildDirectory(trx, { key, parent, url, added_at: new Date() });
        await directoryOutbox.append(trx, [childDirectoryAdded(row)]);
      });
    },
  };
}
