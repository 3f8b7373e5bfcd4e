import type { DirectoryEntriesChanged } from '@switchyard/contracts';
import { directoryOutbox } from '../db/outbox.ts';
import type { PeerDb } from '../db/schema.ts';
import { compareEntries, type DirectoryEntry, LOCAL_SOURCE, takesOverKey } from '../directory/directory-entry.policy.ts';
import type { ProxyEntry } from '../directory/proxy-entries.policy.ts';
import * as stored from './directory-entry.repository.ts';
import type { EntryRow } from './directory-entry.table.ts';
import { entriesChanged } from './directory-event.mapper.ts';

/** What a write changed: the keys upserted (new, or a changed cost, quality or description) and removed, their data ids. */
export type EntryChange = DirectoryEntriesChanged;

/** The directory as answered to a peer or an operator: its `location` (our directory key) and every entry. */
export interface DirectoryListing {
  location: string;
  entries: EntryRow[];
}

/**
 * The directory's entries (`peer.directory_entry`). Each write runs in one transaction, serialised with the other entry
 * writes, and publishes `directory.entries_changed` through the outbox in that transaction when it changed anything. A
 * key is held by one source at a time (`takesOverKey`): local entries always win; between other sources the cheaper
 * expense wins, the holder keeps a tie.
 */
export interface DirectoryEntryService {
  /** Every entry, by data id (code-point order), then cheapest first (ties by service name, then key). */
  listEntries(): Promise<EntryRow[]>;
  /** The entries of one data id (`DATATYPE::SERVICE_TYPE`), cheapest first (ties by service name, then key). */
  listByDataId(dataId: string): Promise<EntryRow[]>;
  /**
   * Makes `entries` the whole set of local entries: they are written with source `LOCAL_SOURCE` (taking over a key
   * another source held) and `seen_at` now; local entries not among them are removed.
   * @throws TypeError when a key is given twice
   */
  replaceLocal(entries: readonly DirectoryEntry[]): Promise<EntryChange>;
  /**
   * Records `entries` as learned from the directory `source` (its key) at `seenAt` (default now): new keys are added;
   * keys `source` holds are updated and confirmed (`seen_at`); a key another remote source holds is taken over only
   * when cheaper; a local key is never touched. Entries of `source` not among them are kept (see {@link removeSource}).
   * @throws TypeError when `source` is empty or `LOCAL_SOURCE`, or a key is given twice
   */
  upsertFromSource(source: string, entries: readonly DirectoryEntry[], seenAt?: Date): Promise<EntryChange>;
  /**
   * Removes the entries `source` holds; with `seenBefore`, only those last confirmed before it (upstream drops a
   * peer's entries older than the zone transfer's start, less a slop window).
   */
  removeSource(source: string, options?: { seenBefore?: Date }): Promise<EntryChange>;
  /**
   * Removes every entry on the host `hostUrl` (`http://host:port/`) whatever directory it was learned from, local ones
   * excepted (upstream's `removePlaces(getHostMatchKey(key))` when a directory fails). One `directory.entries_changed`
   * per source touched.
   */
  removeHost(hostUrl: string): Promise<EntryChange[]>;
  /**
   * Removes the entries of `keys` whatever directory they were learned from, local ones excepted (a peer's
   * DeregisterPlace of places on its own host: copies learned through a third peer are as stale as its own). One
   * `directory.entries_changed` per source touched.
   */
  removeKeys(keys: readonly string[]): Promise<EntryChange[]>;
  /**
   * Makes `proxies` the whole set of proxy entries: the entries whose key is on our directory place `selfLocation`
   * (`DATATYPE.SERVICE_NAME.SERVICE_TYPE.<selfLocation>`) and whose source is a child directory. New ones are added, changed
   * ones updated (source included), ones no longer among them removed; a key held by a local entry is left to it.
   * Publishes one `directory.entries_changed` per source touched.
   * @returns the changes, one per source touched (none when nothing changed)
   */
  replaceProxies(selfLocation: string, proxies: readonly ProxyEntry[]): Promise<EntryChange[]>;
}

