import type { ChildEntryTable, PeerDb } from '../db/schema.ts';
import type { DirectoryEntry } from '../directory/directory-entry.ts';
import type { ChildPlace } from '../directory/proxy-entries.ts';

/**
 * The places of our child directories (`peer.child_entry`, upstream's relay map `childEntries` of
 * https://github.com/NationalSecurityAgency/emissary at `40260b1ec`, `src/main/java/emissary/directory/DirectoryPlace.java`):
 * what their transfers gave, kept apart from the directory, which holds the proxies derived from them.
 */
export interface ChildEntryStore {
  /**
   * Records what a transfer from `child` (its default directory key) that started at `seenAt` kept: its places are upserted
   * (`seen_at` = `seenAt`), then its places last seen before `staleBefore` and not among them are removed (upstream
   * `removeChildEntries(childKey, startZone - zoneSlopWindowMillis, newEntries)`).
   * @returns how many places were removed
   */
  applyTransfer(child: string, entries: readonly DirectoryEntry[], seenAt: Date, staleBefore: Date): Promise<number>;
  /** Removes every place of `child` (it failed or left). @returns how many */
  removeChild(child: string): Promise<number>;
  /** Every child place, by child then key. */
  listAll(): Promise<ChildPlace[]>;
}

/** Rows written by one INSERT. */
const INSERT_SLICE = 1000;

const asPlace = (row: Pick<ChildEntryTable, 'key' | 'child' | 'cost' | 'quality' | 'description'>): ChildPlace => ({
  key: row.key,
  child: row.child,
  cost: row.cost,
  quality: row.quality,
  description: row.description,
});

/** The {@link ChildEntryStore} over `db` (already scoped with `withSchema(PEER_SCHEMA)`). */
export function createChildEntryStore(db: PeerDb): ChildEntryStore {
  return {
    applyTransfer: (child, entries, seenAt, staleBefore) =>
      db.transaction().execute(async (trx) => {
        // In slices: 8 parameters a row, and PostgreSQL takes at most 65 535 in one statement.
        for (let start = 0; start < entries.length; start += INSERT_SLICE) {
          await trx
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
        let stale = trx.deleteFrom('child_entry').where('child', '=', child).where('seen_at', '<', staleBefore);
        if (entries.length > 0)
          stale = stale.where(
            'key',
            'not in',
            entries.map((entry) => entry.key),
          );
        const removed = await stale.executeTakeFirst();
        return Number(removed.numDeletedRows);
      }),
    removeChild: async (child) => Number((await db.deleteFrom('child_entry').where('child', '=', child).executeTakeFirst()).numDeletedRows),
    listAll: async () =>
      (
        await db
          .selectFrom('child_entry')
          .select(['key', 'child', 'cost', 'quality', 'description'])
          .orderBy('child')
          .orderBy('key')
          .execute()
      ).map(asPlace),
  };
}
