import type { PackageManager } from './package-managers.ts';
import type { Registry, StoredPackage, StoredVersion } from './registry.ts';

/**
 * What a protocol route answers. A 200 with `lastModified` is a metadata (or artifact) answer: it gets `ETag` (a hash of
 * the body), `Last-Modified`, `Cache-Control` and is subject to `If-None-Match`/`If-Modified-Since`. Anything else is
 * written as it is (errors in the registry's own style).
 */
export interface Answer {
  status: number;
  contentType: string;
  body: string | Buffer;
  lastModified?: Date;
  headers?: Record<string, string>;
}

/** Where a protocol request is served: the registries, which scope (public or `/private`), and its base URL. */
export interface ProtocolContext {
  registry: Registry;
  privateScope: boolean;
  /** Absolute URL of the protocol's root as the client reached it, no trailing slash (`http://host:8091/private/npm`). */
  baseUrl: string;
  /** When the emulator started: the `Last-Modified` of fixed documents (`config.json`, `packages.json`). */
  startedAt: Date;
  /**
   * What a protocol may read of the request beyond its path: its `Authorization` header and its query (an OCI
   * registry's token endpoint and its Bearer challenge read them; the other protocols do not).
   */
  request?: { authorization: string | undefined; query: URLSearchParams };
}

/** One registry protocol, served under `/<prefix>/` and `/private/<prefix>/`. */
export interface Protocol {
  readonly prefix: string;
  readonly packageManager: PackageManager;
  /**
   * What a client's base URL adds after `/<prefix>/` (default none): crates.io's `index/` (the sparse index's root),
   * NuGet's `v3/index.json` (the service index). See `emulatorRegistryUrls`.
   */
  readonly clientPath?: string;
  /**
   * Answers a GET (or HEAD) of `path`: the request path below the prefix, starting with `/`, still percent-encoded,
   * without the query.
   */
  answer(path: string, context: ProtocolContext): Answer;
  /** An error in the registry's own style (404 `Not found`, 401, 403, 405). */
  error(status: number, message: string): Answer;
  /** How this protocol shows one version of a package (the admin API's publish answer). */
  versionEntry(pkg: StoredPackage, version: StoredVersion, context: ProtocolContext): unknown;
  /** The URL of the package's metadata document. */
  metadataUrl(pkg: StoredPackage, context: ProtocolContext): string;
}

/** A JSON answer (`application/json`). */
export function json(status: number, value: unknown, lastModified?: Date, contentType = 'application/json'): Answer {
  return { status, contentType, body: JSON.stringify(value), ...(lastModified ? { lastModified } : {}) };
}

/** A plain-text answer. */
export function text(status: number, body: string, lastModified?: Date, contentType = 'text/plain; charset=utf-8'): Answer {
  return { status, contentType, body, ...(lastModified ? { lastModified } : {}) };
}

/** The path's segments, percent-decoded; undefined when a segment is not valid percent-encoding. */
export function segmentsOf(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}

/** Escapes text for XML content. */
export function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
