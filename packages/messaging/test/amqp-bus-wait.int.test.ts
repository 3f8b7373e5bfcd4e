import type { EventEnvelope } from '@switchyard/contracts';
import { waitFor } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type AmqpBus, createAmqpBus } from '../src/amqp-bus.ts';
import type { ConsumerSpec } from '../src/bus.ts';
import { BrokerUnavailableError, BusClosedError } from '../src/errors.ts';
import { type BrokerProbe, openBrokerProbe } from './amqp-support.ts';
import { makeEvent, testLogger, uniqueSuffix } from './support.ts';

const amqpUrl = inject('amqpUrl');
const prefix = `test.messaging-wait.${uniqueSuffix()}`;
const exchange = `${prefix}.events`;
const specs: ConsumerSpec[] = [];
let probe: BrokerProbe;

beforeAll(async () => {
  probe = await openBrokerProbe(amqpUrl);
});

afterAll(async () => {
  await probe?.cleanUp(exchange, specs);
});

/** Bus options whose connections fail while `down()` says so, as an unreachable broker would. */
function flakyBroker() {
  let down = true;
  let refusals = 0;
  return {
    setDown(value: boolean) {
      down = value;
    },
    refusals: () => refusals,
    options: {
      url: amqpUrl,
      exchange,
      logger: testLogger,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      publishTimeoutMs: 300,
      connectionName: `${prefix}.bus`,
      connect: async (url: string, socketOptions: Record<string, unknown>) => {
        if (down) {
          refusals += 1;
          throw new Error('ECONNREFUSED (refused by the test)');
        }
        return amqplib.connect(url, socketOptions);
      },
    },
  };
}

describe('AMQP bus started without a broker', () => {
  it('fails fast by default when the first connection fails', async () => {
    const broker = flakyBroker();
    await expect(createAmqpBus(broker.options)).rejects.toThrow(/refused by the test/);
  });

  it('with waitForBroker, starts at once, rejects publish and registers consumers until the broker comes, then connects', async () => {
    const broker = flakyBroker();
    const bus: AmqpBus = await createAmqpBus({ ...broker.options, waitForBroker: true });
    try {
      expect(bus.isConnected()).toBe(false);
      await expect(bus.publish([makeEvent('wait.before', {})])).rejects.toBeInstanceOf(BrokerUnavailableError);

      const received: EventEnvelope[] = [];
      const spec: ConsumerSpec = { queue: `${prefix}.waiting`, bindings: ['wait.*'] };
      specs.push(spec);
      const started = Date.now();
      const handle = await bus.consume(spec, async (event) => {
        received.push(event);
      });
      expect(Date.now() - started).toBeLessThan(250);
      expect(handle.queue).toBe(spec.queue);
      await waitFor(async () => broker.refusals() >= 2, 5_000, 10);

      broker.setDown(false);
      await waitFor(async () => bus.isConnected(), 5_000, 10);
      const event = makeEvent('wait.after', {});
      await bus.publish([event]);
      await waitFor(async () => received.some((e) => e.id === event.id));
      expect(received.map((e) => e.id)).toEqual([event.id]);
    } finally {
      await bus.close();
    }
  });

  it('with waitForBroker, close() during the wait stops retrying and refuses work', async () => {
    const broker = flakyBroker();
    const bus = await createAmqpBus({ ...broker.options, waitForBroker: true });
    await waitFor(async () => broker.refusals() >= 1, 5_000, 10);
    await bus.close();
    const refusals = broker.refusals();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(broker.refusals()).toBe(refusals);
    await expect(bus.publish([makeEvent('wait.closed', {})])).rejects.toBeInstanceOf(BusClosedError);
  });
});
