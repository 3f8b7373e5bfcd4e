import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { createTestDatabase, type TestDatabase, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { listenForOutbox } from '../src/outbox-notifications.ts';
import { testLogger } from './support.ts';

/**
 * A TCP forwarder to PostgreSQL that can go silent: `freeze()` stops passing bytes on the connections it holds without
 * closing them (a half-open connection, as after a network failure); new connections are forwarded as usual.
 */
interface FreezingProxy {
  url: string;
  connections: () => number;
  freeze: () => void;
  close: () => Promise<void>;
}

async function startFreezingProxy(targetUrl: string): Promise<FreezingProxy> {
  const target = new URL(targetUrl);
  const pairs = new Set<[Socket, Socket]>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted += 1;
    const upstream = tcpConnect(Number(target.port || 5432), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    for (const socket of pair) socket.on('error', () => {});
    client.pipe(upstream);
    upstream.pipe(client);
    const drop = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop);
    upstream.on('close', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.href,
    connections: () => accepted,
    freeze: () => {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: async () => {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let testDatabase: TestDatabase;

beforeAll(async () => {
  testDatabase = await createTestDatabase(inject('databaseUrl'), 'messaging_listener');
});

afterAll(async () => {
  await testDatabase?.drop();
});

describe('the outbox relay LISTEN connection', () => {
  it('replaces a connection that stopped answering (half-open) after a missed heartbeat', async () => {
    const proxy = await startFreezingProxy(testDatabase.url);
    let notified = 0;
    const listener = listenForOutbox({
      connectionString: proxy.url,
      schema: 'frozen',
      logger: testLogger,
      onNotify: () => {
        notified += 1;
      },
      heartbeatMs: 100,
      connectTimeoutMs: 500,
      reconnectDelayMs: 50,
    });
    try {
      await waitFor(async () => listener.isListening() && notified === 1);
      proxy.freeze();
      // The heartbeat times out, the frozen connection is destroyed, and a new one LISTENs (and wakes the relay).
      await waitFor(async () => listener.isListening() && notified === 2 && proxy.connections() === 2);
    } finally {
      await listener.close();
      await proxy.close();
    }
    expect(listener.isListening()).toBe(false);
  });
});
