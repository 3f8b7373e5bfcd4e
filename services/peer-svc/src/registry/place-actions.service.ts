import { Forbidden, InvalidInput, NotFound } from '@switchyard/service-kit';
import { type DirectoryEntry, DirectoryEntryError, parseDirectoryEntry } from '../directory/directory-entry.policy.ts';
import {
  DirectoryNameError,
  directoryKeyOf,
  isSameDirectoryUrl,
  type PeerUrl,
  parseDirectoryName,
  parsePeerUrl,
} from '../directory/directory-name.policy.ts';
import { neutralise } from '../directory/neutralise.policy.ts';
import { selectTransferred } from '../directory/zone-transfer.policy.ts';
import type { PeerAllowList } from '../security/peer-allow-list.policy.ts';
import type { DirectoryEntryService, DirectoryListing } from './directory-entry.service.ts';
import type { PeerService } from './peer.service.ts';
import type { Registrar } from './registrar.service.ts';

/**
 * The places of a RegisterPlace request, read when the checks reach them (so that a parameter given twice, which
 * throws its 400 when read, is found in upstream's order).
 */
export interface PushedPlaces {
  /** The place keys, in order (`dirAddKey0`, `dirAddKey1`, … while present, and a lone `dirAddKey`). */
  keys(): string[];
  /** The cost, quality and description (as the client wrote it) of the `i`th place. */
  place(i: number): { cost: string | undefined; quality: string | undefined; description: string };
}

/** What a DeregisterPlace removed. */
export interface RemovedPlaces {
  /** Directory entries removed, every copy counted, whoever it was learned from. */
  removed: number;
  /** The keys asked for, normalised, without `$expense`. */
  keys: string[];
}

/**
 * The places a peer pushes and the directory a transfer reads, after upstream's relay-era actions
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/server/mvc/internal/RegisterPlaceAction.java`,
 * `DeregisterPlaceAction.java`, `src/main/java/emissary/server/mvc/TransferDirectoryAction.java`, and
 * `src/main/java/emissary/server/mvc/adapters/DirectoryAdapter.java` for the fields), and this project's read API of the
 * directory. Every refusal is a `DomainError` whose message is the whole answer, the echoed input neutralised.
 */
export interface PlaceActions {
  /**
   * RegisterPlace at `targetDir` (our directory place URL): places of one host, whose directory must be an
   * allow-listed peer recorded here `up` or `unhealthy`, are recorded as learned from it, as a zone transfer would (data
   * ids kept, remote overhead added).
   * @throws InvalidInput (no `targetDir`, no place, a place that is not a valid entry), NotFound (`targetDir`), Forbidden
   *   (places on several hosts, on ours, of a directory not allow-listed or not a peer up here)
   */
  registerPlaces(targetDir: string | undefined, places: PushedPlaces): Promise<void>;
  /**
   * DeregisterPlace at `targetDir` of the places `keys`: those of the sender's host are removed whichever peer we
   * learned them from (the sender is their authority), local ones excepted.
   * @throws InvalidInput (no `targetDir` or no key, a malformed key), NotFound (`targetDir`), Forbidden (as
   *   {@link registerPlaces})
   */
  deregisterPlaces(targetDir: string | undefined, keys: readonly string[]): Promise<RemovedPlaces>;
  /**
   * TransferDirectory: the directory, exactly as a successful RegisterPeer answers it, registering nothing (how a parent
   * reads its child); `targetDir`, when given, must be our directory place URL.
   * @throws NotFound (`Nothing found for <targetDir>`)
   */
  transferDirectory(targetDir: string | undefined): Promise<DirectoryListing>;
  /** The directory as the operator's read API shows it: our key and every entry. */
  directory(): Promise<DirectoryListing>;
}

/** Dependencies of {@link createPlaceActions}. */
export interface PlaceActionsDeps {
  store: Pick<PeerService, 'getPeer'>;
  entries: Pick<DirectoryEntryService, 'listEntries' | 'upsertFromSource' | 'removeKeys'>;
  registrar: Pick<Registrar, 'selfKey' | 'selfUrl'>;
  allowList: PeerAllowList;
  /** Data ids kept from a peer (`DIRECTORY_TRANSFER_DATA_IDS`), as in a zone transfer. */
  transferDataIds: ReadonlySet<string>;
}

