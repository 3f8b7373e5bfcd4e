import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, HttpProblem, jsonBody, type Listening, listen, methodNotAllowed } from '../src/index.ts';
import { request } from '../src/testing/index.ts';

describe('createServiceApp', () => {
  let server: Listening;
  let ready = true;

  beforeAll(async () => {
    const app = createServiceApp({
      logger: pino({ level: 'silent' }),
      readiness: [
        {
          name: 'database',
          check: async () => {
            if (!ready) throw new Error('connection refused');
          },
        },
      ],
      bodyLimit: 1_024,
      routes: (routes) => {
        routes
          .route('/echo')
          .post((req, res) => {
            res.json({ got: jsonBody(req) });
          })
          .all(methodNotAllowed(['POST']));
        routes.get('/teapot', () => {
          throw new HttpProblem(418, 'short and stout');
        });
        routes.get('/data-exception', () => {
          throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
        });
        routes.get('/pool-exhausted', () => {
          throw new Error('timeout exceeded when trying to connect');
        });
        routes.get('/boom', () => {
          throw new Error('secret internals');
        });
      },
    });
    server = await listen(app, 0, '127.0.0.1');
  });
  afterAll(() => server.close());

  it('answers /healthz and /readyz, and 503 when a readiness check fails', async () => {
    expect((await request(server.url, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(server.url, 'GET', '/readyz')).body).toEqual({ status: 'ready', checks: { database: 'ok' } });
    ready = false;
    const down = await request(server.url, 'GET', '/readyz');
    ready = true;
    expect(down.status).toBe(503);
    expect(down.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(down.body.checks).toEqual({ database: 'connection refused' });
  });

  it('propagates x-request-id and generates one when absent', async () => {
    expect((await request(server.url, 'GET', '/healthz', { headers: { 'x-request-id': 'abc-1' } })).headers.get('x-request-id')).toBe(
      'abc-1',
    );
    expect((await request(server.url, 'GET', '/healthz')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps thrown problems, body-parser errors, unknown routes and methods to problem+json', async () => {
    const cases: Array<[string, string, Record<string, string>, string | undefined, number, RegExp]> = [
      ['GET', '/teapot', {}, undefined, 418, /short and stout/],
      ['POST', '/echo', { 'content-type': 'application/json' }, '{"a":', 400, /not valid JSON/],
      ['POST', '/echo', { 'content-type': 'application/json' }, JSON.stringify({ a: 'x'.repeat(2_000) }), 413, /too large/],
      ['POST', '/echo', { 'content-type': 'application/json; charset=latin1' }, '{}', 415, /UTF-8/],
      ['POST', '/echo', { 'content-type': 'text/plain' }, 'hello', 415, /must be application\/json/],
      ['POST', '/echo', {}, undefined, 400, /body is required/],
      ['DELETE', '/echo', {}, undefined, 405, /use POST/],
      ['GET', '/nowhere', {}, undefined, 404, /No route for GET \/nowhere/],
      ['GET', '/data-exception', {}, undefined, 400, /cannot be stored/],
      ['GET', '/pool-exhausted', {}, undefined, 503, /busy/],
      ['GET', '/%E0%A4%A', {}, undefined, 404, /No route/],
    ];
    for (const [method, path, headers, body, status, detail] of cases) {
      const res = await request(server.url, method, path, { headers, ...(body === undefined ? {} : { body }) });
      expect(res.status, `${method} ${path} ${body}`).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: 'about:blank', status, instance: path });
      expect(res.body.detail).toMatch(detail);
    }
    expect((await request(server.url, 'DELETE', '/echo')).headers.get('allow')).toBe('POST');
    expect((await request(server.url, 'GET', '/pool-exhausted')).headers.get('retry-after')).toBe('1');
  });

  it('answers requests the HTTP parser refuses with problem+json and closes the connection', async () => {
    const { connect } = await import('node:net');
    const url = new URL(server.url);
    const send = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(url.port), url.hostname, () => socket.end(raw));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const ambiguous = await send('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    expect(ambiguous).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(ambiguous).toContain('application/problem+json');
    expect(JSON.parse(ambiguous.slice(ambiguous.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400, detail: 'Malformed HTTP request' });
    const hugeHeaders = await send(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(hugeHeaders).toMatch(/^HTTP\/1\.1 431 /);
  });

  it('hides unexpected errors behind an opaque 500', async () => {
    const res = await request(server.url, 'GET', '/boom');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('secret internals');
    expect(res.text).not.toContain('at ');
  });
});
