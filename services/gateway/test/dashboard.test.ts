import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as rawRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { ConfigError, createLogger } from '@switchyard/service-kit';
import { waitFor } from '@switchyard/service-kit/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { type RunningGateway, startGateway } from '../src/start.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/ui/assets/index-Ab12Cd34.js"></script></head><body></body></html>';
const SCRIPT = 'console.log("dashboard");';
const STYLE = 'body { margin: 0 }';
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; " +
  "manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const TOKEN = 'tok-dashboard-secret-7f3a91';

/** A response read whole, redirects not followed. */
async function get(base: string, path: string, init: RequestInit = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(new URL(path, base), { redirect: 'manual', ...init });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * Sends `GET path` exactly as written, with `headers` alone (fetch would resolve `..` and normalise the path first, and
 * adds `Cache-Control: no-cache` to a conditional request).
 */
function raw(base: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const req = rawRequest({ hostname, port, path, headers }, async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve({ status: res.statusCode ?? 0, text });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every header of the dashboard's answers, whatever the answer. */
function expectSecurityHeaders(headers: Headers, what: string): void {
  expect(headers.get('content-security-policy'), what).toBe(CSP);
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
}

describe('the dashboard at /ui (DASHBOARD_DIR)', () => {
  const root = mkdtempSync(join(tmpdir(), 'gateway-dashboard-'));
  const dist = join(root, 'dist');
  const unbuilt = join(root, 'unbuilt');
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  let gateway: RunningGateway;
  let unconfigured: RunningGateway;
  let empty: RunningGateway;

  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'), { recursive: true });
    mkdirSync(unbuilt);
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
    writeFileSync(join(dist, 'assets', 'index-Ef56Gh78.css'), STYLE);
    writeFileSync(join(dist, 'robots.txt'), 'User-agent: *\nDisallow: /\n');
    writeFileSync(join(dist, '.env'), 'SECRET=1\n');
    writeFileSync(join(root, 'outside.txt'), 'outside the dashboard');
    const logger = createLogger('gateway', 'info', logStream);
    const base = { HOST: '127.0.0.1', PORT: '0' };
    gateway = await startGateway(loadGatewayConfig({ ...base, DASHBOARD_DIR: dist }), logger);
    unconfigured = await startGateway(loadGatewayConfig(base), pino({ level: 'silent' }));
    empty = await startGateway(loadGatewayConfig({ ...base, DASHBOARD_DIR: unbuilt }), logger);
  });
  afterAll(async () => {
    await Promise.all([gateway?.close(), unconfigured?.close(), empty?.close()]);
    rmSync(root, { recursive: true, force: true });
  });

  it('redirects /ui to /ui/ with 308, keeping the query string', async () => {
    const bare = await get(gateway.url, '/ui');
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/ui/');
    expectSecurityHeaders(bare.headers, '/ui');
    const withQuery = await get(gateway.url, '/ui?tab=repos');
    expect(withQuery.status).toBe(308);
    expect(withQuery.headers.get('location')).toBe('/ui/?tab=repos');
  });

  it('answers /ui/ with index.html, revalidated on every use (no-cache, ETag, Last-Modified)', async () => {
    const page = await get(gateway.url, '/ui/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toBe(INDEX);
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('last-modified')).toBeTruthy();
    expectSecurityHeaders(page.headers, '/ui/');
    const etag = page.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await raw(gateway.url, '/ui/', { 'if-none-match': etag as string })).status).toBe(304);
  });

  it('serves the content-hashed assets with a year of immutable caching', async () => {
    const script = await get(gateway.url, '/ui/assets/index-Ab12Cd34.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript|^application\/javascript/);
    expect(script.text).toBe(SCRIPT);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expectSecurityHeaders(script.headers, 'script');
    const style = await get(gateway.url, '/ui/assets/index-Ef56Gh78.css');
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
    expect(style.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it("answers the app's client-side routes (no dot in the last segment) with index.html", async () => {
    for (const path of ['/ui/accounts/2001/repos', '/ui/accounts/2001/repos?page=2', '/ui/update-configs/7/', '/ui/settings']) {
      const page = await get(gateway.url, path);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(page.text, path).toBe(INDEX);
      expect(page.headers.get('cache-control'), path).toBe('no-cache');
      expectSecurityHeaders(page.headers, path);
    }
  });

  it('serves other files of the folder, revalidated on every use', async () => {
    const robots = await get(gateway.url, '/ui/robots.txt');
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(robots.headers.get('cache-control')).toBe('no-cache');
    expectSecurityHeaders(robots.headers, '/ui/robots.txt');
  });

  it('answers 404 problem+json, never index.html, for a missing file (a dot in the last segment) or anything missing under assets/', async () => {
    for (const path of ['/ui/assets/nope.js', '/ui/favicon.ico', '/ui/accounts/v1.2', '/ui/assets/no-extension', '/ui/.env']) {
      const res = await get(gateway.url, path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.text, path).not.toContain('<html');
      expect(JSON.parse(res.text), path).toMatchObject({ status: 404, title: 'Not Found', instance: path });
      expectSecurityHeaders(res.headers, path);
    }
  });

  it('never serves a file outside the folder: 403 problem+json for a path that climbs out', async () => {
    for (const path of ['/ui/../outside.txt', '/ui/..%2foutside.txt', '/ui/assets/..%2f..%2foutside.txt', '/ui/%2e%2e/outside.txt']) {
      const res = await raw(gateway.url, path);
      expect(res.status, path).toBe(403);
      expect(JSON.parse(res.text), path).toMatchObject({ status: 403, title: 'Forbidden' });
      expect(res.text, path).not.toContain('outside the dashboard');
    }
  });

  it('answers HEAD as GET without a body', async () => {
    for (const path of ['/ui/', '/ui/accounts/2001', '/ui/assets/index-Ab12Cd34.js']) {
      const res = await get(gateway.url, path, { method: 'HEAD' });
      expect(res.status, path).toBe(200);
      expect(res.text, path).toBe('');
      expectSecurityHeaders(res.headers, `HEAD ${path}`);
    }
  });

  it('answers other methods 405 problem+json with Allow: GET, HEAD', async () => {
    for (const [method, path] of [
      ['POST', '/ui/'],
      ['PUT', '/ui/assets/index-Ab12Cd34.js'],
      ['DELETE', '/ui/accounts/2001'],
      ['PATCH', '/ui'],
      ['OPTIONS', '/ui/favicon.ico'],
    ] as const) {
      const res = await get(gateway.url, path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('allow'), `${method} ${path}`).toBe('GET, HEAD');
      expect(res.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/problem\+json/);
      expectSecurityHeaders(res.headers, `${method} ${path}`);
    }
  });

  it('leaves paths that only begin with "/ui" to the usual 404', async () => {
    const res = await get(gateway.url, '/uix');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).detail).toBe('No route for GET /uix');
    expect(res.headers.get('content-security-policy')).toBeNull();
  });

  it('without DASHBOARD_DIR: every /ui path answers 404 problem+json saying the dashboard is not configured', async () => {
    for (const [method, path] of [
      ['GET', '/ui'],
      ['GET', '/ui/'],
      ['GET', '/ui/accounts/2001/repos'],
      ['GET', '/ui/assets/index-Ab12Cd34.js'],
      ['POST', '/ui/'],
    ] as const) {
      const res = await get(unconfigured.url, path, { method });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(res.text).detail, path).toBe('The dashboard is not served by this gateway: DASHBOARD_DIR is not set');
      expectSecurityHeaders(res.headers, `${method} ${path}`);
    }
  });

  it('with a DASHBOARD_DIR not built yet: warns at start, and /ui/ answers 404 problem+json saying so', async () => {
    expect(logLines.some((line) => line.includes('"level":40') && line.includes('DASHBOARD_DIR holds no index.html'))).toBe(true);
    const res = await get(empty.url, '/ui/accounts');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text).detail).toBe('The dashboard is not built: DASHBOARD_DIR holds no index.html');
    expectSecurityHeaders(res.headers, 'unbuilt');
  });

  it('refuses a DASHBOARD_DIR that is not an absolute path', () => {
    expect(() => loadGatewayConfig({ DASHBOARD_DIR: 'apps/dashboard/dist' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ DASHBOARD_DIR: 'dist' })).toThrow(/DASHBOARD_DIR: must be an absolute path/);
    expect(loadGatewayConfig({ DASHBOARD_DIR: '' }).DASHBOARD_DIR).toBeUndefined();
  });

  it("never writes the dashboard's Authorization token to the log", async () => {
    const authorization = `Personal ${TOKEN}`;
    const paths = ['/ui/', '/ui/accounts/2001/repos', '/ui/assets/index-Ab12Cd34.js', '/ui/assets/nope.js', '/ui', '/accounts', '/nope'];
    for (const path of paths) {
      await get(gateway.url, path, { headers: { authorization, cookie: `session=${TOKEN}`, 'x-request-id': `log-${path}` } });
    }
    await get(gateway.url, '/ui/', { method: 'POST', headers: { authorization, 'x-request-id': 'log-post' } });
    // Each request is logged once its answer is finished: wait for the last one.
    await waitFor(async () => logLines.some((line) => line.includes('"log-post"')));
    const log = logLines.join('');
    for (const path of paths) expect(log, path).toContain(`"log-${path}"`);
    expect(log).toContain('"authorization":"[redacted]"');
    expect(log).not.toContain(TOKEN);
  });
});
