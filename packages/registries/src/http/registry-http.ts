import { LRUCache } from 'lru-cache';
import { Agent, DecoratorHandler, type Dispatcher, errors, interceptors } from 'undici';
import { type RegistryCredentials, RegistryError, type RegistryRequestStats } from '../port.ts';

/**
 * What every adapter's factory takes: the base URL (default the public registry's), credentials, and the HTTP bounds
 * of {@link RegistryHttpOptions}.
 */
export interface RegistryAdapterOptions extends Omit<RegistryHttpOptions, 'baseUrl' | 'credentials'> {
  baseUrl?: string;
  credentials?: RegistryCredentials;
}

/** Options of {@link createRegistryHttp}; times in milliseconds, sizes in bytes. */
export interface RegistryHttpOptions {
  /** The registry's base URL; relative paths are resolved against it (a trailing `/` is added when missing). */
  baseUrl: string;
  /** Sent to the base URL's origin only (a redirect to another host drops them). */
  credentials?: RegistryCredentials;
  /** Bound on connecting, default 5000. */
  connectTimeoutMs?: number;
  /** Bound on the answer's headers, and then on each gap in its body, default 15 000. */
  responseTimeoutMs?: number;
  /** Retries of a request that got no answer, a 429 or a 5xx, with exponential back-off from `retryDelayMs`; default 2. */
  retries?: number;
  /** First back-off, default 250 (then doubled, at most 4 s; a `Retry-After` is honoured). */
  retryDelayMs?: number;
  /** Largest answer read, default 64 MiB (a big npm packument is tens of MiB). */
  maxResponseBytes?: number;
  /** Bytes of answers kept for conditional requests, default 256 MiB; the least recently used go first. */
  cacheMaxBytes?: number;
  /** `User-Agent` header, default `switchyard-registries`. */
  userAgent?: string;
  /**
   * Makes the client's connection pool from the options it chose (connect timeout, response timeouts, size cap); default
   * `new Agent(options)`. A caller that asks URLs a tenant set passes an outbound guard's `agent` (service-kit's
   * `createOutboundGuard(…).agent`, OWASP API7:2023): every connection the client makes (the base URL's, a redirect's, a
   * URL a registry's document names) is then checked on the address actually connected to, and a refused one fails
   * as `unreachable` with `address refused: <why>` (never retried, nothing of any answer in it).
   */
  agentFactory?: (options: Agent.Options) => Dispatcher;
}

/**
 * A registry's answer: 200 with its body (from the network or, after a 304, from the cache), or 404/410; 401 only to a
 * request made with {@link RegistryGetOptions.challenge}.
 */
export interface RegistryAnswer {
  status: 200 | 401 | 404 | 410;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** The URL asked (without user info), before any redirect. */
  url: string;
  /** The body's bytes as the registry sent them (no UTF-8 decoding), for a request made with {@link RegistryGetOptions.binary}. */
  bytes?: Uint8Array;
}

/** Options of {@link RegistryHttp.get}. */
export interface RegistryGetOptions {
  /** `Accept` header, default `application/json`. */
  accept?: string;
  signal?: AbortSignal;
  /** `HEAD` asks for the headers only (the answer's body is empty; never cached), default `GET`. */
  method?: 'GET' | 'HEAD';
  /**
   * Headers sent as given to the URL asked, whatever its origin (an `authorization` here replaces the configured
   * credentials: a bearer token a registry's token service issued for that host). Such a request is not shared with others.
   */
  headers?: Record<string, string>;
  /** Answer a 401 (with its `WWW-Authenticate` header) instead of throwing `auth_failed`: for token-auth challenges. */
  challenge?: boolean;
  /**
   * Also give the body's bytes as {@link RegistryAnswer.bytes} (what a digest is computed over: `body` is decoded UTF-8,
   * without a BOM): module and provider zips, a go.mod to hash. Such a request is not shared with others, not
   * conditional and not cached.
   */
  binary?: boolean;
}

/** GETs against one registry; see {@link createRegistryHttp}. */
export interface RegistryHttp {
  readonly baseUrl: URL;
  /**
   * GETs `path` (relative to the base URL, or absolute), always revalidating what the cache holds (`If-None-Match` /
   * `If-Modified-Since`): an unchanged answer costs a 304, never a second download.
   * @returns the answer for 200, 404 and 410
   * @throws RegistryError `auth_failed` (401, 403), `unreachable` (no answer, a timeout, 5xx or 429 after the retries),
   *   `bad_response` (any other status, a body over `maxResponseBytes`)
   */
  get(path: string, options?: RegistryGetOptions): Promise<RegistryAnswer>;
  stats(): RegistryRequestStats;
  /** Closes the connections. */
  close(): Promise<void>;
}