/** Code-point order (the same on every machine, unlike locale order). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The columns of `entry` held by `source`, confirmed at `seenAt` (all but `key` and `created_at`). */
const rowValues = (entry: DirectoryEntry, source: string, seenAt: Date): stored.EntryValues => ({
  data_id: entry.dataId,
  cost: entry.cost,
  quality: entry.quality,
  expense: entry.expense,
  description: entry.description,
  source,
  seen_at: seenAt,
});

/** Changes gathered by source while a write goes (see {@link changeLog}). */
interface SourceChange {
  dataIds: Set<string>;
  upserted: string[];
  removed: string[];
}

/**
 * A per-source record of what one write changed: `of(source)` is that source's record (created empty), `changes()`
 * the events' form, sources, data ids and keys in code-point order, empty ones dropped.
 */
function changeLog(): { of(source: string): SourceChange; changes(): EntryChange[] } {
  const bySource = new Map<string, SourceChange>();
  return {
    of: (source) => {
      let change = bySource.get(source);
      if (change === undefined) {
        change = { dataIds: new Set(), upserted: [], removed: [] };
        bySource.set(source, change);
      }
      return change;
    },
    changes: () =>
      [...bySource.entries()]
        .sort(([a], [b]) => byCodePoint(a, b))
        .map(([source, change]) => ({
          source,
          data_ids: [...change.dataIds].sort(byCodePoint),
          upserted: [...change.upserted].sort(byCodePoint),
          removed: [...change.removed].sort(byCodePoint),
        }))
        .filter((change) => change.upserted.length > 0 || change.removed.length > 0),
  };
}

const sortRows = (rows: EntryRow[]) => rows.sort((a, b) => byCodePoint(a.data_id, b.data_id) || compareEntries(a, b));

const sameValues = (row: EntryRow, entry: DirectoryEntry) =>
  row.data_id === entry.dataId && row.cost === entry.cost && row.quality === entry.quality && row.description === entry.description;

function distinctKeys(entries: readonly DirectoryEntry[]): void {
  const keys = new Set<string>();
  for (const entry of entries) {
    if (keys.has(entry.key)) throw new TypeError(`directory entry ${entry.key} given twice`);
    keys.add(entry.key);
  }
}

