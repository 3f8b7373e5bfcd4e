import type { CodeHostView } from '@switchyard/code-host';
import { createServiceApp, type Logger, renderJsonApiErrors } from '@switchyard/service-kit';
import type { Express } from 'express';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from './db/schema.ts';
import { dependencyApiRouter } from './http/dependency-api.routes.ts';

/** What config-svc's HTTP app needs. */
export interface ConfigAppDeps {
  db: Kysely<ConfigDatabase>;
  view: CodeHostView;
  logger: Logger;
  ping: () => Promise<void>;
  bodyLimitBytes: number;
}

/**
 * config-svc's express app. Bodies are read as JSON whatever their content type (real clients sent
 * `application/json`, `application/vnd.api+json` or none: reference/dependabot.md 5.2), and errors use
 * the API's own envelope.
 */
export function createConfigApp(deps: ConfigAppDeps): Express {
  return createServiceApp({
    logger: deps.logger,
    readiness: [{ name: 'database', check: deps.ping }],
    bodyLimit: deps.bodyLimitBytes,
    jsonTypes: () => true,
    renderError: renderJsonApiErrors,
    routes: (app) => {
      app.use(dependencyApiRouter(deps.db, deps.view));
    },
  });
}
