import { createServiceApp, type Logger } from '@switchyard/service-kit';
import type { Express } from 'express';
import { type ClientPlacesRoutesDeps, clientPlacesRouter } from './http/client-places.routes.ts';
import { type DirectoryRoutesDeps, directoryRouter } from './http/directory.routes.ts';
import { type PeerRoutesDeps, peerRouter } from './http/peer.routes.ts';
import { type PlaceRoutesDeps, placeRouter } from './http/place.routes.ts';

/** What peer-svc's HTTP app needs: the routes' dependencies, a logger, and a database ping for `/readyz`. */
export interface PeerAppDeps extends PeerRoutesDeps, PlaceRoutesDeps, ClientPlacesRoutesDeps, DirectoryRoutesDeps {
  logger: Logger;
  ping: () => Promise<void>;
}

/** peer-svc's express app (no globals: tests and the standalone launcher build their own). */
export function createPeerApp(deps: PeerAppDeps): Express {
  return createServiceApp({
    logger: deps.logger,
    readiness: [{ name: 'database', check: deps.ping }],
    // No JSON bodies here: every peer endpoint reads its form itself, bounded.
    jsonTypes: () => false,
    routes: (app) => {
      app.use(clientPlacesRouter(deps));
      app.use(directoryRouter(deps));
      app.use(placeRouter(deps));
      app.use(peerRouter(deps));
    },
  });
}
