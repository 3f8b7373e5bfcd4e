import { describe, expect, it } from 'vitest';
import { FixedWindowLimiter } from '../src/index.ts';

/** A clock the test moves by hand, in milliseconds. */
function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('FixedWindowLimiter', () => {
  it('lets a key go on until it has `limit` hits in its window, then says how many seconds until the window frees', () => {
    const clock = manualClock();
    const limiter = new FixedWindowLimiter({ limit: 3, windowMs: 60_000, now: clock.now });
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfterSeconds('a')).toBeUndefined();
      limiter.hit('a');
      clock.advance(1_000);
    }
    // The window opened with the first hit, 3 s ago: 57 s left.
    expect(limiter.retryAfterSeconds('a')).toBe(57);
    expect(limiter.retryAfterSeconds('b')).toBeUndefined();
    clock.advance(56_500);
    expect(limiter.retryAfterSeconds('a')).toBe(1);
    clock.advance(500);
    expect(limiter.retryAfterSeconds('a')).toBeUndefined();
    limiter.hit('a');
    expect(limiter.retryAfterSeconds('a')).toBeUndefined();
  });

  it('never answers a retry delay under one second', () => {
    const clock = manualClock();
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 1_000, now: clock.now });
    limiter.hit('a');
    clock.advance(999);
    expect(limiter.retryAfterSeconds('a')).toBe(1);
  });

  it('takes a cost only when all of it fits in the window, and refuses without counting otherwise', () => {
    const clock = manualClock();
    const limiter = new FixedWindowLimiter({ limit: 5, windowMs: 10_000, now: clock.now });
    expect(limiter.take('t', 2)).toBeUndefined();
    expect(limiter.take('t', 2)).toBeUndefined();
    clock.advance(4_000);
    expect(limiter.take('t', 2)).toBe(6);
    expect(limiter.take('t')).toBeUndefined();
    expect(limiter.take('t')).toBe(6);
    expect(limiter.take('other', 2)).toBeUndefined();
    clock.advance(6_000);
    expect(limiter.take('t', 2)).toBeUndefined();
  });

  it('refuses a cost larger than the limit for a whole window', () => {
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 30_000, now: manualClock().now });
    expect(limiter.take('t', 2)).toBe(30);
  });

  it('remembers at most maxKeys keys, forgetting the least recently used', () => {
    const limiter = new FixedWindowLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2, now: manualClock().now });
    limiter.hit('a');
    limiter.hit('b');
    limiter.hit('c');
    expect(limiter.retryAfterSeconds('a')).toBeUndefined();
    expect(limiter.retryAfterSeconds('b')).toBe(60);
    expect(limiter.retryAfterSeconds('c')).toBe(60);
  });

  it('refuses nonsense options', () => {
    expect(() => new FixedWindowLimiter({ limit: 0, windowMs: 1_000 })).toThrow(RangeError);
    expect(() => new FixedWindowLimiter({ limit: 1, windowMs: 0 })).toThrow(RangeError);
  });

  it('gives back units spent in the open window, never below nothing, and only while it is open', () => {
    const clock = manualClock();
    const limiter = new FixedWindowLimiter({ limit: 2, windowMs: 10_000, now: clock.now });
    limiter.refund('a');
    expect(limiter.usage('a')).toEqual({ used: 0, resetsAt: clock.now() + 10_000 });
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBeUndefined();
    expect(limiter.take('a')).toBe(10);
    limiter.refund('a');
    expect(limiter.usage('a')).toEqual({ used: 1, resetsAt: clock.now() + 10_000 });
    expect(limiter.take('a')).toBeUndefined();
    limiter.refund('a', 5);
    expect(limiter.usage('a').used).toBe(0);
    clock.advance(10_000);
    limiter.refund('a');
    expect(limiter.usage('a')).toEqual({ used: 0, resetsAt: clock.now() + 10_000 });
  });

  it('reports what a key spent and when its window closes, spending nothing', () => {
    const clock = manualClock();
    const limiter = new FixedWindowLimiter({ limit: 3, windowMs: 60_000, now: clock.now });
    const opened = clock.now();
    limiter.hit('a', 2);
    clock.advance(5_000);
    expect(limiter.usage('a')).toEqual({ used: 2, resetsAt: opened + 60_000 });
    expect(limiter.usage('a')).toEqual({ used: 2, resetsAt: opened + 60_000 });
    expect(limiter.retryAfterSeconds('a')).toBeUndefined();
  });
});
