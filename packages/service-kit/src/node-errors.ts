import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';
import { type ClientError, classifyError, type ErrorFormat, type ErrorRenderer, PROBLEM_DETAILS } from './error-handler.ts';
import type { Logger } from './logger.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/**
 * Writes errors as `text/plain; charset=utf-8`, the detail (or, without one, the status's reason phrase) as the
 * whole body, with `X-Content-Type-Options: nosniff`, `Cache-Control: no-store` and the error's own headers: how
 * peer-svc answers its peers. Invalid fields are not listed; the detail names them.
 */
export const renderPlainText: ErrorRenderer = (error, _req, res) => {
  const payload = error.detail ?? error.title;
  res.writeHead(error.status, {
    ...error.headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(payload);
};

/** Plain-text errors with HTTP's own statuses ({@link renderPlainText}): the peer endpoints' format. */
export const PLAIN_TEXT_ERRORS: ErrorFormat = { render: renderPlainText };

/** Options of {@link writeError}. */
export interface WriteErrorOptions {
  /** The API's error format; default {@link PROBLEM_DETAILS}. */
  format?: ErrorFormat | undefined;
  /** The request's id: sent as `x-request-id`, and the problem body's `requestId`. */
  requestId?: string | undefined;
  /** Where an unexpected error (answered with an opaque 500) is logged with its stack. */
  log?: Logger | undefined;
}

/**
 * Answers `error` on a plain `node:http` response, outside express (a proxy's hot path): classifies it as the
 * express error handler does ({@link classifyError} with `format.statuses`) and writes it with `format.render`,
 * adding `x-request-id` and `X-Content-Type-Options: nosniff` as a service app does. The renderer sees the request
 * as express would show it: `originalUrl` is the request target and `id` the request id (the service-kit renderers
 * read nothing else of it). A response whose head was already sent cannot carry an error any more: its connection
 * is destroyed instead.
 * @returns the answer the client was given (or would have been)
 */
export function writeError(req: IncomingMessage, res: ServerResponse, error: unknown, options: WriteErrorOptions = {}): ClientError {
  const { format = PROBLEM_DETAILS, requestId, log } = options;
  const view = Object.create(req, {
    originalUrl: { value: req.url ?? '/' },
    id: { value: requestId ?? '' },
    log: { value: log },
  }) as Request;
  const answer = classifyError(error, format.statuses, view);
  if (res.headersSent) {
    res.destroy();
    return answer;
  }
  if (requestId !== undefined) res.setHeader(REQUEST_ID_HEADER, requestId);
  res.setHeader('x-content-type-options', 'nosniff');
  format.render(answer, view, res);
  return answer;
}
