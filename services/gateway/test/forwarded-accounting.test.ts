import { createServer, request as rawRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Listening, listen } from '@switchyard/service-kit';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';

/**
 * What the gateway records of a forwarded path: one `forwarded` log line and one count in `gateway_requests_total` for
 * each answer sent whole, the upstream's or the gateway's own error; nothing for a request whose client left first.
 */
describe('forwarded requests in the log and the metrics', () => {
  let upstream: Server;
  let gateway: Gateway;
  let http: Listening;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      req.resume();
      if (req.url === '/books/hang') return; // never answers
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const logger = createLogger('gateway', 'info', { write: (line: string) => lines.push(JSON.parse(line)) });
    gateway = createGateway(loadGatewayConfig({ CATALOG_SVC_URL: url }), logger);
    http = await listen(gateway.handler, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await http.close(100);
    await gateway.close();
    upstream.closeAllConnections();
    upstream.close();
  });

  const forwarded = () => lines.filter((line) => line.msg === 'forwarded');
  const counted = async (method: string, status: number) => {
    const text = await gateway.metrics.registry.getSingleMetricAsString('gateway_requests_total');
    const line = text
      .split('\n')
      .find((l) => l.startsWith(`gateway_requests_total{service="catalog-svc",method="${method}",status="${status}"}`));
    return line ? Number(line.split(' ').at(-1)) : 0;
  };

  it('records an answer of the upstream once, with its request id and status', async () => {
    const res = await request(http.url, 'GET', '/books/1?x=1', { headers: { 'x-request-id': 'accounting-1' } });
    expect(res.status).toBe(200);
    await waitFor(async () => forwarded().length === 1);
    expect(forwarded()[0]).toMatchObject({
      reqId: 'accounting-1',
      method: 'GET',
      url: '/books/1?x=1',
      upstream: 'catalog-svc',
      status: 200,
    });
    expect(typeof forwarded()[0]?.ms).toBe('number');
    expect(await counted('GET', 200)).toBe(1);
  });

  it("records the gateway's own error on a forwarded path", async () => {
    const res = await new Promise<number>((resolve, reject) => {
      const { hostname, port } = new URL(http.url);
      rawRequest({ hostname, port, path: '/books/%2e%2e/accounts' }, (answer) => {
        answer.resume();
        resolve(answer.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    expect(res).toBe(400);
    await waitFor(async () => forwarded().some((line) => line.status === 400));
    expect(await counted('GET', 400)).toBe(1);
  });

  it('records nothing for a request whose client left before the answer', async () => {
    const before = forwarded().length;
    await expect(fetch(`${http.url}/books/hang`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    // The next request is recorded: the one that was left is not, before or after it.
    expect((await request(http.url, 'GET', '/books/2')).status).toBe(200);
    await waitFor(async () => forwarded().length > before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(forwarded().map((line) => line.url)).not.toContain('/books/hang');
    expect(forwarded()).toHaveLength(before + 1);
  });
});
