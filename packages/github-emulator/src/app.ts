import { STATUS_CODES } from 'node:http';
import { createServiceApp, type Listening, type Logger, listen } from '@switchyard/service-kit';
import type { ErrorRequestHandler, Express, RequestHandler, Response } from 'express';
import { mountAppAdminRoutes } from './apps/admin-routes.ts';
import { INSTALLATION_TOKEN_TTL_MS } from './apps/installations.ts';
import { writeAppPrivateKeyFile } from './apps/key-file.ts';
import { type EmulatorFault, playFaults } from './faults.ts';
import { mountForcedUpdates } from './forced-updates.ts';
import { GitHubApiError, notFound, sendError, setCommonHeaders } from './github-http.ts';
import { mountGraphQLRoutes } from './graphql-routes.ts';
import { openWorld } from './persistence/world-store.ts';
import { createRateLimiter } from './rate-limit.ts';
import { EmulatorState } from './repo-state.ts';
import { mountRequestCounter } from './request-counter.ts';
import { callerKeyOf, primaryLimitMessage } from './route-helpers.ts';
import { mountGitHubRoutes } from './routes.ts';
import { trackInFlight } from './secondary-limits/enforce.ts';
import { createSecondaryLimiter, type SecondaryLimits } from './secondary-limits/limiter.ts';
import { type ParsedSeed, parseSeed, type SeedInput } from './seed.ts';
import { forWebPages, mountWebPages } from './web/routes.ts';
import { createWebhookSender, type WebhookOptions, type WebhookSender } from './webhooks.ts';
import { createWorld } from './world.ts';

/** Options of {@link createGitHubEmulator}. */
export interface GitHubEmulatorOptions {
  /** Users, organisations and repositories (validated with `parseSeed`; a `ParsedSeed` is accepted as is). */
  seed: SeedInput | ParsedSeed;
  logger: Logger;
  /** Web root used in `html_url`, `clone_url`, … (default `https://github.com`). */
  htmlBaseUrl?: string;
  /**
   * A queue of failures to play, one per API request, before answering normally (see {@link EmulatorFault}). The
   * emulator reads and shifts the caller's array, so a test can push faults while the emulator runs.
   */
  faults?: EmulatorFault[];
  /** The clock for rate limits and the dates of commits, pull requests and statuses, in epoch milliseconds (default `Date.now`). */
  now?: () => number;
  /**
   * Where `push`, `pull_request`, `status`, `issues` and `issue_comment` webhooks go, and the GitHub App's
   * `installation` and `installation_repositories` (`url`, `secret`, tries); none are sent without a `url`. Or a
   * {@link WebhookSender} of the caller's (e.g. to await `settled()` in a test).
   */
  webhooks?: WebhookOptions | WebhookSender;
  /**
   * How long an installation access token lives, in ms (default 3,600,000: GitHub's one hour). Shorter lets a test
   * cross a token's expiry (`CODE_HOST_INSTALLATION_TOKEN_TTL_MS` standalone).
   */
  installationTokenTtlMs?: number;
  /**
   * GitHub's secondary rate limits per caller (a user, or an installation for all of its access tokens), REST and
   * GraphQL together: `concurrent` requests in flight, `contentPerMinute` / `contentPerHour` content-generating requests
   * (`@switchyard/contracts`' `github/content-creation.ts` lists them), on the `now` clock. Over one, a request is refused 403 `You have
   * exceeded a secondary rate limit…` with `retry-after` and not performed. Off when absent (the default);
   * `GITHUB_SECONDARY_LIMITS` are GitHub's (100, 80, 500); `CODE_HOST_SECONDARY_LIMITS` standalone.
   * https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits
   */
  secondaryLimits?: SecondaryLimits;
}

/** The largest JSON request body the emulator takes: 140 MB, room for a 100 MB blob in Base64 (GitHub's blob limit). */
const BODY_LIMIT = '140mb';

/** Unauthenticated GitHub clients get 60 requests an hour per address. */
const ANONYMOUS_LIMIT = 60;

const commonHeaders: RequestHandler = (_req, res, next) => {
  setCommonHeaders(res);
  next();
};

const unknownRoute: RequestHandler = () => {
  throw notFound();
};

/** Answers every error in GitHub's shape: a {@link GitHubApiError} as it is, other 4xx with their reason, the rest 500. */
const githubErrors: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (error instanceof GitHubApiError) {
    sendError(res, error);
    return;
  }
  const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
  if (status === 500) req.log?.error({ err: error }, 'GitHub emulator failed');
  sendError(res, new GitHubApiError(status, status === 500 ? 'Server Error' : (STATUS_CODES[status] ?? 'Error')));
};

