import { request, startTcpSwitch, type TcpSwitch, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALICE, type ConfigHarness, startConfigHarness } from './harness.ts';

describe('config-svc started while RabbitMQ is unreachable', () => {
  let broker: TcpSwitch;
  let h: ConfigHarness;
  beforeAll(async () => {
    broker = await startTcpSwitch(inject('amqpUrl'));
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
