import type { CodeHostView } from '@switchyard/code-host';
import { createServiceApp, type Logger, renderJsonApiErrors } from '@switchyard/service-kit';
import type { Express } from 'express';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from './db/schema.ts';
import { releaseRouter } from './http/release.routes.ts';

/** What release-svc's HTTP app needs. */
export interface ReleaseAppDeps {
  db: Kysely<ReleaseDatabase>;
  view: CodeHostView;
  logger: Logger;
  ping: () => Promise<void>;
  bodyLimitBytes: number;
}

/** release-svc's express app: bodies read as JSON whatever their content type, errors in the dependency API's envelope. */
export function createReleaseApp(deps: ReleaseAppDeps): Express {
  return createServiceApp({
    logger: deps.logger,
    readiness: [{ name: 'database', check: deps.ping }],
    bodyLimit: deps.bodyLimitBytes,
    jsonTypes: () => true,
    renderError: renderJsonApiErrors,
    routes: (app) => {
      app.use(releaseRouter(deps.db, deps.view));
    },
  });
}
