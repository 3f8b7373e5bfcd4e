import { createServer, type IncomingHttpHeaders, request as rawRequest, type Server, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Listening, listen } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/**
 * Sends one request with node:http, the path exactly as written (fetch would resolve dot segments), a body
 * with Content-Length or chunked, and reads the whole answer.
 */
function send(baseUrl: string, method: string, path: string, body?: { bytes: number; chunked?: boolean }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const headers: Record<string, string> = { 'x-request-id': 'format-test-1' };
    if (body && !body.chunked) headers['content-length'] = String(body.bytes);
    let answered = false;
    const req = rawRequest({ hostname, port, path, method, headers, agent: false }, async (res) => {
      answered = true;
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
    });
    // The gateway answers a body over its limit early and closes; the answer is what counts.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    if (!body) {
      req.end();
      return;
    }
    for (let sent = 0; sent < body.bytes; sent += 100) req.write('y'.repeat(Math.min(100, body.bytes - sent)));
    req.end();
  });
}

/** A stand-in for every upstream: ready, and answering as the path says (hang, break the connection, its own 404). */
async function startUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    const url = req.url ?? '/';
    if (url === '/readyz') res.end('{"status":"ready"}');
    else if (url.includes('/hang')) return;
    else if (url.includes('/break')) req.socket.destroy();
    else if (url.includes('/missing')) {
      res.writeHead(404, { 'content-type': 'x-upstream/own' });
      res.end('the upstream says no');
    } else res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

type Format = 'json-api' | 'text' | 'problem';

/** One API behind the gateway, the format its clients expect errors in, and paths of it that reach each upstream case. */
interface ApiCase {
  api: string;
  service: string;
  format: Format;
  /** A path the upstream answers 200. */
  plain: string;
  hang: string;
  broken: string;
  missing: string;
  dotted: string;
}

const apis: ApiCase[] = [
  {
    api: 'dependency API (config-svc)',
    service: 'config-svc',
    format: 'json-api',
    plain: '/update_configs',
    hang: '/update_configs/hang',
    broken: '/update_configs/break',
    missing: '/update_configs/missing',
    dotted: '/update_configs/../books',
  },
  {
    api: 'dependency API (release-svc)',
    service: 'release-svc',
    format: 'json-api',
    plain: '/release_notifications/private',
    hang: '/release_notifications/hang',
    broken: '/pull_request_jobs/break',
    missing: '/pull_request_jobs/missing',
    dotted: '/release_notifications/%2e%2e/books',
  },
  {
    api: 'peer endpoints (peer-svc)',
    service: 'peer-svc',
    format: 'text',
    plain: '/WorkSpaceClientEnqueue.action',
    hang: '/emissary/hang',
    broken: '/emissary/break',
    missing: '/emissary/missing',
    dotted: '/emissary/../books',
  },
  {
    api: 'catalogue (catalog-svc)',
    service: 'catalog-svc',
    format: 'problem',
    plain: '/books',
    hang: '/books/hang',
    broken: '/books/break',
    missing: '/books/missing',
    dotted: '/books/../accounts',
  },
];

