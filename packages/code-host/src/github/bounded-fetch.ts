import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Agent, type Dispatcher, interceptors } from 'undici';

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

  constructor(url: URL, timeoutMs: number) {
    super(`no answer from ${url.pathname} within ${timeoutMs} ms`);
    this.name = 'AbortError';
    this.timeoutMs = timeoutMs;
  }
}

/** Is `error` the timeout of a fetch made by {@link boundedFetch}? */
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

  constructor(url: URL, status: number, limitBytes: number, sizeBytes: number | undefined) {
    super(`the answer of ${url.pathname} is over ${limitBytes} bytes${sizeBytes === undefined ? '' : ` (${sizeBytes})`}`);
    this.name = 'AbortError';
    this.limitBytes = limitBytes;
    this.sizeBytes = sizeBytes;
    this.responseStatus = status;
  }
}

/** What {@link isTooLarge} recognises: the limit, the size when `Content-Length` declared it, the answer's status. */
export interface TooLarge extends Error {
  limitBytes: number;
  sizeBytes: number | undefined;
  responseStatus: number;
}

/** Is `error` the "answer too large" of a fetch made by {@link boundedFetch}? */
export function isTooLarge(error: unknown): error is TooLarge {
  return (error as { codeHostTooLarge?: unknown } | null)?.codeHostTooLarge === true;
}

/** Statuses whose responses have no body. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** The most redirects followed for one request, as `fetch` does (https://fetch.spec.whatwg.org/#http-redirect-fetch). */
const MAX_REDIRECTS = 20;

/**
 * The connections every client shares: keep-alive, following redirects as `fetch` does (301/302 turn a POST into a GET,
 * 303 anything but HEAD into a GET), and dropping `Authorization`, `Cookie` and `Proxy-Authorization` on a redirect to
 * another origin (undici's redirect interceptor; the same rule as fetch's
 * https://fetch.spec.whatwg.org/#http-redirect-fetch step 13). Idle sockets do not keep the process alive.
 */
let sharedDispatcher: Dispatcher | undefined;
const dispatcher = (): Dispatcher => {
  sharedDispatcher ??= new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS, throwOnMaxRedirect: true }));
  return sharedDispatcher;
};

/** One answer header as text (undici gives repeated headers as an array). */
const headerText = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/** The body's size as `Content-Length` declares it, for an answer in no content coding (the header counts encoded bytes). */
function declaredLength(headers: Dispatcher.ResponseData['headers']): number | undefined {
  const encoding = headerText(headers['content-encoding']);
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const length = headerText(headers['content-length']);
  return length !== undefined && /^\s*\d+\s*$/.test(length) ? Number(length) : undefined;
}

/**
 * The body of an answer, at most `maxBytes`: refused at once when `Content-Length` declares more, else read chunk by
 * chunk with a running count and given up as soon as the count passes `maxBytes` (nothing past the limit is kept).
 * @throws GitHubResponseTooLargeError over the limit (the caller aborts the request)
 */
async function readBounded(answer: Dispatcher.ResponseData, maxBytes: number, url: URL): Promise<Buffer> {
  const declared = declaredLength(answer.headers);
  if (declared !== undefined && declared > maxBytes) throw new GitHubResponseTooLargeError(url, answer.statusCode, maxBytes, declared);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of answer.body as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new GitHubResponseTooLargeError(url, answer.statusCode, maxBytes, declared);
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total);
}

/**
 * Decodes a body in the content codings `fetch` decodes (gzip, deflate, br; several applied in order), the decoded
 * bytes bounded by `maxBytes` too. Requests ask for `identity`, so this only runs for a server that encodes anyway.
 * @throws GitHubResponseTooLargeError when the decoded body passes `maxBytes`
 * @throws TypeError for a body that does not decode (what `fetch` rejects with)
 */
function decoded(body: Buffer, encoding: string | undefined, maxBytes: number, url: URL, status: number): Buffer {
  if (encoding === undefined) return body;
  const codings = encoding
    .toLowerCase()
    .split(',')
    .map((coding) => coding.trim())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let bytes = body;
  for (const coding of codings.reverse()) {
    const options = { maxOutputLength: maxBytes };
    try {
      if (coding === 'gzip' || coding === 'x-gzip') bytes = gunzipSync(bytes, options);
      else if (coding === 'deflate') bytes = inflateSync(bytes, options);
      else if (coding === 'br') bytes = brotliDecompressSync(bytes, options);
      else return bytes;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new GitHubResponseTooLargeError(url, status, maxBytes, undefined);
      throw new TypeError('fetch failed', { cause: error });
    }
  }
  return bytes;
}