const n = (value: string | undefined) => neutralise(value ?? 'null');

/** The {@link PlaceActions} of this directory. */
export function createPlaceActions(deps: PlaceActionsDeps): PlaceActions {
  const { store, entries, registrar, allowList } = deps;
  const isSelf = (text: string | undefined) => isSameDirectoryUrl(text, registrar.selfUrl);
  const listing = async (): Promise<DirectoryListing> => ({ location: registrar.selfKey, entries: await entries.listEntries() });

  /**
   * The directory (`*.*.*.<hostUrl>DirectoryPlace`) the places at `urls` belong to: one host, not ours, an allow-listed
   * peer recorded here `up` or `unhealthy`.
   * @throws Forbidden `<what> failed: <reason>`
   */
  const senderOf = async (urls: readonly PeerUrl[], what: string): Promise<string> => {
    const refuse = (reason: string) => new Forbidden(`${what} failed: ${reason}`);
    const hostUrl = urls[0]?.hostUrl ?? '';
    if (urls.some((url) => url.hostUrl !== hostUrl)) throw refuse('the places are not all on one host');
    if (hostUrl === registrar.selfUrl.hostUrl) throw refuse('the places are on this directory');
    const directoryUrl = parsePeerUrl(`${hostUrl}DirectoryPlace`);
    const key = directoryKeyOf(directoryUrl);
    if (!allowList.isAllowedPeer(directoryUrl.href)) throw refuse(`peer not allowed ${n(key)}`);
    const peer = await store.getPeer(key);
    if (peer === undefined || peer.role !== 'peer' || (peer.state !== 'up' && peer.state !== 'unhealthy')) {
      throw refuse(`not a peer up here ${n(key)}`);
    }
    return key;
  };

  return {
    registerPlaces: async (target, pushed) => {
      if (!target) throw new InvalidInput(`Bad params: targetDir - ${n(target)}`);
      if (!isSelf(target)) throw new NotFound(`Could not call addPlace with directory: ${n(target)}`);
      const keys = pushed.keys();
      if (keys.length === 0) throw new InvalidInput('Directory.addPlace failed: no dirAddKey0');
      const places: DirectoryEntry[] = [];
      keys.forEach((key, i) => {
        try {
          places.push(parseDirectoryEntry({ key, ...pushed.place(i) }));
        } catch (error) {
          if (error instanceof DirectoryEntryError) throw new InvalidInput(`Directory.addPlace failed: place ${i}: ${error.message}`);
          throw error;
        }
      });
      const sender = await senderOf(
        places.map((place) => parseDirectoryName(place.key).url),
        'Directory.addPlace',
      );
      const { kept } = selectTransferred(places, { dataIds: deps.transferDataIds, selfHostUrl: registrar.selfUrl.hostUrl });
      await entries.upsertFromSource(sender, kept);
    },

    deregisterPlaces: async (target, keys) => {
      if (!target || keys.length === 0)
        throw new InvalidInput(`Bad params: targetDir - ${n(target)}, or dirAddKey - [${keys.map((key) => n(key)).join(', ')}]`);
      if (!isSelf(target)) throw new NotFound(`No directory found using name ${n(target)}`);
      const names = keys.map((key) => {
        try {
          return parseDirectoryName(key);
        } catch (error) {
          if (error instanceof DirectoryNameError) throw new InvalidInput(`Bad params: invalid dirAddKey ${n(key)}`);
          throw error;
        }
      });
      await senderOf(
        names.map((name) => name.url),
        'Directory.removePlaces',
      );
      const normalised = names.map((name) => name.keyWithoutExpense);
      // The sender is the authority on the places of its host: copies learned through a third peer go too.
      const removed = (await entries.removeKeys(normalised)).reduce((count, change) => count + change.removed.length, 0);
      return { removed, keys: normalised };
    },

    transferDirectory: async (target) => {
      if (target !== undefined && target !== '' && !isSelf(target)) throw new NotFound(`Nothing found for ${n(target)}`);
      return listing();
    },

    directory: listing,
  };
}
