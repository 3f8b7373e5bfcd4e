import { describe, expect, it } from 'vitest';
import {
  type BucketState,
  bookWrites,
  GITHUB_CONTENT_LIMITS,
  parseWriteLimits,
  type WriteLimit,
  writeLimitsOf,
} from '../src/write-budget/write-budget.policy.ts';

/** Books `bookings` (each `cost` requests, one every `everyMs` from 0) and returns each request's send time, ms. */
function sendTimes(limits: readonly WriteLimit[], bookings: number, cost: number, everyMs: number): number[] {
  let states: (BucketState | undefined)[] = limits.map(() => undefined);
  const sends: number[] = [];
  for (let i = 0; i < bookings; i++) {
    const now = i * everyMs;
    const booked = bookWrites(limits, states, cost, now);
    states = booked.states;
    for (let c = 0; c < cost; c++) sends.push(now + booked.waitMs);
  }
  return sends.sort((a, b) => a - b);
}

/** The most sends any window of `windowMs` holds. */
function busiestWindow(sends: readonly number[], windowMs: number): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < sends.length; end++) {
    while ((sends[end] as number) - (sends[start] as number) >= windowMs) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe('bookWrites: content-creating requests paced under GitHub’s secondary limits', () => {
  it('never puts more than the limit less one in any window, whatever the bursts, and runs at 90 % of the tighter limit', () => {
    // 1,000 pull requests of 3 requests each, all asked for within a second.
    const sends = sendTimes(GITHUB_CONTENT_LIMITS, 1_000, 3, 1);
    expect(busiestWindow(sends, 60_000)).toBeLessThanOrEqual(79);
    expect(busiestWindow(sends, 3_600_000)).toBeLessThanOrEqual(499);
    const hours = ((sends.at(-1) as number) - (sends[0] as number)) / 3_600_000;
    // 3,000 requests at 450 an hour after a burst of the hour bucket's 49.
    expect((3_000 - 49) / hours).toBeGreaterThan(0.9 * 500 * 0.99);
    expect((3_000 - 49) / hours).toBeLessThanOrEqual(0.9 * 500 * 1.001);
  });

  it('sends at once while the buckets hold enough, and books first come, first served after', () => {
    const limits = parseWriteLimits('40:1000');
    const first = bookWrites(limits, [undefined], 3, 0);
    expect(first.waitMs).toBe(0);
    expect(first.states[0]?.tokens).toBe(0);
    const second = bookWrites(limits, first.states, 3, 0);
    // 36 a second fill the bucket (capacity 40 × 10 % − 1 = 3): 3 more wait 3 / 36 s, the next 3 twice that.
    expect(second.waitMs).toBe(84);
    const third = bookWrites(limits, second.states, 3, 0);
    expect(third.waitMs).toBe(167);
  });

  it('reads its setting: GitHub’s on api.github.com unless told, none elsewhere, or the pairs given', () => {
    expect(writeLimitsOf(undefined, 'https://api.github.com')).toEqual(GITHUB_CONTENT_LIMITS);
    expect(writeLimitsOf(undefined, 'http://127.0.0.1:8090')).toBeUndefined();
    expect(writeLimitsOf('off', 'https://api.github.com')).toBeUndefined();
    expect(writeLimitsOf('github', 'https://ghe.example/api/v3')).toEqual(GITHUB_CONTENT_LIMITS);
    expect(writeLimitsOf('8:1000,50:60000', 'http://x')).toEqual([
      { limit: 8, windowMs: 1_000 },
      { limit: 50, windowMs: 60_000 },
    ]);
    expect(() => parseWriteLimits('8:0')).toThrow(RangeError);
    expect(() => bookWrites(GITHUB_CONTENT_LIMITS, [], 0, 0)).toThrow(RangeError);
  });
});
