import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HttpProblem, type Logger, onlyMethods } from '@switchyard/service-kit';
import express, { type ErrorRequestHandler, type RequestHandler, Router } from 'express';

/**
 * The Content-Security-Policy of every `/ui` answer: the dashboard's own files and API calls to its own origin only,
 * no inline script or style, no framing, no `<base>`.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every `/ui` answer, files, redirects and errors alike. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** `Cache-Control` of the content-hashed files under `/ui/assets/`: a year, never revalidated. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** `Cache-Control` of `index.html` and the other files outside `assets/`: revalidated on every use (ETag, Last-Modified). */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** A last path segment that names a file (it has a dot, also percent-encoded) rather than a client-side route. */
const FILE_SEGMENT = /\.|%2e/i;

/**
 * The built dashboard (a single-page app) at `/ui`, from `dir` (`DASHBOARD_DIR`: `index.html` and content-hashed files
 * under `assets/`):
 *
 * - `GET /ui` → 308 to `/ui/` (the query string kept); `GET /ui/` → `index.html`.
 * - `GET /ui/assets/<file>` → the file, `Cache-Control: public, max-age=31536000, immutable`; a missing one → 404.
 * - `GET /ui/<path>` whose last segment has no dot (a client-side route such as `/ui/accounts/2001/repos`) →
 *   `index.html`, `Cache-Control: no-cache` (with ETag and Last-Modified); one with a dot (`/ui/favicon.ico`) → that
 *   file of `dir` (`no-cache`), or 404 when there is none: never `index.html`.
 * - Other methods than GET and HEAD → 405 with `Allow: GET, HEAD`.
 * - Every answer carries {@link DASHBOARD_CSP}, `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` and
 *   `X-Frame-Options: DENY`. Errors are the gateway's problem+json (404 for a missing file or an unbuilt dashboard,
 *   403 for a path that climbs out of `dir`).
 *
 * With `dir` undefined, every `/ui` path answers 404 problem+json saying that the dashboard is not configured. A `dir`
 * without `index.html` is logged on `logger` as a warning (its `/ui/` answers 404 until the dashboard is built).
 */
export function dashboardRouter(dir: string | undefined, logger: Logger): Router {
  const router = Router();
  router.use('/ui', securityHeaders);
  if (dir === undefined) {
    router.use('/ui', () => {
      throw new HttpProblem(404, 'The dashboard is not served by this gateway: DASHBOARD_DIR is not set');
    });
    return router;
  }
  if (!existsSync(join(dir, 'index.html'))) {
    logger.warn({ dashboardDir: dir }, 'DASHBOARD_DIR holds no index.html: /ui answers 404 until the dashboard is built there');
  }
  router.use('/ui', onlyMethods(['GET']));
  router.use('/ui', redirectToSlash);
  // express.static: no index, no directory redirects, and its errors (404, 403) go on to the problem handler below.
  router.use(
    '/ui/assets',
    express.static(join(dir, 'assets'), { index: false, redirect: false, fallthrough: false, immutable: true, maxAge: 31_536_000_000 }),
  );
  // The folder's other files, index.html included (with the ETag and Last-Modified of serve-static, revalidated).
  const files = express.static(dir, {
    index: false,
    redirect: false,
    fallthrough: false,
    cacheControl: false,
    setHeaders: (res) => res.setHeader('cache-control', REVALIDATE_CACHE_CONTROL),
  });
  router.use('/ui', (req, res, next) => {
    const last = req.path.slice(req.path.lastIndexOf('/') + 1);
    if (FILE_SEGMENT.test(last)) {
      files(req, res, next);
      return;
    }
    // A client-side route: the app's page, whose script reads the path.
    req.url = '/index.html';
    files(req, res, (error?: { status?: number }) => {
      next(error?.status === 404 ? new HttpProblem(404, 'The dashboard is not built: DASHBOARD_DIR holds no index.html') : error);
    });
  });
  router.use('/ui', fileNotFound);
  return router;
}

const securityHeaders: RequestHandler = (_req, res, next) => {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  next();
};

/** `/ui` → `/ui/`: the page's relative URLs (and the router of the app) need the trailing slash. */
const redirectToSlash: RequestHandler = (req, res, next) => {
  const query = req.originalUrl.indexOf('?');
  const path = query === -1 ? req.originalUrl : req.originalUrl.slice(0, query);
  if (path !== '/ui') {
    next();
    return;
  }
  res
    .status(308)
    .location(`/ui/${query === -1 ? '' : req.originalUrl.slice(query)}`)
    .end();
};

/** serve-static's 404 (a file the dashboard does not have) as a problem that says so; other errors go on unchanged. */
const fileNotFound: ErrorRequestHandler = (error: { status?: number }, _req, _res, next) => {
  next(error?.status === 404 && !(error instanceof HttpProblem) ? new HttpProblem(404, 'The dashboard has no such file') : error);
};
