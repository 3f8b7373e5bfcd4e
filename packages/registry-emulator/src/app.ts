import { createServiceApp, type Listening, type Logger, listen } from '@switchyard/service-kit';
import type { Express } from 'express';
import { mountAdminRoutes } from './admin.ts';
import { openPersistentRegistry } from './persistence.ts';
import { createRegistry, type Registry } from './registry.ts';
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
  return emulatorApp(options, seed, createRegistry(seed, now), now);
}

function emulatorLogger(logger: Logger): Logger {
  return logger.child(
    { component: 'registry-emulator' },
    { redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } },
  );
}

function emulatorApp(options: RegistryEmulatorOptions, seed: ParsedSeed, registry: Registry, now: () => number): Express {
  const startedAt = new Date(now());
  return createServiceApp({
    logger: emulatorLogger(options.logger),
    readiness: [],
    routes: (app) => {
      app.set('trust proxy', false);
      app.use(protocolRoutes(registry, seed.credentials, startedAt));
      mountAdminRoutes(app, registry, now);
    },
  });
}

/** Options of {@link startRegistryEmulator}: those of {@link createRegistryEmulator}, and where it listens and keeps its state. */
export interface StartRegistryEmulatorOptions extends RegistryEmulatorOptions {
  /** Listening port (default 0: a free port). */
  port?: number;
  /** Listening address (default `127.0.0.1`). */
  host?: string;
  /**
   * A folder (created when missing) where everything the admin API changes (versions published, with their
   * dependencies and release times; yanks and their reasons; packages created, private ones included) is saved in
   * `registry-state.json`, and loaded again at the next start on top of the seed. A folder without that file starts
   * from the seed. Unset: everything stays in memory and nothing is written.
   */
  dataDir?: string;
}

/**
 * Starts {@link createRegistryEmulator} on `host:port` (default `127.0.0.1`, port 0 = a free port); a client's base URL
 * is `<url>/<prefix>/` (e.g. `${url}/npm/`), or `<url>/private/<prefix>/` for the private registry. With `dataDir`, the
 * changes saved there are loaded on top of the seed, and every change is saved there (about 150 ms after it, and at
 * `close()`, which resolves once the server is closed and the state written). Close it with `close()`.
 * @throws SeedError when the seed is invalid; with `dataDir`, an Error naming the state file when it is not valid and
 *   the file system's errors; the listen error (e.g. `EADDRINUSE`)
 */
export async function startRegistryEmulator(options: StartRegistryEmulatorOptions): Promise<Listening> {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  if (options.dataDir === undefined) return listen(createRegistryEmulator(options), port, host);
  const seed = parseSeed(options.seed);
  const now = options.now ?? Date.now;
  const state = openPersistentRegistry({ seed, dataDir: options.dataDir, logger: emulatorLogger(options.logger), now });
  let listening: Listening;
  try {
    listening = await listen(emulatorApp(options, seed, state.registry, now), port, host);
  } catch (error) {
    await state.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = (graceMs?: number) => {
    closing ??= listening.close(graceMs).finally(() => state.close());
    return closing;
  };
  return { ...listening, close, [Symbol.asyncDispose]: () => close() };
}
