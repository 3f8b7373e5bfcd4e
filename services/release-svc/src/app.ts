import { createDependencyApiApp, type DependencyApiDeps } from '@switchyard/dependency-api';
import type { Express } from 'express';
import type { ReleaseDatabase } from './db/schema.ts';
import { releaseRouter } from './http/release.routes.ts';

/** release-svc's express app: the dependency update API's app (`createDependencyApiApp`) with release-svc's routes. */
export function createReleaseApp(deps: DependencyApiDeps<ReleaseDatabase>): Express {
  return createDependencyApiApp({ ...deps, router: releaseRouter(deps.db, deps.view) });
}
