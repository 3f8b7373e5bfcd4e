import { graphqlCreatesContent } from '@switchyard/contracts';
import type { Express, Request, Response } from 'express';
import { type DocumentNode, executeRootSelectionSet, GraphQLError, parse, validate, validateExecutionArgs } from 'graphql';
import { badCredentials, GitHubApiError, sendError, tokenOf } from './github-http.ts';
import type { GraphQLContext } from './graphql/context.ts';
import { operationCost } from './graphql/cost.ts';
import { formatGraphQLError, type GitHubFormattedError } from './graphql/errors.ts';
import { gitHubSchema, ROOT_VALUE } from './graphql/schema.ts';
import { type RateLimitState, rateLimitHeaders } from './rate-limit.ts';
import { noteLimited, notePoints } from './request-counter.ts';
import { type RouteContext, rateLimitKeyOf, resolveCredential, urlsOf } from './route-helpers.ts';
import { secondaryLimitRefusal } from './secondary-limits/enforce.ts';

/** `documentation_url` of GraphQL error bodies. */
const GRAPHQL_DOCS = 'https://docs.github.com/graphql';

/**
 * The emulator's answer to a query nested so deeply that reading or answering it overflows the stack (GitHub documents no
 * depth limit; graphql-js recurses per level), instead of a 500.
 */
const TOO_DEEP = 'The query is nested too deeply to be answered.';

/** GitHub's answer to a body without a `query` string. */
const NO_QUERY = 'A query attribute must be specified and must be a string.';

/** The `variables` of a request body: an object, or a JSON text of one (some clients send that); anything else none. */
function variablesOf(value: unknown): Record<string, unknown> | undefined {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
}

/**
 * Mounts `POST /graphql`, GitHub's GraphQL endpoint (https://docs.github.com/graphql), on graphql-js: each request is
 * parsed and validated against `graphql/schema.graphql` (the part of GitHub's schema served: repositories, their git
 * objects by `object(expression:)` or `oid`, refs, commits and history, pull requests, `rateLimit`, and the mutations
 * `createRef`, `createCommitOnBranch`, `createPullRequest`), costed (`graphql/cost.ts`), charged and run by resolvers
 * over the emulator's state, so any number of aliased repositories and objects go in one query. As GitHub answers:
 * - 401 `Bad credentials` without a valid token (an App's JWT too); 403 `This installation has been suspended`;
 * - with GitHub's secondary limits on (`secondary-limits/`), a request over one first: 403 `You have exceeded a
 *   secondary rate limit…` with `retry-after` (a mutation creating content, `graphqlCreatesContent`, counts towards the
 *   content limit);
 * - HTTP 200 for everything else, with `errors` when something failed: a syntax, validation or variable error as
 *   graphql-js words it (`message`, `locations`; no `data`); a connection without `first`/`last` or over 100, or a
 *   query of more than 500,000 nodes (GitHub's `type`, no `data`); a refused field (`type` `NOT_FOUND`, `FORBIDDEN`,
 *   `STALE_DATA`, `UNPROCESSABLE`, its `path` and `locations`) with that field null in `data`;
 * - the query's cost (a query: its connections' requests / 100, at least 1; a mutation: 1) charged to the caller's
 *   GraphQL limit (per user, per installation for its tokens; the seed's `rateLimit`), reported in `x-ratelimit-*`
 *   (`x-ratelimit-resource: graphql`); a query over what remains spends nothing and is answered `{"errors":[{"type":
 *   "RATE_LIMITED","message":"API rate limit exceeded for user ID <id>."}]}` (a request that fails before it is costed
 *   costs 1); `rateLimit(dryRun: true)` costs the query without running it or charging it.
 */
