import { createHash } from 'node:crypto';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import type { Logger } from '@switchyard/service-kit';
import { LRUCache } from 'lru-cache';

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

/**
 * Thrown by the client's fetch when an answer's body is bigger than `limitBytes`: its `Content-Length` said so
 * (`sizeBytes`), or reading it passed the limit. Named `AbortError` with an empty `request` for the same reasons as
 * {@link GitHubTimeoutError}: `@octokit/request` rethrows it as it is and `@octokit/plugin-retry` does not retry it
 * (the same request would get the same answer). Recognised by {@link isTooLarge}.
 */
class GitHubResponseTooLargeError extends Error {
  readonly limitBytes: number;
  readonly sizeBytes: number | undefined;
  /** The answer's HTTP status (`status` itself is overwritten with 500 by `@octokit/request`). */
  readonly responseStatus: number;
  readonly codeHostTooLarge = true;
  readonly request = {};

  constructor(url: string, response: Response, limitBytes: number, sizeBytes: number | undefined) {
    super(`the answer of ${new URL(url).pathname} is over ${limitBytes} bytes${sizeBytes === undefined ? '' : ` (${sizeBytes})`}`);
    this.name = 'AbortError';
    this.limitBytes = limitBytes;
    this.sizeBytes = sizeBytes;
    this.responseStatus = response.status;
  }
}

/** What {@link isTooLarge} recognises: the limit, the size when `Content-Length` declared it, the answer's status. */
export interface TooLarge extends Error {
  limitBytes: number;
  sizeBytes: number | undefined;
  responseStatus: number;
}

/** Is `error` the "answer too large" of a client made by {@link createOctokit}? */
export function isTooLarge(error: unknown): error is TooLarge {
  return (error as { codeHostTooLarge?: unknown } | null)?.codeHostTooLarge === true;
}

/** Statuses whose responses have no body (a `Response` with one of them must be built with a null body). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The body's size as `Content-Length` declares it, when that is the size of the bytes `fetch` hands on: not for a
 * compressed body (`Content-Encoding` other than `identity`: `fetch` decodes it, and the header counts encoded bytes).
 */
function declaredLength(response: Response): number | undefined {
  const encoding = response.headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const length = response.headers.get('content-length');
  return length !== null && /^\s*\d+\s*$/.test(length) ? Number(length) : undefined;
}

/**
 * The body of `response`, at most `maxBytes`: refused at once when `Content-Length` declares more, else read chunk by
 * chunk with a running count and given up as soon as the count passes `maxBytes` (nothing past the limit is kept).
 * @throws GitHubResponseTooLargeError over the limit (the caller aborts the request)
 */
async function readBounded(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const declared = declaredLength(response);
  if (declared !== undefined && declared > maxBytes) throw new GitHubResponseTooLargeError(url, response, maxBytes, declared);
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new GitHubResponseTooLargeError(url, response, maxBytes, declared);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * `fetch` bounded in time and size for the whole exchange: the body is read here, inside the `timeoutMs` deadline
 * and within `maxBytes` (see {@link readBounded}), and handed on buffered. (Left to `@octokit/request`, a body cut off
 * by the deadline would be read as an empty string, and a list page as an empty page.) An answer over the limit
 * aborts the request, so the connection stops carrying it.
 */
function boundedFetch(timeoutMs: number, maxBytes: number): typeof fetch {
  return async (input, init = {}) => {
    const url = String(input instanceof Request ? input.url : input);
    const timeout = AbortSignal.timeout(timeoutMs);
    const cutOff = new AbortController();
    const signal = AbortSignal.any([timeout, cutOff.signal, ...(init.signal ? [init.signal] : [])]);
    try {
      const response = await fetch(input, { ...init, signal });
      const body = NULL_BODY_STATUSES.has(response.status) ? null : await readBounded(response, maxBytes, url);
      const buffered = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
      Object.defineProperty(buffered, 'url', { value: response.url });
      return buffered;
    } catch (error) {
      if (isTooLarge(error)) {
        cutOff.abort();
        throw error;
      }
      if (timeout.aborted) throw new GitHubTimeoutError(url, timeoutMs);
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
 * through. Every answer's body is read within `maxResponseBytes` (see {@link boundedFetch}); a bigger one rejects with
 * an error {@link isTooLarge} recognises, never retried. With `settings.conditional`, a GET whose answer is remembered
 * is sent with `If-None-Match: <its ETag>` and a `304 Not Modified` gives the remembered answer again (GitHub does not
 * count a 304 against the rate limit:
 * https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate). Octokit's own log lines (which never carry the token) go to
 * `logger` at debug level, warnings at warn.
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
      id: tokenId(token),
      onRateLimit: onLimit('primary'),
      onSecondaryRateLimit: onLimit('secondary'),
    },
  });
  octokit.hook.before('request', (options) => {
    options.headers.authorization = `token ${token}`;
  });
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