/** Asserts that `res` is the gateway's `status` error written in `format`, with a detail matching `detail`; returns the detail. */
function expectError(res: Answer, format: Format, status: number, detail: RegExp, path: string): string {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['x-request-id']).toBe('format-test-1');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['cache-control']).toBe('no-store');
  const title = STATUS_CODES[status];
  if (format === 'json-api') {
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.text);
    expect(body).toEqual({ errors: [{ status, title, detail: expect.stringMatching(detail) }] });
    return body.errors[0].detail;
  }
  if (format === 'text') {
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toMatch(detail);
    expect(res.text).not.toMatch(/^[{[]/);
    return res.text;
  }
  expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const body = JSON.parse(res.text);
  expect(body).toEqual({
    type: 'about:blank',
    title,
    status,
    detail: expect.stringMatching(detail),
    instance: path,
    requestId: 'format-test-1',
  });
  return body.detail;
}

describe("the gateway's own errors, in the error format of the API a path belongs to", () => {
  const logger = pino({ level: 'silent' });
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  const gateways: Gateway[] = [];
  const servers: Listening[] = [];
  /** Every API's service at the stand-in upstream. */
  let working: string;
  /** Every API's service at a port where nothing listens. */
  let refusing: string;
  /** No service configured at all. */
  let empty: string;

  const start = async (env: Record<string, string>): Promise<string> => {
    const gateway = createGateway(loadGatewayConfig({ UPSTREAM_TIMEOUT_MS: '300', BODY_LIMIT_BYTES: '2048', ...env }), logger);
    gateways.push(gateway);
    const http = await listen(gateway.handler, 0, '127.0.0.1');
    servers.push(http);
    return http.url;
  };
  const everywhere = (url: string) => ({ CATALOG_SVC_URL: url, CONFIG_SVC_URL: url, RELEASE_SVC_URL: url, PEER_SVC_URL: url });

  beforeAll(async () => {
    upstream = await startUpstream();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    working = await start(everywhere(upstream.url));
    refusing = await start(everywhere(`http://127.0.0.1:${deadPort}`));
    empty = await start({});
  });
  afterAll(async () => {
    await Promise.all(servers.map((http) => http.close(100)));
    await Promise.all(gateways.map((gateway) => gateway.close()));
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  describe.each(apis)('$api: $format', (api) => {
    it('502 when the upstream refuses the connection', async () => {
      const res = await send(refusing, 'GET', api.plain);
      const detail = expectError(res, api.format, 502, new RegExp(`^${api.service} is unreachable$`), api.plain);
      expect(detail).not.toMatch(/127\.0\.0\.1/);
    });

    it('502 when the upstream breaks the connection', async () => {
      const res = await send(working, 'GET', api.broken);
      expectError(res, api.format, 502, new RegExp(`^${api.service} failed to answer$`), api.broken);
    });

    it('504 when the upstream does not answer in time', async () => {
      const res = await send(working, 'GET', api.hang);
      expectError(res, api.format, 504, new RegExp(`^${api.service} did not answer in time$`), api.hang);
    });

    it('413 for a body over the limit, declared or chunked', async () => {
      const declared = await send(working, 'POST', api.plain, { bytes: 3_000 });
      expectError(declared, api.format, 413, /^Request body is larger than 2048 bytes$/, api.plain);
      expect(declared.headers.connection).toBe('close');
      const chunked = await send(working, 'POST', api.plain, { bytes: 3_000, chunked: true });
      expectError(chunked, api.format, 413, /^Request body is larger than 2048 bytes$/, api.plain);
    });

    it('400 for a path with dot segments', async () => {
      const res = await send(working, 'GET', api.dotted);
      expectError(res, api.format, 400, /dot segments/, api.dotted);
    });

    it('503 with Retry-After when its service is not configured', async () => {
      const res = await send(empty, 'GET', api.plain);
      expectError(res, api.format, 503, new RegExp(`^${api.service} is not available behind this gateway`), api.plain);
      expect(res.headers['retry-after']).toBe('60');
    });

    it("passes the upstream's own 404 through unchanged (the gateway answers no 404 of its own on a path an upstream owns)", async () => {
      const res = await send(working, 'GET', api.missing);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('x-upstream/own');
      expect(res.text).toBe('the upstream says no');
    });
  });

  it('answers a path no service owns with a 404 problem, whatever API it resembles', async () => {
    for (const path of ['/nope', '/accountsx', '/emissary', '/release_notifications']) {
      const res = await send(working, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toBe('application/problem+json; charset=utf-8');
      expect(JSON.parse(res.text)).toMatchObject({ status: 404, title: 'Not Found', instance: path });
    }
  });
});

describe('gateway /readyz with an upstream down', () => {
  const logger = pino({ level: 'silent' });
  let gateway: Gateway;
  let http: Listening;
  let notReady: Server;
  let deadPort: number;
  let notReadyPort: number;

  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    // Answers its /readyz with 503 and its own address in the body, which the gateway must not repeat.
    notReady = createServer((req, res) => {
      req.resume();
      res.writeHead(req.url === '/readyz' ? 503 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'not ready', at: `127.0.0.1:${notReadyPort}` }));
    });
    await new Promise<void>((resolve) => notReady.listen(0, '127.0.0.1', resolve));
    notReadyPort = (notReady.address() as AddressInfo).port;
    gateway = createGateway(
      loadGatewayConfig({
        CONFIG_SVC_URL: `http://127.0.0.1:${deadPort}`,
        CATALOG_SVC_URL: `http://127.0.0.1:${notReadyPort}/some/path`,
      }),
      logger,
    );
    http = await listen(gateway.handler, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await http.close(100);
    await gateway.close();
    notReady.closeAllConnections();
    notReady.close();
  });

  it('names each service and a coarse state, never an upstream address, port or URL', async () => {
    const res = await fetch(`${http.url}/readyz`);
    const text = await res.text();
    expect(res.status).toBe(503);
    expect(text).not.toContain('127.0.0.1:');
    expect(text).not.toContain(String(deadPort));
    expect(text).not.toContain(String(notReadyPort));
    expect(text).not.toContain('/some/path');
    expect(text).not.toMatch(/ECONNREFUSED|connect /);
    expect(JSON.parse(text).checks).toEqual({ 'config-svc': 'unreachable', 'catalog-svc': 'not ready' });
  });
});
