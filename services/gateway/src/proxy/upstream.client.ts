import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline, Transform, type TransformCallback } from 'node:stream';
import {
  type ErrorFormat,
  HttpProblem,
  type Logger,
  REQUEST_ID_HEADER,
  UpstreamFailed,
  UpstreamTimeout,
  writeError,
} from '@switchyard/service-kit';
import { type Dispatcher, Pool } from 'undici';
import { stripHopByHop, type UpstreamRequest } from './forwarded-headers.mapper.ts';

/** Settings of the connection pool to one upstream. */
export interface UpstreamOptions {
  /** Base URL, e.g. `http://catalog-svc:8083`; only its origin is used. */
  url: string;
  connections: number;
  /** Wait for response headers and between body chunks, ms. */
  timeoutMs: number;
  connectTimeoutMs: number;
}

/** How one forwarded request is answered when it fails: the body limit and the route's error format. */
export interface ForwardOptions {
  bodyLimitBytes: number;
  /** The error format of the API the path belongs to (the routing table's). */
  errors: ErrorFormat;
}

/** What went wrong between the gateway and an upstream, coarsely, with no address in it. */
export type UpstreamFailure = 'timed out' | 'unreachable' | 'failed';

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ETIMEDOUT']);
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/**
 * Classifies an error of undici's (or of the socket under it) by its `code`: `timed out` (no answer or no
 * connection in time), `unreachable` (refused, unknown host, no route), anything else `failed` (the connection
 * broke, the answer was malformed). The error's message, which names the upstream's address, is not used.
 */
export function upstreamFailure(error: unknown): UpstreamFailure {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && TIMEOUT_CODES.has(code)) return 'timed out';
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return 'unreachable';
  return 'failed';
}

/** Raised inside the forwarded body stream when a chunked request body grows past the gateway's limit. */
class BodyTooLargeError extends Error {
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(`Request body is larger than ${limitBytes} bytes`);
    this.name = 'BodyTooLargeError';
    this.limitBytes = limitBytes;
  }
}

/** A pass-through stream that fails with {@link BodyTooLargeError} once more than `limitBytes` went through. */
function bodyLimiter(limitBytes: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > limitBytes) done(new BodyTooLargeError(limitBytes));
      else done(null, chunk);
    },
  });
}

/** Raised into an upstream request whose client went away, so undici frees its connection. */
class ClientGoneError extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGoneError';
  }
}

/**
 * One request on its way through the gateway: undici's dispatch handler (its low-level API, which
 * skips the stream and promise wrappers of `request`/`stream`) that writes the upstream's answer to
 * the client as it arrives, with back-pressure both ways, and cancels the upstream request when the client leaves.
 * Its one `close` listener on the response tells the two apart: sent whole (`finished` is called) or left early.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private clientGone = false;
  /** The answer's `Content-Length`, when it declared one; the body's bytes so far; the chunk that completed it. */
  private declaredLength = -1;
  private received = 0;
  private last: Buffer | undefined;
  private readonly upstream: Upstream;
  private readonly req: IncomingMessage;
  private readonly res: ServerResponse;
  private readonly requestId: string;
  private readonly options: ForwardOptions;

  constructor(
    upstream: Upstream,
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    options: ForwardOptions,
    finished: (() => void) | undefined,
  ) {
    this.upstream = upstream;
    this.req = req;
    this.res = res;
    this.requestId = requestId;
    this.options = options;
    res.on('close', () => {
      if (res.writableFinished) {
        finished?.();
        return;
      }
      this.clientGone = true;
      this.controller?.abort(new ClientGoneError());
    });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.clientGone) controller.abort(new ClientGoneError());
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    const out = stripHopByHop(headers);
    out[REQUEST_ID_HEADER] = this.requestId;
    const length = headers['content-length'];
    if (typeof length === 'string' && /^\d+$/.test(length)) this.declaredLength = Number(length);
    this.res.writeHead(statusCode, out);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.byteLength;
    // The chunk that completes a declared length (all of most JSON answers) waits for the end, so it goes out with
    // `end(chunk)`: head and body in one write. Any other chunk is written at once (a stream is never held up).
    if (this.received === this.declaredLength) {
      this.last = chunk;
      return;
    }
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    const last = this.last;
    this.last = undefined;
    this.res.end(last);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.clientGone || error instanceof ClientGoneError) return;
    this.upstream.failed(this.req, this.res, this.requestId, error, this.options);
  }
}

/**
 * Forwards requests to one upstream over a pool of keep-alive connections (undici), streaming request
 * and response bodies without buffering them. Failures are answered in the route's error format: 502 when
 * the upstream refuses or breaks the connection, 504 when it does not answer in time, 413 for an oversized body.
 */
export class Upstream {
  readonly name: string;
  readonly origin: string;
  private readonly pool: Pool;
  private readonly logger: Logger;