type ResponseStart = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>;
const decorated = DecoratorHandler.prototype as unknown as Required<Pick<Dispatcher.DispatchHandler, 'onResponseStart'>>;

/** Counts what reaches the network (placed innermost, under the retries and the cache). */
class CountingHandler extends DecoratorHandler {
  readonly #stats: RegistryRequestStats;

  constructor(handler: Dispatcher.DispatchHandler, stats: RegistryRequestStats) {
    super(handler);
    this.#stats = stats;
  }

  onResponseStart(...args: ResponseStart): void {
    const statusCode = args[1];
    if (statusCode === 304) this.#stats.notModified++;
    else if (statusCode === 200) this.#stats.fullDownloads++;
    decorated.onResponseStart.apply(this, args);
  }
}

/**
 * The `Authorization` value of registry credentials: `Bearer <token>`, HTTP Basic of a user and password (UTF-8,
 * base64), or a whole `authorization` as given; undefined without credentials.
 */
export function authorizationOf(credentials: RegistryCredentials | undefined): string | undefined {
  if (credentials === undefined) return undefined;
  if ('authorization' in credentials) return credentials.authorization;
  if ('token' in credentials) return `Bearer ${credentials.token}`;
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`;
}

/**
 * Is `error` the `bad_response` {@link RegistryError} of an answer over the client's `maxResponseBytes`, which was not
 * read past the limit (as opposed to an answer that is wrong)? For a caller to whom a too large file is optional.
 */
export function isOverSizeLimit(error: unknown): boolean {
  return error instanceof RegistryError && error.cause instanceof errors.ResponseExceededMaxSizeError;
}

/**
 * The `code` of the error an outbound guard's connector refuses a connection with (service-kit's `OUTBOUND_REFUSED`;
 * this package does not depend on service-kit, so it is matched by value).
 */
const OUTBOUND_REFUSED = 'ERR_OUTBOUND_REFUSED';

/** The URL without user info, query kept: what errors and logs may show. */
const shown = (url: URL) => `${url.origin}${url.pathname}${url.search}`;

/** An answer kept for conditional requests: its validators and what a 304 stands for. */
interface CachedAnswer {
  etag: string | undefined;
  lastModified: string | undefined;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * The HTTP side of every registry adapter, on undici: one connection pool per registry; redirects followed (at most 3)
 * and credentials dropped on a redirect to another origin (undici's redirect interceptor); retries with back-off on no
 * answer, 429 and 5xx (undici's retry interceptor, `Retry-After` honoured); answers cached in memory by URL and always
 * revalidated with conditional requests (`If-None-Match` / `If-Modified-Since` from the answer's `ETag` /
 * `Last-Modified`; a 304 is answered from the cache). The cache is this module's own, not undici's cache interceptor:
 * that one drops its entry whenever a 304 carries `Cache-Control` (as registries' do), so every other request downloaded
 * the whole document again (nodejs/undici#5505). Concurrent GETs of one URL share one request. Bounded by
 * `cacheMaxBytes`): the registry's `ETag` / `Last-Modified` make an unchanged package a 304. Credentials go only to the
 * base URL's origin. The cache belongs to this instance: one per registry and credentials, so no account's private
 * answers reach another's. With {@link RegistryHttpOptions.agentFactory} an outbound guard's agent makes the
 * connections, so the base URL and every redirect are checked on the address connected to.
 * @throws TypeError for a base URL that is not http(s)
 */
export function createRegistryHttp(options: RegistryHttpOptions): RegistryHttp {
  const baseUrl = new URL(options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`);
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:')
    throw new TypeError(`registry base URL must be http(s): ${shown(baseUrl)}`);
  const authorization = authorizationOf(options.credentials);
  const stats: RegistryRequestStats = { requests: 0, notModified: 0, fullDownloads: 0 };
  const responseTimeout = options.responseTimeoutMs ?? 15_000;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024 * 1024;
  const counting: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
    stats.requests++;
    return dispatch(opts, new CountingHandler(handler, stats));
  };
  const agentOptions: Agent.Options = {
    connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    headersTimeout: responseTimeout,
    bodyTimeout: responseTimeout,
    maxResponseSize: maxResponseBytes,
  };
  const agent = options.agentFactory ? options.agentFactory(agentOptions) : new Agent(agentOptions);
  const dispatcher = agent.compose(
    counting,
    interceptors.retry({
      maxRetries: options.retries ?? 2,
      minTimeout: options.retryDelayMs ?? 250,
      maxTimeout: 4_000,
      timeoutFactor: 2,
      methods: ['GET', 'HEAD'],
      statusCodes: [429, 500, 502, 503, 504],
    }),
    interceptors.redirect({ maxRedirections: 3 }),
  );
  const cache = new LRUCache<string, CachedAnswer>({
    maxSize: options.cacheMaxBytes ?? 256 * 1024 * 1024,
    // UTF-16 in memory: two bytes a character, at least one byte an entry.
    sizeCalculation: (entry) => Math.max(1, entry.body.length * 2),
  });
  const inFlight = new Map<string, Promise<RegistryAnswer>>();

  /** One GET on the network, conditional when the cache holds the URL; a 304 is answered with the cached body. */
  const fetchAnswer = async (
    url: URL,
    accept: string,
    signal: AbortSignal | undefined,
    extra: Pick<RegistryGetOptions, 'method' | 'headers' | 'challenge' | 'binary'> = {},
  ): Promise<RegistryAnswer> => {
    const method = extra.method ?? 'GET';
    const key = `${accept} ${url.href}`;
    const cached = method === 'GET' && !extra.binary ? cache.get(key) : undefined;
    const headers: Record<string, string> = { accept, 'user-agent': options.userAgent ?? 'switchyard-registries' };
    if (cached?.etag) headers['if-none-match'] = cached.etag;
    if (cached?.lastModified) headers['if-modified-since'] = cached.lastModified;
    if (authorization !== undefined && url.origin === baseUrl.origin) headers.authorization = authorization;
    for (const [name, value] of Object.entries(extra.headers ?? {})) headers[name.toLowerCase()] = value;
    let answer: Dispatcher.ResponseData;
    try {
      answer = await dispatcher.request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        headers,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof errors.ResponseExceededMaxSizeError) {
        throw new RegistryError('bad_response', shown(url), `answer over ${maxResponseBytes} bytes`, { cause: error });
      }
      if (signal?.aborted) throw error;
      if ((error as { code?: unknown }).code === OUTBOUND_REFUSED) {
        // The outbound guard refused the address (the base URL's, or a redirect's): no connection was made.
        throw new RegistryError('unreachable', shown(url), `address refused: ${(error as Error).message}`, { cause: error });
      }
      throw new RegistryError('unreachable', shown(url), `no answer from ${url.origin}: ${(error as Error).message}`, { cause: error });
    }
    let body: string;
    let bytes: Uint8Array | undefined;
    try {
      if (extra.binary) {
        bytes = new Uint8Array(await answer.body.arrayBuffer());
        body = new TextDecoder().decode(bytes);
      } else body = await answer.body.text();
    } catch (error) {
      if (error instanceof errors.ResponseExceededMaxSizeError) {
        throw new RegistryError('bad_response', shown(url), `answer over ${maxResponseBytes} bytes`, { cause: error });
      }
      throw new RegistryError('unreachable', shown(url), `answer from ${url.origin} cut short: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const { statusCode: status } = answer;
    if (status === 304 && cached) return { status: 200, body: cached.body, headers: cached.headers, url: shown(url) };
    if (status === 200 || status === 404 || status === 410) {
      const etag = headerText(answer.headers.etag);
      const lastModified = headerText(answer.headers['last-modified']);
      if (bytes) return { status, body, headers: answer.headers, url: shown(url), bytes };
      if (method === 'GET') {
        if (status === 200 && (etag || lastModified)) cache.set(key, { etag, lastModified, body, headers: answer.headers });
        else cache.delete(key);
      }
      return { status, body, headers: answer.headers, url: shown(url) };
    }
    if (status === 401 && extra.challenge) return { status, body, headers: answer.headers, url: shown(url), ...(bytes ? { bytes } : {}) };
    if (status === 401 || status === 403)
      throw new RegistryError('auth_failed', shown(url), `${url.origin} refused the credentials (${status})`, { status });
    if (status === 429 || status >= 500) throw new RegistryError('unreachable', shown(url), `${url.origin} answered ${status}`, { status });
    throw new RegistryError('bad_response', shown(url), `${url.origin} answered ${status}`, { status });
  };

  return {
    baseUrl,
    get: (path, getOptions = {}) => {
      const url = new URL(path, baseUrl);
      const accept = getOptions.accept ?? 'application/json';
      // A caller with its own signal (or headers, method) gets its own request; the others share one per URL while it is on its way.
      if (getOptions.signal || getOptions.headers || getOptions.method || getOptions.challenge || getOptions.binary) {
        const { method, headers, challenge, binary } = getOptions;
        return fetchAnswer(url, accept, getOptions.signal, { method, headers, challenge, binary });
      }
      const key = `${accept} ${url.href}`;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = fetchAnswer(url, accept, undefined).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    stats: () => ({ ...stats }),
    close: () => agent.close(),
  };
}
