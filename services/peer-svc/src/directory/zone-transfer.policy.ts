/**
 * What a zone transfer keeps of a peer's directory, after upstream's `DirectoryPlace.loadRemoteEntries` /
 * `cleanLoadNotifyEntries` and `DirectoryAdapter.filterDirectoryEntryMap` (https://github.com/NationalSecurityAgency/emissary,
 * `src/main/java/emissary/directory/DirectoryPlace.java`, `src/main/java/emissary/server/mvc/adapters/DirectoryAdapter.java`,
 * `src/main/java/emissary/directory/IDirectoryPlace.java`): only the configured data ids, never an entry on our own
 * host (we know our own places), each with {@link REMOTE_COST_OVERHEAD} added to its cost.
 */
import { type DirectoryEntry, DirectoryEntryError, parseDirectoryEntry } from './directory-entry.policy.ts';

/** Added to the cost of every entry learned from a peer (upstream `IDirectoryPlace.REMOTE_COST_OVERHEAD`): expense + 100 000. */
export const REMOTE_COST_OVERHEAD = 1000;
/**
 * A peer's entries last confirmed before the transfer's start less this window are dropped (upstream
 * `DirectoryPlace.zoneSlopWindowMillis`, 30 s), in milliseconds.
 */
export const ZONE_SLOP_WINDOW_MS = 30_000;
/** Data ids kept by default (upstream `DirectoryAdapter.filterDirectoryEntryMap` with `FILTER_DIRECTORY_ENTRY_MAP` true). */
export const DEFAULT_TRANSFER_DATA_IDS: readonly string[] = Object.freeze(['EMISSARY_DIRECTORY_SERVICES::STUDY', 'INITIAL::INPUT']);

/** Why an entry of a transfer was left out. */
export type TransferDrop = 'data-id' | 'own-host' | 'cost';

/** The entries a transfer keeps (with the overhead added) and how many it left out, by reason. */
export interface TransferSelection {
  kept: DirectoryEntry[];
  dropped: Record<TransferDrop, number>;
}

/**
 * Parses `DIRECTORY_TRANSFER_DATA_IDS` (`DATATYPE::SERVICE_TYPE`, comma-separated; blanks ignored).
 * @throws TypeError for an entry that is not `A::B` with no whitespace, dot or further `::`
 */
export function parseTransferDataIds(text: string): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const raw of text.split(',')) {
    const id = raw.trim();
    if (id === '') continue;
    if (!/^[^\s.:]+::[^\s.:]+$/.test(id))
      throw new TypeError(`DIRECTORY_TRANSFER_DATA_IDS entry ${JSON.stringify(id)}: expected DATATYPE::SERVICE_TYPE`);
    ids.add(id);
  }
  return ids;
}

/** The place URL part of a key `DATATYPE.SERVICE_NAME.SERVICE_TYPE.<url>`. */
const placeUrlOf = (key: string) => key.split('.').slice(3).join('.');

/**
 * Selects what a zone transfer keeps: entries whose data id is in `dataIds`, not on our own host (`selfHostUrl`, e.g.
 * `http://127.0.0.1:8084/`), with `overhead` (default {@link REMOTE_COST_OVERHEAD}) added to the cost and the expense
 * recomputed; an entry whose cost would then exceed `MAX_COST` is left out. The input is not changed.
 * e.g. `INITIAL.FILE_PICK_UP.INPUT.http://b:1/FilePickUpPlace` cost 10 quality 100 → cost 1010, expense 101000.
 */
export function selectTransferred(
  entries: readonly DirectoryEntry[],
  options: { dataIds: ReadonlySet<string>; selfHostUrl: string; overhead?: number },
): TransferSelection {
  const overhead = options.overhead ?? REMOTE_COST_OVERHEAD;
  const dropped: Record<TransferDrop, number> = { 'data-id': 0, 'own-host': 0, cost: 0 };
  const kept: DirectoryEntry[] = [];
  for (const entry of entries) {
    if (!options.dataIds.has(entry.dataId)) dropped['data-id']++;
    else if (placeUrlOf(entry.key).startsWith(options.selfHostUrl)) dropped['own-host']++;
    else {
      try {
        kept.push(
          parseDirectoryEntry({ key: entry.key, cost: entry.cost + overhead, quality: entry.quality, description: entry.description }),
        );
      } catch (error) {
        if (!(error instanceof DirectoryEntryError)) throw error;
        dropped.cost++;
      }
    }
  }
  return { kept, dropped };
}

/** Entries of the peer last confirmed before this instant are stale after a transfer that started at `startedAt`. */
export function staleBefore(startedAt: Date, slopMs = ZONE_SLOP_WINDOW_MS): Date {
  return new Date(startedAt.getTime() - slopMs);
}
