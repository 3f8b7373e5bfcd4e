import type { Response } from 'express';
import { GitHubApiError } from '../github-http.ts';

/**
 * GitHub's answer to a request over a secondary rate limit
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit): "403 or 429"
 * with a message saying so and, when GitHub knows the wait, `retry-after` in seconds. The emulator answers 403, REST
 * and GraphQL alike (the GraphQL docs allow "200 or 403"; octokit's throttling plugin retries a GraphQL call only when
 * it fails, so a 403 is what a client can act on).
 */

/** The `documentation_url` GitHub gives the secondary-limit answer (observed with a `free-pro-team@latest/` version prefix). */
export const SECONDARY_LIMIT_DOCS = 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits';

/**
 * The message of the answer, as GitHub words it (observed in client bug reports; octokit's throttling plugin tells it
 * from a primary limit by `/\bsecondary rate\b/i`), naming the answer's `x-github-request-id`.
 */
export function secondaryLimitMessage(requestId: string): string {
  return `You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID ${requestId}.`;
}

/**
 * The 403 to throw for a request over a secondary limit: body `{"message": secondaryLimitMessage(<this answer's
 * x-github-request-id>), "documentation_url": SECONDARY_LIMIT_DOCS, "status": "403"}` and `retry-after:
 * retryAfterSeconds`. No `x-ratelimit-*` headers: GitHub sends none with it, and the request is not counted against
 * the primary limit.
 */
export function secondaryLimitExceeded(res: Response, retryAfterSeconds: number): GitHubApiError {
  const requestId = String(res.getHeader('x-github-request-id') ?? '');
  return new GitHubApiError(403, secondaryLimitMessage(requestId), SECONDARY_LIMIT_DOCS, {
    headers: { 'retry-after': String(retryAfterSeconds) },
  });
}
