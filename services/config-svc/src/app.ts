import { createDependencyApiApp, type DependencyApiDeps } from '@switchyard/dependency-api';
import { createOutboundGuard, type OutboundGuard, type SecretsKey } from '@switchyard/service-kit';
import { type Express, Router } from 'express';
import type { ConfigDatabase } from './db/schema.ts';
import { dependencyApiRouter } from './http/dependency-api.routes.ts';
import { registryCredentialsRouter } from './http/registry-credentials.routes.ts';

/** What config-svc's app needs besides the API's shared dependencies. */
export interface ConfigAppOptions {
  /** `SECRETS_KEY`, which registry credentials' secrets are sealed with; without it they cannot be stored (503). */
  secretsKey?: SecretsKey | undefined;
  /**
   * The outbound guard registry credentials' `base-url`s must pass (`REGISTRY_ALLOWED_HOSTS`); default one with no host
   * listed: public addresses only.
   */
  outboundGuard?: OutboundGuard;
}

/**
 * config-svc's express app: the dependency update API's app (`createDependencyApiApp`: bodies read as JSON whatever
 * their content type, see the README's "Wire behaviour"; errors in the API's own envelope) with config-svc's routes:
 * the API's, and this service's extension `registry-credentials`.
 */
export function createConfigApp(deps: DependencyApiDeps<ConfigDatabase>, options: ConfigAppOptions = {}): Express {
  const router = Router();
  router.use(dependencyApiRouter(deps.db, deps.view));
  router.use(registryCredentialsRouter(deps.db, deps.view, options.secretsKey, options.outboundGuard ?? createOutboundGuard()));
  return createDependencyApiApp({ ...deps, router });
}
