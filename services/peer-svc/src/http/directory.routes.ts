import { type RequestHandler, Router } from 'express';
import type { PlaceActions } from '../registry/place-actions.service.ts';
import { directoryView } from './directory-view.mapper.ts';

/** What the directory read API needs. */
export interface DirectoryRoutesDeps {
  placeActions: PlaceActions;
  /** Digest authentication middleware (401 with challenges). */
  authenticate: RequestHandler;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

/**
 * The operator's read API of the directory (this project's extension, not upstream's): `GET /emissary/directory`
 * (Digest, as the peer endpoints) answers `application/json` `PeerDirectory` of `@switchyard/contracts` ({@link directoryView}),
 * `Cache-Control: no-store`. The query string is ignored.
 */
export function directoryRouter(deps: DirectoryRoutesDeps): Router {
  const { placeActions, authenticate } = deps;
  const now = deps.now ?? Date.now;
  const router = Router();
  router.get('/emissary/directory', authenticate, async (_req, res) => {
    const { location, entries } = await placeActions.directory();
    res.set({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    res.status(200).json(directoryView(location, entries, now()));
  });
  return router;
}
