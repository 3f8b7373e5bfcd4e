import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JSON_API_ERRORS, type Listening, listen } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';
import { routeFor } from '../src/routing/route.policy.ts';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
const ETAG = '"badge-1"';

describe('the status badge behind the gateway', () => {
  let upstream: Server;
  /** The headers of each request that reached the stand-in release-svc, with its URL. */
  const seen: Array<{ url: string; headers: IncomingHttpHeaders }> = [];
  let gateway: Gateway;
  let http: Listening;
  let without: Gateway;
  let withoutHttp: Listening;

  beforeAll(async () => {
    // A stand-in release-svc answering as the badge route does: an SVG with its validators, 304 to its ETag.
    upstream = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      const headers = { etag: ETAG, 'cache-control': 'public, max-age=300', vary: 'Accept', 'access-control-allow-origin': '*' };
      if (req.headers['if-none-match'] === ETAG) {
        res.writeHead(304, headers).end();
        return;
      }
      res.writeHead(200, { ...headers, 'content-type': 'image/svg+xml; charset=utf-8' }).end(SVG);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const logger = pino({ level: 'silent' });
    gateway = createGateway(loadGatewayConfig({ RELEASE_SVC_URL: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` }), logger);
    http = await listen(gateway.handler, 0, '127.0.0.1');
    without = createGateway(loadGatewayConfig({}), logger);
    withoutHttp = await listen(without.handler, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await Promise.all([http.close(100), withoutHttp.close(100)]);
    await Promise.all([gateway.close(), without.close()]);
    upstream.closeAllConnections();
    upstream.close();
  });

  it('belongs to release-svc and the dependency update API, whose JSON:API errors the gateway writes on it', () => {
    const route = routeFor('/badges/status');
    expect(route?.service).toBe('release-svc');
    expect(route?.api).toBe('dependency-api');
    expect(route?.errors).toBe(JSON_API_ERRORS);
  });

  it('forwards the query and Accept, and returns the SVG with its content type and validators untouched', async () => {
    const res = await fetch(`${http.url}/badges/status?host=github&repo=acme/acme-cli`, { headers: { accept: 'image/svg+xml' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('etag')).toBe(ETAG);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('vary')).toBe('Accept');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.text()).toBe(SVG);
    const reached = seen.at(-1);
    expect(reached?.url).toBe('/badges/status?host=github&repo=acme/acme-cli');
    expect(reached?.headers.accept).toBe('image/svg+xml');
  });

  it('passes If-None-Match on and the 304 back', async () => {
    const res = await fetch(`${http.url}/badges/status?host=github&identifier=3104`, { headers: { 'if-none-match': ETAG } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(ETAG);
    expect(seen.at(-1)?.headers['if-none-match']).toBe(ETAG);
  });

  it('answers 503 as a JSON:API error when release-svc is not configured', async () => {
    const res = await fetch(`${withoutHttp.url}/badges/status?host=github&repo=acme/acme-cli`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({
      errors: [{ status: 503, title: 'Service Unavailable', detail: expect.stringContaining('RELEASE_SVC_URL') }],
    });
  });
});
