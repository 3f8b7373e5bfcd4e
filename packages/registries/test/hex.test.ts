import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { createHexRegistry, DEFAULT_HEX_URL } from '../src/adapters/hex.ts';
import { DEFAULT_REGISTRY_URLS, registryFor } from '../src/registry-for.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

describe('Hex adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createHexRegistry>[0]) =>
    track(createHexRegistry({ retryDelayMs: 10, retries: 0, ...options }));

  it('defaults to hex.pm and is what registryFor gives', () => {
    expect(DEFAULT_HEX_URL).toBe(DEFAULT_REGISTRY_URLS.hex);
    expect(track(createHexRegistry()).baseUrl).toBe(DEFAULT_HEX_URL);
    const viaFor = track(registryFor('hex') as NonNullable<ReturnType<typeof registryFor>>);
    expect(viaFor.packageManager).toBe('hex');
  });

  it('maps a package: release times, retirements, latest stable, source', async () => {
    const server = await serve({ '/api/packages/jason': { body: await fixture('hex/jason.json') } });
    const pkg = await registry({ baseUrl: `${server.url}api/` }).fetchPackage('jason');
    expect(pkg).toEqual({
      name: 'jason',
      latest: '1.4.4',
      sourceUrl: 'https://github.com/michalmuskala/jason',
      changelogUrl: null,
      versions: [
        { version: '1.5.0-alpha.2', releasedAt: '2024-07-26T16:07:44.283Z', yanked: false, deprecated: null, digests: [] },
        { version: '1.4.4', releasedAt: '2024-07-26T15:53:18.022Z', yanked: false, deprecated: null, digests: [] },
        {
          version: '1.4.2',
          releasedAt: '2024-07-26T12:34:52.478Z',
          yanked: true,
          deprecated: 'invalid: Broken encoding of escaped strings',
          digests: [],
        },
        { version: '1.4.0', releasedAt: '2022-09-01T20:25:35.432Z', yanked: false, deprecated: null, digests: [] },
      ],
    });
  });

  it('describes a release: dependencies, the outer checksum, no inner one from hex.pm', async () => {
    const server = await serve({ '/api/packages/jason/releases/1.4.4': { body: await fixture('hex/jason-1.4.4.json') } });
    const hex = registry({ baseUrl: `${server.url}api/` });
    expect(await hex.describeVersion?.('jason', '1.4.4')).toEqual({
      name: 'jason',
      version: '1.4.4',
      dependencies: [{ name: 'decimal', requirement: '~> 1.0 or ~> 2.0', kind: 'optional' }],
      artifacts: [
        {
          filename: 'jason-1.4.4.tar',
          url: `${server.url}repo/tarballs/jason-1.4.4.tar`,
          digests: [{ algorithm: 'sha256', value: 'c5eb0cab91f094599f94d55bc63409236a8ec69a21a67814529e8d5f6cc90b3b', encoding: 'hex' }],
          attributes: { build_tools: 'mix' },
        },
      ],
    });
    expect(await hex.describeVersion?.('jason', '9.9.9')).toBeUndefined();
    expect(await hex.fetchPackage('nope')).toBeUndefined();
  });

  it('refuses names Hex does not allow and reports nonsense', async () => {
    const server = await serve({ '/api/packages/bad': { body: '{"releases": {}}' }, '/api/packages/worse': { body: '<html>' } });
    const hex = registry({ baseUrl: `${server.url}api/` });
    for (const name of ['', 'Jason', '../x', 'a-b', '1abc']) await expect(hex.fetchPackage(name), name).rejects.toThrow(TypeError);
    await expect(hex.fetchPackage('bad')).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(hex.fetchPackage('worse')).rejects.toMatchObject({ kind: 'bad_response' });
  });
});

describe('Hex adapter against the registry emulator', () => {
  it('reads packages and inner checksums, sees a published version, and the private registry with credentials only', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const hex = createHexRegistry({ baseUrl: `${emulator.url}/hex/api/`, retries: 0 });
    const anonymous = createHexRegistry({ baseUrl: `${emulator.url}/private/hex/api/`, retries: 0 });
    const authorised = createHexRegistry({
      baseUrl: `${emulator.url}/private/hex/api/`,
      retries: 0,
      credentials: { token: DEMO_REGISTRY_TOKEN },
    });
    try {
      const pkg = await hex.fetchPackage('jason');
      expect(pkg).toMatchObject({ latest: '1.4.0', sourceUrl: 'https://github.com/michalmuskala/jason' });
      expect((await hex.fetchPackage('ex_doc'))?.versions.find((v) => v.version === '0.31.1')).toMatchObject({
        yanked: true,
        deprecated: 'other: broken release',
      });
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'hex', name: 'jason', version: '1.4.1' }),
      });
      expect(published.status).toBe(201);
      expect((await hex.fetchPackage('jason'))?.latest).toBe('1.4.1');
      const details = await hex.describeVersion?.('jason', '1.4.1');
      expect(details?.artifacts[0]?.attributes?.inner_checksum).toMatch(/^[0-9a-f]{64}$/);
      const tarball = await fetch(details?.artifacts[0]?.url ?? '');
      expect(tarball.status).toBe(200);
      await expect(anonymous.fetchPackage('acme_auth')).rejects.toMatchObject({ kind: 'auth_failed' });
      expect((await authorised.describeVersion?.('acme_auth', '0.4.0'))?.dependencies).toEqual([
        { name: 'jason', requirement: '~> 1.4', kind: 'runtime' },
      ]);
      expect(await hex.fetchPackage('acme_auth')).toBeUndefined();
    } finally {
      for (const registry of [hex, anonymous, authorised]) await registry.close();
      await emulator.close();
    }
  });
});
