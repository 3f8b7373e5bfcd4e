import { createServiceApp, type Listening, type Logger, listen } from '@switchyard/service-kit';
import type { Express } from 'express';
import { mountAdminRoutes } from './admin.ts';
import { createRegistry } from './registry.ts';
import { type ParsedSeed, parseSeed, type SeedInput } from './seed.ts';
import { protocolRoutes } from './serve.ts';

/** Options of {@link createRegistryEmulator}. */
export interface RegistryEmulatorOptions {
  /** Packages and credentials (validated with `parseSeed`; a `ParsedSeed` is accepted as is). */
  seed: SeedInput | ParsedSeed;
  logger: Logger;
  /** The clock of the admin API (default release time of a publish, `modified` times), in epoch milliseconds (default `Date.now`). */
  now?: () => number;
}

/**
 * An express 5 app that answers like twelve public package registries, each under its own path prefix, from a seed:
 * `/npm/` (npm registry packuments), `/pypi/` (PyPI's JSON API), `/maven/` (a Maven 2 repository), `/rubygems/`
 * (RubyGems.org's API), `/crates/` (crates.io's sparse index and API), `/packagist/` (Packagist's p2 metadata),
 * `/docker/` (an OCI distribution registry with Docker's token auth), `/elm/` (Elm's package site), `/hex/` (hex.pm's
 * API), `/nuget/` (a NuGet v3 feed), `/goproxy/` (a GOPROXY) and `/terraform/` (the Terraform registry protocol), plus
 * the same under `/private/<prefix>/` for the seed's private packages, behind its credentials. Metadata answers carry
 * `ETag`, `Last-Modified` and `Cache-Control: public, max-age=300` and honour `If-None-Match`/`If-Modified-Since`.
 * `POST /admin/publish` and `POST /admin/yank` change the packages at once. `/healthz` and `/readyz` come from
 * service-kit; unknown routes and admin errors are RFC 9457 problems. Authorization headers are redacted from the logs.
 * @throws SeedError when the seed is invalid
 */
export function createRegistryEmulator(options: RegistryEmulatorOptions): Express {
  const seed = parseSeed(options.seed);
  const now = options.now ?? Date.now;
  const registry = createRegistry(seed, now);
  const logger = options.logger.child(
    { component: 'registry-emulator' },
    { redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } },
  );
  const startedAt = new Date(now());
  return createServiceApp({
    logger,
    readiness: [],
    routes: (app) => {
      app.set('trust proxy', false);
      app.use(protocolRoutes(registry, seed.credentials, startedAt));
      mountAdminRoutes(app, registry, now);
    },
  });
}

/**
 * Starts {@link createRegistryEmulator} on `host:port` (default `127.0.0.1`, port 0 = a free port); a client's base URL
 * is `<url>/<prefix>/` (e.g. `${url}/npm/`), or `<url>/private/<prefix>/` for the private registry. Close it with `close()`.
 * @throws SeedError when the seed is invalid; the listen error (e.g. `EADDRINUSE`)
 */
export function startRegistryEmulator(options: RegistryEmulatorOptions & { port?: number; host?: string }): Promise<Listening> {
  return listen(createRegistryEmulator(options), options.port ?? 0, options.host ?? '127.0.0.1');
}
