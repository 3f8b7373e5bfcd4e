import type { Request, RequestHandler } from 'express';
import { DOCS, GitHubApiError } from './github-http.ts';
import { rateLimitHeaders } from './rate-limit.ts';

/**
 * A failure the emulator plays instead of answering normally, for tests of clients:
 * - `pass`: no failure, answer normally (to aim the next fault at a later request, e.g. the second page of a list);
 * - `status`: that HTTP status with a GitHub error body (`message` default: the reason phrase), optionally `retry-after`;
 * - `hang`: never answers (the connection stays open until the client gives up or the server closes);
 * - `rate-limit`: GitHub's primary rate limit answer: 403 (or `status` 429) `API rate limit exceeded for user ID <id>.`
 *   (`… for installation ID <id>.` for an installation access token, `… for <address>.` without a token, as the
 *   emulator's own limit words it) with `x-ratelimit-remaining: 0` and `x-ratelimit-reset` `resetInSeconds` from now
 *   (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit);
 * - `secondary-rate-limit`: 403 `You have exceeded a secondary rate limit` with `retry-after: retryAfterSeconds`.
 */
export type EmulatorFault =
  | { kind: 'pass' }
  | { kind: 'status'; status: number; message?: string; retryAfterSeconds?: number }
  | { kind: 'hang' }
  | { kind: 'rate-limit'; resetInSeconds: number; status?: 403 | 429 }
  | { kind: 'secondary-rate-limit'; retryAfterSeconds: number };

/**
 * Middleware that takes the first fault of `queue` (the caller's array, consumed one per API request) and plays it;
 * with an empty queue requests pass through. `now` is the clock in milliseconds; `exceededMessage` words a `rate-limit`
 * fault's message for the request's caller (GitHub: `API rate limit exceeded for user ID 1.`).
 */
export function playFaults(queue: EmulatorFault[], now: () => number, exceededMessage: (req: Request) => string): RequestHandler {
  return (req, _res, next) => {
    const fault = queue.shift();
    if (!fault || fault.kind === 'pass') {
      next();
      return;
    }
    switch (fault.kind) {
      case 'hang':
        return;
      case 'status': {
        const headers: Record<string, string> =
          fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
        next(new GitHubApiError(fault.status, fault.message ?? (fault.status >= 500 ? 'Server Error' : 'Error'), DOCS.root, { headers }));
        return;
      }
      case 'rate-limit': {
        const reset = Math.ceil(now() / 1_000) + fault.resetInSeconds;
        const headers = rateLimitHeaders({ limit: 5_000, remaining: 0, reset, used: 5_000 });
        next(new GitHubApiError(fault.status ?? 403, exceededMessage(req), DOCS.rateLimits, { headers }));
        return;
      }
      case 'secondary-rate-limit':
        next(
          new GitHubApiError(
            403,
            'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
            DOCS.rateLimits,
            {
              headers: { 'retry-after': String(fault.retryAfterSeconds) },
            },
          ),
        );
        return;
    }
  };
}
