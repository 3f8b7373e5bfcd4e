import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import type { Logger } from '@switchyard/service-kit';
import { problemBody, writeProblem } from '@switchyard/service-kit';
import { type Dispatcher, Pool } from 'undici';
import { BodyTooLargeError, bodyLimiter } from './body-limit.ts';
import { stripHopByHop, type UpstreamRequest } from './headers.ts';

/** Settings of the connection pool to one upstream. */
export interface UpstreamOptions {
  /** Base URL, e.g. `http://catalog-svc:8083`; only its origin is used. */
  url: string;
  connections: number;
  /** Wait for response headers and between body chunks, ms. */
  timeoutMs: number;
  connectTimeoutMs: number;
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
 * the client as it arrives, with back-pressure both ways, and cancels the upstream request when the
 * client leaves.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private clientGone = false;
  private readonly upstream: Upstream;
  private readonly req: IncomingMessage;
  private readonly res: ServerResponse;
  private readonly requestId: string;
  private readonly bodyLimitBytes: number;

  constructor(upstream: Upstream, req: IncomingMessage, res: ServerResponse, requestId: string, bodyLimitBytes: number) {
    this.upstream = upstream;
    this.req = req;
    this.res = res;
    this.requestId = requestId;
    this.bodyLimitBytes = bodyLimitBytes;
    res.once('close', () => {
      if (res.writableFinished) return;
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
    out['x-request-id'] = this.requestId;
    this.res.writeHead(statusCode, out);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    this.res.end();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.clientGone || error instanceof ClientGoneError) return;
    this.upstream.failed(this.req, this.res, this.requestId, error, this.bodyLimitBytes);
  }
}

/**
 * Forwards requests to one upstream over a pool of keep-alive connections (undici), streaming request
 * and response bodies without buffering them. Failures become problem+json: 502 when the upstream
 * refuses or breaks the connection, 504 when it does not answer in time, 413 for an oversized body.
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
   * the client's connection.
   */
  forward(req: IncomingMessage, res: ServerResponse, prepared: UpstreamRequest, bodyLimitBytes: number): void {
    const { contentLength, chunked, requestId } = prepared;
    if (contentLength !== undefined && contentLength > bodyLimitBytes) {
      res.setHeader('connection', 'close');
      this.answer(res, req, requestId, 413, `Request body is larger than ${bodyLimitBytes} bytes`);
      return;
    }
    // A chunked body goes through the limiter; `pipeline` carries a broken or abandoned upload's error
    // on to the upstream request, which then ends instead of waiting for a body that never comes.
    const body = contentLength ? req : chunked ? pipeline(req, bodyLimiter(bodyLimitBytes), () => {}) : null;
    this.pool.dispatch(
      { path: req.url ?? '/', method: req.method as Dispatcher.HttpMethod, headers: prepared.headers, body },
      new Exchange(this, req, res, requestId, bodyLimitBytes),
    );
  }

  /** Answers a request whose upstream exchange failed (see {@link classify}); ends the socket if the answer had started. */
  failed(req: IncomingMessage, res: ServerResponse, requestId: string, error: Error, bodyLimitBytes: number): void {
    if (res.headersSent || res.destroyed) {
      if (!res.destroyed) this.logger.warn({ err: error, upstream: this.name, requestId }, 'upstream failed during the response');
      res.destroy();
      return;
    }
    const [status, detail] = this.classify(error, bodyLimitBytes);
    if (status === 413) res.setHeader('connection', 'close');
    if (status >= 500) this.logger.warn({ err: error, upstream: this.name, requestId }, detail);
    this.answer(res, req, requestId, status, detail);
  }

  /** `GET <origin><path>` with the gateway's timeouts; resolves with the status code (body discarded). */
  async probe(path: string): Promise<number> {
    const { statusCode, body } = await this.pool.request({ path, method: 'GET' });
    await body.dump();
    return statusCode;
  }

  /** Closes every pooled connection, cancelling requests still in flight (call once no client waits for them). */
  close(): Promise<void> {
    return this.pool.destroy();
  }

  private classify(error: unknown, bodyLimitBytes: number): [number, string] {
    const code = (error as { code?: string }).code ?? '';
    if (error instanceof BodyTooLargeError) return [413, `Request body is larger than ${bodyLimitBytes} bytes`];
    if (code === 'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH') return [400, 'Request body length does not match its Content-Length'];
    if (
      code === 'UND_ERR_HEADERS_TIMEOUT' ||
      code === 'UND_ERR_BODY_TIMEOUT' ||
      code === 'UND_ERR_CONNECT_TIMEOUT' ||
      code === 'ETIMEDOUT'
    ) {
      return [504, `${this.name} did not answer in time`];
    }
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EHOSTUNREACH') {
      return [502, `${this.name} is unreachable`];
    }
    return [502, `${this.name} failed to answer`];
  }

  private answer(res: ServerResponse, req: IncomingMessage, requestId: string, status: number, detail: string): void {
    writeProblem(res, problemBody(status, detail, { instance: req.url ?? '/', requestId }), { 'x-request-id': requestId });
  }
}
