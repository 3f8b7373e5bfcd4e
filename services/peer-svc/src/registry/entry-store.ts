import type { DirectoryEntriesChanged } from '@switchyard/contracts';
import { type DeleteQueryBuilder, type DeleteResult, sql, type Transaction } from 'kysely';
import type { DirectoryEntryTable, PeerDatabase, PeerDb } from '../db/schema.ts';
import { compareEntries, type DirectoryEntry } from '../directory/directory-entry.ts';
import type { ProxyEntry } from '../directory/proxy-entries.ts';
import { directoryOutbox, entriesChanged } from './directory-events.ts';

/** The `source` of this peer's own entries (its configuration, and the directory place itself). */
export const LOCAL_SOURCE = 'local';

/** A directory entry as stored. */
export type EntryRow = DirectoryEntryTable;

/** What a write changed: the keys upserted (new, or a changed cost, quality or description) and removed, their data ids. */
export type EntryChange = DirectoryEntriesChanged;

/**
 * Reads and writes directory entries (`peer.directory_entry`). Each write runs in one transaction, serialised with the
 * other entry writes, and publishes `directory.entries_changed` through the outbox in that transaction when it changed
 * anything. A key is held by one source at a time, as upstream's `DirectoryEntryList` keeps one entry per key
 * (https://github.com/NationalSecurityAgency/emissary, `src/main/java/emissary/directory/DirectoryEntryList.java`,
 * `insert`): local entries always win; between other sources the cheaper expense wins, the holder keeps a tie.
 */
