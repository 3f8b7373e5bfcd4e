import { createServer, type Server } from 'node:net';
import { bookApiSuite } from '@switchyard/catalog-svc/test/api-suite';
import { createTestDatabase, ProcessStack, request, type ServiceProcess } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const catalogMain = new URL('../services/catalog-svc/src/main.ts', import.meta.url).pathname;
const gatewayMain = new URL('../services/gateway/src/main.ts', import.meta.url).pathname;

describe('gateway and catalog-svc as processes, on PostgreSQL', () => {
  const processes = new ProcessStack();
  let catalog: ServiceProcess;
  let gatewayUrl: string;

  beforeAll(async () => {
    const testDb = await createTestDatabase(inject('databaseUrl'), 'e2e_catalog');
    processes.defer(() => testDb.drop());
    catalog = await processes.service(catalogMain, { DATABASE_URL: testDb.url });
    gatewayUrl = (await processes.service(gatewayMain, { CATALOG_SVC_URL: catalog.url })).url;
  });
  afterAll(() => processes.disposeAsync());

  bookApiSuite(() => gatewayUrl);

  it('carries one request id from the client through the gateway to catalog-svc and back', async () => {
    // catalog-svc writes the id it received into its problem body, so this shows the id reached it.
    const res = await request(gatewayUrl, 'GET', '/books/2147483600', { headers: { 'x-request-id': 'e2e-trace-1' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('e2e-trace-1');
    expect(res.body.requestId).toBe('e2e-trace-1');
    const generated = await request(gatewayUrl, 'GET', '/books/2147483600');
    expect(generated.body.requestId).toBe(generated.headers.get('x-request-id'));
    expect(generated.body.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses a body over the gateway's own limit before it reaches catalog-svc", async () => {
    const res = await request(gatewayUrl, 'POST', '/books', {
      body: 'x'.repeat(1_048_577),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.detail).toBe('Request body is larger than 1048576 bytes');
  });

  it('reports the gateway ready only while catalog-svc is, and answers 502 problem+json when it is down', async () => {
    expect((await request(gatewayUrl, 'GET', '/readyz')).status).toBe(200);
    expect(await catalog.stop()).toBe(0);
    const res = await request(gatewayUrl, 'GET', '/books');
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ title: 'Bad Gateway', status: 502, instance: '/books' });
    expect((await request(gatewayUrl, 'GET', '/readyz')).status).toBe(503);
    expect((await request(gatewayUrl, 'GET', '/healthz')).status).toBe(200);
  });
});

describe('gateway in front of an upstream that hangs', () => {
  const processes = new ProcessStack();
  let gatewayUrl: string;

  beforeAll(async () => {
    // Accepts connections and reads requests, but never answers.
    const hanging: Server = createServer((socket) => socket.on('data', () => {}));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    processes.defer(() => {
      hanging.close();
    });
    const address = hanging.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const gateway = await processes.service(
      gatewayMain,
      { CATALOG_SVC_URL: `http://127.0.0.1:${port}`, UPSTREAM_TIMEOUT_MS: '500' },
      { readyPath: '/healthz' },
    );
    gatewayUrl = gateway.url;
  });
  afterAll(() => processes.disposeAsync());

  it('answers 504 problem+json once the upstream timeout passes', async () => {
    const started = Date.now();
    const res = await request(gatewayUrl, 'GET', '/books/1');
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({
      type: 'about:blank',
      title: 'Gateway Timeout',
      status: 504,
      detail: 'catalog-svc did not answer in time',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
  });
});