/**
 * An express 5 app that answers like GitHub's REST API (https://docs.github.com/rest) for the endpoints the code host
 * port uses, from a seed: `GET /user`, `/user/orgs`, `/user/repos`, `/orgs/{org}/repos`, `/repositories/{id}`,
 * `/repos/{owner}/{repo}/contents/{path}`, `/advisories` (cursor-paginated), `/advisories/{ghsa_id}`,
 * `/user/installations` and `/user/installations/{installation_id}/repositories`; GitHub Apps (`apps/`: the `/app`
 * endpoints with an App's JWT, installation access tokens minted there and taken by every route, limited to their
 * installation's repositories and permissions and acting as the App's bot user, `/installation/repositories`, and the
 * test hooks under `/_emulator/apps` that install, suspend and re-select with their webhooks); `POST /graphql`, a part of
 * GitHub's GraphQL API on graphql-js (`graphql-routes.ts`, `graphql/`: repositories, git objects, refs, pull requests,
 * `rateLimit`, and the mutations `createRef`, `createCommitOnBranch`, `createPullRequest`); and, on in-memory state of this
 * instance (git data built from the seed's files, tags and gitlinks, pull requests, issues, milestones, labels,
 * comments, statuses), the git data API, file writes (`PUT`/`DELETE /contents/{path}`), branches, tags, releases, pull
 * requests (open, edit, merge, review requests), issues, assignees, milestones, labels, issue comments (create, edit,
 * delete), commit statuses and collaborator permissions, and what reviewers read (a pull request's files and commits, comparisons, commits with files, blobs, the diff and
 * patch media types: `review-routes.ts`) (see the README), with
 * `push`, `pull_request`, `status`, `issues` and `issue_comment` webhooks to `options.webhooks.url`. Bodies are GitHub's objects (validated against `@octokit/openapi` in the
 * tests), errors GitHub's `basic-error` bodies (401 `Bad credentials`, 404 `Not Found`, 403 rate limits, 422), lists
 * are paginated with `page`/`per_page` and a `Link` header, and every answer carries `x-ratelimit-*` headers. JSON
 * answers to GET carry an `ETag`, and `If-None-Match` naming it is answered `304 Not Modified`, not counted against
 * the rate limit. With `secondaryLimits`, GitHub's secondary limits apply too (`secondary-limits/`). Every request is
 * counted by route and status, and those a rate limit refused by kind, served at `GET /_emulator/requests`
 * (`request-counter.ts`); forced ref updates that discarded someone else's commits are listed at
 * `GET /_emulator/forced-updates` (`forced-updates.ts`).
 * The web pages the `html_url`s of pull requests and repositories point at when `htmlBaseUrl` is the emulator's own
 * origin, `GET /{owner}/{repo}` and `GET /{owner}/{repo}/pull/{number}` (HTML, no token needed, not rate limited, no
 * faults played: `web/routes.ts`), are mounted after every API route.
 * `/healthz` and `/readyz` come from service-kit. Authorization headers are redacted from its request logs. Each call
 * makes a new world (a new world id, so node ids never repeat those of another, see `node-ids.ts`), kept in memory.
 * @throws SeedError when the seed is invalid
 */
export function createGitHubEmulator(options: GitHubEmulatorOptions): Express {
  const seed = parseSeed(options.seed);
  return assemble(options, seed, new EmulatorState(options.now ?? Date.now, undefined, seed));
}

/**
 * The app of {@link createGitHubEmulator} on a given world (`seed`, `state`); with `persist` (a kept world), every write
 * request is answered once the world is saved ({@link answerOnceSaved}).
 */
function assemble(options: GitHubEmulatorOptions, seed: ParsedSeed, state: EmulatorState, persist?: () => Promise<void>): Express {
  const now = options.now ?? Date.now;
  const logger = options.logger.child(
    { component: 'github-emulator' },
    { redact: { paths: ['req.headers.authorization', 'req.headers.cookie'], censor: '[redacted]' } },
  );
  const webhooks =
    options.webhooks !== undefined && 'send' in options.webhooks
      ? options.webhooks
      : createWebhookSender(options.webhooks ?? {}, logger.child({ component: 'github-emulator-webhooks' }));
  const context = {
    world: createWorld(seed),
    state,
    webhooks,
    limiter: createRateLimiter(seed.rateLimit.limit, seed.rateLimit.windowSeconds, now),
    graphqlLimiter: createRateLimiter(seed.rateLimit.limit, seed.rateLimit.windowSeconds, now),
    anonymousLimiter: createRateLimiter(ANONYMOUS_LIMIT, 3_600, now),
    htmlBaseUrl: (options.htmlBaseUrl ?? 'https://github.com').replace(/\/+$/, ''),
    installationTokenTtlMs: options.installationTokenTtlMs ?? INSTALLATION_TOKEN_TTL_MS,
    secondaryLimiter: options.secondaryLimits === undefined ? undefined : createSecondaryLimiter(options.secondaryLimits, now),
  };
  const { secondaryLimiter } = context;
  return createServiceApp({
    logger,
    readiness: [],
    bodyLimit: BODY_LIMIT,
    routes: (app) => {
      app.set('trust proxy', false);
      mountRequestCounter(app);
      mountForcedUpdates(app, state, context.world);
      if (persist) app.use(answerOnceSaved(persist, logger));
      // Test hooks of GitHub Apps (install, uninstall, suspend, select repositories): not GitHub's, no faults played.
      mountAppAdminRoutes(app, context);
      // The web pages get neither the API's headers nor its faults.
      app.use(forWebPages(false, commonHeaders));
      // Before the faults, so that a request a `hang` fault holds stays in flight for the concurrency limit.
      if (secondaryLimiter)
        app.use(
          forWebPages(
            false,
            trackInFlight(secondaryLimiter, (req) => callerKeyOf(context, req)),
          ),
        );
      app.use(
        forWebPages(
          false,
          playFaults(options.faults ?? [], now, (req) => primaryLimitMessage(context, req)),
        ),
      );
      mountGitHubRoutes(app, context);
      mountGraphQLRoutes(app, context);
      // Last, so that every API route wins over the web pages' `/{owner}/{repo}` paths.
      mountWebPages(app, context);
      app.use(unknownRoute);
      app.use(githubErrors);
    },
  });
}