  constructor(name: string, options: UpstreamOptions, logger: Logger) {
    this.name = name;
    this.origin = new URL(options.url).origin;
    this.logger = logger;
    this.pool = new Pool(this.origin, {
      connections: options.connections,
      pipelining: 1,
      keepAliveTimeout: 60_000,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      connectTimeout: options.connectTimeoutMs,
    });
  }

  /**
   * Forwards `req` (method, path and query, the headers `prepared` holds, and its body) and streams the
   * answer into `res`. Never throws: every failure is answered or, once the answer has started, ends
   * the client's connection. `finished`, when given, is called once the answer (the upstream's, or the gateway's
   * own error) has been sent whole; not when the client left before that.
   */
  forward(req: IncomingMessage, res: ServerResponse, prepared: UpstreamRequest, options: ForwardOptions, finished?: () => void): void {
    const { contentLength, chunked, requestId } = prepared;
    const { bodyLimitBytes } = options;
    if (contentLength !== undefined && contentLength > bodyLimitBytes) {
      if (finished) {
        res.on('close', () => {
          if (res.writableFinished) finished();
        });
      }
      res.setHeader('connection', 'close');
      writeError(req, res, tooLarge(bodyLimitBytes), { format: options.errors, requestId });
      return;
    }
    // A chunked body goes through the limiter; `pipeline` carries a broken or abandoned upload's error
    // on to the upstream request, which then ends instead of waiting for a body that never comes.
    const body = contentLength ? req : chunked ? pipeline(req, bodyLimiter(bodyLimitBytes), () => {}) : null;
    this.pool.dispatch(
      { path: req.url ?? '/', method: req.method as Dispatcher.HttpMethod, headers: prepared.headers, body },
      new Exchange(this, req, res, requestId, options, finished),
    );
  }

  /**
   * Answers a request whose upstream exchange failed (see {@link classify}) in the route's error format; ends
   * the socket if the answer had started.
   */
  failed(req: IncomingMessage, res: ServerResponse, requestId: string, error: Error, options: ForwardOptions): void {
    if (res.headersSent || res.destroyed) {
      if (!res.destroyed) this.logger.warn({ err: error, upstream: this.name, requestId }, 'upstream failed during the response');
      res.destroy();
      return;
    }
    const answer = this.classify(error, options.bodyLimitBytes);
    if (answer instanceof HttpProblem && answer.status === 413) res.setHeader('connection', 'close');
    // The log keeps undici's error, address included; the client's answer names the service only.
    if (!(answer instanceof HttpProblem)) this.logger.warn({ err: error, upstream: this.name, requestId }, answer.message);
    writeError(req, res, answer, { format: options.errors, requestId });
  }

  /** `GET <origin><path>` with the gateway's timeouts; resolves with the status code (body discarded). */
  async probe(path: string): Promise<number> {
    const { statusCode, body } = await this.pool.request({ path, method: 'GET' });
    await body.dump();
    return statusCode;
  }

  /**
   * A readiness check of this upstream: resolves when `GET <path>` answers 200, and otherwise throws an error
   * whose message is a coarse state only (`not ready`, or an {@link UpstreamFailure}), never the upstream's
   * address or URL, since `/readyz` shows it to anyone who asks. The cause is logged at `debug`.
   */
  async ready(path = '/readyz'): Promise<void> {
    let status: number;
    try {
      status = await this.probe(path);
    } catch (error) {
      this.logger.debug({ err: error, upstream: this.name }, 'readiness probe failed');
      throw new Error(upstreamFailure(error));
    }
    if (status !== 200) throw new Error('not ready');
  }

  /** Closes every pooled connection, cancelling requests still in flight (call once no client waits for them). */
  close(): Promise<void> {
    return this.pool.destroy();
  }

  /**
   * What the client is told about a failed exchange, as an error service-kit's classifier knows: the client's
   * own fault (413, 400) an {@link HttpProblem}; the upstream's a domain error, 504 ({@link UpstreamTimeout}) or 502
   * ({@link UpstreamFailed}), whose message names the service, never its address.
   */
  private classify(error: unknown, bodyLimitBytes: number): HttpProblem | UpstreamFailed | UpstreamTimeout {
    if (error instanceof BodyTooLargeError) return tooLarge(bodyLimitBytes);
    if ((error as { code?: unknown }).code === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') {
      return new HttpProblem(400, 'Request body length does not match its Content-Length');
    }
    const failure = upstreamFailure(error);
    if (failure === 'timed out') return new UpstreamTimeout(`${this.name} did not answer in time`);
    if (failure === 'unreachable') return new UpstreamFailed(`${this.name} is unreachable`);
    return new UpstreamFailed(`${this.name} failed to answer`);
  }
}

function tooLarge(bodyLimitBytes: number): HttpProblem {
  return new HttpProblem(413, `Request body is larger than ${bodyLimitBytes} bytes`);
}
