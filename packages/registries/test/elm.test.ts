import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { createElmRegistry, DEFAULT_ELM_URL } from '../src/adapters/elm.ts';
import { DEFAULT_REGISTRY_URLS, registryFor } from '../src/registry-for.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

describe('Elm package site adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createElmRegistry>[0]) =>
    track(createElmRegistry({ retryDelayMs: 10, retries: 0, ...options }));

  it('defaults to package.elm-lang.org and is what registryFor gives', () => {
    expect(DEFAULT_ELM_URL).toBe(DEFAULT_REGISTRY_URLS.elm);
    expect(track(createElmRegistry()).baseUrl).toBe(DEFAULT_ELM_URL);
    expect(track(registryFor('elm') as NonNullable<ReturnType<typeof registryFor>>).packageManager).toBe('elm');
  });

  it('maps releases.json: versions with their times, the highest as latest, the GitHub repository', async () => {
    const server = await serve({ '/packages/elm/http/releases.json': { body: await fixture('elm/http.releases.json') } });
    expect(await registry({ baseUrl: server.url }).fetchPackage('elm/http')).toEqual({
      name: 'elm/http',
      latest: '2.0.0',
      sourceUrl: 'https://github.com/elm/http',
      changelogUrl: null,
      versions: [
        { version: '1.0.0', releasedAt: '2018-08-21T15:55:24.000Z', yanked: false, deprecated: null, digests: [] },
        { version: '2.0.0', releasedAt: '2018-11-19T16:58:10.000Z', yanked: false, deprecated: null, digests: [] },
      ],
    });
  });

  it('describes a version from its elm.json and endpoint.json', async () => {
    const server = await serve({
      '/packages/elm/http/2.0.0/elm.json': { body: await fixture('elm/http-2.0.0.elm.json') },
      '/packages/elm/http/2.0.0/endpoint.json': { body: await fixture('elm/http-2.0.0.endpoint.json') },
    });
    const site = registry({ baseUrl: server.url });
    expect(await site.describeVersion?.('elm/http', '2.0.0')).toEqual({
      name: 'elm/http',
      version: '2.0.0',
      dependencies: ['elm/bytes', 'elm/core', 'elm/file', 'elm/json'].map((name) => ({
        name,
        requirement: '1.0.0 <= v < 2.0.0',
        kind: 'runtime',
      })),
      artifacts: [
        {
          filename: 'http-2.0.0.zip',
          url: 'https://github.com/elm/http/zipball/2.0.0/',
          digests: [{ algorithm: 'sha1', value: '3a6bd2e01d9b2cf5f0b7c8c1de3a1c2d34bd8f8b', encoding: 'hex' }],
        },
      ],
    });
    expect(await site.describeVersion?.('elm/http', '3.0.0')).toBeUndefined();
    expect(await site.fetchPackage('elm/nope')).toBeUndefined();
  });

  it('refuses names that are not author/project and reports nonsense', async () => {
    const server = await serve({
      '/packages/elm/bad/releases.json': { body: '{"1.0": 5}' },
      '/packages/elm/worse/releases.json': { body: '{"1.0.0": "x"}' },
      '/packages/elm/far/releases.json': { body: '{"1.0.0": 1e20}' },
    });
    const site = registry({ baseUrl: server.url });
    for (const name of ['', 'elm', 'elm/Http', 'a/b/c', '../x']) await expect(site.fetchPackage(name), name).rejects.toThrow(TypeError);
    await expect(site.fetchPackage('elm/bad')).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(site.fetchPackage('elm/worse')).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(site.fetchPackage('elm/far')).rejects.toMatchObject({
      kind: 'bad_response',
      message: expect.stringMatching(/out of range/),
    });
  });
});

describe('Elm adapter against the registry emulator', () => {
  it('reads packages, sees a published version with its elm.json, and private packages with credentials only', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const site = createElmRegistry({ baseUrl: `${emulator.url}/elm/`, retries: 0 });
    const anonymous = createElmRegistry({ baseUrl: `${emulator.url}/private/elm/`, retries: 0 });
    const authorised = createElmRegistry({
      baseUrl: `${emulator.url}/private/elm/`,
      retries: 0,
      credentials: { token: DEMO_REGISTRY_TOKEN },
    });
    try {
      expect(await site.fetchPackage('elm/http')).toMatchObject({ latest: '2.0.0', sourceUrl: 'https://github.com/elm/http' });
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          packageManager: 'elm',
          name: 'elm/http',
          version: '2.0.1',
          dependencies: { 'elm/core': '1.0.0 <= v < 2.0.0' },
        }),
      });
      expect(published.status).toBe(201);
      expect((await site.fetchPackage('elm/http'))?.latest).toBe('2.0.1');
      const details = await site.describeVersion?.('elm/http', '2.0.1');
      expect(details?.dependencies).toEqual([{ name: 'elm/core', requirement: '1.0.0 <= v < 2.0.0', kind: 'runtime' }]);
      expect((await fetch(details?.artifacts[0]?.url ?? '')).status).toBe(200);
      await expect(anonymous.fetchPackage('acme/elm-design-tokens')).rejects.toMatchObject({ kind: 'auth_failed' });
      expect((await authorised.fetchPackage('acme/elm-design-tokens'))?.latest).toBe('1.1.0');
    } finally {
      for (const registry of [site, anonymous, authorised]) await registry.close();
      await emulator.close();
    }
  });
});
