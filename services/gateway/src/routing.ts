/**
 * The gateway's routing table (the gateway's README): every path stays at the root, so
 * each API's `{base_url}` is the gateway's URL. Matching is on the path alone, case-sensitive.
 */

/** The upstream services the gateway forwards to. */
export type ServiceName = 'catalog-svc' | 'config-svc' | 'release-svc' | 'peer-svc';

/** One row: `exact` paths match as they are, `prefixes` match any path that starts with them. */
interface RouteRule {
  service: ServiceName;
  exact: readonly string[];
  prefixes: readonly string[];
}

export const ROUTING_TABLE: readonly RouteRule[] = [
  { service: 'catalog-svc', exact: ['/', '/books'], prefixes: ['/books/'] },
  { service: 'config-svc', exact: ['/accounts', '/repos', '/update_configs'], prefixes: ['/update_configs/'] },
  { service: 'release-svc', exact: [], prefixes: ['/release_notifications/', '/pull_request_jobs'] },
  { service: 'peer-svc', exact: ['/WorkSpaceClientEnqueue.action'], prefixes: ['/emissary/'] },
];

const exactPaths = new Map<string, ServiceName>(ROUTING_TABLE.flatMap((rule) => rule.exact.map((path) => [path, rule.service] as const)));
const prefixRules = ROUTING_TABLE.flatMap((rule) => rule.prefixes.map((prefix) => [prefix, rule.service] as const));

/** The service that owns `path` (no query string), or undefined when the gateway answers it itself. */
export function serviceFor(path: string): ServiceName | undefined {
  const exact = exactPaths.get(path);
  if (exact) return exact;
  for (const [prefix, service] of prefixRules) if (path.startsWith(prefix)) return service;
  return undefined;
}

/**
 * Whether a request target is unsafe to forward: dot segments (`/a/../b`, also percent-encoded),
 * backslashes, or anything but an origin-form path, which an upstream could resolve to a path
 * another service owns.
 */
export function unsafeTarget(url: string): boolean {
  if (!url.startsWith('/')) return true;
  const path = url.split('?', 1)[0] ?? '';
  if (path.includes('\\') || /%5c/i.test(path)) return true;
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}
