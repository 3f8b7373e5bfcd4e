import { describe, expect, it } from 'vitest';
import { serviceFor, unsafeTarget } from '../src/routing/route.policy.ts';

describe('serviceFor (the routing table)', () => {
  it('routes each documented path to its service', () => {
    const table: Array<[string, string | undefined]> = [
      ['/', 'catalog-svc'],
      ['/books', 'catalog-svc'],
      ['/books/12', 'catalog-svc'],
      ['/accounts', 'config-svc'],
      ['/accounts/1', 'config-svc'],
      ['/repos', 'config-svc'],
      ['/update_configs', 'config-svc'],
      ['/update_configs/5', 'config-svc'],
      ['/update_configs/5/trigger_update_job', 'release-svc'],
      ['/update_configs/5/trigger_update_jobs', 'config-svc'],
      ['/registry_credentials', 'config-svc'],
      ['/registry_credentials/3', 'config-svc'],
      ['/update_runs', 'release-svc'],
      ['/webhooks/github', 'release-svc'],
      ['/update_runs/0b0c1d4e-2f3a-4b5c-8d6e-7f8091a2b3c4', 'release-svc'],
      ['/release_notifications/private', 'release-svc'],
      ['/pull_request_jobs', 'release-svc'],
      ['/pull_request_jobs/9', 'release-svc'],
      ['/badges/status', 'release-svc'],
      ['/repos/3101/upgrade', 'release-svc'],
      ['/update_configs/5/ignores/3', 'release-svc'],
      ['/emissary/Heartbeat.action', 'peer-svc'],
      ['/WorkSpaceClientEnqueue.action', 'peer-svc'],
      ['/emissary/client-places/demo-pickup/bundles', 'peer-svc'],
      ['/emissary/client-places/INITIAL.X.INPUT.http%3A%2F%2F127.0.0.1%3A7001%2FPickUp/bundles', 'peer-svc'],
    ];
    for (const [path, service] of table) expect(serviceFor(path), path).toBe(service);
  });

  it('leaves the gateway its own paths and unknown ones', () => {
    for (const path of [
      '/healthz',
      '/readyz',
      '/metrics',
      '/openapi.json',
      '/docs',
      '/booksx',
      '/Books',
      '/accountsx',
      '/nope',
      '/badges',
      '/Badges/status',
    ]) {
      expect(serviceFor(path), path).toBeUndefined();
    }
  });
});

describe('unsafeTarget', () => {
  it('refuses dot segments, encoded or not, and backslashes', () => {
    for (const url of [
      '/books/../accounts',
      '/books/%2e%2e/accounts',
      '/books/.%2E/x',
      '/books/./1',
      '/books\\..\\x',
      '/books%5c1',
      'http://evil/',
    ]) {
      expect(unsafeTarget(url), url).toBe(true);
    }
  });
  it('accepts ordinary paths, dots inside names and dots in the query', () => {
    for (const url of ['/books/1', '/WorkSpaceClientEnqueue.action', '/books?x=../y', '/books/a..b'])
      expect(unsafeTarget(url), url).toBe(false);
  });
});