/** The {@link DirectoryEntryService} over `db` (already scoped with `withSchema(PEER_SCHEMA)`). */
export function createDirectoryEntryService(db: PeerDb): DirectoryEntryService {
  /**
   * One write: `entries` from `source` (who wins a key: `takesOverKey`), then the rows of `source` that `removeWhere`
   * selects are removed; the event when anything changed.
   */
  const write = async (
    source: string,
    entries: readonly DirectoryEntry[],
    seenAt: Date,
    removeWhere: ((row: EntryRow) => boolean) | undefined,
  ): Promise<EntryChange> =>
    db.transaction().execute(async (trx) => {
      await stored.lockEntryWrites(trx);
      const keys = entries.map((entry) => entry.key);
      const existing = new Map((await stored.findEntriesOfKeysOrSource(trx, keys, source)).map((row) => [row.key, row]));
      const upserted: string[] = [];
      const removed: string[] = [];
      const dataIds = new Set<string>();
      const written = new Set<string>();
      for (const entry of entries) {
        const row = existing.get(entry.key);
        const values = rowValues(entry, source, seenAt);
        if (row === undefined) {
          await stored.insertEntry(trx, { key: entry.key, ...values, created_at: seenAt });
        } else {
          if (!takesOverKey(row, source, entry.expense)) continue;
          await stored.updateEntry(trx, entry.key, values);
          if (row.source === source && sameValues(row, entry)) {
            written.add(entry.key);
            continue;
          }
          dataIds.add(row.data_id);
        }
        written.add(entry.key);
        upserted.push(entry.key);
        dataIds.add(entry.dataId);
      }
      if (removeWhere !== undefined) {
        const doomed = [...existing.values()].filter((row) => row.source === source && !written.has(row.key) && removeWhere(row));
        await stored.deleteEntries(
          trx,
          doomed.map((row) => row.key),
        );
        for (const row of doomed) {
          removed.push(row.key);
          dataIds.add(row.data_id);
        }
      }
      const change: EntryChange = {
        source,
        data_ids: [...dataIds].sort(byCodePoint),
        upserted: upserted.sort(byCodePoint),
        removed: removed.sort(byCodePoint),
      };
      if (upserted.length > 0 || removed.length > 0) await directoryOutbox.append(trx, [entriesChanged(change)]);
      return change;
    });

  /**
   * Deletes the non-local entries `remove` deletes (on a host, of some keys), under the entry write lock, with one
   * `directory.entries_changed` per source touched.
   */
  const removeRemote = (remove: (trx: PeerDb) => Promise<stored.RemovedEntry[]>): Promise<EntryChange[]> =>
    db.transaction().execute(async (trx) => {
      await stored.lockEntryWrites(trx);
      const log = changeLog();
      for (const row of await remove(trx)) {
        const change = log.of(row.source);
        change.dataIds.add(row.data_id);
        change.removed.push(row.key);
      }
      const changes = log.changes();
      if (changes.length > 0) await directoryOutbox.append(trx, changes.map(entriesChanged));
      return changes;
    });

  return {
    listEntries: async () => sortRows(await stored.listEntries(db)),
    listByDataId: async (dataId) => sortRows(await stored.listEntriesOfDataId(db, dataId)),
    replaceLocal: async (entries) => {
      distinctKeys(entries);
      return write(LOCAL_SOURCE, entries, new Date(), () => true);
    },
    upsertFromSource: async (source, entries, seenAt = new Date()) => {
      if (source === '' || source === LOCAL_SOURCE)
        throw new TypeError(`an entry source must be a directory key, not ${JSON.stringify(source)}`);
      distinctKeys(entries);
      return write(source, entries, seenAt, undefined);
    },
    removeSource: async (source, options = {}) => {
      const { seenBefore } = options;
      return write(source, [], new Date(), (row) => seenBefore === undefined || row.seen_at < seenBefore);
    },
    removeHost: (hostUrl) => removeRemote((trx) => stored.deleteRemoteEntriesOnHost(trx, hostUrl)),
    removeKeys: (keys) => removeRemote((trx) => stored.deleteRemoteEntriesOfKeys(trx, keys)),
    replaceProxies: async (selfLocation, proxies) =>
      db.transaction().execute(async (trx) => {
        await stored.lockEntryWrites(trx);
        const suffix = `.${selfLocation}`;
        const wanted = new Map(proxies.map((proxy) => [proxy.entry.key, proxy]));
        const existing = new Map((await stored.findEntriesEndingWith(trx, suffix, [...wanted.keys()])).map((row) => [row.key, row]));
        const log = changeLog();
        const now = new Date();
        for (const { entry, source } of wanted.values()) {
          const row = existing.get(entry.key);
          if (row?.source === LOCAL_SOURCE) continue;
          const values = rowValues(entry, source, now);
          if (row === undefined) await stored.insertEntry(trx, { key: entry.key, ...values, created_at: now });
          else {
            await stored.updateEntry(trx, entry.key, values);
            if (row.source === source && sameValues(row, entry)) continue;
            if (row.source !== source) log.of(row.source).dataIds.add(row.data_id);
          }
          const change = log.of(source);
          change.upserted.push(entry.key);
          change.dataIds.add(entry.dataId);
        }
        const doomed = [...existing.values()].filter(
          (row) => row.source !== LOCAL_SOURCE && row.key.endsWith(suffix) && !wanted.has(row.key),
        );
        await stored.deleteEntries(
          trx,
          doomed.map((row) => row.key),
        );
        for (const row of doomed) {
          const change = log.of(row.source);
          change.removed.push(row.key);
          change.dataIds.add(row.data_id);
        }
        const result = log.changes();
        if (result.length > 0) await directoryOutbox.append(trx, result.map(entriesChanged));
        return result;
      }),
  };
}
