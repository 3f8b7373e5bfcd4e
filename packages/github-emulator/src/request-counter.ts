import type { Express, RequestHandler, Response } from 'express';

/**
 * Why a request was refused by a rate limit: `primary` (the hourly limit, REST `403 API rate limit exceeded` or a
 * GraphQL `RATE_LIMITED` error), `secondaryConcurrent` (too many requests in flight), `secondaryContent` (too many
 * content-generating requests in the last minute or hour); see `rate-limit.ts` and `secondary-limits/`.
 */
export type LimitKind = 'primary' | 'secondaryConcurrent' | 'secondaryContent';

/**
 * How many requests an emulator answered since it started or was last reset: in all, and per route (the method and
 * the route's pattern as mounted, e.g. `GET /repos/:owner/:repo/contents{/*path}`, `POST /graphql`; `unmatched` for a
 * path no route serves) and answer status (`{ "200": 9998, "304": 2 }`); and of those, how many a rate limit refused,
 * by {@link LimitKind} (also counted in `total` and `routes`; the `secondary-rate-limit` and `rate-limit` faults are
 * not: a test plays those itself); and the GraphQL rate limit's points the answered queries cost (`graphqlPoints`: each
 * query's `rateLimit { cost }`, see `graphql/cost.ts`).
 */
export interface RequestCounts {
  total: number;
  routes: Record<string, Record<string, number>>;
  limited: Record<LimitKind, number>;
  graphqlPoints: number;
}

/** The path of the emulator's request counter: `GET` reads the {@link RequestCounts}, `DELETE` sets them back to zero. */
export const REQUEST_COUNTER_PATH = '/_emulator/requests';

/** Where a refused request's {@link LimitKind} is kept until its answer is counted. */
const LIMITED = 'limitedBy';

/**
 * Marks the request of `res` as refused by the `kind` rate limit, counted in {@link RequestCounts}' `limited` once its
 * answer is sent (the last mark wins). GitHub keeps no such count; its refusals are documented at
 * https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit.
 */
export function noteLimited(res: Response, kind: LimitKind): void {
  res.locals[LIMITED] = kind;
}

/** Where an answered GraphQL query's cost in points is kept until its answer is counted. */
const POINTS = 'graphqlPoints';

/** Notes that the GraphQL query of `res` cost `points` of the GraphQL rate limit, counted once its answer is sent. */
export function notePoints(res: Response, points: number): void {
  res.locals[POINTS] = points;
}

const zero = (): RequestCounts => ({
  total: 0,
  routes: {},
  limited: { primary: 0, secondaryConcurrent: 0, secondaryContent: 0 },
  graphqlPoints: 0,
});

/**
 * Counts every answered request by route and status ({@link RequestCounts}) and serves the counts at
 * {@link REQUEST_COUNTER_PATH} (whose own requests are not counted). Meant for benchmarks and tests that check how
 * many requests a client needs (e.g. per repository scanned) and how often it ran into a rate limit; GitHub has no
 * such endpoint.
 */
export function mountRequestCounter(app: Express): void {
  let counts = zero();
  app.get(REQUEST_COUNTER_PATH, (_req, res) => {
    res.status(200).type('application/json; charset=utf-8').send(JSON.stringify(counts));
  });
  app.delete(REQUEST_COUNTER_PATH, (_req, res) => {
    counts = zero();
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
      const limited = res.locals[LIMITED] as LimitKind | undefined;
      if (limited !== undefined) counts.limited[limited] += 1;
      const points = res.locals[POINTS] as number | undefined;
      if (points !== undefined) counts.graphqlPoints += points;
    });
    next();
  };
  app.use(count);
}
