import { AlreadyExists, Forbidden } from '@switchyard/service-kit';
import type { PeerDb } from '../db/schema.ts';
import { type DirectoryName, directoryKeyOf, type PeerUrl, parsePeerUrl } from '../directory/directory-name.policy.ts';
import { neutralise } from '../directory/neutralise.policy.ts';
import { proxiesOf } from '../directory/proxy-entries.policy.ts';
import { staleBefore } from '../directory/zone-transfer.policy.ts';
import { type PeerClient, PeerError } from '../security/peer.client.ts';
import * as childPlaces from './child-entry.repository.ts';
import type { DirectoryEntryService } from './directory-entry.service.ts';
import type { PeerService } from './peer.service.ts';
import type { PlaceAdvertiser } from './place-advertiser.service.ts';
import { PeerRefusedError } from './registrar.service.ts';
import { readTransfer, type TransferReadRules } from './zone-transfer.service.ts';

/**
 * Child directories, after upstream's relay (https://github.com/NationalSecurityAgency/emissary at `40260b1ec`,
 * `src/main/java/emissary/directory/DirectoryPlace.java`: `irdAddChildDirectory`, `loadChildEntries`, `addChildEntries`,
 * `removeChildEntries`, `irdFailRemoteDirectory`): a child is heartbeated as a peer is; its places come by a transfer
 * (`TransferDirectory.action`, which registers nothing at the child), are kept apart (`peer.child_entry`) and are
 * advertised in our directory as proxies of this node (`proxiesOf`), pushed to our peers (`PlaceAdvertiser`). A child
 * that fails or leaves takes its places and their proxies with it.
 */
export interface ChildDirectories {
  /**
   * AddChildDirectory from `child` (allow-listed by the caller): it is recorded as a child (`peer.peer` role `child`, and
   * `peer.child_directory`), then its places are transferred. A failed transfer leaves it as it was (`not-contacted` when new; the heartbeats
   * retry; upstream answers the child 200 all the same).
   * @returns whether the transfer succeeded
   * @throws AlreadyExists (409) when the directory is known here as a peer or as our parent; Forbidden (403) when it is
   *   new and `maxPeers` directories are recorded
   */
  accept(child: DirectoryName): Promise<boolean>;
  /**
   * Transfers the places of the child whose directory place is `url` (POST `TransferDirectory.action`, Digest): kept as the
   * zone transfer keeps a peer's (data ids, remote overhead), stale ones dropped after the slop window, proxies derived
   * again; the child is then recorded `up`.
   * @throws PeerError when the child cannot be reached, refuses, or answers an unusable directory
   */
  transferFrom(url: string): Promise<void>;
  /**
   * The child `key` failed or left: its places go, and the proxies no other child's place keeps (removals pushed to our
   * peers). Its peer row is the caller's business.
   * @returns how many proxy entries were removed from the directory
   */
  childGone(key: string): Promise<number>;
}

/** Dependencies of {@link createChildDirectories}. */
export interface ChildDirectoriesDeps {
  selfUrl: PeerUrl;
  selfKey: string;
  store: PeerService;
  entries: Pick<DirectoryEntryService, 'replaceProxies'>;
  /** The `peer` schema's handle: the children's places (`peer.child_entry`). */
  db: PeerDb;
  client: PeerClient;
  advertiser: PlaceAdvertiser;
  /** How a child's directory is read (`readTransfer`). */
  transferRules: TransferReadRules;
  /** Most directories recorded (`PEER_MAX`), children included; default 256. */
  maxPeers?: number;
  /** Slop window of the stale places, in milliseconds; default `ZONE_SLOP_WINDOW_MS`. */
  slopMs?: number;
  logger?: { warn(obj: object, msg: string): void };
}

/** The {@link ChildDirectories} of this directory. */
export function createChildDirectories(deps: ChildDirectoriesDeps): ChildDirectories {
  const { selfUrl, selfKey, store, entries, db, client, advertiser, transferRules } = deps;
  const maxPeers = deps.maxPeers ?? 256;
  // Proxies are derived from every child's places at once: one derivation at a time, so none writes an older picture
  // over a newer one.
  let syncing: Promise<unknown> = Promise.resolve();

  const syncProxies = async (): Promise<number> => {
    const run = syncing.then(async () => {
      const proxies = proxiesOf(await childPlaces.listChildPlaces(db), selfUrl.href);
      const changes = await entries.replaceProxies(selfUrl.href, proxies);
      const upserted = new Set(changes.flatMap((change) => change.upserted));
      const removed = changes.flatMap((change) => change.removed);
      advertiser.advertise({ upserted: proxies.filter((proxy) => upserted.has(proxy.entry.key)).map((proxy) => proxy.entry), removed });
      return removed.length;
    });
    syncing = run.catch(() => undefined);
    return run;
  };

  const transferFrom = async (text: string) => {
    const url = parsePeerUrl(text);
    const key = directoryKeyOf(url);
    const startedAt = new Date();
    const answer = await client.post(
      `${url.hostUrl}emissary/TransferDirectory.action`,
      { targetDir: url.href, directoryName: selfKey },
      { authenticate: true, maxResponseBytes: transferRules.maxBytes },
    );
    if (answer.status < 200 || answer.status >= 300) throw new PeerRefusedError(url.origin, answer.status);
    const read = readTransfer(key, answer.body, transferRules);
    // Upstream `removeChildEntries(childKey, startZone - zoneSlopWindowMillis, newEntries)`: what the transfer kept is
    // upserted, then the child's places last seen before the slop window and not among them go.
    await db.transaction().execute(async (trx) => {
      await childPlaces.upsertChildPlaces(trx, key, read.kept, startedAt);
      await childPlaces.deleteStaleChildPlaces(
        trx,
        key,
        staleBefore(startedAt, deps.slopMs),
        read.kept.map((entry) => entry.key),
      );
    });
    await syncProxies();
    await store.savePeer({ key, url: url.href, origin: url.origin, state: 'up', missed: 0, registered: true, role: 'child' });
  };

  return {
    accept: async (child) => {
      const peer = { key: child.peerKey, url: child.url.href, origin: child.url.origin, role: 'child' as const };
      const known = await store.getPeer(peer.key);
      if (known !== undefined && known.role !== 'child') {
        throw new AlreadyExists(`Could not call addChildDirectory:\nAlready a ${known.role} here ${neutralise(child.key)}`);
      }
      if (known === undefined && (await store.reservePeer(peer, maxPeers)) === 'full') {
        throw new Forbidden(`Could not call addChildDirectory:\nPeer limit of ${maxPeers} reached`);
      }
      await store.addChildDirectory({ key: peer.key, parent: selfUrl.href, url: peer.url });
      try {
        await transferFrom(peer.url);
        return true;
      } catch (error) {
        // Nothing written: a new child stays `not-contacted` as reserved, a known one keeps its state (its heartbeats
        // fail it, and its places with it, if it is gone).
        if (!(error instanceof PeerError)) throw error;
        deps.logger?.warn({ child: peer.url, err: error }, 'transfer from a child directory failed');
        return false;
      }
    },
    transferFrom,
    childGone: async (key) => {
      await childPlaces.deleteChildPlaces(db, key);
      return syncProxies();
    },
  };
}
