import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { ProblemFieldError } from '@switchyard/contracts';
import express, { type ErrorRequestHandler, type Express, type Request, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { mountHealthRoutes, type ReadinessCheck } from './health.ts';
import type { Logger } from './logger.ts';
import { HttpProblem, problemBody, writeProblem } from './problem.ts';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.ts';

/** What {@link createServiceApp} needs. */
export interface ServiceAppOptions {
  logger: Logger;
  /** Dependencies `/readyz` checks (e.g. the database). */
  readiness: readonly ReadinessCheck[];
  /** Largest JSON body accepted, in bytes or as `16kb`; larger bodies get 413. Default 16 KiB. */
  bodyLimit?: string | number;
  /**
   * Which request bodies are parsed as JSON: media types (default `application/json` and `application/*+json`),
   * or a predicate (e.g. `() => true` to read every body as JSON whatever its content type).
   */
  jsonTypes?: string[] | ((req: Request) => boolean);
  /** How errors are written; default RFC 9457 problem details ({@link renderProblem}). */
  renderError?: ErrorRenderer;
  /** Mounts the service's own routes, after the body parser and before the 404 fallback. */
  routes: (app: Express) => void;
}

/**
 * Creates a service's express app with what every service shares: request ids (`x-request-id` taken
 * or generated, echoed on the response), pino request logging, `X-Content-Type-Options: nosniff`,
 * `/healthz` and `/readyz`, a bounded JSON body parser, a 404 problem for unknown routes and the
 * error mapping of {@link errorHandler} (RFC 9457 unless `renderError` says otherwise). No ETag or `X-Powered-By` from express itself.
 */
export function createServiceApp(options: ServiceAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(
    pinoHttp({
      logger: options.logger,
      genReqId: (req, res) => {
        const id = requestIdOf(req);
        res.setHeader(REQUEST_ID_HEADER, id);
        return id;
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      // Probes ask every few seconds; their answers are not news (a failing check is logged by /readyz's body).
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      quietReqLogger: true,
    }),
  );
  app.use(noSniff);
  mountHealthRoutes(app, options.readiness);
  app.use(
    express.json({
      limit: options.bodyLimit ?? '16kb',
      type: (options.jsonTypes ?? ['application/json', 'application/*+json']) as string[],
    }),
  );
  options.routes(app);
  app.use(notFound);
  app.use(errorHandler(options.renderError ?? renderProblem));
  return app;
}

const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('x-content-type-options', 'nosniff');
  next();
};

const notFound: RequestHandler = (req) => {
  throw new HttpProblem(404, `No route for ${req.method} ${req.path}`);
};

/** A handler for the methods a path does not support: 405 with an `Allow` header listing those it does. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
  return (req) => {
    throw new HttpProblem(405, `${req.method} is not supported here; use ${allow}`, { headers: { allow } });
  };
}

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
function isPostgresDataException(error: unknown): boolean {
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

/**
 * The error middleware: an {@link HttpProblem} is answered with its status; a body-parser or router
 * error with a 4xx status becomes that 4xx with a plain message; a PostgreSQL data exception becomes
 * a 400; anything else is logged with its stack and answered with an opaque 500 (no stack trace leaves
 * the process). `render` writes the answer in the API's format.
 */
export function errorHandler(render: ErrorRenderer): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) {
      req.log?.error({ err: error }, 'error after the response started');
      res.destroy();
      return;
    }
    render(classify(error, req), req, res);
  };
}

function classify(error: unknown, req: Request): ClientError {
  const at = (status: number, detail?: string, rest: Partial<ClientError> = {}): ClientError => ({
    status,
    title: STATUS_CODES[status] ?? 'Error',
    ...(detail === undefined ? {} : { detail }),
    headers: {},
    ...rest,
  });
  if (error instanceof HttpProblem) {
    return at(error.status, error.detail, { headers: error.headers, ...(error.errors ? { errors: error.errors } : {}) });
  }
  if (isPostgresDataException(error)) {
    req.log?.warn({ err: error }, 'the database refused a value');
    return at(400, 'A value in the request cannot be stored');
  }
  if (isDatabaseUnavailable(error)) {
    req.log?.warn({ err: error }, 'database busy or unavailable');
    return at(503, 'The service is busy or its database is unavailable; retry shortly', { headers: { 'retry-after': '1' } });
  }
  const e = error as { status?: unknown; statusCode?: unknown; type?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500) {
    return at(status, bodyParserDetails[String(e.type)] ?? (status === 400 ? 'Malformed request' : undefined));
  }
  req.log?.error({ err: error }, 'unhandled error');
  return at(500, 'An unexpected error occurred; the request id identifies it in the logs');
}