export interface EntryStore {
  /** Every entry, by data id (code-point order), then cheapest first (ties by service name, then key). */
  listEntries(): Promise<EntryRow[]>;
  /** The entries of one data id (`DATATYPE::SERVICE_TYPE`), cheapest first (ties by service name, then key). */
  listByDataId(dataId: string): Promise<EntryRow[]>;
  /**
   * Makes `entries` the whole set of local entries: they are written with source {@link LOCAL_SOURCE} (taking over a
   * key another source held) and `seen_at` now; local entries not among them are removed.
   * @throws TypeError when a key is given twice
   */
  replaceLocal(entries: readonly DirectoryEntry[]): Promise<EntryChange>;
  /**
   * Records `entries` as learned from the directory `source` (its key) at `seenAt` (default now): new keys are added;
   * keys `source` holds are updated and confirmed (`seen_at`); a key another remote source holds is taken over only
   * when cheaper; a local key is never touched. Entries of `source` not among them are kept (see {@link removeSource}).
   * @throws TypeError when `source` is empty or {@link LOCAL_SOURCE}, or a key is given twice
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

/** `text` as a literal inside a LIKE pattern (PostgreSQL's default escape character, the backslash). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Code-point order (the same on every machine, unlike locale order). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Serialises entry writes: a new key written by two transactions at once must not race on the primary key. */
const ENTRY_WRITE_LOCK = sql`select pg_advisory_xact_lock(hashtext('peer.directory_entry'))`;

/** The columns of `entry` held by `source`, confirmed at `seenAt` (all but `key` and `created_at`). */
const rowValues = (entry: DirectoryEntry, source: string, seenAt: Date) => ({
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

/** Deletes the entries of `keys` (none: no statement). */
async function deleteKeys(trx: Transaction<PeerDatabase>, keys: readonly string[]): Promise<void> {
  if (keys.length > 0) await trx.deleteFrom('directory_entry').where('key', 'in', keys).execute();
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

/** The {@link EntryStore} over `db` (already scoped with `withSchema(PEER_SCHEMA)`). */
export function createEntryStore(db: PeerDb): EntryStore {
  /**
   * One write: `entries` from `source` (see the interface for who wins a key), then the rows of `source` that
   * `removeWhere` selects are removed; the event when anything changed.
   */
  const write = async (
    source: string,
    entries: readonly DirectoryEntry[],
    seenAt: Date,
    removeWhere: ((row: EntryRow) => boolean) | undefined,
  ): Promise<EntryChange> =>
    db.transaction().execute(async (trx) => {
      await ENTRY_WRITE_LOCK.execute(trx);
      const keys = entries.map((entry) => entry.key);
      let query = trx.selectFrom('directory_entry').selectAll();
      query =
        keys.length > 0
          ? query.where((eb) => eb.or([eb('key', 'in', keys), eb('source', '=', source)]))
          : query.where('source', '=', source);
      const existing = new Map((await query.execute()).map((row) => [row.key, row]));
      const upserted: string[] = [];
      const removed: string[] = [];
      const dataIds = new Set<string>();
      const written = new Set<string>();
      for (const entry of entries) {
        const row = existing.get(entry.key);
        const values = rowValues(entry, source, seenAt);
        if (row === undefined) {
          await trx
            .insertInto('directory_entry')
            .values({ key: entry.key, ...values, created_at: seenAt })
            .execute();
        } else {
          const takesOver =
            row.source === source || source === LOCAL_SOURCE || (row.source !== LOCAL_SOURCE && entry.expense < row.expense);
          if (!takesOver) continue;
          await trx.updateTable('directory_entry').set(values).where('key', '=', entry.key).execute();
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
        await deleteKeys(
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
   * Deletes the non-local entries `narrow` selects (a key pattern, a key list), under the entry write lock, with one
   * `directory.entries_changed` per source touched.
   */
  const removeRemote = (
    narrow: (
      query: DeleteQueryBuilder<PeerDatabase, 'directory_entry', DeleteResult>,
    ) => DeleteQueryBuilder<PeerDatabase, 'directory_entry', DeleteResult>,
  ): Promise<EntryChange[]> =>
    db.transaction().execute(async (trx) => {
      await ENTRY_WRITE_LOCK.execute(trx);
      const rows = await narrow(trx.deleteFrom('directory_entry').where('source', '<>', LOCAL_SOURCE))
        .returning(['key', 'data_id', 'source'])
        .execute();
      const log = changeLog();
      for (const row of rows) {
        const change = log.of(row.source);
        change.dataIds.add(row.data_id);
        change.removed.push(row.key);
      }
      const changes = log.changes();
      if (changes.length > 0) await directoryOutbox.append(trx, changes.map(entriesChanged));
      return changes;
    });

  return {
    listEntries: async () => sortRows(await db.selectFrom('directory_entry').selectAll().orderBy('data_id').orderBy('expense').execute()),
    listByDataId: async (dataId) =>
      sortRows(await db.selectFrom('directory_entry').selectAll().where('data_id', '=', dataId).orderBy('expense').execute()),
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
    // A key's tuples hold no `:` or `/`: `.<hostUrl>` can only be where its location starts.
    removeHost: (hostUrl) => removeRemote((query) => query.where('key', 'like', `%.${likeLiteral(hostUrl)}%`)),
    removeKeys: (keys) => removeRemote((query) => query.where('key', 'in', keys.length > 0 ? [...keys] : [''])),
    replaceProxies: async (selfLocation, proxies) =>
      db.transaction().execute(async (trx) => {
        await ENTRY_WRITE_LOCK.execute(trx);
        const suffix = `.${selfLocation}`;
        const wanted = new Map(proxies.map((proxy) => [proxy.entry.key, proxy]));
        let query = trx.selectFrom('directory_entry').selectAll();
        query =
          wanted.size > 0
            ? query.where((eb) => eb.or([eb('key', 'like', `%${likeLiteral(suffix)}`), eb('key', 'in', [...wanted.keys()])]))
            : query.where('key', 'like', `%${likeLiteral(suffix)}`);
        const existing = new Map((await query.execute()).map((row) => [row.key, row]));
        const log = changeLog();
        const now = new Date();
        for (const { entry, source } of wanted.values()) {
          const row = existing.get(entry.key);
          if (row?.source === LOCAL_SOURCE) continue;
          const values = rowValues(entry, source, now);
          if (row === undefined)
            await trx
              .insertInto('directory_entry')
              .values({ key: entry.key, ...values, created_at: now })
              .execute();
          else {
            await trx.updateTable('directory_entry').set(values).where('key', '=', entry.key).execute();
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
        await deleteKeys(
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
