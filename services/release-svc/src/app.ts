import { createDependencyApiApp, type DependencyApiDeps } from '@switchyard/dependency-api';
import { type Express, Router } from 'express';
import type { ReleaseDatabase } from './db/schema.ts';
import { badgeRouter } from './http/badge.routes.ts';
import { ignoreRouter } from './http/ignore.routes.ts';
import { releaseRouter } from './http/release.routes.ts';
import { upgradeRouter } from './http/upgrade.routes.ts';
import { WEBHOOK_PATH, type WebhookOptions, webhookRouter } from './http/webhook.routes.ts';

/**
 * release-svc's express app: the dependency update API's app (`createDependencyApiApp`) with release-svc's routes, the
 * code host's webhooks (`POST /webhooks/github`, its body read raw for the signature) and the status badge
 * (`GET /badges/status`, without authentication), the upgrade pull requests (`POST`/`GET /repos/{id}/upgrade`) and the removal of ignores
 * (`DELETE /update_configs/{id}/ignores/{ignoreId}`).
 */
export function createReleaseApp(deps: DependencyApiDeps<ReleaseDatabase> & { webhooks: WebhookOptions }): Express {
  const router = Router()
    .use(webhookRouter(deps.db, deps.webhooks))
    .use(badgeRouter(deps.db))
    .use(releaseRouter(deps.db, deps.view))
    .use(upgradeRouter(deps.db, deps.view))
    .use(ignoreRouter(deps.db, deps.view));
  return createDependencyApiApp({ ...deps, router, rawBodyPaths: [WEBHOOK_PATH] });
}
