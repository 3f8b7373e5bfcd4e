import { runPool } from '@switchyard/service-kit';
import { type DirectoryName, parsePeerUrl } from '../directory/directory-name.policy.ts';
import type { PeerClient } from '../security/peer.client.ts';
import type { DirectoryLinks } from './directory-links.service.ts';
import type { PeerService } from './peer.service.ts';

/**
 * Leaving the group of peers, after upstream's orderly shutdown (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/DirectoryPlace.java`, `shutDown`, and
 * `src/main/java/emissary/server/mvc/internal/FailDirectoryAction.java`): the leaving directory POSTs
 * `FailDirectory.action` (`targetDir` the peer's URL, `dirFailName` its own key, `dirAddPropFlag=true`, Digest) to each
 * peer; a peer receiving it fails the sender at once, as if it had missed `failedAfter` heartbeats.
 */
export interface Departure {
  /**
   * Tells every directory recorded `up` or `unhealthy` (peers, children, our parent) that we leave, at most `concurrency` at once; never throws (a peer
   * that does not answer is logged and will find us failed by its heartbeats).
   * @returns how many peers answered 2xx, and how many were told
   */
  announceLeave(): Promise<{ told: number; acknowledged: number }>;
  /**
   * True once {@link announceLeave} began: inbound heartbeats and registrations are then refused, so that no peer
   * finds us alive again (and re-registers) between our leave and the close of HTTP (upstream's `shutdownInitiated`).
   */
  isLeaving(): boolean;
  /**
   * The directory `name` told us it leaves: its directory entries are removed (`DirectoryLinks.forget`: a peer's
   * entries, a child's places and proxies) and it is marked `failed` (`missed` = `failedAfter`), or forgotten when it is
   * not configured, as a heartbeat round does with a failed peer. An unknown directory changes nothing.
   * @returns the number of entries removed
   */
  peerLeft(name: DirectoryName): Promise<number>;
}

/** Dependencies of {@link createDeparture}. */
export interface DepartureDeps {
  selfKey: string;
  store: PeerService;
  links: Pick<DirectoryLinks, 'forget'>;
  client: PeerClient;
  /** Whether a peer is kept when it fails (the `PEER_RENDEZVOUS` peers). */
  isConfigured: (url: string) => boolean;
  /** `HEARTBEAT_FAILED_AFTER`: the `missed` count a peer that left is given. */
  failedAfter: number;
  /** Announcements in flight at once; default 8. */
  concurrency?: number;
  onChange?: (change: { key: string; url: string; from: string; to: 'failed'; dropped: boolean; reason: 'left' }) => void;
  logger?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** The {@link Departure} of this directory. */
export function createDeparture(deps: DepartureDeps): Departure {
  const { selfKey, store, links, client, isConfigured, failedAfter, onChange, logger } = deps;
  const concurrency = deps.concurrency ?? 8;
  let leaving = false;
  return {
    isLeaving: () => leaving,
    announceLeave: async () => {
      leaving = true;
      const peers = (await store.listPeers()).filter((peer) => peer.state === 'up' || peer.state === 'unhealthy');
      let acknowledged = 0;
      // Each announcement catches its own failure: the pool tells every peer.
      await runPool(peers, concurrency, async (peer) => {
        try {
          const url = parsePeerUrl(peer.url);
          const answer = await client.post(
            `${url.hostUrl}emissary/FailDirectory.action`,
            { targetDir: url.href, dirFailName: selfKey, dirAddPropFlag: 'true' },
            { authenticate: true },
          );
          if (answer.status >= 200 && answer.status < 300) acknowledged++;
          else logger?.warn({ peer: peer.url, status: answer.status }, 'a peer refused our leave');
        } catch (error) {
          logger?.warn({ peer: peer.url, err: error }, 'could not tell a peer we leave');
        }
      });
      logger?.info({ told: peers.length, acknowledged }, 'told peers we leave');
      return { told: peers.length, acknowledged };
    },
    peerLeft: async (name) => {
      const peer = await store.getPeer(name.peerKey);
      if (peer === undefined) return 0;
      const removed = await links.forget(peer);
      const dropped = !isConfigured(peer.url);
      if (dropped) await store.deletePeer(peer.key);
      else
        await store.savePeer({
          key: peer.key,
          url: peer.url,
          origin: peer.origin,
          state: 'failed',
          missed: Math.max(peer.missed, failedAfter),
        });
      if (peer.state !== 'failed' || dropped)
        onChange?.({ key: peer.key, url: peer.url, from: peer.state, to: 'failed', dropped, reason: 'left' });
      return removed;
    },
  };
}
