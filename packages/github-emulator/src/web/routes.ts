import type { Express, Request, RequestHandler, Response } from 'express';
import type { RouteContext } from '../route-helpers.ts';
import { htmlText, type SafeHtml } from './html.ts';
import { notFoundPage, type PageRoot, pullPage, repoPage } from './pages.ts';
import { pullPageView, repoPageView } from './views.ts';

/**
 * First path segments that are never an owner's web page: the emulator's own API namespaces (`/user`, `/orgs`,
 * `/repos`, `/repositories`, `/advisories`, `/graphql`, `/_emulator`, `/healthz`, `/readyz`) and a few more of
 * GitHub's REST API, so that a request there for a path no API route serves is still answered by the API (a JSON
 * 404), never by a web page. Compared lower-cased. A seed owner with one of these logins has no web pages.
 */
export const RESERVED_WEB_OWNERS: ReadonlySet<string> = new Set([
  '_emulator',
  'advisories',
  'api',
  'app',
  'apps',
  'enterprises',
  'gists',
  'graphql',
  'healthz',
  'installation',
  'meta',
  'notifications',
  'organizations',
  'orgs',
  'rate_limit',
  'readyz',
  'repos',
  'repositories',
  'search',
  'teams',
  'user',
  'users',
]);

/** `/{owner}/{repo}` or `/{owner}/{repo}/pull/{number}`, with an optional trailing slash (express matches it too). */
const WEB_PATH = /^\/([^/]+)\/([^/]+)(?:\/pull\/([^/]+))?\/?$/;

/**
 * Whether `req` is for one of the web pages: a GET or HEAD of `/{owner}/{repo}` or `/{owner}/{repo}/pull/{number}`
 * whose owner is not in {@link RESERVED_WEB_OWNERS}. No API route has that shape, so the emulator can tell such a
 * request apart before routing (to leave it out of the fault queue and the API's headers).
 */
export function isWebPageRequest(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const match = WEB_PATH.exec(req.path);
  if (!match?.[1]) return false;
  let owner: string;
  try {
    owner = decodeURIComponent(match[1]);
  } catch {
    return false;
  }
  return !RESERVED_WEB_OWNERS.has(owner.toLowerCase());
}

/**
 * `handler` for the web pages' requests only ({@link isWebPageRequest}; `pages` true) or for every other request
 * (`pages` false); the others go on to the next handler.
 */
export const forWebPages =
  (pages: boolean, handler: RequestHandler): RequestHandler =>
  (req, res, next) => {
    if (isWebPageRequest(req) !== pages) {
      next();
      return;
    }
    handler(req, res, next);
  };

/**
 * The headers of every web page: HTML in UTF-8, a Content-Security-Policy that allows inline styles and nothing else
 * (no script, no image, no form, no framing), no MIME sniffing, no referrer, and no caching (the state changes).
 */
export const WEB_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

function sendPage(res: Response, status: number, page: SafeHtml): void {
  res.status(status).set(WEB_PAGE_HEADERS).send(htmlText(page));
}

/** The path the emulator is mounted at, for the pages' links (`''` at the root, `/api/v3` under that prefix). */
const rootOf = (req: Request): PageRoot => ({ root: req.baseUrl });

/**
 * Mounts the web pages that the API's `html_url`s point at when the web root (`htmlBaseUrl`) is the emulator's own
 * origin, the emulator's stand-in for github.com's web UI:
 * - `GET /{owner}/{repo}`: the repository (name, visibility, description, default branch) and its open pull requests,
 *   each linking to its page;
 * - `GET /{owner}/{repo}/pull/{number}`: the pull request (title and number, open / closed / merged, head → base,
 *   author, dates, body, changed files) with a link back to the repository.
 *
 * Both answer `200 text/html; charset=utf-8` with {@link WEB_PAGE_HEADERS}, or `404` with a small HTML page for an
 * unknown repository or pull request. No token is asked for and private repositories are shown too (the emulator has
 * no browser sessions; a demo convenience). Nothing is counted against the API's rate limit. Mount them after every
 * API route, so that an API route always wins; a request whose owner is reserved ({@link isWebPageRequest}) is passed
 * on to the API's 404.
 */
export function mountWebPages(app: Express, context: RouteContext): void {
  const { world, state } = context;
  /** The repository the page's path names, or undefined once its 404 page is sent. */
  const repoOf = (req: Request, res: Response) => {
    const owner = String(req.params.owner);
    const name = String(req.params.repo);
    const repo = world.repoByName(owner, name);
    if (!repo) sendPage(res, 404, notFoundPage(`There is no repository ${owner}/${name}.`));
    return repo;
  };

  app.get(
    '/:owner/:repo',
    forWebPages(true, (req, res) => {
      const repo = repoOf(req, res);
      if (repo) sendPage(res, 200, repoPage(rootOf(req), repoPageView(repo, state.of(repo))));
    }),
  );

  app.get(
    '/:owner/:repo/pull/:number',
    forWebPages(true, (req, res) => {
      const text = String(req.params.number);
      const repo = repoOf(req, res);
      if (!repo) return;
      const repoState = state.of(repo);
      const number = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
      const pr = repoState.pulls.find((candidate) => candidate.number === number);
      if (!pr) {
        sendPage(res, 404, notFoundPage(`There is no pull request #${text} in ${repo.owner}/${repo.name}.`));
        return;
      }
      sendPage(res, 200, pullPage(rootOf(req), pullPageView(repo, repoState, pr)));
    }),
  );
}
