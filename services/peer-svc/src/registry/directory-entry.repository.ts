import { sql } from 'kysely';
import type { PeerDb } from '../db/schema.ts';
import { LOCAL_SOURCE } from '../directory/directory-entry.policy.ts';
import type { EntryRow } from './directory-entry.table.ts';

/**
 * All SQL of `peer.directory_entry`. Every function takes the database or a transaction (scoped with
 * `withSchema(PEER_SCHEMA)`); writers run under {@link lockEntryWrites} in the caller's transaction.
 */

/** An entry's columns but its key and creation time (what an update writes). */
export type EntryValues = Omit<EntryRow, 'key' | 'created_at'>;

/** The key, data id and source of a removed entry. */
export type RemovedEntry = Pick<EntryRow, 'key' | 'data_id' | 'source'>;

/** `text` as a literal inside a LIKE pattern (PostgreSQL's default escape character, the backslash). */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Takes the transaction-scoped advisory lock that serialises entry writes: a new key written by two transactions at
 * once must not race on the primary key.
 */
export async function lockEntryWrites(trx: PeerDb): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('peer.directory_entry'))`.execute(trx);
}

/** Every entry, by data id, then expense. */
export function listEntries(db: PeerDb): Promise<EntryRow[]> {
  return db.selectFrom('directory_entry').selectAll().orderBy('data_id').orderBy('expense').execute();
}

/** The entries of the data id `dataId` (`DATATYPE::SERVICE_TYPE`), by expense. */
export function listEntriesOfDataId(db: PeerDb, dataId: string): Promise<EntryRow[]> {
  return db.selectFrom('directory_entry').selectAll().where('data_id', '=', dataId).orderBy('expense').execute();
}

/** The entries of `keys`, and every entry `source` holds. */
export function findEntriesOfKeysOrSource(db: PeerDb, keys: readonly string[], source: string): Promise<EntryRow[]> {
  const query = db.selectFrom('directory_entry').selectAll();
  return (
    keys.length > 0
      ? query.where((eb) => eb.or([eb('key', 'in', [...keys]), eb('source', '=', source)]))
      : query.where('source', '=', source)
  ).execute();
}

/** The entries whose key ends with `suffix` (`.<a directory place URL>`), and those of `keys`. */
export function findEntriesEndingWith(db: PeerDb, suffix: string, keys: readonly string[]): Promise<EntryRow[]> {
  const query = db.selectFrom('directory_entry').selectAll();
  const pattern = `%${likeLiteral(suffix)}`;
  return (
    keys.length > 0
      ? query.where((eb) => eb.or([eb('key', 'like', pattern), eb('key', 'in', [...keys])]))
      : query.where('key', 'like', pattern)
  ).execute();
}

/** Inserts an entry whose key is not stored yet. */
export async function insertEntry(db: PeerDb, row: EntryRow): Promise<void> {
  await db.insertInto('directory_entry').values(row).execute();
}

/** Overwrites every column but the key and creation time of the entry `key`. */
export async function updateEntry(db: PeerDb, key: string, values: EntryValues): Promise<void> {
  await db.updateTable('directory_entry').set(values).where('key', '=', key).execute();
}

/** Deletes the entries of `keys` (none: no statement). */
export async function deleteEntries(db: PeerDb, keys: readonly string[]): Promise<void> {
  if (keys.length > 0)
    await db
      .deleteFrom('directory_entry')
      .where('key', 'in', [...keys])
      .execute();
}

/**
 * Deletes every entry located on the host `hostUrl` (`http://host:port/`) but the local ones. A key's tuples hold no
 * `:` or `/`, so `.<hostUrl>` can only be where its location starts.
 * @returns what was deleted
 */
export function deleteRemoteEntriesOnHost(db: PeerDb, hostUrl: string): Promise<RemovedEntry[]> {
  return db
    .deleteFrom('directory_entry')
    .where('source', '<>', LOCAL_SOURCE)
    .where('key', 'like', `%.${likeLiteral(hostUrl)}%`)
    .returning(['key', 'data_id', 'source'])
    .execute();
}

/** Deletes the entries of `keys` but the local ones. @returns what was deleted */
export function deleteRemoteEntriesOfKeys(db: PeerDb, keys: readonly string[]): Promise<RemovedEntry[]> {
  return db
    .deleteFrom('directory_entry')
    .where('source', '<>', LOCAL_SOURCE)
    .where('key', 'in', keys.length > 0 ? [...keys] : [''])
    .returning(['key', 'data_id', 'source'])
    .execute();
}
