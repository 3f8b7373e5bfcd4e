import type { Request, RequestHandler, Response } from 'express';
import type { GitHubApiError } from '../github-http.ts';
import { noteLimited } from '../request-counter.ts';
import type { SecondaryLimiter } from './limiter.ts';
import { secondaryLimitExceeded } from './refusal.ts';

/**
 * Where the secondary limits act: requests are counted in flight from their arrival (before faults are played, so a
 * `hang` fault keeps one in flight), and the authentication in front of each API route refuses, before it counts the
 * request against the primary limit, one over a limit (`secondaryLimitRefusal`).
 */

/**
 * The `retry-after` of an answer over the concurrency limit, in seconds. GitHub names no wait for it; the limit lifts
 * as soon as a request in flight ends, which the emulator cannot foresee, so it names the shortest whole wait.
 */
export const CONCURRENT_RETRY_AFTER_SECONDS = 1;

/**
 * Middleware counting each request of a known caller in flight with `limiter`, from now until its answer is over or its
 * client gone. `callerKeyOf` names the caller of a request (the key of its primary limit: `user:<id>`,
 * `installation:<id>`), or undefined for requests the limits do not apply to (no token, a bad one, an App's JWT).
 */
export function trackInFlight(limiter: SecondaryLimiter, callerKeyOf: (req: Request) => string | undefined): RequestHandler {
  return (req, res, next) => {
    const key = callerKeyOf(req);
    if (key !== undefined) res.once('close', limiter.enter(key));
    next();
  };
}

/**
 * The secondary-limit refusal of a request of caller `key`, or undefined to go on (always without a `limiter`: the
 * limits are off). Over the concurrency limit (more than `concurrent` of the caller's requests in flight, this one
 * included): a 403 with `retry-after: 1` ({@link CONCURRENT_RETRY_AFTER_SECONDS}). Else, when the request
 * `createsContent`, it is counted in the caller's content windows, or refused with `retry-after` the seconds until they
 * let one through. A refusal is noted for the request counter (`secondaryConcurrent`, `secondaryContent`).
 */
export function secondaryLimitRefusal(
  res: Response,
  limiter: SecondaryLimiter | undefined,
  key: string,
  createsContent: boolean,
): GitHubApiError | undefined {
  if (!limiter) return undefined;
  if (limiter.inFlight(key) > limiter.limits.concurrent) {
    noteLimited(res, 'secondaryConcurrent');
    return secondaryLimitExceeded(res, CONCURRENT_RETRY_AFTER_SECONDS);
  }
  if (!createsContent) return undefined;
  const wait = limiter.takeContent(key);
  if (wait === undefined) return undefined;
  noteLimited(res, 'secondaryContent');
  return secondaryLimitExceeded(res, wait);
}
