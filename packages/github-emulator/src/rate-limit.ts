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
  /** Counts one request of `key` and returns the state to report. */
  take(key: string): RateLimitState;
  /**
   * Gives back the request `take` last counted for `key` in its current window (GitHub does not count an answer of
   * `304 Not Modified` against the rate limit) and returns the state to report; nothing to give back leaves it as is.
   */
  refund(key: string): RateLimitState;
}

/**
 * A fixed-window limiter: `limit` requests per `windowSeconds` per key; the window starts at a key's first request.
 * Requests over the limit are not counted (`used` stays at `limit`). `now` is the clock in milliseconds.
 */
export function createRateLimiter(limit: number, windowSeconds: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { resetMs: number; used: number }>();
  return {
    take(key) {
      const at = now();
      let window = windows.get(key);
      if (!window || window.resetMs <= at) {
        window = { resetMs: at + windowSeconds * 1_000, used: 0 };
        windows.set(key, window);
      }
      const exceeded = window.used >= limit;
      if (!exceeded) window.used += 1;
      return { limit, remaining: limit - window.used, reset: Math.ceil(window.resetMs / 1_000), used: window.used, exceeded };
    },
    refund(key) {
      const window = windows.get(key);
      if (!window) return { limit, remaining: limit, reset: Math.ceil((now() + windowSeconds * 1_000) / 1_000), used: 0, exceeded: false };
      if (window.used > 0 && window.resetMs > now()) window.used -= 1;
      return { limit, remaining: limit - window.used, reset: Math.ceil(window.resetMs / 1_000), used: window.used, exceeded: false };
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
