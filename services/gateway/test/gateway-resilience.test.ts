import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { type Listening, listen } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '../src/config.ts';
import { createGateway, type Gateway } from '../src/gateway.ts';

/**
 * A gateway with a single upstream connection: any request that kept holding it after its client left
 * would make the next request wait for the upstream timeout, which these tests would notice.
 */
describe('gateway with one upstream connection', () => {
  let upstream: Server;
  const aborted: string[] = [];
  let gateway: Gateway;
  let http: Listening;
  let finishStream: (() => void) | undefined;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      req.on('close', () => {
        if (!res.writableEnded) aborted.push(req.url ?? '');
      });
      req.resume();
      if (req.url === '/books/hang') return;
      if (req.url === '/books/stream') {
        // Chunked, no length: the first chunk now, the rest when the test says so.
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first;');
        finishStream = () => res.end('rest');
        return;
      }
      if (req.url === '/books/halves') {
        // A declared length, in two writes some time apart.
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10' });
        res.write('01234');
        setTimeout(() => res.end('56789'), 50);
        return;
      }
      req.on('end', () => res.end(`{"url":"${req.url}"}`));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    gateway = createGateway(
      loadGatewayConfig({ CATALOG_SVC_URL: url, UPSTREAM_CONNECTIONS: '1', UPSTREAM_TIMEOUT_MS: '20000' }),
      pino({ level: 'silent' }),
    );
    http = await listen(gateway.handler, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await http.close(100);
    await gateway.close();
    upstream.closeAllConnections();
    upstream.close();
  });

  const quickly = async (path: string) => {
    const started = Date.now();
    const res = await request(http.url, 'GET', path);
    return { status: res.status, ms: Date.now() - started };
  };

  it('cancels the upstream request of a client that gives up, freeing the connection', async () => {
    await expect(fetch(`${http.url}/books/hang`, { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    const next = await quickly('/books/1');
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(5_000);
    expect(aborted).toContain('/books/hang');
  });

  it('passes a streamed answer on as it arrives, and a declared length whole', async () => {
    const res = await fetch(`${http.url}/books/stream`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    // The first chunk reaches the client while the upstream has not ended its answer.
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('first;');
    finishStream?.();
    let rest = '';
    for (let next = await reader.read(); !next.done; next = await reader.read()) rest += new TextDecoder().decode(next.value);
    expect(rest).toBe('rest');

    const halves = await fetch(`${http.url}/books/halves`);
    expect(halves.headers.get('content-length')).toBe('10');
    expect(await halves.text()).toBe('0123456789');
  });

  it('ends the upstream request of a broken chunked upload instead of waiting for the rest', async () => {
    const url = new URL(http.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write(
          'POST /books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\nzz\r\n',
        );
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
      });
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const next = await quickly('/books/2');
    expect(next.status).toBe(200);
    expect(next.ms).toBeLessThan(5_000);
  });

  it('closes promptly with a request still waiting on the upstream', async () => {
    const pending = fetch(`${http.url}/books/hang`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await http.close(200);
    await gateway.close();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
