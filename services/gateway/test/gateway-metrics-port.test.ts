import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { type RunningGateway, startGateway } from '../src/start.ts';

describe('METRICS_PORT', () => {
  const logger = pino({ level: 'silent' });
  let upstream: Server;
  let upstreamUrl: string;
  let separate: RunningGateway;
  let together: RunningGateway;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      req.resume();
      res.end('{"status":"ready"}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    separate = await startGateway(
      loadGatewayConfig({ HOST: '127.0.0.1', PORT: '0', METRICS_PORT: '0', CATALOG_SVC_URL: upstreamUrl }),
      logger,
    );
    together = await startGateway(loadGatewayConfig({ HOST: '127.0.0.1', PORT: '0', CATALOG_SVC_URL: upstreamUrl }), logger);
  });
  afterAll(async () => {
    await Promise.all([separate?.close(), together?.close()]);
    upstream.closeAllConnections();
    upstream.close();
  });

  it('set: serves /metrics on that port only, and the main port answers 404 for it', async () => {
    expect((await request(separate.url, 'GET', '/books')).status).toBe(200);
    expect(separate.metricsUrl).toBeDefined();
    expect(separate.metricsUrl).not.toBe(separate.url);
    const metrics = await request(separate.metricsUrl as string, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(metrics.text).toMatch(/gateway_requests_total\{service="catalog-svc",method="GET",status="200"\} 1/);
    const onMain = await request(separate.url, 'GET', '/metrics');
    expect(onMain.status).toBe(404);
    expect(onMain.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(onMain.text).not.toContain('gateway_requests_total');
  });

  it('set: the metrics port serves nothing else (no forwarding, no docs)', async () => {
    for (const path of ['/books', '/openapi.json', '/metricsx', '/']) {
      const res = await request(separate.metricsUrl as string, 'GET', path);
      expect(res.status, path).toBe(404);
    }
    expect((await request(separate.url, 'GET', '/healthz')).status).toBe(200);
    expect((await request(separate.url, 'GET', '/openapi.json')).status).toBe(200);
  });

  it('unset: /metrics is on the main port, as before', async () => {
    expect(together.metricsUrl).toBeUndefined();
    const metrics = await request(together.url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('gateway_request_duration_seconds');
  });

  it('must differ from PORT', () => {
    expect(() => loadGatewayConfig({ PORT: '9100', METRICS_PORT: '9100' })).toThrow(ConfigError);
    expect(() => loadGatewayConfig({ PORT: '9100', METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
  });
});
