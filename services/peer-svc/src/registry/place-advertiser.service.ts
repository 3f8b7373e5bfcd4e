import { runPool } from '@switchyard/service-kit';
import type { DirectoryEntry } from '../directory/directory-entry.policy.ts';
import { parsePeerUrl } from '../directory/directory-name.policy.ts';
import type { PeerClient } from '../security/peer.client.ts';
import type { PeerService } from './peer.service.ts';

/** Places in one RegisterPlace or DeregisterPlace request (RegisterPlace: 4 fields each, so at most 1026 fields a form). */
export const PLACES_PER_REQUEST = 256;

/** Form fields a RegisterPlace or DeregisterPlace request may have: `targetDir`, `dirAddPropFlag` and 4 per place. */
export const PLACE_FORM_MAX_FIELDS = 2 + 4 * PLACES_PER_REQUEST;

/** What changed among the places we advertise: entries added or changed (with their values), keys removed. */
export interface AdvertisedChange {
  upserted: readonly DirectoryEntry[];
  removed: readonly string[];
}

/**
 * Pushes changes of the places this directory proxies for its children to its peers, as upstream's relay did
 * (https://github.com/NationalSecurityAgency/emissary at `40260b1ec`, `DirectoryPlace.loadChildEntries` → `registerWith`,
 * `src/main/java/emissary/server/mvc/adapters/DirectoryAdapter.java` `outboundAddPlaces` / `outboundRemovePlaces`).
 */
export interface PlaceAdvertiser {
  /**
   * Queues the change for every peer recorded `up` or `unhealthy` (role `peer`): `RegisterPlace.action` with the upserted
   * entries (`targetDir`, `dirAddKey<i>`, `dirAddDesc<i>`, `dirAddCost<i>`, `dirAddQual<i>`, `dirAddPropFlag=false`) and
   * `DeregisterPlace.action` with the removed keys (`targetDir`, `dirAddKey<i>`, `dirAddPropFlag=false`), Digest,
   * {@link PLACES_PER_REQUEST} places a request. Changes go out one after the other, in the order given; a peer that
   * fails is logged and left to its next registration with us (whose answer holds every proxy). Never throws.
   */
  advertise(change: AdvertisedChange): void;
  /** Resolves once every change queued so far has gone out (or failed). */
  idle(): Promise<void>;
}

/** Dependencies of {@link createPlaceAdvertiser}. */
export interface PlaceAdvertiserDeps {
  store: Pick<PeerService, 'listPeers'>;
  client: PeerClient;
  /** Peers told at once; default 8. */
  concurrency?: number;
  logger?: { warn(obj: object, msg: string): void };
}

const slices = <T>(items: readonly T[]) => {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += PLACES_PER_REQUEST) out.push(items.slice(start, start + PLACES_PER_REQUEST));
  return out;
};

/** The {@link PlaceAdvertiser} of this directory. */
export function createPlaceAdvertiser(deps: PlaceAdvertiserDeps): PlaceAdvertiser {
  const { store, client, logger } = deps;
  const concurrency = deps.concurrency ?? 8;
  let queue: Promise<void> = Promise.resolve();

  const tell = async (peerUrl: string, change: AdvertisedChange) => {
    const url = parsePeerUrl(peerUrl);
    const send = async (action: string, form: Record<string, string>) => {
      const answer = await client.post(`${url.hostUrl}emissary/${action}`, form, { authenticate: true });
      if (answer.status < 200 || answer.status >= 300)
        logger?.warn({ peer: peerUrl, action, status: answer.status }, 'a peer refused our places');
    };
    for (const slice of slices(change.upserted)) {
      const form: Record<string, string> = { targetDir: url.href };
      slice.forEach((entry, i) => {
        form[`dirAddKey${i}`] = entry.key;
        form[`dirAddDesc${i}`] = entry.description;
        form[`dirAddCost${i}`] = String(entry.cost);
        form[`dirAddQual${i}`] = String(entry.quality);
      });
      form.dirAddPropFlag = 'false';
      await send('RegisterPlace.action', form);
    }
    for (const slice of slices(change.removed)) {
      const form: Record<string, string> = { targetDir: url.href };
      slice.forEach((key, i) => {
        form[`dirAddKey${i}`] = key;
      });
      form.dirAddPropFlag = 'false';
      await send('DeregisterPlace.action', form);
    }
  };

  const run = async (change: AdvertisedChange) => {
    const peers = (await store.listPeers()).filter((peer) => peer.role === 'peer' && (peer.state === 'up' || peer.state === 'unhealthy'));
    // Each peer's failure is caught and logged: the pool tells every peer.
    await runPool(peers, concurrency, (peer) =>
      tell(peer.url, change).catch((error: unknown) =>
        logger?.warn({ peer: peer.url, err: error }, 'could not advertise places to a peer'),
      ),
    );
  };

  return {
    advertise: (change) => {
      if (change.upserted.length === 0 && change.removed.length === 0) return;
      queue = queue.then(() => run(change)).catch((error: unknown) => logger?.warn({ err: error }, 'advertising places failed'));
    },
    idle: () => queue,
  };
}
