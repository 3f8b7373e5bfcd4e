import { createHash } from 'node:crypto';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import { createsContent, graphqlCreatesContent } from '@switchyard/contracts';
import type { Logger } from '@switchyard/service-kit';
import { LRUCache } from 'lru-cache';
import { boundedFetch } from './bounded-fetch.ts';

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
  /** The most bytes one answer's body may have (see `GitHubCodeHostOptions.maxResponseBytes`). */
  maxResponseBytes: number;
  /** GET answers remembered for conditional requests, shared by every token's client; undefined: none are sent. */
  conditional?: ConditionalCache;
  /** Awaited before each content-creating request (see `GitHubCodeHostOptions.beforeContentCreation`). */
  beforeContentCreation?: (token: string) => Promise<void>;
  /** The token sent in place of a caller's (see `GitHubCodeHostOptions.currentToken`). */
  currentToken?: (token: string, rejected: boolean) => Promise<string>;
  logger: Logger;
}

/** A GET answer kept for a conditional request: GitHub's `ETag` of it and the answer as Octokit returned it. */
interface CachedAnswer {
  etag: string;
  response: { status: number; url: string; headers: Record<string, unknown>; data: unknown };
}

/**
 * GET answers that carried an `ETag`, by token, URL and media type, for conditional requests (see
 * {@link createConditionalCache}).
 */
export type ConditionalCache = LRUCache<string, CachedAnswer>;

/** Bytes counted for an answer whose size is not known (no `Content-Length`, not a string). */
const UNKNOWN_ANSWER_BYTES = 4_096;

/**
 * A bounded cache of GET answers for conditional requests: at most `maxBytes` of answers (each counted by its
 * `Content-Length`, or its text's length; one answer at most an eighth of it), the least recently used forgotten
 * first. The memory it holds is that of the parsed answers, a few times their byte count.
 * @throws RangeError when `maxBytes` is not a whole number of at least 1
 */
export function createConditionalCache(maxBytes: number): ConditionalCache {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError(`the conditional cache needs at least 1 byte, not ${maxBytes}`);
  return new LRUCache<string, CachedAnswer>({
    maxSize: maxBytes,
    maxEntrySize: Math.max(1, Math.floor(maxBytes / 8)),
    sizeCalculation: ({ response }) => {
      const declared = Number(response.headers['content-length']);
      if (Number.isSafeInteger(declared) && declared > 0) return declared;
      return typeof response.data === 'string' ? Math.max(1, response.data.length) : UNKNOWN_ANSWER_BYTES;
    },
  });
}

/** Statuses the retry plugin must not retry: client errors, and rate limits (the throttling plugin owns those). */
const DO_NOT_RETRY = [400, 401, 403, 404, 405, 409, 410, 422, 429, 451];

/** A stable, non-reversible id for a token (throttling groups are keyed by it; the token itself is never kept). */
function tokenId(token: string): string {
  return createHash('sha256').update(token).digest('hex').slice(0, 16);
}

/**
 * The options of every Octokit this package makes (see {@link createOctokit}): base URL, user agent, the bounded fetch,
 * logging to `settings.logger`, the retry plugin's and the throttling plugin's settings, the latter's state grouped by
 * `throttleId` (a token's or an App's id, never a secret).
 */
export function octokitOptions(settings: ClientSettings, throttleId: string) {
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
  return {
    baseUrl: settings.baseUrl,
    userAgent: settings.userAgent,
    request: { fetch: boundedFetch(settings.timeoutMs, settings.maxResponseBytes) },
    log: {
      debug: (message: string) => logger.debug({ component: 'octokit' }, message),
      info: (message: string) => logger.debug({ component: 'octokit' }, message),
      warn: (message: string) => logger.warn({ component: 'octokit' }, message),
      error: (message: string) => logger.debug({ component: 'octokit' }, message),
    },
    retry: { retries: settings.retries, doNotRetry: DO_NOT_RETRY, retryAfterBaseValue: settings.retryBaseDelayMs },
    throttle: {
      enabled: settings.throttle,
      id: throttleId,
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
    },
  };
}

