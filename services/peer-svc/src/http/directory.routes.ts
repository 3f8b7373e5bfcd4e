import type { PeerDirectory } from '@switchyard/contracts';
import { type RequestHandler, Router } from 'express';
import { groupByDataId } from '../directory/directory-entry.ts';
import type { EntryRow, EntryStore } from '../registry/entry-store.ts';
import type { Registrar } from '../registry/registrar.ts';

/** What the directory read API needs. */
export interface DirectoryRoutesDeps {
  entries: EntryStore;
  registrar: Registrar;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

/**
 * The directory as the read API shows it at `now` (epoch milliseconds): `location` and the entries grouped by data id,
 * cheapest first in each (`groupByDataId`), `age` in whole seconds since `seen_at` (never negative).
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

/**
 * The operator's read API of the directory (this project's extension, not upstream's): `GET /emissary/directory`
 * (Digest, as the peer endpoints) answers `application/json` `PeerDirectory` of `@switchyard/contracts`, `Cache-Control: no-store`. The
 * query string is ignored.
 */
export function directoryRouter(deps: DirectoryRoutesDeps): Router {
  const { entries, registrar, authenticate } = deps;
  const now = deps.now ?? Date.now;
  const router = Router();
  router.get('/emissary/directory', authenticate, async (_req, res) => {
    const view = directoryView(registrar.selfKey, await entries.listEntries(), now());
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.status(200).json(view);
  });
  return router;
}
