import type { ConsumerSpec } from './bus.ts';
import { InvalidConsumerSpecError } from './errors.ts';
import { isTopicPattern } from './topic.ts';

/** Defaults of the optional `ConsumerSpec` fields. */
export const CONSUMER_DEFAULTS = Object.freeze({
  prefetch: 10,
  maxAttempts: 5,
  retryDelaysMs: Object.freeze([1_000, 5_000, 30_000]) as readonly number[],
  deliveryLimit: 20,
});

/** A `ConsumerSpec` checked and with every default filled in. */
export type ResolvedConsumerSpec = Readonly<Required<ConsumerSpec>>;

const QUEUE_NAME = /^[A-Za-z0-9._:-]{1,200}$/;

function positiveInt(name: string, value: number, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max)
    throw new InvalidConsumerSpecError(`${name} must be an integer in 1..${max}, got ${value}`);
  return value;
}

/**
 * Checks a `ConsumerSpec` and fills in the defaults ({@link CONSUMER_DEFAULTS}).
 * @throws InvalidConsumerSpecError naming the first bad field
 */
export function resolveConsumerSpec(spec: ConsumerSpec): ResolvedConsumerSpec {
  if (!QUEUE_NAME.test(spec.queue)) {
    throw new InvalidConsumerSpecError(`queue must be 1-200 letters, digits, '.', '_', '-' or ':', got ${JSON.stringify(spec.queue)}`);
  }
  const bad = spec.bindings.find((pattern) => !isTopicPattern(pattern));
  if (bad !== undefined) throw new InvalidConsumerSpecError(`binding ${JSON.stringify(bad)} is not a topic pattern`);
  const retryDelaysMs = spec.retryDelaysMs ?? CONSUMER_DEFAULTS.retryDelaysMs;
  if (retryDelaysMs.length === 0 || retryDelaysMs.length > 10) throw new InvalidConsumerSpecError('retryDelaysMs must hold 1 to 10 delays');
  for (const delay of retryDelaysMs) {
    if (!Number.isInteger(delay) || delay < 0 || delay > 86_400_000) {
      throw new InvalidConsumerSpecError(`retry delays must be integers in 0..86400000 ms, got ${delay}`);
    }
  }
  return Object.freeze({
    queue: spec.queue,
    bindings: Object.freeze([...new Set(spec.bindings)]),
    prefetch: positiveInt('prefetch', spec.prefetch ?? CONSUMER_DEFAULTS.prefetch, 65_535),
    maxAttempts: positiveInt('maxAttempts', spec.maxAttempts ?? CONSUMER_DEFAULTS.maxAttempts, 1_000),
    retryDelaysMs: Object.freeze([...retryDelaysMs]),
    deliveryLimit: positiveInt('deliveryLimit', spec.deliveryLimit ?? CONSUMER_DEFAULTS.deliveryLimit, 10_000),
  });
}

/**
 * The delay in ms before the next try of a message that has failed `failedAttempts` times (≥ 1):
 * `retryDelaysMs[failedAttempts - 1]`, the last entry repeating.
 */
export function retryDelayFor(spec: ResolvedConsumerSpec, failedAttempts: number): number {
  const delays = spec.retryDelaysMs;
  return delays[Math.min(Math.max(failedAttempts, 1), delays.length) - 1] ?? 0;
}

/** Turns anything a handler threw into a one-line description (`Name: message`), at most `max` characters. */
export function describeError(error: unknown, max = 1_000): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
