import { createDependencyApiApp, type DependencyApiDeps } from '@switchyard/dependency-api';
import type { Express } from 'express';
import type { ConfigDatabase } from './db/schema.ts';
import { dependencyApiRouter } from './http/dependency-api.routes.ts';

/**
 * config-svc's express app: the dependency update API's app (`createDependencyApiApp`: bodies read as JSON whatever
 * their content type, see the README's "Wire behaviour"; errors in the API's own envelope) with config-svc's routes.
 */
export function createConfigApp(deps: DependencyApiDeps<ConfigDatabase>): Express {
  return createDependencyApiApp({ ...deps, router: dependencyApiRouter(deps.db, deps.view) });
}