/** Options of {@link startGitHubEmulator}: those of {@link createGitHubEmulator}, where it listens, and where the world is kept. */
export interface StartGitHubEmulatorOptions extends GitHubEmulatorOptions {
  /** Default 0: a free port. */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /**
   * A folder to keep the world in (made when missing): the world saved there is loaded at start (its own seed, state and
   * world id; `seed` then only makes a fresh world and is otherwise ignored, with a warning when it differs), or, when
   * the folder holds none, a fresh world is made from `seed` and saved at once. A write request is answered once its
   * change is saved, and the world is saved on `close()`, atomically (see the README, "Saved state"). Without it nothing is written: the world lives
   * in memory only.
   */
  dataDir?: string;
  /**
   * Where to write the private key (PEM) of the seed's first App that has one (the demo App's with the demo seed),
   * before listening, so that a client (the worker running as that App) can sign its JWTs with it
   * (`CODE_HOST_APP_PRIVATE_KEY_FILE` standalone). Written with mode 0600; its folder is made when missing. Without it,
   * nothing is written.
   */
  appPrivateKeyFile?: string;
}

/**
 * Holds the answer of each request that may change the world (any method but GET, HEAD and OPTIONS; a GraphQL query
 * without a mutation changes nothing) until the world as it then stands is on disk (`persist`, a group commit), as
 * GitHub answers a write only once it is stored: a process killed right after an answer loses nothing it answered. A
 * save that fails is logged and the answer goes out anyway (the world is still whole in memory; the saver tries again).
 */
function answerOnceSaved(persist: () => Promise<void>, logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const end = res.end;
    res.end = function endOnceSaved(this: Response, ...args: unknown[]) {
      const body = req.body as { query?: unknown } | undefined;
      if (req.path === '/graphql' && typeof body?.query === 'string' && !/\bmutation\b/.test(body.query)) {
        return (end as (...a: unknown[]) => Response).apply(this, args);
      }
      persist()
        .catch((error: unknown) => logger.error({ err: error }, 'the GitHub emulator world could not be saved before an answer'))
        .finally(() => (end as (...a: unknown[]) => Response).apply(this, args));
      return this;
    } as Response['end'];
    next();
  };
}

/**
 * Starts {@link createGitHubEmulator} on `host:port` (default `127.0.0.1`, port 0 = a free port); the returned
 * `url` is the `baseUrl` to give `createGitHubCodeHost`. With `dataDir` the world is loaded from and saved to that
 * folder (`persistence/world-store.ts`); with `appPrivateKeyFile` the seed's App private key is written there first.
 * Close it with `close()`, which (with `dataDir`) saves the world last.
 * @throws SeedError when the seed (or a saved world's seed) is invalid; SavedStateError when the saved world cannot be
 *   read back; Error when `appPrivateKeyFile` is given and no App of the seed has a private key; the file system's
 *   errors; the listen error (e.g. `EADDRINUSE`)
 */
export async function startGitHubEmulator(options: StartGitHubEmulatorOptions): Promise<Listening> {
  const port = options.port ?? 0;
  const host = options.host ?? '127.0.0.1';
  if (options.dataDir === undefined) {
    if (options.appPrivateKeyFile !== undefined) await writeAppPrivateKeyFile(parseSeed(options.seed), options.appPrivateKeyFile);
    return listen(createGitHubEmulator(options), port, host);
  }
  const world = await openWorld({
    dataDir: options.dataDir,
    seed: parseSeed(options.seed),
    now: options.now ?? Date.now,
    logger: options.logger.child({ component: 'github-emulator-state' }),
  });
  if (options.appPrivateKeyFile !== undefined) {
    try {
      await writeAppPrivateKeyFile(world.seed, options.appPrivateKeyFile);
    } catch (error) {
      await world.saver.close();
      throw error;
    }
  }
  const app = assemble(options, world.seed, world.state, () => world.saver.flush());
  let listening: Listening;
  try {
    listening = await listen(app, port, host);
  } catch (error) {
    await world.saver.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const close = (graceMs?: number) => {
    closing ??= listening.close(graceMs).then(() => world.saver.close());
    return closing;
  };
  return { server: listening.server, url: listening.url, port: listening.port, close, [Symbol.asyncDispose]: () => close() };
}
