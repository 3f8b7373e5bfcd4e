import type { Duplex } from 'node:stream';
import { defineEvent, type EventEnvelope } from '@switchyard/contracts';
import { waitFor } from '@switchyard/service-kit/testing';
import amqplib, { type ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { type AmqpBus, createAmqpBus } from '../src/amqp-bus.ts';
import type { ConsumerSpec } from '../src/bus.ts';
import { consumeEvents } from '../src/consume-events.ts';
import { BrokerUnavailableError, BusClosedError, PublishError } from '../src/errors.ts';
import { type BrokerProbe, openBrokerProbe } from './amqp-support.ts';
import { makeEvent, testLogger, uniqueSuffix } from './support.ts';

const amqpUrl = inject('amqpUrl');
const prefix = `test.messaging.${uniqueSuffix()}`;
const exchange = `${prefix}.events`;
const specs: ConsumerSpec[] = [];
const extraQueues: string[] = [];
let probe: BrokerProbe;

function spec(name: string, fields: Omit<ConsumerSpec, 'queue'>): ConsumerSpec {
  const made = { queue: `${prefix}.${name}`, ...fields };
  specs.push(made);
  return made;
}

/** A bus whose every connection the test can reach (to cut it) and whose reconnects it can make fail. */
async function openBus(options: { publishTimeoutMs?: number } = {}) {
  const connections: ChannelModel[] = [];
  let refuse = false;
  let refusals = 0;
  const bus: AmqpBus = await createAmqpBus({
    url: amqpUrl,
    exchange,
    logger: testLogger,
    reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    publishTimeoutMs: options.publishTimeoutMs ?? 5_000,
    connectionName: `${prefix}.bus`,
    async connect(url, socketOptions) {
      if (refuse) {
        refusals += 1;
        throw new Error('refused by the test');
      }
      const model = await amqplib.connect(url, socketOptions);
      connections.push(model);
      return model;
    },
  });
  return {
    bus,
    connections,
    refuseConnections(value: boolean) {
      refuse = value;
    },
    refused: () => refusals,
    /** Destroys the socket of the bus's newest connection, as a network failure would. */
    cutConnection() {
      const newest = connections.at(-1);
      if (!newest) throw new Error('the bus has no connection yet');
      (newest.connection as unknown as { stream: Duplex }).stream.destroy(new Error('connection cut by the test'));
    },
  };
}

beforeAll(async () => {
  probe = await openBrokerProbe(amqpUrl);
});

afterAll(async () => {
  await probe?.cleanUp(exchange, specs, extraQueues);
});

describe('AMQP bus on RabbitMQ', () => {
  it('publishes with confirms, and a consumer receives every event exactly as sent with the AMQP properties set', async () => {
    const { bus } = await openBus();
    try {
      const received: EventEnvelope[] = [];
      await bus.consume(spec('roundtrip', { bindings: ['book.*'] }), async (event) => {
        received.push(event);
      });
      const tap = `${prefix}.tap`;
      extraQueues.push(tap);
      await probe.channel.assertQueue(tap, { durable: false });
      await probe.channel.bindQueue(tap, exchange, 'book.created');

      const events = Array.from({ length: 50 }, (_, i) =>
        makeEvent(i % 2 ? 'book.created' : 'book.updated', { i, title: `Ünïcode ${i}`, tags: ['x'], nested: { n: null } }),
      );
      await bus.publish(events);
      await bus.publish([makeEvent('author.created', { ignored: true })]);

      await waitFor(async () => received.length === 50);
      expect(received).toEqual(events);

      const raw = await probe.take(tap);
      const first = events.find((e) => e.type === 'book.created');
      expect(JSON.parse(raw.content.toString('utf8'))).toEqual(first);
      expect(raw.properties).toMatchObject({
        messageId: first?.id,
        type: 'book.created',
        contentType: 'application/json',
        deliveryMode: 2,
      });
    } finally {
      await bus.close();
    }
  });

  it('rejects publish when the broker nacks a message', async () => {
    const { bus } = await openBus();
    try {
      const full = `${prefix}.full`;
      extraQueues.push(full);
      await probe.channel.assertQueue(full, { durable: true, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
      await probe.channel.bindQueue(full, exchange, 'full.event');
      await expect(bus.publish([makeEvent('fine.event', {}), makeEvent('full.event', {})])).rejects.toBeInstanceOf(PublishError);
      await bus.publish([makeEvent('fine.event', {})]);
    } finally {
      await bus.close();
    }
  });

  it('retries a failing handler after the delays, and parks the message with the last error after maxAttempts', async () => {
    const { bus } = await openBus();
    try {
      const attempts = new Map<string, number[]>();
      const consumer = spec('retry', { bindings: ['job.*'], maxAttempts: 3, retryDelaysMs: [100, 300] });
      await bus.consume(consumer, async (event, context) => {
        attempts.set(event.id, [...(attempts.get(event.id) ?? []), context.attempt]);
        if (event.type === 'job.broken' || context.attempt < 2) throw new Error(`handler broke on ${event.type}`);
      });
      const flaky = makeEvent('job.flaky', { n: 1 });
      const broken = makeEvent('job.broken', { n: 2 });
      await bus.publish([flaky, broken]);

      const parked = await probe.take(`${consumer.queue}.parking`);
      expect(JSON.parse(parked.content.toString('utf8'))).toEqual(broken);
      expect(parked.properties.messageId).toBe(broken.id);
      expect(parked.properties.headers).toMatchObject({
        'x-attempts': 3,
        'x-last-error': 'Error: handler broke on job.broken',
        'x-parked-reason': 'max-attempts',
        'x-original-routing-key': 'job.broken',
      });
      expect(attempts.get(broken.id)).toEqual([1, 2, 3]);
      expect(attempts.get(flaky.id)).toEqual([1, 2]);
      expect(await probe.count(`${consumer.queue}.parking`)).toBe(0);
      expect(await probe.count(consumer.queue)).toBe(0);
    } finally {
      await bus.close();
    }
  });

  it('parks a body that is not an envelope, published straight to the exchange, and keeps consuming', async () => {
    const { bus } = await openBus();
    try {
      const handled: string[] = [];
      const consumer = spec('garbage', { bindings: ['feed.*'] });
      await bus.consume(consumer, async (event) => {
        handled.push(event.id);
      });
      await probe.publishRaw(exchange, 'feed.item', Buffer.from('this is not json'));
      await probe.publishRaw(exchange, 'feed.item', Buffer.from(JSON.stringify({ id: 'not-a-uuid', type: 'feed.item' })));
      const good = makeEvent('feed.item', { ok: true });
      await bus.publish([good]);

      await waitFor(async () => handled.length === 1);
      expect(handled).toEqual([good.id]);
      const first = await probe.take(`${consumer.queue}.parking`);
      const second = await probe.take(`${consumer.queue}.parking`);
      expect(first.content.toString()).toBe('this is not json');
      expect(first.properties.headers).toMatchObject({ 'x-parked-reason': 'invalid-envelope', 'x-original-routing-key': 'feed.item' });
      expect(String(first.properties.headers?.['x-last-error'])).toMatch(/not JSON/);
      expect(String(second.properties.headers?.['x-last-error'])).toMatch(/^body is not an EventEnvelope: id:/);
    } finally {
      await bus.close();
    }
  });

  it('parks an event whose payload fails its catalogued schema at once, with the reason, and hands valid ones over parsed', async () => {
    const { bus } = await openBus();
    try {
      const Measured = defineEvent('probe.measured', z.object({ celsius: z.number() }));
      const readings: number[] = [];
      const consumer = { queue: `${prefix}.catalogued`, events: [Measured] as const, maxAttempts: 5, retryDelaysMs: [100] };
      specs.push({ queue: consumer.queue, bindings: ['probe.measured'], maxAttempts: 5, retryDelaysMs: [100] });
      await consumeEvents(bus, consumer, async (event) => {
        readings.push(event.data.celsius);
      });
      const broken = makeEvent('probe.measured', { celsius: 'warm' });
      await bus.publish([broken, makeEvent('probe.measured', { celsius: 21.5 })]);

      const parked = await probe.take(`${consumer.queue}.parking`);
      expect(JSON.parse(parked.content.toString('utf8'))).toEqual(broken);
      expect(parked.properties.headers).toMatchObject({ 'x-attempts': 1, 'x-parked-reason': 'unprocessable-event' });
      expect(String(parked.properties.headers?.['x-last-error'])).toMatch(
        /^UnprocessableEventError: probe\.measured payload is invalid: data\.celsius/,
      );
      await waitFor(async () => readings.length === 1);
      expect(readings).toEqual([21.5]);
    } finally {
      await bus.close();
    }
  });

  it('reconnects after its connection is cut: a publish during the outage waits for it, consuming resumes', async () => {
    const { bus, connections, cutConnection, refuseConnections } = await openBus();
    try {
      const received: string[] = [];
      const repeats: Array<{ id: string; redelivered: boolean }> = [];
      await bus.consume(spec('reconnect', { bindings: ['ping.*'], prefetch: 1 }), async (event, context) => {
        // At-least-once: an ack still in the socket's buffer when the connection is cut is lost, and the
        // broker delivers that message again, flagged as redelivered.
        if (received.includes(event.id)) repeats.push({ id: event.id, redelivered: context.redelivered });
        else received.push(event.id);
      });
      const before = makeEvent('ping.before', {});
      await bus.publish([before]);
      await waitFor(async () => received.includes(before.id));

      // Hold the outage open (reconnects fail) until a publish is waiting, then let the bus reconnect.
      refuseConnections(true);
      cutConnection();
      await waitFor(async () => !bus.isConnected(), 5_000, 5);
      const after = makeEvent('ping.after', {});
      const publishing = bus.publish([after]);
      refuseConnections(false);
      await publishing;
      await waitFor(async () => received.includes(after.id));
      expect(connections.length).toBe(2);
      expect(bus.isConnected()).toBe(true);

      // Once more without holding it: the restored publisher and consumer survive a second cut.
      cutConnection();
      await waitFor(async () => connections.length === 3 && bus.isConnected());
      const again = makeEvent('ping.again', {});
      await bus.publish([again]);
      await waitFor(async () => received.includes(again.id));
      expect(received).toEqual([before.id, after.id, again.id]);
      for (const repeat of repeats) expect(repeat.redelivered).toBe(true);
    } finally {
      await bus.close();
    }
  });

  it('rejects publish when no reconnection comes within the timeout, and recovers when the broker is back', async () => {
    const { bus, cutConnection, refuseConnections, refused } = await openBus({ publishTimeoutMs: 300 });
    try {
      refuseConnections(true);
      cutConnection();
      await waitFor(async () => !bus.isConnected(), 5_000, 5);
      const started = Date.now();
      await expect(bus.publish([makeEvent('outage.event', {})])).rejects.toBeInstanceOf(BrokerUnavailableError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(refused()).toBeGreaterThanOrEqual(1);
      refuseConnections(false);
      await waitFor(async () => bus.isConnected());
      await bus.publish([makeEvent('outage.event', {})]);
    } finally {
      await bus.close();
    }
  });

  it('waits for handlers in flight on close, then refuses to publish', async () => {
    const { bus } = await openBus();
    let started = false;
    let finished = false;
    await bus.consume(spec('close', { bindings: ['slow.*'] }), async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 200));
      finished = true;
    });
    await bus.publish([makeEvent('slow.job', {})]);
    await waitFor(async () => started);
    await bus.close();
    expect(finished).toBe(true);
    await expect(bus.publish([makeEvent('slow.job', {})])).rejects.toBeInstanceOf(BusClosedError);
  });
});
