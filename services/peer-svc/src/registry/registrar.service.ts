import type { DirectoryRole } from '@switchyard/contracts';
import { Forbidden } from '@switchyard/service-kit';
import { type DirectoryName, directoryKeyOf, type PeerUrl, parsePeerUrl } from '../directory/directory-name.policy.ts';
import { neutralise } from '../directory/neutralise.policy.ts';
import { type PeerClient, PeerError, PeerNotAllowedError } from '../security/peer.client.ts';
import type { PeerAllowList } from '../security/peer-allow-list.policy.ts';
import type { PeerService } from './peer.service.ts';
import type { ZoneTransfer } from './zone-transfer.service.ts';

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
   * `RegisterPeer.action`, whose answer (the peer's directory) is taken by the zone transfer; the peer is recorded `up`
   * on success. A directory that cannot be read fails the registration (upstream: "Remote directory failed zone transfer").
   * A failure changes no state: a new peer stays `not-contacted`, a known one is left to its heartbeats.
   * @throws PeerNotAllowedError before any connection when the peer is not allow-listed; PeerLimitError when it is
   *   unknown and `maxPeers` are recorded; other PeerError
   */
  registerWith(url: string): Promise<void>;
  /**
   * Accepts a registration from `peer` (already allow-listed by the caller). A peer already `up` is left
   * alone (no call-back: this is what makes two peers registering with each other terminate). Otherwise it
   * is heartbeated without credentials, recorded `up`, then registered with in turn (the call-back), whose answer is
   * taken by the zone transfer.
   * @throws PeerLimitError before any outbound request when the peer is unknown and `maxPeers` are recorded;
   *   Forbidden when it is known here as a child or as our parent (a directory has one role);
   *   PeerError when the peer fails; it is then recorded as it was before (`not-contacted` when new)
   */
  acceptRegistration(peer: DirectoryName): Promise<void>;
  /**
   * Makes this directory a child of the directory whose place is `url` (`PEER_PARENT`, upstream's `RELAY_HOST` and
   * `DirectoryPlace.resetParentStatus`): the parent is recorded (role `parent`, `not-contacted`) when unknown, then an
   * authenticated POST to its `AddChildDirectory.action` (`targetDir` its URL, `directoryName` our key); it is recorded
   * `up` when it answers 2xx. The parent then heartbeats us and transfers our places itself.
   * @throws PeerNotAllowedError before any connection when the parent is not allow-listed; PeerLimitError; other PeerError
   */
  registerAsChild(url: string): Promise<void>;
}

/** Dependencies of {@link createRegistrar}. */
export interface RegistrarDeps {
  selfUrl: PeerUrl;
  allowList: PeerAllowList;
  client: PeerClient;
  store: PeerService;
  /** Most peers recorded (`PEER_MAX`); default 256. */
  maxPeers?: number;
  /** Takes the directory a peer answers to our RegisterPeer; without it the answer is ignored. */
  zoneTransfer?: ZoneTransfer;
  /** Largest RegisterPeer answer read, in bytes (`PEER_TRANSFER_MAX_BYTES`); default the client's own cap. */
  transferMaxBytes?: number;
}

const ok = (status: number) => status >= 200 && status < 300;

/** The {@link Registrar} of this peer. */
export function createRegistrar(deps: RegistrarDeps): Registrar {
  const { selfUrl, allowList, client, store } = deps;
  const maxPeers = deps.maxPeers ?? 256;
  const reserve = async (peer: { key: string; url: string; origin: string; role?: DirectoryRole }) => {
    if ((await store.reservePeer(peer, maxPeers)) === 'full') throw new PeerLimitError(peer.key, maxPeers);
  };
  const selfKey = `${DIRECTORY_KEY_PREFIX}${selfUrl.href}`;

  /** RegisterPeer to the peer at `url`, then the zone transfer of its answer (PeerDirectoryError when unusable). */
  const postRegister = async (url: PeerUrl) => {
    const startedAt = new Date();
    const answer = await client.post(
      `${url.hostUrl}emissary/RegisterPeer.action`,
      { targetDir: url.href, directoryName: selfKey },
      { authenticate: true, ...(deps.transferMaxBytes === undefined ? {} : { maxResponseBytes: deps.transferMaxBytes }) },
    );
    if (!ok(answer.status)) throw new PeerRefusedError(url.origin, answer.status);
    await deps.zoneTransfer?.apply(directoryKeyOf(url), answer.body, startedAt);
  };

  return {
    selfKey,
    selfUrl,
    registerWith: async (text) => {
      const url = parsePeerUrl(text);
      if (!allowList.isAllowedPeer(url.href)) throw new PeerNotAllowedError(url.origin, 'not on the peer allow-list');
      const peer = { key: directoryKeyOf(url), url: url.href, origin: url.origin };
      await reserve(peer);
      // A failure writes nothing: a new peer stays `not-contacted` as reserved, a known one keeps its state for its
      // heartbeats to judge (never `not-contacted` again once it answered: that state is never failed, so a peer put
      // back there would keep its entries for ever).
      await postRegister(url);
      await store.savePeer({ ...peer, state: 'up', missed: 0, registered: true });
    },
    acceptRegistration: async (name) => {
      const peer = { key: name.peerKey, url: name.url.href, origin: name.url.origin };
      const known = await store.getPeer(peer.key);
      if (known !== undefined && known.role !== 'peer') {
        throw new Forbidden(`Registration failed for peer: ${neutralise(name.key)}: known here as a ${known.role} directory`);
      }
      if (known?.state === 'up') return;
      if (known === undefined) await reserve(peer);
      try {
        // With credentials for a peer that challenges it (the original engine's server guards every path with Digest).
        const beat = await client.post(
          `${name.url.hostUrl}emissary/Heartbeat.action`,
          { hbf: selfKey, hbt: name.url.href },
          { authenticate: true },
        );
        if (!ok(beat.status)) throw new PeerRefusedError(name.url.origin, beat.status);
        await store.savePeer({ ...peer, state: 'up', missed: 0, registered: true });
        await postRegister(name.url);
      } catch (error) {
        // Back to what it was (`not-contacted` when new): its heartbeats judge it from there.
        await store.savePeer({ ...peer, state: known?.state ?? 'not-contacted', missed: known?.missed ?? 0 });
        throw error;
      }
    },
    registerAsChild: async (text) => {
      const url = parsePeerUrl(text);
      if (!allowList.isAllowedPeer(url.href)) throw new PeerNotAllowedError(url.origin, 'not on the peer allow-list');
      const parent = { key: directoryKeyOf(url), url: url.href, origin: url.origin, role: 'parent' as const };
      await reserve(parent);
      // A failure writes nothing (as registerWith): the heartbeats judge the parent.
      const answer = await client.post(
        `${url.hostUrl}emissary/AddChildDirectory.action`,
        { targetDir: url.href, directoryName: selfKey },
        { authenticate: true },
      );
      if (!ok(answer.status)) throw new PeerRefusedError(url.origin, answer.status);
      await store.savePeer({ ...parent, state: 'up', missed: 0, registered: true });
    },
  };
}
