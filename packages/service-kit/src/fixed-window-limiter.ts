import { LRUCache } from 'lru-cache';

/** Options of {@link FixedWindowLimiter}. */
export interface FixedWindowLimiterOptions {
  /** How many units a key may spend in one window; an integer of at least 1. */
  limit: number;
  /** The length of a window, in milliseconds (at least 1). A key's window opens with its first unit. */
  windowMs: number;
  /**
   * The most keys remembered at once (default 100 000); past that the least recently used key is forgotten, and
   * starts again from nothing. This bounds the memory, whatever number of keys callers make up.
   */
  maxKeys?: number;
  /** The clock, in milliseconds; default `Date.now`. Tests move it by hand. */
  now?: () => number;
}

/** One key's window: the units spent in it and when it closes (ms on the limiter's clock). */
interface Window {
  count: number;
  endsAt: number;
}

/**
 * A fixed-window counter per key, in memory and bounded (an LRU of at most `maxKeys` windows, each two numbers):
 * a key's window opens with its first unit and lasts `windowMs`; within it the key may spend `limit` units. Nothing
 * runs in the background: a window that has closed is found so when the key is next asked about.
 *
 * Two ways to use it: count only some events and ask before acting ({@link retryAfterSeconds}, then {@link hit},
 * as code-host's failed-authentication limit does), or spend as you go ({@link take}, as code-host's per-token budget
 * and the GitHub emulator's rate limits do, the emulator giving a unit back with {@link refund} and reporting
 * {@link usage} in GitHub's `x-ratelimit-*` headers). Answers are synchronous, so two requests cannot both pass the last
 * unit.
 *
 * A fixed window lets a key spend up to twice `limit` across the boundary of two windows; the simplicity (no
 * timestamps per unit, two numbers per key) is worth that here.
 * @throws RangeError when `limit` or `windowMs` is not a positive integer
 */
export class FixedWindowLimiter {
  readonly limit: number;
  readonly windowMs: number;
  private readonly windows: LRUCache<string, Window>;
  private readonly now: () => number;

  constructor(options: FixedWindowLimiterOptions) {
    if (!Number.isSafeInteger(options.limit) || options.limit < 1) {
      throw new RangeError(`limit must be a positive integer, not ${options.limit}`);
    }
    if (!Number.isSafeInteger(options.windowMs) || options.windowMs < 1) {
      throw new RangeError(`windowMs must be a positive integer, not ${options.windowMs}`);
    }
    this.limit = options.limit;
    this.windowMs = options.windowMs;
    this.now = options.now ?? Date.now;
    // Bounded by size (one a key) rather than `max`: lru-cache allocates all `max` slots up front (several MiB for
    // 100,000 keys, in every limiter of a process), while a size-bounded cache grows with the keys it holds.
    this.windows = new LRUCache({ maxSize: options.maxKeys ?? 100_000, sizeCalculation: () => 1 });
  }

  /**
   * Whole seconds (at least 1) until `key`'s window closes when the key has spent its `limit` in it, else
   * `undefined` (the key may go on). Spends nothing.
   */
  retryAfterSeconds(key: string): number | undefined {
    const now = this.now();
    const window = this.current(key, now);
    return window && window.count >= this.limit ? this.secondsUntil(window.endsAt, now) : undefined;
  }

  /** Counts `cost` units (default 1) for `key`, opening its window when it has none; whether or not that passes the limit. */
  hit(key: string, cost = 1): void {
    const now = this.now();
    const window = this.current(key, now);
    if (window) window.count += cost;
    else this.windows.set(key, { count: cost, endsAt: now + this.windowMs });
  }

  /**
   * Spends `cost` units (default 1) of `key`'s window when all of them fit in its `limit`, and answers `undefined`;
   * otherwise spends nothing and answers the whole seconds (at least 1) until the window closes (a whole window
   * when `cost` is more than `limit`, which never fits).
   */
  take(key: string, cost = 1): number | undefined {
    const now = this.now();
    const window = this.current(key, now);
    const spent = window?.count ?? 0;
    if (spent + cost > this.limit) return window ? this.secondsUntil(window.endsAt, now) : this.secondsUntil(now + this.windowMs, now);
    this.hit(key, cost);
    return undefined;
  }

  /**
   * Gives back up to `cost` units (default 1) `key` spent in its open window (never below nothing spent): for a request
   * counted that should not have been (GitHub does not count a `304 Not Modified`). Nothing when the key has no open
   * window.
   */
  refund(key: string, cost = 1): void {
    const window = this.current(key, this.now());
    if (window) window.count = Math.max(0, window.count - cost);
  }

  /**
   * What `key` has spent in its open window and when that window closes (`resetsAt`, ms on the limiter's clock); for a
   * key without an open window, nothing spent and the end a window opened now would have. Spends nothing.
   */
  usage(key: string): { used: number; resetsAt: number } {
    const now = this.now();
    const window = this.current(key, now);
    return window ? { used: window.count, resetsAt: window.endsAt } : { used: 0, resetsAt: now + this.windowMs };
  }

  /** `key`'s open window, or undefined when it has none (never had one, forgotten, or closed: then it is dropped). */
  private current(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private secondsUntil(endsAt: number, now: number): number {
    return Math.max(1, Math.ceil((endsAt - now) / 1_000));
  }
}
