import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ErrorFormat,
  HttpProblem,
  JSON_API_ERRORS,
  type Listening,
  listen,
  PLAIN_TEXT_ERRORS,
  renderPlainText,
  ServiceUnavailable,
  UpstreamFailed,
  writeError,
} from '../src/index.ts';

/** Each path answers with one error in one format, on a plain node:http server (no express). */
const answers: Record<string, { error: unknown; format?: ErrorFormat }> = {
  '/problem': { error: new UpstreamFailed('catalog-svc is unreachable') },
  '/json-api': { error: new ServiceUnavailable('config-svc is not available', { retryAfterSeconds: 60 }), format: JSON_API_ERRORS },
  '/text': { error: new HttpProblem(413, 'Request body is larger than 2048 bytes'), format: PLAIN_TEXT_ERRORS },
  '/unexpected': { error: new Error('connect ECONNREFUSED 10.0.0.1:5432'), format: JSON_API_ERRORS },
};

describe('writeError: an error answer on a plain node:http response', () => {
  let http: Listening;
  const logged: unknown[] = [];

  beforeAll(async () => {
    const log = pino({ level: 'error' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    http = await listen(
      (req: IncomingMessage, res: ServerResponse) => {
        const path = (req.url ?? '/').split('?')[0] ?? '/';
        const answer = answers[path];
        if (!answer) throw new Error(`no answer for ${path}`);
        writeError(req, res, answer.error, { format: answer.format, requestId: 'req-7', log });
      },
      0,
      '127.0.0.1',
    );
  });
  afterAll(() => http.close(100));

  it('writes RFC 9457 problem details by default, with the request target as instance and the request id', async () => {
    const res = await fetch(`${http.url}/problem?x=1`);
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    expect(res.headers.get('x-request-id')).toBe('req-7');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual({
      type: 'about:blank',
      title: 'Bad Gateway',
      status: 502,
      detail: 'catalog-svc is unreachable',
      instance: '/problem?x=1',
      requestId: 'req-7',
    });
  });

  it("writes the JSON:API envelope with the error's headers (Retry-After)", async () => {
    const res = await fetch(`${http.url}/json-api`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.headers.get('x-request-id')).toBe('req-7');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('{"errors":[{"status":503,"title":"Service Unavailable","detail":"config-svc is not available"}]}');
  });

  it('writes the detail as text/plain, as peer-svc answers its peers', async () => {
    const res = await fetch(`${http.url}/text`);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toBe('Request body is larger than 2048 bytes');
  });

  it('answers anything else with the opaque 500 of the classifier, and logs it', async () => {
    const res = await fetch(`${http.url}/unexpected`);
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toContain('10.0.0.1');
    expect(JSON.parse(text).errors[0]).toMatchObject({ status: 500, title: 'Internal Server Error' });
    expect(logged).toHaveLength(1);
  });
});

describe('renderPlainText', () => {
  it('falls back to the title when there is no detail, and keeps extra headers', () => {
    let head: [number, Record<string, unknown>] | undefined;
    let body = '';
    const res = {
      writeHead: (status: number, headers: Record<string, unknown>) => {
        head = [status, headers];
      },
      end: (payload: string) => {
        body = payload;
      },
    } as unknown as ServerResponse;
    renderPlainText({ status: 429, title: 'Too Many Requests', headers: { 'retry-after': '5' } }, {} as never, res);
    expect(head?.[0]).toBe(429);
    expect(head?.[1]).toMatchObject({ 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8', 'content-length': 17 });
    expect(body).toBe('Too Many Requests');
  });
});
