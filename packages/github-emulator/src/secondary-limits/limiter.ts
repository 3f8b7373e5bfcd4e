/**
 * The state of GitHub's secondary rate limits
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits): requests
 * in flight per caller, and the content-generating requests each caller made in the last minute and hour. What counts
 * as content generation is `@switchyard/contracts`' (`github/content-creation.ts`); the answers are `refusal.ts`'s; the wiring is `enforce.ts`'s.
 */

/**
 * The secondary limits an emulator enforces, per caller (a user, or an installation for its access tokens): at most
 * `concurrent` requests in flight at once (REST and GraphQL together), and at most `contentPerMinute` content-generating
 * requests in any 60 s and `contentPerHour` in any 3,600 s. Each a positive integer.
 */
export interface SecondaryLimits {
  concurrent: number;
  contentPerMinute: number;
  contentPerHour: number;
}

/**
 * GitHub's documented secondary limits: "No more than 100 concurrent requests are allowed", "no more than 80
 * content-generating requests per minute and no more than 500 content-generating requests per hour"
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits).
 */
export const GITHUB_SECONDARY_LIMITS: Readonly<SecondaryLimits> = Object.freeze({
  concurrent: 100,
  contentPerMinute: 80,
  contentPerHour: 500,
});

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Callers whose content log is kept; the least recently active is forgotten beyond this (it starts again from nothing). */
const MAX_CALLERS = 100_000;

/** Counts requests in flight and content-generating requests per caller key (`user:<id>`, `installation:<id>`). */
export interface SecondaryLimiter {
  readonly limits: Readonly<SecondaryLimits>;
  /** Counts one request of `key` in flight; the returned function (idempotent) ends it. */
  enter(key: string): () => void;
  /** How many requests of `key` are in flight now (this one included, once entered). */
  inFlight(key: string): number;
  /**
   * Counts one content-generating request of `key` now, when both windows have room, and answers undefined; otherwise
   * counts nothing and answers the whole seconds (at least 1) until the fuller window lets the next one through.
   */
  takeContent(key: string): number | undefined;
}

/**
 * A {@link SecondaryLimiter} for `limits` on the clock `now` (epoch milliseconds; `Date.now` by default, a stepped clock
 * in tests). Content windows slide (GitHub does not say how it counts; a request made at `t` counts until `t + 60 s`
 * and `t + 3,600 s`), and a refused request is not counted.
 * @throws RangeError when a limit is not a positive integer
 */
export function createSecondaryLimiter(limits: SecondaryLimits, now: () => number = Date.now): SecondaryLimiter {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`secondary limit ${name} must be a positive integer, not ${value}`);
  }
  const frozen = Object.freeze({ ...limits });
  const inFlight = new Map<string, number>();
  // Per caller, the times (ms, ascending) of the content-generating requests of the last hour; insertion order is recency.
  const logs = new Map<string, number[]>();

  const logOf = (key: string, at: number): number[] => {
    const log = logs.get(key) ?? [];
    logs.delete(key);
    logs.set(key, log);
    if (logs.size > MAX_CALLERS) logs.delete(logs.keys().next().value as string);
    let stale = 0;
    while (stale < log.length && (log[stale] as number) <= at - HOUR_MS) stale += 1;
    if (stale > 0) log.splice(0, stale);
    return log;
  };

  return {
    limits: frozen,
    enter(key) {
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        const left = (inFlight.get(key) ?? 1) - 1;
        if (left > 0) inFlight.set(key, left);
        else inFlight.delete(key);
      };
    },
    inFlight: (key) => inFlight.get(key) ?? 0,
    takeContent(key) {
      const at = now();
      const log = logOf(key, at);
      let inMinute = 0;
      while (inMinute < log.length && (log[log.length - 1 - inMinute] as number) > at - MINUTE_MS) inMinute += 1;
      const waits: number[] = [];
      // The request whose leaving brings a window below its limit: the limit-th newest.
      if (inMinute >= frozen.contentPerMinute) waits.push((log[log.length - frozen.contentPerMinute] as number) + MINUTE_MS - at);
      if (log.length >= frozen.contentPerHour) waits.push((log[log.length - frozen.contentPerHour] as number) + HOUR_MS - at);
      if (waits.length > 0) return Math.max(1, Math.ceil(Math.max(...waits) / 1_000));
      log.push(at);
      return undefined;
    },
  };
}
