import { type ErrorFormat, JSON_API_ERRORS, PLAIN_TEXT_ERRORS, PROBLEM_DETAILS } from '@switchyard/service-kit';

/**
 * The gateway's routing table (the gateway's README): every path stays at the root, so
 * each API's `{base_url}` is the gateway's URL. Matching is on the path alone, case-sensitive.
 */

/** The upstream services the gateway forwards to. */
export type ServiceName = 'catalog-svc' | 'config-svc' | 'release-svc' | 'peer-svc';

/** The APIs behind the gateway; each has its own error format. */
export type ApiName = 'catalogue' | 'dependency-api' | 'peer';

/**
 * The error format of each API: a client of that API gets the gateway's own errors (400, 413, 502, 503, 504) in
 * it, as it gets the service's. The catalogue's is RFC 9457 problem details, like the gateway's own paths; the
 * dependency update API's JSON:API error objects (https://github.com/dependabot/api-docs); the peer endpoints'
 * plain text.
 */
export const API_ERROR_FORMATS: Readonly<Record<ApiName, ErrorFormat>> = {
  catalogue: PROBLEM_DETAILS,
  'dependency-api': JSON_API_ERRORS,
  peer: PLAIN_TEXT_ERRORS,
};

/** Where a forwarded path goes, and the API it belongs to. */
export interface Route {
  service: ServiceName;
  api: ApiName;
  /** How the gateway writes its own errors on this route: {@link API_ERROR_FORMATS} of `api`. */
  errors: ErrorFormat;
}

/** One row: `exact` paths match as they are, `prefixes` match any path that starts with them. */
interface RouteRule {
  service: ServiceName;
  api: ApiName;
  exact: readonly string[];
  prefixes: readonly string[];
}

/** Which service owns which paths, and which API (so which error format) they belong to. */
export const ROUTING_TABLE: readonly RouteRule[] = [
  { service: 'catalog-svc', api: 'catalogue', exact: ['/', '/books'], prefixes: ['/books/'] },
  {
    service: 'config-svc',
    api: 'dependency-api',
    exact: ['/accounts', '/repos', '/update_configs', '/registry_credentials'],
    prefixes: ['/accounts/', '/update_configs/', '/registry_credentials/'],
  },
  // `/badges/` holds the status badge (`GET /badges/status`, Dependabot Preview's, served without authentication).
  {
    service: 'release-svc',
    api: 'dependency-api',
    exact: ['/webhooks/github'],
    prefixes: ['/release_notifications/', '/pull_request_jobs', '/update_runs', '/badges/'],
  },
  // `/emissary/` holds the peer endpoints and this project's extension `/emissary/client-places/{name}/bundles`.
  { service: 'peer-svc', api: 'peer', exact: ['/WorkSpaceClientEnqueue.action'], prefixes: ['/emissary/'] },
];

const compiled = ROUTING_TABLE.map((rule) => ({
  rule,
  route: { service: rule.service, api: rule.api, errors: API_ERROR_FORMATS[rule.api] } satisfies Route,
}));
const exactPaths = new Map<string, Route>(compiled.flatMap(({ rule, route }) => rule.exact.map((path) => [path, route] as const)));
const prefixRules = compiled.flatMap(({ rule, route }) => rule.prefixes.map((prefix) => [prefix, route] as const));

/**
 * "Bump now" (`POST /update_configs/{id}/trigger_update_job`, the original's undocumented endpoint) starts an update run,
 * which release-svc owns, under config-svc's `/update_configs/` prefix; the upgrade pull request of a repo
 * (`/repos/{id}/upgrade`) and the ignores of a config (`/update_configs/{id}/ignores/{n}`) are release-svc's too: all
 * matched before the prefixes.
 */
const TRIGGER_UPDATE_JOB = /^\/update_configs\/[^/]+\/trigger_update_job$/;
const REPO_UPGRADE = /^\/repos\/[^/]+\/upgrade$/;
const CONFIG_IGNORE = /^\/update_configs\/[^/]+\/ignores\/[^/]+$/;
const triggerRoute: Route = { service: 'release-svc', api: 'dependency-api', errors: API_ERROR_FORMATS['dependency-api'] };

/** The route of `path` (no query string): its service and API, or undefined when the gateway answers it itself. */
export function routeFor(path: string): Route | undefined {
  // Only paths under `/update_configs/` and `/repos/` can be one of these: others skip the three expressions.
  if (path.startsWith('/update_configs/')) {
    if (TRIGGER_UPDATE_JOB.test(path) || CONFIG_IGNORE.test(path)) return triggerRoute;
  } else if (path.startsWith('/repos/') && REPO_UPGRADE.test(path)) return triggerRoute;
  const exact = exactPaths.get(path);
  if (exact) return exact;
  for (const [prefix, route] of prefixRules) if (path.startsWith(prefix)) return route;
  return undefined;
}

/** The service that owns `path` (no query string), or undefined when the gateway answers it itself. */
export function serviceFor(path: string): ServiceName | undefined {
  return routeFor(path)?.service;
}

/**
 * Whether a request target is unsafe to forward: dot segments (`/a/../b`, also percent-encoded),
 * backslashes, or anything but an origin-form path, which an upstream could resolve to a path
 * another service owns.
 */
export function unsafeTarget(url: string): boolean {
  if (!url.startsWith('/')) return true;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  // Without a dot, a backslash or a percent sign (most paths), there is nothing below to find.
  if (!path.includes('.') && !path.includes('%') && !path.includes('\\')) return false;
  if (path.includes('\\') || /%5c/i.test(path)) return true;
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}
