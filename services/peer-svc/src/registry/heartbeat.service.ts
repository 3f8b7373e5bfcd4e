import { runPool } from '@switchyard/service-kit';
import { parsePeerUrl } from '../directory/directory-name.policy.ts';
import {
  type HeartbeatEvent,
  nextPeerState,
  type PeerHealth,
  type PeerThresholds,
  peerThresholds,
} from '../directory/peer-state.policy.ts';
import type { PeerClient } from '../security/peer.client.ts';
import type { DirectoryLinks } from './directory-links.service.ts';
import type { PeerService } from './peer.service.ts';
import type { PeerRow } from './peer.table.ts';

/** A peer's health changed (what a directory event would carry). */
export interface PeerHealthChange {
  key: string;
  url: string;
  from: PeerHealth;
  to: PeerHealth;
  /** The peer was forgotten: failed and not configured, or expired (see {@link createHeartbeatService}). */
  dropped: boolean;
}

/** Dependencies of {@link createHeartbeatService}. */
export interface HeartbeatServiceDeps {
  store: PeerService;
  /** What is done when a directory comes back (re-registration, child transfer) or fails (its entries removed). */
  links: DirectoryLinks;
  client: PeerClient;
  /** This directory's key (`hbf`). */
  selfKey: string;
  thresholds: PeerThresholds;
  /** Whether a failed peer is kept (configured peers are); others are dropped when they fail. */
  isConfigured: (url: string) => boolean;
  /** Heartbeats in flight at once (`HEARTBEAT_CONCURRENCY`); default 8. */
  concurrency?: number;
  /** Misses in a row after which a peer neither configured nor registered is deleted (`PEER_EXPIRE_AFTER`); default 3. */
  expireAfter?: number;
  /** Told about every health change (log it, publish it). */
  onChange?: (change: PeerHealthChange) => void;
  logger?: { warn(obj: object, msg: string): void };
}

/** Sends heartbeats to every known peer; see {@link createHeartbeatService} (`heartbeat.loop.ts` runs the rounds). */
export interface HeartbeatService {
  /**
   * One round: a heartbeat to each known peer, at most `concurrency` at once; resolves when every peer's state is
   * saved. Never throws for a peer's failure (it is logged); throws when the peers cannot be listed.
   */
  beatOnce(): Promise<void>;
}

/**
 * The heartbeat rounds (upstream's `HeartbeatManager`, https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/HeartbeatManager.java`): each round POSTs `hbf=<our key>`, `hbt=<peer url>` to each
 * peer's `Heartbeat.action`, with Digest credentials only when the peer challenges (the original engine's server guards
 * every path); a 2xx is `heartbeat-ok`, anything else (refusal, timeout, not allow-listed) `heartbeat-missed`, fed to
 * {@link nextPeerState}. A peer that becomes failed loses its directory entries (`DirectoryLinks.forget`: a peer's
 * entries, a child's places and proxies) before its state is saved. A peer that answers after being
 * not-contacted/unhealthy/failed is contacted again (`DirectoryLinks.reconnect`: a peer re-registered with, a child's
 * places transferred, our parent told again) before it counts as up; if that fails the round counts as missed. A state
 * is saved only over the one the round read (`savePeer` with `ifState`), so a FailDirectory received meanwhile is not
 * overwritten; a successful re-registration is saved in any case. A peer that becomes failed is dropped unless
 * `isConfigured(url)`.
 * Expiry: a peer that is not configured and was never registered (`registered_at` unset: a registration from or with it
 * failed) is deleted once it has missed `expireAfter` heartbeats in a row (no successful contact meanwhile).
 * At most `concurrency` heartbeats (with their re-registrations) run at once.
 * @throws RangeError for bad thresholds, a concurrency or expireAfter that is not a positive integer
 */
export function createHeartbeatService(deps: HeartbeatServiceDeps): HeartbeatService {
  const { store, client, links, selfKey, isConfigured, onChange, logger } = deps;
  const thresholds = peerThresholds(deps.thresholds);
  const concurrency = deps.concurrency ?? 8;
  const expireAfter = deps.expireAfter ?? 3;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('concurrency must be a positive integer');
  if (!Number.isInteger(expireAfter) || expireAfter < 1) throw new RangeError('expireAfter must be a positive integer');

  const beat = async (peer: PeerRow): Promise<void> => {
    let event: HeartbeatEvent = 'heartbeat-missed';
    try {
      const url = parsePeerUrl(peer.url);
      const answer = await client.post(`${url.hostUrl}emissary/Heartbeat.action`, { hbf: selfKey, hbt: url.href }, { authenticate: true });
      if (answer.status >= 200 && answer.status < 300) event = 'heartbeat-ok';
    } catch {
      event = 'heartbeat-missed';
    }
    const previous = { health: peer.state, missed: peer.missed };
    let transition = nextPeerState(previous, event, thresholds);
    let registered = false;
    if (transition.reRegister) {
      try {
        await links.reconnect(peer);
        registered = true;
      } catch (error) {
        logger?.warn({ peer: peer.url, err: error }, 're-registration with a peer failed');
        transition = nextPeerState(previous, 'heartbeat-missed', thresholds);
      }
    }
    const configured = isConfigured(peer.url);
    const failedOut = transition.state.health === 'failed' && transition.changed && !configured;
    const expired = !configured && !registered && peer.registered_at === null && transition.state.missed >= expireAfter;
    const dropped = failedOut || expired;
    // Upstream `irdFailDirectory(key, permanent=true)`: a failed peer's places go (a child's, with their proxies).
    if (transition.failure === 'permanent') await links.forget(peer);
    // Only over the state this round read: a FailDirectory that marked the peer failed meanwhile (or forgot it) wins.
    let saved: boolean;
    if (dropped) {
      saved = await store.deletePeer(peer.key, { ifState: peer.state });
    } else {
      saved = await store.savePeer({
        key: peer.key,
        url: peer.url,
        origin: peer.origin,
        state: transition.state.health,
        missed: transition.state.missed,
        registered,
        ifState: registered ? undefined : peer.state,
      });
    }
    if (saved && (transition.changed || dropped)) {
      onChange?.({ key: peer.key, url: peer.url, from: peer.state, to: transition.state.health, dropped });
    }
  };

  return {
    beatOnce: async () => {
      // Each peer's failure is caught and logged: the pool reaches every peer.
      await runPool(await store.listPeers(), concurrency, (peer) =>
        beat(peer).catch((error: unknown) => logger?.warn({ peer: peer.url, err: error }, 'heartbeat round failed')),
      );
    },
  };
}
