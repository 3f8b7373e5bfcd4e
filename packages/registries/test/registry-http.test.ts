import { describe, expect, it } from 'vitest';
import { createRegistryHttp } from '../src/http/registry-http.ts';
import { RegistryError } from '../src/port.ts';
import { closedAfterEach } from './fixture-server.ts';

describe('registry HTTP', () => {
  const { serve, track } = closedAfterEach();
  const client = (options: Parameters<typeof createRegistryHttp>[0]) => {
    const http = createRegistryHttp({ retryDelayMs: 10, ...options });
    track(http);
    return http;
  };

  it('revalidates every time despite max-age: an unchanged answer is a 304, a changed one is downloaded again', async () => {
    const server = await serve({ '/pkg': { body: '{"v":1}' } });
    const http = client({ baseUrl: server.url });
    expect((await http.get('pkg')).body).toBe('{"v":1}');
    expect((await http.get('pkg')).body).toBe('{"v":1}');
    expect(http.stats()).toEqual({ requests: 2, notModified: 1, fullDownloads: 1 });
    expect(server.requests.map((r) => [r.status, r.headers['if-none-match'] !== undefined])).toEqual([
      [200, false],
      [304, true],
    ]);
    server.set('/pkg', { body: '{"v":2}' });
    expect((await http.get('pkg')).body).toBe('{"v":2}');
    expect(http.stats()).toEqual({ requests: 3, notModified: 1, fullDownloads: 2 });
  });

  it('gives the body bytes as served to a binary request, outside the cache', async () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d, 0xff]);
    const server = await serve({ '/raw': { body: bytes } });
    const http = client({ baseUrl: server.url });
    const first = await http.get('raw', { binary: true });
    expect(Buffer.from(first.bytes ?? [])).toEqual(bytes);
    expect(first.body).toBe('{}\ufffd');
    expect((await http.get('raw')).bytes).toBeUndefined();
    await http.get('raw', { binary: true });
    expect(server.requests.map((r) => [r.status, r.headers['if-none-match'] !== undefined])).toEqual([
      [200, false],
      [200, false],
      [200, false],
    ]);
  });

  it('revalidates with If-Modified-Since when there is no ETag', async () => {
    const server = await serve({ '/pkg': { body: 'x', etag: null, lastModified: 'Mon, 23 Nov 2026 08:00:00 GMT' } });
    const http = client({ baseUrl: server.url });
    await http.get('pkg');
    await http.get('pkg');
    expect(server.requests[1]?.headers['if-modified-since']).toBe('Mon, 23 Nov 2026 08:00:00 GMT');
    expect(http.stats().notModified).toBe(1);
  });

  it('answers 404 and 410 as statuses, refused credentials as auth_failed, other statuses as bad_response', async () => {
    const server = await serve({ '/gone': { status: 410, body: 'gone' }, '/odd': { status: 418, body: 'teapot' } });
    const http = client({ baseUrl: server.url });
    expect((await http.get('missing')).status).toBe(404);
    expect((await http.get('gone')).status).toBe(410);
    await expect(http.get('odd')).rejects.toMatchObject({ kind: 'bad_response', status: 418 });
    const locked = await serve({ '/pkg': { body: 'x' } }, { requireAuthorization: 'Bearer right' });
    const wrong = client({ baseUrl: locked.url, credentials: { token: 'wrong' } });
    const error = await wrong.get('pkg').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ kind: 'auth_failed', status: 401 });
    expect((error as Error).message).not.toContain('wrong');
    expect((await client({ baseUrl: locked.url, credentials: { token: 'right' } }).get('pkg')).body).toBe('x');
    const basic = await serve({ '/pkg': { body: 'b' } }, { requireAuthorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
    expect((await client({ baseUrl: basic.url, credentials: { username: 'u', password: 'p' } }).get('pkg')).body).toBe('b');
    const raw = await serve({ '/pkg': { body: 'r' } }, { requireAuthorization: 'cio-token-as-is' });
    expect((await client({ baseUrl: raw.url, credentials: { authorization: 'cio-token-as-is' } }).get('pkg')).body).toBe('r');
  });

  it('retries a 503 with back-off, then gives up as unreachable; a closed port is unreachable', async () => {
    const server = await serve({ '/pkg': { status: 503, body: 'busy' } });
    const http = client({ baseUrl: server.url, retries: 2 });
    await expect(http.get('pkg')).rejects.toMatchObject({ kind: 'unreachable' });
    expect(server.requests.length).toBe(3);
    const closed = await serve();
    const url = closed.url;
    await closed.close();
    await expect(client({ baseUrl: url, retries: 0 }).get('pkg')).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('follows a redirect, and drops the credentials when it leads to another origin', async () => {
    const other = await serve({ '/elsewhere': { body: 'moved' } });
    const server = await serve({
      '/same': { status: 302, body: '', headers: { location: '/pkg' } },
      '/pkg': { body: 'here' },
      '/away': { status: 302, body: '', headers: { location: `${other.url}elsewhere` } },
    });
    const http = client({ baseUrl: server.url, credentials: { token: 'secret' } });
    expect((await http.get('same')).body).toBe('here');
    expect(server.requests.find((r) => r.path === '/pkg')?.headers.authorization).toBe('Bearer secret');
    expect((await http.get('away')).body).toBe('moved');
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('refuses an answer over the size cap as bad_response', async () => {
    const server = await serve({ '/big': { body: 'x'.repeat(10_000) } });
    await expect(client({ baseUrl: server.url, maxResponseBytes: 1_000 }).get('big')).rejects.toMatchObject({ kind: 'bad_response' });
  });
});
