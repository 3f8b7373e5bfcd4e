import type { PeerDirectory } from '@switchyard/contracts';
import { groupByDataId } from '../directory/directory-entry.policy.ts';
import type { EntryRow } from '../registry/directory-entry.table.ts';

/**
 * The directory as the read API shows it at `now` (epoch milliseconds): `PeerDirectory` of `@switchyard/contracts`,
 * `location` and the entries grouped by data id, cheapest first in each (`groupByDataId`), `age` in whole seconds since
 * `seen_at` (never negative).
 */
export function directoryView(location: string, rows: readonly EntryRow[], now: number): PeerDirectory {
  return {
    location,
    entry_lists: groupByDataId(rows, (row) => row.data_id).map((group) => ({
      data_id: group.dataId,
      entries: group.entries.map((row) => ({
        key: row.key,
        description: row.description,
        cost: row.cost,
        quality: row.quality,
        expense: row.expense,
        source: row.source,
        age: Math.max(0, Math.floor((now - row.seen_at.getTime()) / 1000)),
      })),
    })),
  };
}
