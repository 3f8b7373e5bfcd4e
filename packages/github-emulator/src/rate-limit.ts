import { FixedWindowLimiter } from '@switchyard/service-kit';

/** The `x-ratelimit-*` values of one answer (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api). */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** When the window resets, in epoch seconds. */
  reset: number;
  used: number;
  /** True when this request is over the limit and must be refused. */
  exceeded: boolean;
}

/** Counts requests per key (a user id, or an address for unauthenticated calls) in fixed windows. */
export interface RateLimiter {
  /**
   * Counts one request of `key`, or `cost` points of it (a GraphQL query's cost), and returns the state to report; a
   * request over the limit spends nothing and is `exceeded`.
   */
  take(key: string, cost?: number): RateLimitState;
  /** The state of `key`'s window now, spending nothing (`exceeded` false). */
  peek(key: string): RateLimitState;
  /**
   * Gives back the request `take` last counted for `key` in its current window (GitHub does not count an answer of
   * `304 Not Modified` against the rate limit) and returns the state to report; nothing to give back leaves it as is.
   */
  refund(key: string): RateLimitState;
}

/**
 * GitHub's rate limit on service-kit's {@link FixedWindowLimiter}: `limit` requests per `windowSeconds` per key; the
 * window starts at a key's first request. Requests over the limit are not counted (`used` stays at `limit`); `reset` is
 * the window's end in whole epoch seconds, rounded up. `now` is the clock in milliseconds. At most 100,000 keys are
 * remembered (the least recently used is forgotten and starts again from nothing).
 */
export function createRateLimiter(limit: number, windowSeconds: number, now: () => number = Date.now): RateLimiter {
  const windows = new FixedWindowLimiter({ limit, windowMs: windowSeconds * 1_000, now });
  const state = (key: string, exceeded: boolean): RateLimitState => {
    const { used, resetsAt } = windows.usage(key);
    return { limit, remaining: limit - used, reset: Math.ceil(resetsAt / 1_000), used, exceeded };
  };
  return {
    take: (key, cost = 1) => state(key, windows.take(key, cost) !== undefined),
    peek: (key) => state(key, false),
    refund(key) {
      windows.refund(key);
      return state(key, false);
    },
  };
}

/** The `x-ratelimit-*` headers GitHub sends on every answer, for the `core` resource (REST) or `graphql`. */
export function rateLimitHeaders(state: Omit<RateLimitState, 'exceeded'>, resource: 'core' | 'graphql' = 'core'): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.reset),
    'x-ratelimit-used': String(state.used),
    'x-ratelimit-resource': resource,
  };
}
