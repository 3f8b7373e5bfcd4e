import type { EventEnvelope } from '@switchyard/contracts';
import { waitFor } from '@switchyard/service-kit/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { BusClosedError, InvalidConsumerSpecError, InvalidEventError } from '../src/errors.ts';
import { createInProcessBus, type InProcessBus } from '../src/in-process-bus.ts';
import { makeEvent, testLogger } from './support.ts';

let bus: InProcessBus;

afterEach(async () => {
  await bus?.close();
});

describe('in-process bus', () => {
  it('routes each event to the queues whose patterns match its type, as a copy', async () => {
    bus = createInProcessBus({ logger: testLogger });
    const configs: EventEnvelope[] = [];
    const everything: EventEnvelope[] = [];
    await bus.consume({ queue: 'configs', bindings: ['update_config.*'] }, async (event) => {
      configs.push(event);
    });
    await bus.consume({ queue: 'all', bindings: ['#'] }, async (event) => {
      everything.push(event);
    });
    const created = makeEvent('update_config.created', { id: 1, nested: { tags: ['a'] } });
    const repo = makeEvent('repo.updated', { id: 2 });
    await bus.publish([created, repo]);

    await waitFor(async () => everything.length === 2);
    await waitFor(async () => configs.length === 1);
    expect(configs[0]).toEqual(created);
    expect(configs[0]).not.toBe(created);
    expect(everything.map((e) => e.id)).toEqual([created.id, repo.id]);
  });

  it('keeps messages for a queue while its consumer is cancelled, and hands them to the next one', async () => {
    bus = createInProcessBus({ logger: testLogger });
    const first = await bus.consume({ queue: 'q', bindings: ['a.b'] }, async () => {});
    await first.cancel();
    const event = makeEvent('a.b', {});
    await bus.publish([event]);
    const seen: string[] = [];
    await bus.consume({ queue: 'q', bindings: ['a.b'] }, async (e) => {
      seen.push(e.id);
    });
    await waitFor(async () => seen.length === 1);
    expect(seen).toEqual([event.id]);
  });

  it('retries a failing handler after the configured delays, then succeeds', async () => {
    bus = createInProcessBus({ logger: testLogger });
    const attempts: Array<{ attempt: number; at: number }> = [];
    await bus.consume({ queue: 'flaky', bindings: ['#'], maxAttempts: 5, retryDelaysMs: [20, 60] }, async (_event, context) => {
      attempts.push({ attempt: context.attempt, at: performance.now() });
      if (context.attempt < 3) throw new Error('not yet');
    });
    await bus.publish([makeEvent('a.b', {})]);

    await waitFor(async () => attempts.length === 3);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const [one, two, three] = attempts.map((a) => a.at);
    expect((two ?? 0) - (one ?? 0)).toBeGreaterThanOrEqual(15);
    expect((three ?? 0) - (two ?? 0)).toBeGreaterThanOrEqual(50);
    expect(bus.parked()).toEqual([]);
  });

  it('parks a message after maxAttempts with the last error', async () => {
    bus = createInProcessBus({ logger: testLogger });
    let calls = 0;
    await bus.consume({ queue: 'broken', bindings: ['#'], maxAttempts: 3, retryDelaysMs: [5] }, async (_event, context) => {
      calls += 1;
      throw new TypeError(`boom ${context.attempt}`);
    });
    const event = makeEvent('a.b', { n: 1 });
    await bus.publish([event]);

    const [parked] = await waitFor(async () => bus.parked('broken').length === 1 && bus.parked('broken'));
    expect(calls).toBe(3);
    expect(parked).toMatchObject({
      queue: 'broken',
      routingKey: 'a.b',
      reason: 'max-attempts',
      attempts: 3,
      error: 'TypeError: boom 3',
      event,
    });
    expect(JSON.parse(parked?.body ?? '')).toEqual(event);
  });

  it('parks a body that is not an envelope without calling the handler, and keeps consuming', async () => {
    bus = createInProcessBus({ logger: testLogger });
    const handled: string[] = [];
    await bus.consume({ queue: 'strict', bindings: ['a.*'] }, async (event) => {
      handled.push(event.id);
    });
    expect(bus.publishRaw('a.b', 'not json {')).toBe(1);
    expect(bus.publishRaw('a.c', JSON.stringify({ id: 'nope', type: 'a.c' }))).toBe(1);
    const good = makeEvent('a.d', {});
    await bus.publish([good]);

    await waitFor(async () => handled.length === 1 && bus.parked().length === 2);
    expect(handled).toEqual([good.id]);
    expect(bus.parked().map((p) => ({ reason: p.reason, body: p.body, attempts: p.attempts }))).toEqual([
      { reason: 'invalid-envelope', body: 'not json {', attempts: 0 },
      { reason: 'invalid-envelope', body: JSON.stringify({ id: 'nope', type: 'a.c' }), attempts: 0 },
    ]);
    expect(bus.parked()[1]?.error).toMatch(/id/);
  });

  it('runs at most prefetch handlers at once per consumer', async () => {
    bus = createInProcessBus({ logger: testLogger });
    let running = 0;
    let peak = 0;
    let done = 0;
    await bus.consume({ queue: 'slow', bindings: ['#'], prefetch: 2 }, async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setImmediate(resolve));
      running -= 1;
      done += 1;
    });
    await bus.publish(Array.from({ length: 10 }, (_, i) => makeEvent('a.b', { i })));
    await waitFor(async () => done === 10);
    expect(peak).toBe(2);
  });

  it('refuses invalid events and specs, and everything after close', async () => {
    bus = createInProcessBus({ logger: testLogger });
    await expect(bus.publish([{ ...makeEvent('a.b', {}), id: 'x' }])).rejects.toBeInstanceOf(InvalidEventError);
    await expect(bus.consume({ queue: '', bindings: [] }, async () => {})).rejects.toBeInstanceOf(InvalidConsumerSpecError);
    await expect(bus.consume({ queue: 'q', bindings: ['a..b'] }, async () => {})).rejects.toBeInstanceOf(InvalidConsumerSpecError);
    await bus.close();
    await expect(bus.publish([makeEvent('a.b', {})])).rejects.toBeInstanceOf(BusClosedError);
    await expect(bus.consume({ queue: 'q', bindings: [] }, async () => {})).rejects.toBeInstanceOf(BusClosedError);
  });

  it('waits for handlers in flight on close', async () => {
    bus = createInProcessBus({ logger: testLogger });
    let finished = false;
    let started = false;
    await bus.consume({ queue: 'q', bindings: ['#'] }, async () => {
      started = true;
      await new Promise((resolve) => setTimeout(resolve, 30));
      finished = true;
    });
    await bus.publish([makeEvent('a.b', {})]);
    await waitFor(async () => started);
    await bus.close();
    expect(finished).toBe(true);
  });
});