/**
 * An Octokit client for one token: `Authorization: token <token>` on every request, the request timeout, retries of
 * 5xx and network errors (`retries` times, the n-th after n² × `retryBaseDelayMs`), and the throttling plugin, which
 * waits out a primary or secondary rate limit once when GitHub says the wait is at most `maxRateLimitWaitSeconds`
 * (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api) and otherwise lets the 403/429
 * through. Every answer's body is read within `maxResponseBytes` (see {@link boundedFetch}); a bigger one rejects with
 * an error {@link isTooLarge} recognises, never retried. With `settings.conditional`, a GET whose answer is remembered
 * is sent with `If-None-Match: <its ETag>` and a `304 Not Modified` gives the remembered answer again (GitHub does not
 * count a 304 against the rate limit:
 * https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate).
 * With `settings.beforeContentCreation`, a content-creating request waits for it before it is sent. Octokit's own log
 * lines (which never carry the token) go to `logger` at debug level, warnings at warn.
 */
export function createOctokit(token: string, settings: ClientSettings): GitHubClient {
  const octokit = new GitHubOctokit(octokitOptions(settings, tokenId(token)));
  const current = settings.currentToken;
  octokit.hook.before('request', async (options) => {
    options.headers.authorization = `token ${current ? await current(token, false) : token}`;
  });
  if (current) {
    // A 401 to a token that expired meanwhile: sent once more with its installation's new token (the hook above asks
    // for it again). Registered after the hook above, so it wraps it.
    octokit.hook.wrap('request', async (request, options) => {
      const sent = options.headers.authorization;
      try {
        return await request(options);
      } catch (error) {
        if ((error as { status?: unknown }).status !== 401) throw error;
        const renewed = await current(token, true).catch(() => undefined);
        if (renewed === undefined || `token ${renewed}` === sent) throw error;
        return request(options);
      }
    });
  }
  const pace = settings.beforeContentCreation;
  if (pace) {
    const apiPath = new URL(settings.baseUrl).pathname.replace(/\/+$/, '');
    octokit.hook.before('request', async (options) => {
      if (options.method === 'GET' || options.method === 'HEAD') return;
      const { pathname } = new URL(octokit.request.endpoint(options).url);
      const path = pathname.startsWith(`${apiPath}/`) ? pathname.slice(apiPath.length) : pathname;
      const graphql = path === '/graphql' || pathname.endsWith('/api/graphql');
      if (graphql ? graphqlCreatesContent((options as { query?: unknown }).query) : createsContent(options.method, path)) await pace(token);
    });
  }
  const cache = settings.conditional;
  if (cache) {
    const id = tokenId(token);
    // Outermost wrap (registered after the plugins'): a 304 reaches it as Octokit's RequestError, never retried.
    octokit.hook.wrap('request', async (request, options) => {
      if (options.method !== 'GET') return request(options);
      const { url, headers } = octokit.request.endpoint(options);
      const key = `${id} ${url} ${headers.accept ?? ''}`;
      const cached = cache.get(key);
      if (cached) options.headers['if-none-match'] = cached.etag;
      try {
        const response = await request(options);
        const etag = response.headers.etag;
        // Copies kept and handed out: callers (the pagination plugin) change the answers they get.
        if (typeof etag === 'string' && response.status === 200) cache.set(key, { etag, response: structuredClone(response) });
        else if (cached) cache.delete(key);
        return response;
      } catch (error) {
        const answer = (error as { status?: unknown; response?: { headers?: Record<string, unknown> } }).status;
        if (answer !== 304 || !cached) throw error;
        // Not modified: the remembered answer, with this answer's headers (the rate limit's) over its own.
        const fresh = (error as { response?: { headers?: Record<string, unknown> } }).response?.headers ?? {};
        const copy = structuredClone(cached.response);
        return { ...copy, headers: { ...copy.headers, ...fresh, etag: cached.etag } } as Awaited<ReturnType<typeof request>>;
      }
    });
  }
  return octokit;
}
