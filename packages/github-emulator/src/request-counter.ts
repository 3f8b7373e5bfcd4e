import type { Express, RequestHandler } from 'express';

/**
 * How many requests an emulator answered since it started or was last reset: in all, and per route (the method and
 * the route's pattern as mounted, e.g. `GET /repos/:owner/:repo/contents{/*path}`, `POST /graphql`; `unmatched` for a
 * path no route serves) and answer status (`{ "200": 9998, "304": 2 }`).
 */
export interface RequestCounts {
  total: number;
  routes: Record<string, Record<string, number>>;
}

/** The path of the emulator's request counter: `GET` reads the {@link RequestCounts}, `DELETE` sets them back to zero. */
export const REQUEST_COUNTER_PATH = '/_emulator/requests';

/**
 * Counts every answered request by route and status ({@link RequestCounts}) and serves the counts at
 * {@link REQUEST_COUNTER_PATH} (whose own requests are not counted). Meant for benchmarks and tests that check how
 * many requests a client needs (e.g. per repository scanned); GitHub has no such endpoint.
 */
export function mountRequestCounter(app: Express): void {
  let counts: RequestCounts = { total: 0, routes: {} };
  app.get(REQUEST_COUNTER_PATH, (_req, res) => {
    res.status(200).type('application/json; charset=utf-8').send(JSON.stringify(counts));
  });
  app.delete(REQUEST_COUNTER_PATH, (_req, res) => {
    counts = { total: 0, routes: {} };
    res.status(204).end();
  });
  const count: RequestHandler = (req, res, next) => {
    res.once('finish', () => {
      const pattern = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof pattern === 'string' ? `${req.method} ${pattern}` : 'unmatched';
      const byStatus = counts.routes[route] ?? {};
      counts.routes[route] = byStatus;
      byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
      counts.total += 1;
    });
    next();
  };
  app.use(count);
}
