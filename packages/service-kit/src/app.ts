import express, { type Express, type Request, type RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import { type ErrorFormat, errorHandler, PROBLEM_DETAILS } from './error-handler.ts';
import { mountHealthRoutes, type ReadinessCheck } from './health.ts';
import type { Logger } from './logger.ts';
import { HttpProblem } from './problem.ts';
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
  /** The API's error wire format: how errors are written and which statuses domain errors get; default {@link PROBLEM_DETAILS}. */
  errorFormat?: ErrorFormat;
  /** Mounts the service's own routes, after the body parser and before the 404 fallback. */
  routes: (app: Express) => void;
}

/**
 * Creates a service's express app with what every service shares: request ids (`x-request-id` taken
 * or generated, echoed on the response), pino request logging, `X-Content-Type-Options: nosniff`,
 * `/healthz` and `/readyz`, a bounded JSON body parser, a 404 problem for unknown routes and the
 * error mapping of {@link errorHandler} (RFC 9457 unless `errorFormat` says otherwise). No ETag or `X-Powered-By` from express itself.
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
  app.use(errorHandler(options.errorFormat ?? PROBLEM_DETAILS));
  return app;
}

const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('x-content-type-options', 'nosniff');
  next();
};

const notFound: RequestHandler = (req) => {
  throw new HttpProblem(404, `No route for ${req.method} ${req.path}`);
};

/** The methods `allowed` stands for: GET brings HEAD. */
const withHead = (allowed: readonly string[]) => [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])];

/** A handler for the methods a path does not support: 405 with an `Allow` header listing those it does. */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = withHead(allowed).join(', ');
  return (req) => {
    throw new HttpProblem(405, `${req.method} is not supported here; use ${allow}`, { headers: { allow } });
  };
}

/**
 * Middleware that lets requests with a method in `allowed` (GET brings HEAD) go on and answers the others as
 * {@link methodNotAllowed} does: in front of a handler mounted with `use` that would answer every method itself
 * (`express.static` answers them 405 with an empty body).
 */
export function onlyMethods(allowed: readonly string[]): RequestHandler {
  const pass = new Set(withHead(allowed));
  const refuse = methodNotAllowed(allowed);
  return (req, res, next) => (pass.has(req.method) ? next() : refuse(req, res, next));
}
