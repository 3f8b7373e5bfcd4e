/**
 * One of a code host's limits on content-creating requests: at most `limit` in any `windowMs`. GitHub's secondary
 * limits: 80 a minute and 500 an hour, per installation or user
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits).
 */
export interface WriteLimit {
  limit: number;
  windowMs: number;
}

/** GitHub's limits on content creation (pull requests, commits, refs, comments, issues): 80 a minute, 500 an hour. */
export const GITHUB_CONTENT_LIMITS: readonly WriteLimit[] = [
  { limit: 80, windowMs: 60_000 },
  { limit: 500, windowMs: 3_600_000 },
];

/** The share of each limit the worker uses at most over time: the rest is left for the people acting as the same installation. */
export const WRITE_LIMIT_SHARE = 0.9;

/** A token bucket's balance at an instant (epoch ms); negative while requests are booked ahead of their time. */
export interface BucketState {
  tokens: number;
  at: number;
}

/**
 * The token bucket of `limit`: it fills at `share × limit / windowMs` a millisecond up to `limit × (1 − share) − 1` (at
 * least 1), so that whatever the bursts, no window of `windowMs` holds more than `limit − 1` requests sent (one left for
 * a request that arrives early), and a long run goes at `share` of the limit.
 */
export function bucketOf(limit: WriteLimit, share = WRITE_LIMIT_SHARE): { ratePerMs: number; capacity: number } {
  const ratePerMs = (share * limit.limit) / limit.windowMs;
  return { ratePerMs, capacity: Math.max(1, limit.limit - ratePerMs * limit.windowMs - 1) };
}

/**
 * Books `cost` content-creating requests at `now` (epoch ms) against every limit at once (a token bucket per limit,
 * `states` in the same order, undefined for a bucket never used: full). Each bucket is refilled to `now` and `cost`
 * taken from it, going negative when the requests must wait: they are booked in turn, so that callers sharing the
 * buckets go first come, first served.
 * @returns the new states, and how long to wait before sending the requests, ms (0: now)
 * @throws RangeError when `cost` is not a whole number of at least 1
 */
export function bookWrites(
  limits: readonly WriteLimit[],
  states: readonly (BucketState | undefined)[],
  cost: number,
  now: number,
  share = WRITE_LIMIT_SHARE,
): { states: BucketState[]; waitMs: number } {
  if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`a booking costs at least 1 request, not ${cost}`);
  let waitMs = 0;
  const next = limits.map((limit, i) => {
    const { ratePerMs, capacity } = bucketOf(limit, share);
    const state = states[i];
    const refilled = state === undefined ? capacity : Math.min(capacity, state.tokens + Math.max(0, now - state.at) * ratePerMs);
    const tokens = refilled - cost;
    if (tokens < 0) waitMs = Math.max(waitMs, Math.ceil(-tokens / ratePerMs));
    return { tokens, at: now };
  });
  return { states: next, waitMs };
}

/**
 * The limits a worker paces its content-creating requests by (`CODE_HOST_WRITE_LIMITS`): `github` GitHub's, `off` none,
 * or `<limit>:<window ms>` pairs; unset: GitHub's when the code host is github.com (`api.github.com`), else none
 * (GitHub Enterprise Server's secondary limits are its administrator's and off by default; the emulator enforces them
 * only when told).
 * @returns the limits, or undefined for none
 * @throws RangeError as {@link parseWriteLimits}
 */
export function writeLimitsOf(setting: string | undefined, codeHostApiUrl: string): readonly WriteLimit[] | undefined {
  if (setting === undefined) return new URL(codeHostApiUrl).hostname === 'api.github.com' ? GITHUB_CONTENT_LIMITS : undefined;
  if (setting === 'off') return undefined;
  return setting === 'github' ? GITHUB_CONTENT_LIMITS : parseWriteLimits(setting);
}

/**
 * Parses `80:60000,500:3600000` (limit:window ms, comma-separated) into limits.
 * @throws RangeError naming the entry that is not two whole numbers of at least 1
 */
export function parseWriteLimits(text: string): WriteLimit[] {
  return text.split(',').map((entry) => {
    const [limit, windowMs] = entry.trim().split(':').map(Number);
    if (!Number.isSafeInteger(limit) || !Number.isSafeInteger(windowMs) || (limit ?? 0) < 1 || (windowMs ?? 0) < 1) {
      throw new RangeError(`"${entry}" is not <limit>:<window ms>`);
    }
    return { limit: limit as number, windowMs: windowMs as number };
  });
}
