import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { ProblemFieldError } from '@switchyard/contracts';
import type { ErrorRequestHandler, Request } from 'express';
import { DomainError, type DomainStatuses, domainErrorHeaders, statusOf } from './domain-errors.ts';
import { HttpProblem, problemBody, writeProblem } from './problem.ts';

/** Messages for the body parser's own errors (`err.type` of body-parser / raw-body). */
const bodyParserDetails: Record<string, string> = {
  'entity.parse.failed': 'Request body is not valid JSON',
  'entity.too.large': 'Request body is too large',
  'encoding.unsupported': 'Request body has an unsupported content encoding',
  'charset.unsupported': 'Request body must be UTF-8 encoded JSON',
  'request.aborted': 'Request body was not received completely',
  'request.size.invalid': 'Request body length does not match its Content-Length',
};

/** Errors that mean the database could not be reached in time, not that the request was wrong. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300']);

/**
 * The connection pool gave up waiting for a free connection (node-postgres: "timeout exceeded when
 * trying to connect"), the server refused or dropped the connection, or PostgreSQL is shutting down or
 * out of connections (SQLSTATE 57P0x, 53300): a 503 the client may retry, not a 500.
 */
function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
  return typeof e?.message === 'string' && /timeout exceeded when trying to connect|Connection terminated/i.test(e.message);
}

/**
 * PostgreSQL's class 22 errors ("data exception": a value out of range, an invalid byte sequence,
 * untranslatable characters) are caused by request values that slipped past validation; they are
 * the client's fault, so 400, never 500.
 */
export function isPostgresDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** An error as the client is told about it, whatever the wire format. */
export interface ClientError {
  status: number;
  /** The status's reason phrase, e.g. `Not Found`. */
  title: string;
  detail?: string;
  /** The invalid fields of a 400. */
  errors?: ProblemFieldError[];
  /** Extra response headers, e.g. `Allow` on a 405. */
  headers: Record<string, string>;
}

/** Writes a {@link ClientError} in an API's own error format. */
export type ErrorRenderer = (error: ClientError, req: Request, res: ServerResponse) => void;

/**
 * An API's error wire format: how a {@link ClientError} is written, and where the statuses of
 * {@link DomainError}s depart from HTTP's own ({@link statusOf}).
 */
export interface ErrorFormat {
  render: ErrorRenderer;
  statuses?: Partial<DomainStatuses>;
}

/** The default {@link ErrorRenderer}: RFC 9457 problem details with `instance` and `requestId`. */
export const renderProblem: ErrorRenderer = (error, req, res) => {
  writeProblem(
    res,
    problemBody(error.status, error.detail, {
      instance: req.originalUrl,
      requestId: String(req.id ?? ''),
      ...(error.errors ? { errors: error.errors } : {}),
    }),
    error.headers,
  );
};

/** RFC 9457 problem details with HTTP's own statuses: the catalogue's, the gateway's and peer-svc's operator routes' format. */
export const PROBLEM_DETAILS: ErrorFormat = { render: renderProblem };

/**
 * The error middleware: a {@link DomainError} or {@link HttpProblem} is answered with its status (see
 * {@link classifyError}); anything else unexpected is logged with its stack and answered with an opaque 500
 * (no stack trace leaves the process). `format.render` writes the answer in the API's format.
 */
export function errorHandler(format: ErrorFormat): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      req.log?.error({ err: error }, 'error after the response started');
      res.destroy();
      return;
    }
    format.render(classifyError(error, format.statuses, req), req, res);
  };
}

/**
 * The one classifier of errors into client answers: a {@link DomainError} gets the status of its kind in this
 * wire format (`statuses` overrides {@link statusOf}'s defaults) and its message as detail; an {@link HttpProblem}
 * (thrown by the HTTP layer itself) its own status; a body-parser or router error with a 4xx status that 4xx with a
 * plain message; a PostgreSQL data exception 400; a database that cannot be reached 503 with `Retry-After: 1`;
 * anything else 500 with an opaque detail (logged on `req.log` with its stack).
 */
export function classifyError(error: unknown, statuses: Partial<DomainStatuses> = {}, req?: Request): ClientError {
  const at = (status: number, detail?: string, rest: Partial<ClientError> = {}): ClientError => ({
    status,
    title: STATUS_CODES[status] ?? 'Error',
    ...(detail === undefined ? {} : { detail }),
    headers: {},
    ...rest,
  });
  if (error instanceof DomainError) {
    return at(statusOf(error, statuses), error.message, {
      headers: domainErrorHeaders(error),
      ...(error.errors ? { errors: error.errors } : {}),
    });
  }
  if (error instanceof HttpProblem) {
    return at(error.status, error.detail, { headers: error.headers, ...(error.errors ? { errors: error.errors } : {}) });
  }
  if (isPostgresDataException(error)) {
    req?.log?.warn({ err: error }, 'the database refused a value');
    return at(400, 'A value in the request cannot be stored');
  }
  if (isDatabaseUnavailable(error)) {
    req?.log?.warn({ err: error }, 'database busy or unavailable');
    return at(503, 'The service is busy or its database is unavailable; retry shortly', { headers: { 'retry-after': '1' } });
  }
  const e = error as { status?: unknown; statusCode?: unknown; type?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return at(status, bodyParserDetails[String(e.type)] ?? (status === 400 ? 'Malformed request' : undefined));
  }
  req?.log?.error({ err: error }, 'unhandled error');
  return at(500, 'An unexpected error occurred; the request id identifies it in the logs');
}
