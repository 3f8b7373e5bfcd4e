import type { PeerDb } from '../db/schema.ts';
import type { DirectoryEntry } from '../directory/directory-entry.policy.ts';
import type { ChildPlace } from '../directory/proxy-entries.policy.ts';
import type {} from './child-entry.table.ts';

/**
 * All SQL of `peer.child_entry`, the places of our child directories. Every function takes the database or a
 * transaction (scoped with `withSchema(PEER_SCHEMA)`).
 */

/** Rows written by one INSERT: 8 parameters a row, and PostgreSQL takes at most 65 535 in one statement. */
const INSERT_SLICE = 1000;

/** Inserts the places `entries` of `child` (its default directory key), or updates the ones it has, with `seen_at` = `seenAt`. */
export async function upsertChildPlaces(db: PeerDb, child: string, entries: readonly DirectoryEntry[], seenAt: Date): Promise<void> {
  for (let start = 0; start < entries.length; start += INSERT_SLICE) {
    await db
      .insertInto('child_entry')
      .values(
        entries.slice(start, start + INSERT_SLICE).map((entry) => ({
          child,
          key: entry.key,
          data_id: entry.dataId,
          cost: entry.cost,
          quality: entry.quality,
          expense: entry.expense,
          description: entry.description,
          seen_at: seenAt,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['child', 'key']).doUpdateSet((eb) => ({
          data_id: eb.ref('excluded.data_id'),
          cost: eb.ref('excluded.cost'),
          quality: eb.ref('excluded.quality'),
          expense: eb.ref('excluded.expense'),
          description: eb.ref('excluded.description'),
          seen_at: eb.ref('excluded.seen_at'),
        })),
      )
      .execute();
  }
}

/** Deletes the places of `child` last seen before `staleBefore`, but those of `keep`. @returns how many */
export async function deleteStaleChildPlaces(db: PeerDb, child: string, staleBefore: Date, keep: readonly string[]): Promise<number> {
  let stale = db.deleteFrom('child_entry').where('child', '=', child).where('seen_at', '<', staleBefore);
  if (keep.length > 0) stale = stale.where('key', 'not in', [...keep]);
  return Number((await stale.executeTakeFirst()).numDeletedRows);
}

/** Deletes every place of `child`. @returns how many */
export async function deleteChildPlaces(db: PeerDb, child: string): Promise<number> {
  return Number((await db.deleteFrom('child_entry').where('child', '=', child).executeTakeFirst()).numDeletedRows);
}

/** Every child place, by child then key. */
export async function listChildPlaces(db: PeerDb): Promise<ChildPlace[]> {
  return db.selectFrom('child_entry').select(['key', 'child', 'cost', 'quality', 'description']).orderBy('child').orderBy('key').execute();
}
