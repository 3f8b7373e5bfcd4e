import { createServiceApp, type Logger } from '@switchyard/service-kit';
import type { Express } from 'express';
import type { Kysely } from 'kysely';
import type { CatalogDatabase } from './db/schema.ts';
import { booksRouter } from './http/books.routes.ts';
import { welcomeRouter } from './http/welcome.routes.ts';

/** What the catalogue's HTTP app needs: the `catalog`-scoped database, a logger, and a database ping for `/readyz`. */
export interface CatalogAppDeps {
  db: Kysely<CatalogDatabase>;
  logger: Logger;
  ping: () => Promise<void>;
  bodyLimitBytes: number;
}

/** The book catalogue's express app (no globals: tests and the standalone launcher build their own). */
export function createCatalogApp(deps: CatalogAppDeps): Express {
  return createServiceApp({
    logger: deps.logger,
    readiness: [{ name: 'database', check: deps.ping }],
    bodyLimit: deps.bodyLimitBytes,
    routes: (app) => {
      app.use(welcomeRouter());
      app.use(booksRouter(deps.db));
    },
  });
}
