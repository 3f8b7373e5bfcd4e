import { describe, expect, it } from 'vitest';
import { consumerTopology } from '../src/amqp-topology.ts';
import { backoffDelay } from '../src/backoff.ts';
import { CONSUMER_DEFAULTS, describeError, resolveConsumerSpec, retryDelayFor } from '../src/consumer-spec.ts';
import { decodeEvent } from '../src/envelope-codec.ts';
import { InvalidConsumerSpecError } from '../src/errors.ts';
import { makeEvent } from './support.ts';

describe('resolveConsumerSpec', () => {
  it('fills in the defaults', () => {
    expect(resolveConsumerSpec({ queue: 'svc.worker', bindings: ['a.*', 'a.*'] })).toEqual({
      queue: 'svc.worker',
      bindings: ['a.*'],
      prefetch: CONSUMER_DEFAULTS.prefetch,
      maxAttempts: 5,
      retryDelaysMs: [1_000, 5_000, 30_000],
      deliveryLimit: 20,
    });
  });

  it.each([
    [{ queue: 'a b', bindings: [] }],
    [{ queue: 'q', bindings: ['a.'] }],
    [{ queue: 'q', bindings: [], prefetch: 0 }],
    [{ queue: 'q', bindings: [], maxAttempts: 1.5 }],
    [{ queue: 'q', bindings: [], retryDelaysMs: [] }],
    [{ queue: 'q', bindings: [], retryDelaysMs: [-1] }],
    [{ queue: 'q', bindings: [], deliveryLimit: 0 }],
  ])('refuses %j', (spec) => {
    expect(() => resolveConsumerSpec(spec)).toThrow(InvalidConsumerSpecError);
  });

  it('picks the retry delay by failed attempts, repeating the last', () => {
    const spec = resolveConsumerSpec({ queue: 'q', bindings: [], retryDelaysMs: [10, 20, 30] });
    expect([1, 2, 3, 4, 9].map((n) => retryDelayFor(spec, n))).toEqual([10, 20, 30, 30, 30]);
  });

  it('describes errors on one bounded line', () => {
    expect(describeError(new RangeError('bad'))).toBe('RangeError: bad');
    expect(describeError('plain')).toBe('plain');
    expect(describeError(new Error('x'.repeat(5_000))).length).toBe(1_000);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially up to the cap', () => {
    const options = { initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, jitter: 0 };
    expect([1, 2, 3, 4, 5, 50].map((attempt) => backoffDelay(attempt, options))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('spreads by the jitter fraction without passing the cap', () => {
    const options = { initialDelayMs: 100, maxDelayMs: 150, factor: 2, jitter: 0.5 };
    expect(backoffDelay(1, options, () => 0)).toBe(50);
    expect(backoffDelay(1, options, () => 0.999999)).toBe(150);
  });
});

describe('decodeEvent', () => {
  it('reads a valid envelope and explains what is wrong with anything else', () => {
    const event = makeEvent('a.b', { x: 1 });
    expect(decodeEvent(Buffer.from(JSON.stringify(event)))).toEqual({ ok: true, event });
    expect(decodeEvent(Buffer.from('{oops'))).toEqual({ ok: false, error: 'body is not JSON (5 bytes)' });
    const wrong = decodeEvent(Buffer.from(JSON.stringify({ ...event, type: 'NoDots' })));
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.error).toMatch(/^body is not an EventEnvelope: type:/);
  });
});

describe('consumerTopology', () => {
  it('names the parking queue, one retry queue per distinct delay and the dead-letter exchange', () => {
    const spec = resolveConsumerSpec({ queue: 'release-svc.worker', bindings: ['a.*'], retryDelaysMs: [1_000, 5_000, 5_000] });
    expect(consumerTopology('switchyard.events', spec)).toEqual({
      exchange: 'switchyard.events',
      deadLetterExchange: 'switchyard.events.dlx',
      queue: 'release-svc.worker',
      parking: 'release-svc.worker.parking',
      retryQueues: [
        { delayMs: 1_000, name: 'release-svc.worker.retry.1000ms' },
        { delayMs: 5_000, name: 'release-svc.worker.retry.5000ms' },
      ],
    });
  });
});
