import { bookApiSuite } from '@switchyard/catalog-svc/test/api-suite';
import { request } from '@switchyard/service-kit/testing';
import { describe, expect, it } from 'vitest';
import { gatewayUrl } from './stack.ts';

/** The compose stack's gateway: its own routes, and the book catalogue's whole contract through it. */
describe('the compose stack through its gateway', () => {
  it('is ready only with every upstream ready: /readyz lists each service', async () => {
    const res = await request(gatewayUrl, 'GET', '/readyz');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      status: 'ready',
      checks: { 'catalog-svc': 'ok', 'config-svc': 'ok', 'release-svc': 'ok', 'peer-svc': 'ok' },
    });
    expect((await request(gatewayUrl, 'GET', '/healthz')).status).toBe(200);
  });

  it('serves Prometheus metrics that count the requests it forwarded', async () => {
    await request(gatewayUrl, 'GET', '/books?limit=1');
    const res = await request(gatewayUrl, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toMatch(/^gateway_requests_total\{[^}]*service="catalog-svc"[^}]*\} [1-9]/m);
    expect(res.text).toMatch(/^# TYPE gateway_request_duration_seconds histogram$/m);
  });

  it('serves the OpenAPI 3.1 document of all three APIs, and its documentation page', async () => {
    const res = await request(gatewayUrl, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
    for (const path of ['/books', '/update_configs', '/release_notifications/private', '/pull_request_jobs'])
      expect(Object.keys(res.body.paths)).toContain(path);
    const docs = await request(gatewayUrl, 'GET', '/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(docs.text).toContain('/docs/assets/swagger-ui-bundle.js');
    // Swagger UI is served from the image itself (no CDN), and points at the document above.
    const bundle = await request(gatewayUrl, 'GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await request(gatewayUrl, 'GET', '/docs/init.js')).text).toContain("url: '/openapi.json'");
  });

  it('serves the dashboard its image holds at /ui/, under a strict Content-Security-Policy', async () => {
    const page = await request(gatewayUrl, 'GET', '/ui/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';/);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const script = /src="(\/ui\/assets\/[^"]+\.js)"/.exec(page.text)?.[1];
    expect(script, page.text).toBeDefined();
    const asset = await request(gatewayUrl, 'GET', script as string);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 problem+json for a path no service owns', async () => {
    const res = await request(gatewayUrl, 'GET', '/no-such-api');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  bookApiSuite(() => gatewayUrl);
});
