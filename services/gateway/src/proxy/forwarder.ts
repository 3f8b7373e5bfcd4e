import type { IncomingMessage, ServerResponse } from 'node:http';
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

interface Exchange {
  res: ServerResponse;
  requestId: string;
}

/** Writes the upstream's status and headers to the client and hands undici the client response to stream the body into. */
function startResponse({ statusCode, headers, opaque }: Dispatcher.StreamFactoryData<Exchange>): ServerResponse {
  const { res, requestId } = opaque;
  const out = stripHopByHop(headers);
  out['x-request-id'] = requestId;
  res.writeHead(statusCode, out);
  return res;
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
  async forward(req: IncomingMessage, res: ServerResponse, prepared: UpstreamRequest, bodyLimitBytes: number): Promise<void> {
    const { contentLength, chunked, requestId } = prepared;
    if (contentLength !== undefined && contentLength > bodyLimitBytes) {
      res.setHeader('connection', 'close');
      this.fail(res, req, requestId, 413, `Request body is larger than ${bodyLimitBytes} bytes`);
      return;
    }
    // A chunked body goes through the limiter; `pipeline` carries a broken or abandoned upload's error
    // on to the upstream request, which then ends instead of waiting for a body that never comes.
    const body = contentLength ? req : chunked ? pipeline(req, bodyLimiter(bodyLimitBytes), () => {}) : null;
    // A client that goes away cancels its upstream request, freeing the pooled connection at once.
    const abort = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      await this.pool.stream<Exchange>(
        {
          path: req.url ?? '/',
          method: req.method as Dispatcher.HttpMethod,
          headers: prepared.headers,
          body,
          signal: abort.signal,
          opaque: { res, requestId },
        },
        startResponse,
      );
    } catch (error) {
      if (abort.signal.aborted) return;
      if (res.headersSent || res.destroyed) {
        if (!res.destroyed) this.logger.warn({ err: error, upstream: this.name, requestId }, 'upstream failed during the response');
        res.destroy();
        return;
      }
      const [status, detail] = this.classify(error, bodyLimitBytes);
      if (status === 413) res.setHeader('connection', 'close');
      if (status >= 500) this.logger.warn({ err: error, upstream: this.name, requestId }, detail);
      this.fail(res, req, requestId, status, detail);
    }
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

  private fail(res: ServerResponse, req: IncomingMessage, requestId: string, status: number, detail: string): void {
    writeProblem(res, problemBody(status, detail, { instance: req.url ?? '/', requestId }), { 'x-request-id': requestId });
  }
}
