import { Forbidden } from '@switchyard/service-kit';
import { type DirectoryName, type PeerUrl, parsePeerUrl } from '../directory/directory-name.ts';
import { neutralise } from '../directory/neutralise.ts';
import type { PeerAllowList } from '../security/peer-allow-list.ts';
import type { PeerClient } from '../security/peer-client.ts';
import { PeerError, PeerNotAllowedError } from '../security/peer-errors.ts';
import type { DirectoryStore } from './directory-store.ts';

/**
 * The dotted prefix of a directory place's key, as upstream names its directory places (e.g. in
 * `src/test/java/emissary/directory/HeartbeatManagerTest.java` of https://github.com/NationalSecurityAgency/emissary).
 */
export const DIRECTORY_KEY_PREFIX = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.';

/** A peer answered, but not with a 2xx: a failed peer (502). */
export class PeerRefusedError extends PeerError {
  readonly status: number;

  constructor(peer: string, status: number) {
    super(`peer ${peer} answered ${status}`, peer);
    this.name = 'PeerRefusedError';
    this.status = status;
  }
}

/**
 * The peer table is full (`PEER_MAX`): a registration with or from a peer not yet known is refused before any
 * outbound request. A `Forbidden` (403), so RegisterPeer answers it as is: `Registration failed for peer: <key>: peer
 * limit of <max> reached`.
 */
export class PeerLimitError extends Forbidden {
  readonly max: number;

  constructor(peerKey: string, max: number) {
    super(`Registration failed for peer: ${neutralise(peerKey)}: peer limit of ${max} reached`);
    this.name = 'PeerLimitError';
    this.max = max;
  }
}

/**
 * Registration with peers, after upstream's `DirectoryPlace.addPeerDirectories` / `loadPeerEntries`
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/directory/DirectoryPlace.java`).
 */
export interface Registrar {
  /** This directory place's key, `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.<self url>`. */
  readonly selfKey: string;
  readonly selfUrl: PeerUrl;
  /**
   * Registers this directory with the peer whose directory place is `url`: the peer is recorded (`not-contacted`)
   * when unknown, so that its call-back heartbeat is answered, then an authenticated POST to its
   * `RegisterPeer.action`; the peer is recorded `up` on success.
   * @throws PeerNotAllowedError before any connection when the peer is not allow-listed; PeerLimitError when it is
   *   unknown and `maxPeers` are recorded; other PeerError
   */
  registerWith(url: string): Promise<void>;
  /**
   * Accepts a registration from `peer` (already allow-listed by the caller). A peer already `up` is left
   * alone (no call-back: this is what makes two peers registering with each other terminate). Otherwise it
   * is heartbeated without credentials, recorded `up`, then registered with in turn (the call-back).
   * @throws PeerLimitError before any outbound request when the peer is unknown and `maxPeers` are recorded;
   *   PeerError when the peer fails; it is then recorded `not-contacted`
   */
  acceptRegistration(peer: DirectoryName): Promise<void>;
}

/** Dependencies of {@link createRegistrar}. */
export interface RegistrarDeps {
  selfUrl: PeerUrl;
  allowList: PeerAllowList;
  client: PeerClient;
  store: DirectoryStore;
  /** Most peers recorded (`PEER_MAX`); default 256. */
  maxPeers?: number;
}

const ok = (status: number) => status >= 200 && status < 300;

/** The {@link Registrar} of this peer. */
export function createRegistrar(deps: RegistrarDeps): Registrar {
  const { selfUrl, allowList, client, store } = deps;
  const maxPeers = deps.maxPeers ?? 256;
  const reserve = async (peer: { key: string; url: string; origin: string }) => {
    if ((await store.reservePeer(peer, maxPeers)) === 'full') throw new PeerLimitError(peer.key, maxPeers);
  };
  const selfKey = `${DIRECTORY_KEY_PREFIX}${selfUrl.href}`;
  const keyOf = (url: PeerUrl) => `*.*.*.${url.hostUrl}DirectoryPlace`;

  const postRegister = async (url: PeerUrl) => {
    const answer = await client.post(
      `${url.hostUrl}emissary/RegisterPeer.action`,
      { targetDir: url.href, directoryName: selfKey },
      { authenticate: true },
    );
    if (!ok(answer.status)) throw new PeerRefusedError(url.origin, answer.status);
  };

  return {
    selfKey,
    selfUrl,
    registerWith: async (text) => {
      const url = parsePeerUrl(text);
      if (!allowList.isAllowedPeer(url.href)) throw new PeerNotAllowedError(url.origin, 'not on the peer allow-list');
      const peer = { key: keyOf(url), url: url.href, origin: url.origin };
      await reserve(peer);
      try {
        await postRegister(url);
      } catch (error) {
        const known = await store.getPeer(peer.key);
        if (known?.state !== 'up') await store.savePeer({ ...peer, state: 'not-contacted', missed: 0 });
        throw error;
      }
      await store.savePeer({ ...peer, state: 'up', missed: 0, registered: true });
    },
    acceptRegistration: async (name) => {
      const peer = { key: name.peerKey, url: name.url.href, origin: name.url.origin };
      const known = await store.getPeer(peer.key);
      if (known?.state === 'up') return;
      if (known === undefined) await reserve(peer);
      try {
        const beat = await client.post(`${name.url.hostUrl}emissary/Heartbeat.action`, { hbf: selfKey, hbt: name.url.href });
        if (!ok(beat.status)) throw new PeerRefusedError(name.url.origin, beat.status);
        await store.savePeer({ ...peer, state: 'up', missed: 0, registered: true });
        await postRegister(name.url);
      } catch (error) {
        await store.savePeer({ ...peer, state: 'not-contacted', missed: 0 });
        throw error;
      }
    },
  };
}
