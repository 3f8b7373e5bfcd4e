import { createServiceApp, JSON_API_ERRORS, type Logger, type ReadinessCheck } from '@switchyard/service-kit';
import type { Express, Router } from 'express';
import type { TrustProxy } from './limits-env.ts';

/** What the express app of either half of the dependency update API is built from. */
export interface DependencyApiAppOptions {
  logger: Logger;
  /** The database's ping, for `/readyz`. */
  ping: () => Promise<void>;
  /** More checks of `/readyz` after the database's (the bus's, non-fatal: `degraded` while the broker is away). */
  readiness?: readonly ReadinessCheck[];
  /** Largest body accepted, in bytes; larger bodies get 413. */
  bodyLimitBytes: number;
  /** The half's routes. */
  router: Router;
  /** Paths whose bodies the JSON parser leaves alone (their routes read them raw, e.g. to check a signature). */
  rawBodyPaths?: readonly string[];
  /**
   * Which proxies may name the client in `X-Forwarded-For` (express's `trust proxy`, which `req.ip` and so the
   * failed-authentication limit per address follow); default `false`, none: the connection's peer is the client.
   */
  trustProxy?: TrustProxy;
}

/**
 * The express app of either half of the dependency update API: bodies read as JSON whatever their content type (real
 * clients sent `application/json`, `application/vnd.api+json` or none), and errors as the API's JSON:API error
 * objects with a numeric `status` ({@link JSON_API_ERRORS}), as https://github.com/dependabot/api-docs answered;
 * `X-Forwarded-For` believed only from the proxies `trustProxy` names.
 */
export function createDependencyApiApp(options: DependencyApiAppOptions): Express {
  const app = createServiceApp({
    logger: options.logger,
    readiness: [{ name: 'database', check: options.ping }, ...(options.readiness ?? [])],
    bodyLimit: options.bodyLimitBytes,
    jsonTypes: (req) => !(options.rawBodyPaths ?? []).includes(req.path),
    errorFormat: JSON_API_ERRORS,
    routes: (app) => {
      app.use(options.router);
    },
  });
  const trust = options.trustProxy ?? false;
  // Read per request (req.ip), so setting it after the routes are mounted is in time.
  app.set('trust proxy', Array.isArray(trust) ? [...trust] : trust);
  return app;
}
