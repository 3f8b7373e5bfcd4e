import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One answer of the fixture server. */
export interface FixtureRoute {
  status?: number;
  /** The body; its ETag is its SHA-256 unless `etag` is given (`null`: no ETag at all). */
  body: string | Buffer;
  contentType?: string;
  etag?: string | null;
  lastModified?: string;
  /** Extra headers (e.g. `location` for a redirect). */
  headers?: Record<string, string>;
}

/** A request the server received. */
export interface FixtureRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** What it answered. */
  status: number;
}

/**
 * A registry stand-in on a free loopback port, serving fixture files by path (query included): `ETag` and
 * `Last-Modified` on every answer, 304 to a matching `If-None-Match` / `If-Modified-Since`, 404 for an unknown path.
 * With `requireAuthorization`, every request without exactly that `Authorization` value gets 401.
 */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  requests: FixtureRequest[];
  /** Serves `route` at `path` from now on (a publish, a change). */
  set(path: string, route: FixtureRoute): void;
  close(): Promise<void>;
}

/** Reads a fixture file under `test/fixtures/`. */
export const fixture = (relativePath: string): Promise<Buffer> => readFile(new URL(`./fixtures/${relativePath}`, import.meta.url));

/** Starts a {@link FixtureServer} with `routes` (path → answer). */
export async function startFixtureServer(
  routes: Record<string, FixtureRoute> = {},
  options: { requireAuthorization?: string } = {},
): Promise<FixtureServer> {
  const table = new Map(Object.entries(routes));
  const requests: FixtureRequest[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const record = (status: number) => requests.push({ method: req.method ?? '', path, headers: req.headers, status });
    if (options.requireAuthorization !== undefined && req.headers.authorization !== options.requireAuthorization) {
      record(401);
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="fixture"' }).end('Unauthorized');
      return;
    }
    const route = table.get(path);
    if (route === undefined) {
      record(404);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const body = typeof route.body === 'string' ? Buffer.from(route.body, 'utf8') : route.body;
    const etag = route.etag === null ? undefined : (route.etag ?? `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`);
    const lastModified = route.lastModified ?? 'Tue, 24 Nov 2026 10:00:00 GMT';
    const status = route.status ?? 200;
    const headers: Record<string, string> = {
      'content-type': route.contentType ?? 'application/json',
      'last-modified': lastModified,
      'cache-control': 'public, max-age=300',
      ...(etag ? { etag } : {}),
      ...route.headers,
    };
    const fresh =
      status === 200 &&
      ((etag !== undefined && req.headers['if-none-match'] === etag) ||
        (etag === undefined && req.headers['if-modified-since'] === lastModified));
    if (fresh) {
      record(304);
      res
        .writeHead(304, { etag: headers.etag ?? '', 'last-modified': lastModified, 'cache-control': headers['cache-control'] ?? '' })
        .end();
      return;
    }
    record(status);
    res.writeHead(status, headers).end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    set: (path, route) => table.set(path, route),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a `describe` block: `serve(routes, options)` starts a fixture server and `track(x)` registers anything with a
 * `close()` (a registry adapter, a `RegistryHttp`); every one is closed after each test.
 */
export function closedAfterEach(): {
  serve: typeof startFixtureServer;
  track: <T extends { close(): Promise<void> }>(item: T) => T;
} {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });
  const track = <T extends { close(): Promise<void> }>(item: T): T => {
    open.push(item);
    return item;
  };
  return { serve: async (...args) => track(await startFixtureServer(...args)), track };
}