/**
 * A fully read answer with the parts of WHATWG `Response` that `@octokit/request` reads (`status`, `statusText`, `url`,
 * `headers`, `text()`, `json()`, `arrayBuffer()`; `body` is null: the bytes are already here).
 */
class BufferedAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly headers: Headers;
  readonly ok: boolean;
  readonly redirected: boolean;
  readonly body = null;
  readonly bodyUsed = false;
  readonly type = 'basic';
  readonly #bytes: Buffer;

  constructor(status: number, statusText: string, url: string, headers: Headers, bytes: Buffer, redirected: boolean) {
    this.status = status;
    this.statusText = statusText;
    this.url = url;
    this.headers = headers;
    this.ok = status >= 200 && status <= 299;
    this.redirected = redirected;
    this.#bytes = bytes;
  }

  async text(): Promise<string> {
    return this.#bytes.toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#bytes.toString('utf8'));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return new Uint8Array(this.#bytes).buffer as ArrayBuffer;
  }
}

/** Request headers as undici takes them, from whatever `fetch` accepts (Octokit passes a plain object of strings). */
function requestHeaders(headers: RequestInit['headers']): Record<string, string> {
  const plain: Record<string, string> = {};
  if (headers === undefined) return plain;
  if (headers instanceof Headers || Array.isArray(headers)) {
    for (const [name, value] of new Headers(headers)) plain[name] = value;
    return plain;
  }
  for (const [name, value] of Object.entries(headers)) plain[name.toLowerCase()] = String(value);
  return plain;
}

/**
 * `fetch` for Octokit, bounded in time and size for the whole exchange, sent over undici's dispatcher API rather than
 * WHATWG `fetch` (whose streams and objects were most of a scanning worker's CPU): the answer arrives completely
 * within `timeoutMs` or the request is aborted with an error {@link isTimeout} recognises, and its body is read here
 * within `maxBytes` (an answer over the limit aborts the request, so the connection stops carrying it) and handed on
 * buffered. (Left to `@octokit/request`, a body cut off by the deadline would be read as an empty string, and a list
 * page as an empty page.) What `fetch` does and Octokit relies on is kept: redirects followed with credentials dropped
 * across origins (see {@link dispatcher}), content codings decoded (though requests ask for `identity`), a network
 * failure thrown as `TypeError('fetch failed', { cause })`, the caller's `signal` honoured.
 * @throws TypeError for a `Request` or a body other than a string or bytes (this client never uploads streams)
 */
export function boundedFetch(timeoutMs: number, maxBytes: number): typeof fetch {
  return async (input, init = {}) => {
    const body = init.body ?? undefined;
    if (input instanceof Request || (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))) {
      throw new TypeError('the code host client sends a URL with a string or bytes body, not a Request or a stream');
    }
    const url = new URL(String(input));
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, timeoutMs);
    const callerSignal = init.signal ?? undefined;
    const onCallerAbort = () => abort.abort(callerSignal?.reason);
    if (callerSignal) {
      if (callerSignal.aborted) onCallerAbort();
      else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
    }
    const headers = requestHeaders(init.headers);
    headers['accept-encoding'] ??= 'identity';
    try {
      const answer = await dispatcher().request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: (init.method ?? 'GET').toUpperCase() as Dispatcher.HttpMethod,
        headers,
        body,
        signal: abort.signal,
        ...(init.redirect === 'manual' || init.redirect === 'error' ? { maxRedirections: 0 } : {}),
      });
      const status = answer.statusCode;
      if (init.redirect === 'error' && status >= 300 && status < 400 && answer.headers.location !== undefined) {
        await answer.body.dump();
        throw new TypeError('fetch failed', { cause: new Error(`redirected to ${headerText(answer.headers.location)}`) });
      }
      const raw = NULL_BODY_STATUSES.has(status) ? Buffer.alloc(0) : await readBounded(answer, maxBytes, url);
      const bytes = decoded(raw, headerText(answer.headers['content-encoding']), maxBytes, url, status);
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const one of value) responseHeaders.append(name, one);
        else responseHeaders.append(name, value);
      }
      const history = (answer.context as { history?: URL[] } | undefined)?.history ?? [];
      const finalUrl = history.length > 0 ? String(history[history.length - 1]) : url.href;
      return new BufferedAnswer(
        status,
        answer.statusText ?? '',
        finalUrl,
        responseHeaders,
        bytes,
        history.length > 0,
      ) as unknown as Response;
    } catch (error) {
      if (isTooLarge(error)) {
        abort.abort();
        throw error;
      }
      if (timedOut) throw new GitHubTimeoutError(url, timeoutMs);
      if (callerSignal?.aborted || (error as { name?: unknown }).name === 'AbortError') throw error;
      if (error instanceof TypeError) throw error;
      throw new TypeError('fetch failed', { cause: error });
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }
  };
}
