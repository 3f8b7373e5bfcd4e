import type { DirectoryEntry } from '../directory/directory-entry.policy.ts';
import { DirectoryXmlError, parseDirectoryXml } from '../directory/directory-xml-reader.mapper.ts';
import { selectTransferred, staleBefore, type TransferDrop, ZONE_SLOP_WINDOW_MS } from '../directory/zone-transfer.policy.ts';
import { PeerError } from '../security/peer.client.ts';
import type { DirectoryEntryService, EntryChange } from './directory-entry.service.ts';

/** A peer answered its RegisterPeer with a directory we cannot use (too large, a DTD, not XML, another directory's). */
export class PeerDirectoryError extends PeerError {
  constructor(peer: string, reason: string, options?: ErrorOptions) {
    super(`peer ${peer} answered an unusable directory: ${reason}`, peer, options);
    this.name = 'PeerDirectoryError';
  }
}

/** What a directory document gave, after the transfer rules. */
export interface TransferRead {
  /** The entries kept, remote overhead added. */
  kept: DirectoryEntry[];
  /** Entries the document held (valid ones). */
  received: number;
  /** Entries left out as invalid. */
  skipped: number;
  /** Valid entries left out by the transfer rules, by reason. */
  dropped: Record<TransferDrop, number>;
}

/** How a directory document is read: see {@link readTransfer}. */
export interface TransferReadRules {
  /** Our host URL (`http://host:port/`): entries on it are ours, never learned. */
  selfHostUrl: string;
  /** Data ids kept (`DIRECTORY_TRANSFER_DATA_IDS`). */
  dataIds: ReadonlySet<string>;
  /** Largest document read, in bytes (`PEER_TRANSFER_MAX_BYTES`). */
  maxBytes: number;
  logger?: { warn(obj: object, msg: string): void };
}

/**
 * Reads the directory `xml` that the directory `source` (its key, `*.*.*.<hostUrl>DirectoryPlace`) answered
 * (`parseDirectoryXml`: invalid entries skipped and logged) and selects what a transfer keeps (`selectTransferred`: data
 * ids, our own host, `REMOTE_COST_OVERHEAD`). Shared by the zone transfer from peers and the transfer from children.
 * @throws PeerDirectoryError when the document is unusable or names another directory than `source`
 */
export function readTransfer(source: string, xml: string, rules: TransferReadRules): TransferRead {
  let read: ReturnType<typeof parseDirectoryXml>;
  try {
    read = parseDirectoryXml(xml, { maxBytes: rules.maxBytes });
  } catch (error) {
    if (error instanceof DirectoryXmlError) throw new PeerDirectoryError(source, error.message, { cause: error });
    throw error;
  }
  if (read.peerKey !== source) throw new PeerDirectoryError(source, 'its location names another directory');
  if (read.skipped.length > 0) {
    rules.logger?.warn(
      { peer: source, skipped: read.skipped.slice(0, 20), count: read.skipped.length },
      'directory transfer: invalid entries skipped',
    );
  }
  const selection = selectTransferred(read.entries, { dataIds: rules.dataIds, selfHostUrl: rules.selfHostUrl });
  return { kept: selection.kept, received: read.entries.length, skipped: read.skipped.length, dropped: selection.dropped };
}

/** What one transfer did. */
export interface ZoneTransferResult {
  /** Entries the peer's document held (valid ones). */
  received: number;
  /** Entries left out as invalid. */
  skipped: number;
  /** Valid entries left out by the transfer rules, by reason. */
  dropped: Record<TransferDrop, number>;
  upserted: EntryChange;
  removed: EntryChange;
}

/** Applies a peer's directory to ours; see {@link createZoneTransfer}. */
export interface ZoneTransfer {
  /**
   * Takes the directory `xml` that the peer `source` (its key, `*.*.*.<hostUrl>DirectoryPlace`) answered to a
   * RegisterPeer that started at `startedAt`.
   * @throws PeerDirectoryError when the document is unusable or names another directory than `source`
   */
  apply(source: string, xml: string, startedAt: Date): Promise<ZoneTransferResult>;
}

/** Dependencies of {@link createZoneTransfer}. */
export interface ZoneTransferDeps {
  entries: Pick<DirectoryEntryService, 'upsertFromSource' | 'removeSource'>;
  /** Our host URL (`http://host:port/`): entries on it are ours, never learned. */
  selfHostUrl: string;
  /** Data ids kept (`DIRECTORY_TRANSFER_DATA_IDS`). */
  dataIds: ReadonlySet<string>;
  /** Largest document read, in bytes (`PEER_TRANSFER_MAX_BYTES`). */
  maxBytes: number;
  /** Slop window, default {@link ZONE_SLOP_WINDOW_MS}. */
  slopMs?: number;
  logger?: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

/**
 * The zone transfer, after upstream's `DirectoryPlace.loadRemoteEntries` (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/DirectoryPlace.java`): the document is read (`parseDirectoryXml`; invalid entries
 * skipped and logged), filtered (`selectTransferred`: data ids, our own host, `REMOTE_COST_OVERHEAD`), its entries
 * recorded from `source` (`upsertFromSource`: new keys added, a key another peer holds taken over only when cheaper, our
 * local keys never), then `source`'s entries last confirmed before `startedAt` less the slop window removed. Each of
 * the two writes publishes `directory.entries_changed` when it changed something. Peers named in the entries are only
 * recorded as entries: none is contacted.
 */
export function createZoneTransfer(deps: ZoneTransferDeps): ZoneTransfer {
  const { entries, selfHostUrl, dataIds, maxBytes, logger } = deps;
  const slopMs = deps.slopMs ?? ZONE_SLOP_WINDOW_MS;
  return {
    apply: async (source, xml, startedAt) => {
      const read = readTransfer(source, xml, { selfHostUrl, dataIds, maxBytes, ...(logger ? { logger } : {}) });
      const upserted = await entries.upsertFromSource(source, read.kept);
      const removed = await entries.removeSource(source, { seenBefore: staleBefore(startedAt, slopMs) });
      const result = { received: read.received, skipped: read.skipped, dropped: read.dropped, upserted, removed };
      logger?.debug(
        {
          peer: source,
          received: result.received,
          kept: read.kept.length,
          upserted: upserted.upserted.length,
          removed: removed.removed.length,
        },
        'zone transfer applied',
      );
      return result;
    },
  };
}
