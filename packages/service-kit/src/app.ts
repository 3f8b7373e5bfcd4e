import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
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
  /** Mounts the service's own routes, after the body parser and before the 404 fallback. */
  routes: (app: Express) => void;
}

/**
 * Creates a service's express app with what every service shares: request ids (`x-request-id` taken
 * or generated, echoed on the response), pino request logging, `X-Content-Type-Options: nosniff`,
 * `/healthz` and `/readyz`, a bounded JSON body parser, a 404 problem for unknown routes and the
 * RFC 9457 error mapping of {@link problemHandler}. No ETag or `X-Powered-By` from express itself.
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
      quietReqLogger: true,
    }),
  );
  app.use(noSniff);
  mountHealthRoutes(app, options.readiness);
  app.use(express.json({ limit: options.bodyLimit ?? '16kb', type: ['application/json', 'application/*+json'] }));
  options.routes(app);
  app.use(notFound);
  app.use(problemHandler);
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

/**
 * PostgreSQL's class 22 errors ("data exception": a value out of range, an invalid byte sequence,
 * untranslatable characters) are caused by request values that slipped past validation; they are
 * the client's fault, so 400, never 500.
 */
function isPostgresDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/**
 * The error middleware: an {@link HttpProblem} becomes its problem response; a body-parser or router
 * error with a 4xx status becomes a 4xx problem with a plain message; a PostgreSQL data exception
 * becomes a 400; anything else is logged with
 * its stack and answered with an opaque 500 problem (no stack trace leaves the process).
 */
export const problemHandler: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    req.log?.error({ err: error }, 'error after the response started');
    res.destroy();
    return;
  }
  const extra = { instance: req.originalUrl, requestId: String(req.id ?? '') };
  if (error instanceof HttpProblem) {
    writeProblem(
      res,
      problemBody(error.status, error.detail, { ...extra, ...(error.errors ? { errors: error.errors } : {}) }),
      error.headers,
    );
    return;
  }
  if (isPostgresDataException(error)) {
    req.log?.warn({ err: error }, 'the database refused a value');
    writeProblem(res, problemBody(400, 'A value in the request cannot be stored', extra));
    return;
  }
  const status = typeof error?.status === 'number' ? error.status : typeof error?.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) {
    const detail = bodyParserDetails[error.type as string] ?? (status === 400 ? 'Malformed request' : undefined);
    writeProblem(res, problemBody(status, detail, extra));
    return;
  }
  req.log?.error({ err: error }, 'unhandled error');
  writeProblem(res, problemBody(500, 'An unexpected error occurred; the request id identifies it in the logs', extra));
};
