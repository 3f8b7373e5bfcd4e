import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import type { Listening } from '@switchyard/service-kit';
import { createLogger } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PackageRegistry, RegistryError } from '../src/port.ts';
import { type RegistryPackageManager, registryFor } from '../src/registry-for.ts';

/** Each protocol's prefix on the emulator, and a public and a private package of its seed. */
const CASES: { pm: RegistryPackageManager; prefix: string; name: string; privateName: string; next: string }[] = [
  { pm: 'npm_and_yarn', prefix: 'npm', name: 'lodash', privateName: '@acme/widgets', next: '4.17.22' },
  { pm: 'pip', prefix: 'pypi', name: 'requests', privateName: 'acme-tools', next: '9.0.0' },
  { pm: 'maven', prefix: 'maven', name: 'junit:junit', privateName: 'com.acme:acme-core', next: '9.0.0' },
  { pm: 'bundler', prefix: 'rubygems', name: 'rails', privateName: 'acme-billing-client', next: '9.0.0' },
  { pm: 'cargo', prefix: 'crates', name: 'serde', privateName: 'acme-crypto', next: '9.0.0' },
  { pm: 'composer', prefix: 'packagist', name: 'monolog/monolog', privateName: 'acme/payments-sdk', next: '9.0.0' },
];

/** Every adapter against the registry emulator: the same code paths as against the public registries. */
describe('the six adapters against the registry emulator', () => {
  let emulator: Listening;
  const open: PackageRegistry[] = [];
  const adapter = (pm: RegistryPackageManager, base: string, extra: Parameters<typeof registryFor>[1] = {}) => {
    const registry = registryFor(pm, {
      baseUrl: base,
      retries: 0,
      ...(pm === 'cargo' ? { apiUrl: `${base.replace(/index\/$/, '')}api/v1/` } : {}),
      ...extra,
    });
    if (registry === undefined) throw new Error(`no adapter for ${pm}`);
    open.push(registry);
    return registry;
  };
  const baseOf = (prefix: string, scope: '' | 'private/' = '') =>
    `${emulator.url}/${scope}${prefix}/${prefix === 'crates' ? 'index/' : ''}`;

  beforeAll(async () => {
    emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
  });
  afterAll(async () => {
    for (const registry of open) await registry.close();
    await emulator?.close();
  });

  for (const { pm, prefix, name, privateName, next } of CASES) {
    it(`${pm}: reads a package, sees a version published at run time through a conditional request, and reads a private one with credentials only`, async () => {
      const registry = adapter(pm, baseOf(prefix));
      const before = await registry.fetchPackage(name);
      expect(before?.versions.length).toBeGreaterThan(1);
      // The latest version's digests (Packagist marks no latest: then its newest listed version's). Maven reads the
      // POM and checksum of the most recently deployed versions only.
      const latest = before?.versions.find((v) => v.version === (before.latest ?? before.versions[0]?.version));
      expect(latest?.digests.length, `${name}@${latest?.version} digests`).toBeGreaterThan(0);
      if (pm !== 'composer') expect(before?.latest).not.toBeNull();
      expect(before?.sourceUrl).toMatch(/^https:\/\//);

      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: pm, name, version: next }),
      });
      expect(published.status).toBe(201);
      const after = await registry.fetchPackage(name);
      expect(after?.versions.map((v) => v.version)).toContain(next);
      const unchanged = registry.stats();
      // Every later read of an unchanged package downloads nothing, however many there are (the emulator's 304s carry
      // Cache-Control, as the registries' do), and reads at the same time share their requests.
      for (let read = 0; read < 3; read++) await registry.fetchPackage(name);
      const sequential = registry.stats();
      const perRead = (sequential.requests - unchanged.requests) / 3;
      await Promise.all([registry.fetchPackage(name), registry.fetchPackage(name), registry.fetchPackage(name)]);
      const concurrent = registry.stats();
      expect(concurrent.fullDownloads).toBe(unchanged.fullDownloads);
      expect(concurrent.notModified - unchanged.notModified).toBe(concurrent.requests - unchanged.requests);
      expect(concurrent.requests - sequential.requests).toBe(perRead);

      expect(await registry.fetchPackage(privateName)).toBeUndefined();
      const anonymous = adapter(pm, baseOf(prefix, 'private/'));
      const refused = await anonymous.fetchPackage(privateName).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RegistryError);
      expect((refused as RegistryError).kind).toBe('auth_failed');
      const authorised = adapter(pm, baseOf(prefix, 'private/'), { credentials: { token: DEMO_REGISTRY_TOKEN } });
      expect((await authorised.fetchPackage(privateName))?.versions.length).toBeGreaterThan(0);
    });
  }
});
