import { createHash } from 'node:crypto';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { Logger } from '@switchyard/service-kit';

/** Octokit with the retry and throttling plugins, in the order octokit.js itself composes them. */
export const GitHubOctokit = Octokit.plugin(retry, throttling);
/** An Octokit instance made by {@link createOctokit}. */
export type GitHubClient = InstanceType<typeof GitHubOctokit>;

/** Resolved settings shared by every client the adapter makes (see `GitHubCodeHostOptions`). */
export interface ClientSettings {
  baseUrl: string;
  userAgent: string;
  timeoutMs: number;
  maxRateLimitWaitSeconds: number;
  /** Whether the throttling plugin queues requests (see `GitHubCodeHostOptions.throttle`). */
  throttle: boolean;
  retries: number;
  retryBaseDelayMs: number;
  logger: Logger;
}

/** Statuses the retry plugin must not retry: client errors, and rate limits (the throttling plugin owns those). */
const DO_NOT_RETRY = [400, 401, 403, 404, 409, 410, 422, 429, 451];

/**
 * Thrown by the client's fetch when GitHub's answer did not arrive completely within `timeoutMs`.
 * Named `AbortError` on purpose: `@octokit/request` rethrows such errors as they are instead of wrapping them in
 * a retryable status-500 `RequestError`, so a hanging server costs one timeout, not one per retry. The empty
 * `request` keeps `@octokit/plugin-retry` from retrying it. Recognised by {@link isTimeout}.
 */
class GitHubTimeoutError extends Error {
  readonly timeoutMs: number;
  readonly codeHostTimeout = true;
  readonly request = {};

  constructor(url: string, timeoutMs: number) {
    super(`no answer from ${new URL(url).pathname} within ${timeoutMs} ms`);
    this.name = 'AbortError';
    this.timeoutMs = timeoutMs;
  }
}

/** Is `error` the timeout of a client made by {@link createOctokit}? */
export function isTimeout(error: unknown): error is Error & { timeoutMs: number } {
  return (error as { codeHostTimeout?: unknown } | null)?.codeHostTimeout === true;
}

/** Statuses whose responses have no body (a `Response` with one of them must be built with a null body). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * `fetch` bounded by `timeoutMs` for the whole exchange: the body is read here, inside the deadline, and handed on
 * buffered. (Left to `@octokit/request`, a body cut off by the deadline would be read as an empty string, and a list
 * page as an empty page.)
 */
function fetchWithTimeout(timeoutMs: number): typeof fetch {
  return async (input, init = {}) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    try {
      const response = await fetch(input, { ...init, signal });
      const body = NULL_BODY_STATUSES.has(response.status) ? null : await response.arrayBuffer();
      const buffered = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      Object.defineProperty(buffered, 'url', { value: response.url });
      return buffered;
    } catch (error) {
      if (timeout.aborted) throw new GitHubTimeoutError(String(input instanceof Request ? input.url : input), timeoutMs);
      throw error;
    }
  };
}

/** A stable, non-reversible id for a token (throttling groups are keyed by it; the token itself is never kept). */
function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

/**
 * An Octokit client for one token: `Authorization: token <token>` on every request, the request timeout, retries of
 * 5xx and network errors (`retries` times, the n-th after n² × `retryBaseDelayMs`), and the throttling plugin, which
 * waits out a primary or secondary rate limit once when GitHub says the wait is at most `maxRateLimitWaitSeconds`
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api) and otherwise lets the 403/429
 * through. Octokit's own log lines (which never carry the token) go to `logger` at debug level, warnings at warn.
 */
export function createOctokit(token: string, settings: ClientSettings): GitHubClient {
  const { logger, maxRateLimitWaitSeconds } = settings;
  const onLimit =
    (kind: 'primary' | 'secondary') =>
    (retryAfter: number, options: { method: string; url: string }, _octokit: unknown, retryCount: number): boolean => {
      const wait = retryCount < 1 && retryAfter <= maxRateLimitWaitSeconds;
      logger.warn(
        { kind, retryAfterSeconds: retryAfter, request: `${options.method} ${options.url}`, retrying: wait },
        wait ? 'GitHub rate limit hit: waiting before one retry' : 'GitHub rate limit hit: giving up',
      );
      return wait;
    };
  const octokit = new GitHubOctokit({
    baseUrl: settings.baseUrl,
    userAgent: settings.userAgent,
    request: { fetch: fetchWithTimeout(settings.timeoutMs) },
    log: {
      debug: (message: string) => logger.debug({ component: 'octokit' }, message),
      info: (message: string) => logger.debug({ component: 'octokit' }, message),
      warn: (message: string) => logger.warn({ component: 'octokit' }, message),
      error: (message: string) => logger.debug({ component: 'octokit' }, message),
    },
    retry: { retries: settings.retries, doNotRetry: DO_NOT_RETRY, retryAfterBaseValue: settings.retryBaseDelayMs },
    throttle: {
      enabled: settings.throttle,
      id: tokenId(token),
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
    },
  });
  octokit.hook.before('request', (options) => {
    options.headers.authorization = `token ${token}`;
  });
  return octokit;
}