export function mountGraphQLRoutes(app: Express, context: RouteContext): void {
  app.post('/graphql', async (req: Request, res: Response) => {
    const resolved = resolveCredential(context, tokenOf(req));
    if (resolved instanceof GitHubApiError) {
      sendError(res, new GitHubApiError(resolved.status, resolved.message, GRAPHQL_DOCS));
      return;
    }
    const credential = resolved;
    if (!credential) {
      res.set(rateLimitHeaders(context.anonymousLimiter.take(`ip:${req.ip}`)));
      const error = badCredentials();
      sendError(res, new GitHubApiError(error.status, error.message, GRAPHQL_DOCS));
      return;
    }
    const limit = rateLimitKeyOf(credential);
    const body = (req.body ?? {}) as { query?: unknown; variables?: unknown; operationName?: unknown };
    const refusal = secondaryLimitRefusal(res, context.secondaryLimiter, limit.key, graphqlCreatesContent(body.query));
    if (refusal) {
      sendError(res, refusal);
      return;
    }
    // The webhooks of mutations are sent as the REST routes send them, from the request's caller.
    res.locals.credential = credential;
    const send = (payload: { data?: unknown; errors?: GitHubFormattedError[] }) =>
      res.status(200).type('application/json; charset=utf-8').send(JSON.stringify(payload));
    /** Charges `cost` points; over the limit answers `RATE_LIMITED` and returns undefined. */
    const charge = (cost: number): RateLimitState | undefined => {
      const state = context.graphqlLimiter.take(limit.key, cost);
      res.set(rateLimitHeaders(state, 'graphql'));
      if (!state.exceeded) return state;
      noteLimited(res, 'primary');
      send({ errors: [{ type: 'RATE_LIMITED', message: limit.exceeded }] });
      return undefined;
    };
    const refuse = (errors: readonly GitHubFormattedError[]) => {
      if (charge(1)) send({ errors: [...errors] });
    };
    const format = (error: GraphQLError) => formatGraphQLError(error, (err) => req.log?.error({ err }, 'a GraphQL resolver failed'));

    if (typeof body.query !== 'string') {
      refuse([{ message: NO_QUERY }]);
      return;
    }
    const schema = gitHubSchema();
    let document: DocumentNode;
    let invalid: readonly GraphQLError[];
    try {
      document = parse(body.query);
      invalid = validate(schema, document);
    } catch (error) {
      if (error instanceof GraphQLError) refuse([format(error)]);
      else if (error instanceof RangeError) refuse([{ message: TOO_DEEP }]);
      else throw error;
      return;
    }
    if (invalid.length > 0) {
      refuse(invalid.map(format));
      return;
    }
    const ctx: GraphQLContext = {
      route: context,
      credential,
      urls: urlsOf(req, context),
      req,
      res,
      cost: { requests: 0, cost: 1, nodeCount: 0, dryRun: false },
      limit: context.graphqlLimiter.peek(limit.key),
    };
    const args = validateExecutionArgs({
      schema,
      document,
      rootValue: ROOT_VALUE,
      contextValue: ctx,
      variableValues: variablesOf(body.variables) ?? null,
      operationName: typeof body.operationName === 'string' ? body.operationName : null,
    });
    if (!('schema' in args)) {
      refuse(args.map(format));
      return;
    }
    let cost: ReturnType<typeof operationCost>;
    try {
      cost = operationCost(args);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      refuse([{ message: TOO_DEEP }]);
      return;
    }
    if ('errors' in cost) {
      refuse(cost.errors);
      return;
    }
    ctx.cost = cost;
    if (cost.dryRun) {
      res.set(rateLimitHeaders(ctx.limit, 'graphql'));
    } else {
      const state = charge(cost.cost);
      if (!state) return;
      notePoints(res, cost.cost);
      ctx.limit = state;
    }
    try {
      const result = await executeRootSelectionSet(args);
      send({ data: result.data ?? null, ...(result.errors && result.errors.length > 0 ? { errors: result.errors.map(format) } : {}) });
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      send({ errors: [{ message: TOO_DEEP }] });
    }
  });
}
