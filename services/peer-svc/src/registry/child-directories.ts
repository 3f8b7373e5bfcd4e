import { AlreadyExists, Forbidden } from '@switchyard/service-kit';
import { type DirectoryName, directoryKeyOf, type PeerUrl, parsePeerUrl } from '../directory/directory-name.ts';
import { neutralise } from '../directory/neutralise.ts';
import { proxiesOf } from '../directory/proxy-entries.ts';
import { staleBefore } from '../directory/zone-transfer-rules.ts';
import type { PeerClient } from '../security/peer-client.ts';
import { PeerError } from '../security/peer-errors.ts';
import type { ChildEntryStore } from './child-entry-store.ts';
import type { DirectoryStore } from './directory-store.ts';
import type { EntryStore } from './entry-store.ts';
import type { PlaceAdvertiser } from './place-advertiser.ts';
import { PeerRefusedError } from './registrar.ts';
import { readTransfer, type TransferReadRules } from './zone-transfer.ts';

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
  store: DirectoryStore;
  entries: Pick<EntryStore, 'replaceProxies'>;
  childEntries: ChildEntryStore;
  client: PeerClient;
  advertiser: PlaceAdvertiser;
  /** How a child's directory is read (`readTransfer`). */
  transferRules: TransferReadRules;
  /** Most directories recorded (`PEER_MAX`), children included; default 256. */
  maxPeers?: number;
  slopMs?: number;
  logger?: { warn(obj: object, msg: string): void };
}

/** The {@link ChildDirectories} of this directory. */
export function createChildDirectories(deps: ChildDirectoriesDeps): ChildDirectories {
  const { selfUrl, selfKey, store, entries, childEntries, client, advertiser, transferRules } = deps;
  const maxPeers = deps.maxPeers ?? 256;
  // Proxies are derived from every child's places at once: one derivation at a time, so none writes an older picture
  // over a newer one.
  let syncing: Promise<unknown> = Promise.resolve();

  const syncProxies = async (): Promise<number> => {
    const run = syncing.then(async () => {
      const proxies = proxiesOf(await childEntries.listAll(), selfUrl.href);
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
    await childEntries.applyTransfer(key, read.kept, startedAt, staleBefore(startedAt, deps.slopMs));
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
      await childEntries.removeChild(key);
      return syncProxies();
    },
  };
}
