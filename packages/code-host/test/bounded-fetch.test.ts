import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { type Listening, listen } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedFetch, isTimeout, isTooLarge } from '../src/github/bounded-fetch.ts';

/** What a test server saw of one request. */
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  acceptEncoding: string | undefined;
  body: string;
}

/** A server that notes every request and answers with `answer(req, body)`. */
async function server(answer: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const seen: Seen[] = [];
  const listening = await listen(
    (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        seen.push({
          method: req.method ?? '',
          url: req.url ?? '',
          authorization: req.headers.authorization,
          acceptEncoding: req.headers['accept-encoding'],
          body,
        });
        answer(req, res, body);
      });
    },
    0,
    '127.0.0.1',
  );
  return { listening, seen };
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string | string[]> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(value));
};

describe("the code host client's fetch: what Octokit relies on from fetch, over undici's dispatcher", () => {
  const fetchOf = boundedFetch(2_000, 1024 * 1024);
  let other: Awaited<ReturnType<typeof server>>;
  let main: Awaited<ReturnType<typeof server>>;
  const servers: Listening[] = [];

  beforeAll(async () => {
    other = await server((_req, res) => json(res, 200, { on: 'other' }));
    // Same host, another port: another origin (https://fetch.spec.whatwg.org/#concept-origin).
    const otherOrigin = other.listening.url.replace(/\/$/, '');
    main = await server((req, res, body) => {
      const path = req.url ?? '';
      if (path === '/moved') return json(res, 301, {}, { location: '/here' });
      if (path === '/see-other') return json(res, 303, {}, { location: '/here' });
      if (path === '/elsewhere') return json(res, 302, {}, { location: `${otherOrigin}/there` });
      if (path === '/loop') return json(res, 302, {}, { location: '/loop-again' });
      if (path === '/loop-again') return json(res, 302, {}, { location: '/loop' });
      if (path === '/gzip') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        return res.end(gzipSync(JSON.stringify({ packed: true })));
      }
      if (path === '/cookies') return json(res, 200, {}, { 'set-cookie': ['a=1', 'b=2'], link: '<x>; rel="next"' });
      if (path === '/hang') return;
      if (path === '/big') return json(res, 200, { padding: 'x'.repeat(2 * 1024 * 1024) });
      return json(res, 200, { method: req.method, body });
    });
    servers.push(other.listening, main.listening);
  });
  afterAll(async () => {
    for (const listening of servers) await listening.close(50);
  });

  const url = (path: string) => `${main.listening.url.replace(/\/$/, '')}${path}`;

  it('sends the method, headers and body, asks for no content coding, and gives status, headers and text', async () => {
    const response = await fetchOf(url('/echo'), {
      method: 'POST',
      headers: { authorization: 'token abc', 'content-type': 'application/json' },
      body: '{"q":1}',
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ method: 'POST', body: '{"q":1}' });
    expect(main.seen.at(-1)).toMatchObject({ authorization: 'token abc', acceptEncoding: 'identity' });
  });

  it('follows a same-origin redirect with the token, and the answer tells the final URL', async () => {
    const response = await fetchOf(url('/moved'), { headers: { authorization: 'token abc' } });
    expect(response.status).toBe(200);
    expect(response.url).toBe(url('/here'));
    expect(response.redirected).toBe(true);
    expect(main.seen.at(-1)).toMatchObject({ url: '/here', authorization: 'token abc' });
  });

  it('drops the token on a redirect to another origin', async () => {
    const response = await fetchOf(url('/elsewhere'), { headers: { authorization: 'token abc' } });
    expect(await response.json()).toEqual({ on: 'other' });
    expect(other.seen.at(-1)).toMatchObject({ url: '/there', authorization: undefined });
  });

  it('turns a POST answered 303 into a GET without the body', async () => {
    const response = await fetchOf(url('/see-other'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":1}' });
    expect(await response.json()).toEqual({ method: 'GET', body: '' });
  });

  it("gives a 3xx as it is with redirect: 'manual', and rejects it with redirect: 'error'", async () => {
    const manual = await fetchOf(url('/moved'), { redirect: 'manual' });
    expect(manual.status).toBe(301);
    expect(manual.headers.get('location')).toBe('/here');
    await expect(fetchOf(url('/moved'), { redirect: 'error' })).rejects.toThrow(TypeError);
  });

  it('rejects a redirect loop as fetch does, with a TypeError', async () => {
    await expect(fetchOf(url('/loop'))).rejects.toThrow(TypeError);
  });

  it('decodes a gzip body sent although identity was asked', async () => {
    const response = await fetchOf(url('/gzip'));
    expect(await response.json()).toEqual({ packed: true });
  });

  it('keeps repeated headers', async () => {
    const response = await fetchOf(url('/cookies'));
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(response.headers.get('link')).toBe('<x>; rel="next"');
  });

  it("rejects a network failure as fetch does: TypeError('fetch failed') with the cause", async () => {
    const failure = await fetchOf('http://127.0.0.1:9/nothing').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(String((failure as TypeError).cause)).toMatch(/ECONNREFUSED/);
  });

  it("honours the caller's signal, and the timeout and size limit stay recognisable", async () => {
    const caller = new AbortController();
    const aborted = fetchOf(url('/hang'), { signal: caller.signal }).catch((error: unknown) => error);
    caller.abort();
    expect(((await aborted) as Error).name).toBe('AbortError');
    expect(isTimeout(await aborted)).toBe(false);

    const timeout = await boundedFetch(100, 1024)(url('/hang')).catch((error: unknown) => error);
    expect(isTimeout(timeout)).toBe(true);

    const tooLarge = await fetchOf(url('/big')).catch((error: unknown) => error);
    expect(isTooLarge(tooLarge)).toBe(true);
    expect(tooLarge).toMatchObject({ limitBytes: 1024 * 1024, responseStatus: 200 });
  });

  it('refuses what this client never sends: a Request or a streamed body', async () => {
    await expect(fetchOf(new Request(url('/echo')))).rejects.toThrow(TypeError);
    await expect(fetchOf(url('/echo'), { method: 'POST', body: new ReadableStream() })).rejects.toThrow(TypeError);
  });
});
