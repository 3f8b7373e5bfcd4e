import { createServer, type IncomingMessage, request as rawRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Listening, listen } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';

/** Sends a request exactly as written (fetch would normalise the path and drop `connection`). */
function raw(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage['headers']; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = rawRequest({ hostname, port, path, headers }, async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
    });
    req.on('error', reject);
    req.end();
  });
}

/** A stand-in upstream that records what reached it and answers as the path says. */
async function startUpstream(): Promise<{ server: Server; url: string; seen: Array<{ req: IncomingMessage; body: string }> }> {
  const seen: Array<{ req: IncomingMessage; body: string }> = [];
  const server = createServer(async (req, res) => {
    let body = '';
    try {
      for await (const chunk of req) body += chunk;
    } catch {
      return; // the gateway gave up on this request (its body was too large)
    }
    seen.push({ req, body });
    if (req.url === '/readyz') {
      res.end('{"status":"ready"}');
      return;
    }
    if (req.url?.startsWith('/books/hang')) return; // never answers
    if (req.url?.startsWith('/books/stream')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'], connection: 'x-private', 'x-private': 'secret' });
      for (let i = 0; i < 100; i++) res.write(`chunk ${i}\n`);
      res.end();
      return;
    }
    res.writeHead(201, { 'content-type': 'application/json', etag: '"7"' });
    res.end(JSON.stringify({ method: req.method, url: req.url, length: body.length }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('gateway', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gateway: Gateway;
  let http: Listening;
  let refusing: Gateway;
  let refusingHttp: Listening;

  beforeAll(async () => {
    upstream = await startUpstream();
    const logger = pino({ level: 'silent' });
    gateway = createGateway(
      loadGatewayConfig({ CATALOG_SVC_URL: upstream.url, UPSTREAM_TIMEOUT_MS: '300', BODY_LIMIT_BYTES: '2048' }),
      logger,
    );
    http = await listen(gateway.handler, 0, '127.0.0.1');
    // An upstream URL where nothing listens: the port of a server that was just closed.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    refusing = createGateway(loadGatewayConfig({ CATALOG_SVC_URL: `http://127.0.0.1:${deadPort}` }), logger);
    refusingHttp = await listen(refusing.handler, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await Promise.all([http.close(100), refusingHttp.close(100)]);
    await Promise.all([gateway.close(), refusing.close()]);
    upstream.server.closeAllConnections();
    upstream.server.close();
  });

  it('forwards method, path, query and body, and returns the upstream status, headers and body', async () => {
    const res = await request(http.url, 'POST', '/books?limit=2&x=%2F', { body: { Name: 'x' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"7"');
    expect(res.body).toEqual({ method: 'POST', url: '/books?limit=2&x=%2F', length: 12 });
  });

  it('sets x-forwarded-* and propagates or generates x-request-id', async () => {
    const given = await request(http.url, 'GET', '/books/1', { headers: { 'x-request-id': 'trace-42', 'x-forwarded-for': '203.0.113.9' } });
    const reached = upstream.seen.at(-1)?.req.headers ?? {};
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    expect(reached['x-request-id']).toBe('trace-42');
    expect(reached['x-forwarded-for']).toBe('203.0.113.9, 127.0.0.1');
    expect(reached['x-forwarded-proto']).toBe('http');
    expect(reached['x-forwarded-host']).toBe(new URL(http.url).host);
    const generated = await request(http.url, 'GET', '/books/1');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(upstream.seen.at(-1)?.req.headers['x-request-id']).toBe(generated.headers.get('x-request-id'));
  });

  it('streams a chunked response and drops hop-by-hop headers both ways', async () => {
    const res = await raw(http.url, '/books/stream', { connection: 'keep-alive, x-hop', 'x-hop': 'no', 'x-end': 'yes' });
    expect(res.status).toBe(200);
    expect(res.text.split('\n')).toHaveLength(101);
    expect(res.headers['x-private']).toBeUndefined();
    expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    const reached = upstream.seen.at(-1)?.req.headers ?? {};
    expect(reached['x-hop']).toBeUndefined();
    expect(reached['x-end']).toBe('yes');
  });

  it('refuses bodies over the limit, declared or chunked, with 413', async () => {
    const declared = await request(http.url, 'POST', '/books', {
      body: 'x'.repeat(3_000),
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect(declared.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 30; i++) controller.enqueue(new TextEncoder().encode('y'.repeat(100)));
        controller.close();
      },
    });
    const chunked = await fetch(`${http.url}/books`, { method: 'POST', body: chunks, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as { detail: string }).detail).toMatch(/larger than 2048 bytes/);
  });

  it('answers 504 when the upstream hangs and 502 when it refuses', async () => {
    const hung = await request(http.url, 'GET', '/books/hang');
    expect(hung.status).toBe(504);
    expect(hung.body).toMatchObject({ type: 'about:blank', title: 'Gateway Timeout', status: 504, instance: '/books/hang' });
    const refused = await request(refusingHttp.url, 'GET', '/books');
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ title: 'Bad Gateway', detail: 'catalog-svc is unreachable' });
  });

  it('answers 503 for a service that is not configured and 404 for unknown paths', async () => {
    const missing = await request(http.url, 'GET', '/accounts');
    expect(missing.status).toBe(503);
    // `/accounts` belongs to the dependency update API: its JSON:API error envelope (gateway-error-formats.test.ts).
    expect(missing.body.errors[0].detail).toContain('CONFIG_SVC_URL');
    const unknown = await request(http.url, 'GET', '/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('refuses dot-segment paths that could reach another service', async () => {
    for (const path of ['/books/%2e%2e/accounts', '/books/../accounts']) {
      const res = await raw(http.url, path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.text).detail).toMatch(/dot segments/);
    }
  });

  it('is ready when its upstreams are, and not when one refuses', async () => {
    expect((await request(http.url, 'GET', '/readyz')).body).toEqual({ status: 'ready', checks: { 'catalog-svc': 'ok' } });
    const notReady = await request(refusingHttp.url, 'GET', '/readyz');
    expect(notReady.status).toBe(503);
    expect((await request(refusingHttp.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('serves metrics, the OpenAPI document and the docs page', async () => {
    const metrics = await request(http.url, 'GET', '/metrics');
    expect(metrics.text).toMatch(/gateway_requests_total\{service="catalog-svc",method="POST",status="201"\} \d+/);
    const openapi = await request(http.url, 'GET', '/openapi.json');
    expect(openapi.body.paths['/books']).toBeDefined();
    const docs = await request(http.url, 'GET', '/docs');
    expect(docs.text).toContain('/docs/assets/swagger-ui-bundle.js');
    expect((await fetch(`${http.url}/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  });
});
