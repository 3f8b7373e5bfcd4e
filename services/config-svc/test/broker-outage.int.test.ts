import { once } from 'node:events';
import { createServer, type Socket, connect as tcpConnect } from 'node:net';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALICE, type ConfigHarness, startConfigHarness } from './harness.ts';

/**
 * A TCP forwarder on 127.0.0.1 to the broker at `targetUrl` that starts switched off: until `switchOn()` it closes
 * every connection at once, as a broker that is not there yet would look to a client.
 */
async function startBrokerSwitch(targetUrl: string) {
  const target = new URL(targetUrl);
  const sockets = new Set<Socket>();
  let on = false;
  let refused = 0;
  const server = createServer((client) => {
    if (!on) {
      refused += 1;
      client.destroy();
      return;
    }
    const upstream = tcpConnect(Number(target.port || 5672), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const url = new URL(targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(typeof address === 'object' && address ? address.port : 0);
  return {
    url: url.toString().replace(/\/$/, ''),
    refused: () => refused,
    switchOn() {
      on = true;
    },
    async close() {
      on = false;
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('config-svc started while RabbitMQ is unreachable', () => {
  let broker: Awaited<ReturnType<typeof startBrokerSwitch>>;
  let h: ConfigHarness;
  beforeAll(async () => {
    broker = await startBrokerSwitch(inject('amqpUrl'));
    h = await startConfigHarness('config_no_broker', { env: { AMQP_URL: broker.url } });
  });
  afterAll(async () => {
    await h?.close();
    await broker?.close();
  });

  it('serves HTTP, keeps the event in the outbox with the bus degraded, and publishes it once the broker is reachable', async () => {
    await waitFor(async () => broker.refused() >= 1, 10_000, 20);
    const created = await request(h.url, 'POST', '/update_configs', {
      headers: { authorization: `Personal ${ALICE}` },
      body: {
        'repo-id': 3101,
        'account-id': 2001,
        'account-type': 'org',
        directory: '/',
        'update-schedule': 'daily',
        'package-manager': 'npm_and_yarn',
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = Number(created.body.data.id);

    const degraded = await request(h.url, 'GET', '/readyz');
    expect(degraded.status, degraded.text).toBe(200);
    expect(degraded.body).toEqual({ status: 'ready', checks: { database: 'ok', bus: 'degraded' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.events.filter((e) => e.type === 'update_config.created')).toEqual([]);

    broker.switchOn();
    const event = await waitFor(
      async () => h.events.find((e) => e.type === 'update_config.created' && (e.data as { id: number }).id === id),
      30_000,
    );
    expect(event.data).toMatchObject({ repoId: 3101, accountId: 2001 });
    await waitFor(async () => (await request(h.url, 'GET', '/readyz')).body?.checks?.bus === 'ok', 10_000, 100);
  }, 60_000);
});
