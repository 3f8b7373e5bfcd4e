import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { GOOGLE_MAVEN_GROUPS, GOOGLE_MAVEN_URL } from '../src/adapters/maven.ts';
import { createNuGetRegistry, DEFAULT_NUGET_URL, nugetVersionKey } from '../src/adapters/nuget.ts';
import { RegistryError } from '../src/port.ts';
import { DEFAULT_REGISTRY_URLS, registryFor } from '../src/registry-for.ts';
import { closedAfterEach, type FixtureRoute, fixture } from './fixture-server.ts';

describe('NuGet v3 adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createNuGetRegistry>[0]) =>
    track(createNuGetRegistry({ retries: 0, retryDelayMs: 10, ...options }));

  /** The fixtures with nuget.org's URLs pointing at `base`, at the paths those URLs name. */
  async function nugetOrg(): Promise<{ routes: Record<string, FixtureRoute>; rebase: (base: string) => Record<string, FixtureRoute> }> {
    const files: Record<string, string> = {
      '/v3/index.json': 'nuget/index.json',
      '/v3-flatcontainer/newtonsoft.json/index.json': 'nuget/flat-newtonsoft.json',
      '/v3/registration5-gz-semver2/newtonsoft.json/index.json': 'nuget/registration-newtonsoft.json',
      '/v3/registration5-gz-semver2/newtonsoft.json/page/12.0.3/13.0.1.json': 'nuget/registration-newtonsoft-page1.json',
      '/v3/catalog0/data/2023.03.08.07.46.17/newtonsoft.json.13.0.3.json': 'nuget/catalog-newtonsoft-13.0.3.json',
    };
    const texts: Record<string, string> = Object.fromEntries(
      await Promise.all(
        Object.entries(files).map(async ([path, file]): Promise<[string, string]> => [path, (await fixture(file)).toString()]),
      ),
    );
    const rebase = (base: string) =>
      Object.fromEntries(Object.entries(texts).map(([path, body]) => [path, { body: body.replaceAll('https://api.nuget.org/', base) }]));
    return { routes: rebase('https://api.nuget.org/'), rebase };
  }

  it('defaults to nuget.org and normalises version keys as NuGet does', () => {
    expect(DEFAULT_NUGET_URL).toBe(DEFAULT_REGISTRY_URLS.nuget);
    const nuget = registry({});
    expect(nuget.packageManager).toBe('nuget');
    expect(nuget.baseUrl).toBe('https://api.nuget.org/v3/index.json');
    expect(nugetVersionKey('1.0')).toBe('1.0.0');
    expect(nugetVersionKey('1.02.3.0-Beta+sha')).toBe('1.2.3-beta');
    expect(nugetVersionKey('1.2.3.4')).toBe('1.2.3.4');
  });

  it('maps the flat container and the registration: times, unlisted, deprecation, latest, project URL, latest digest', async () => {
    const { rebase } = await nugetOrg();
    const server = await serve();
    for (const [path, route] of Object.entries(rebase(server.url))) server.set(path, route);
    const nuget = registry({ baseUrl: `${server.url}v3/index.json` });
    const pkg = await nuget.fetchPackage('NEWTONSOFT.JSON');
    const sha512 = Buffer.from(
      'HRfg7JBHYIh/LV/bamFEfPpqP35UcqUAKgr+J3K6PgIJdMJGOnyf9txa/Po83BBsxGI+5PvQA+jQ2CBUO0L9Rg==',
      'base64',
    ).toString('hex');
    expect(pkg).toEqual({
      name: 'Newtonsoft.Json',
      latest: '13.0.3',
      sourceUrl: 'https://github.com/JamesNK/Newtonsoft.Json',
      changelogUrl: null,
      versions: [
        { version: '12.0.3', releasedAt: null, yanked: true, deprecated: null, digests: [] },
        { version: '13.0.1', releasedAt: '2021-03-22T19:11:17.170Z', yanked: false, deprecated: null, digests: [] },
        {
          version: '13.0.2',
          releasedAt: '2022-11-24T16:41:32.293Z',
          yanked: false,
          deprecated: 'Use 13.0.3 or later.; use Newtonsoft.Json [13.0.3, )',
          digests: [],
        },
        {
          version: '13.0.3',
          releasedAt: '2023-03-08T07:42:54.647Z',
          yanked: false,
          deprecated: null,
          digests: [{ algorithm: 'sha512', value: sha512, encoding: 'hex' }],
        },
        { version: '13.0.4-beta1', releasedAt: '2024-09-18T18:17:41.570Z', yanked: false, deprecated: null, digests: [] },
      ],
    });
    // service index, flat container, registration index, its referenced page, the latest version's catalog leaf
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v3/index.json',
      '/v3-flatcontainer/newtonsoft.json/index.json',
      '/v3/registration5-gz-semver2/newtonsoft.json/index.json',
      '/v3/registration5-gz-semver2/newtonsoft.json/page/12.0.3/13.0.1.json',
      '/v3/catalog0/data/2023.03.08.07.46.17/newtonsoft.json.13.0.3.json',
    ]);
    await nuget.fetchPackage('newtonsoft.json');
    expect(server.requests.slice(5).every((r) => r.status === 304)).toBe(true);
    expect(server.requests.slice(5).some((r) => r.path.includes('catalog0'))).toBe(false);
  });

  it('skips a registration hive that answers compressed (nuget.org gzips registration5-gz-semver2) for the next one', async () => {
    const { rebase } = await nugetOrg();
    const server = await serve();
    for (const [path, route] of Object.entries(rebase(server.url))) {
      if (path.includes('registration5-gz-semver2/newtonsoft.json/index.json')) {
        server.set(path, { body: gzipSync(Buffer.from(route.body)), headers: { 'content-encoding': 'gzip' } });
        server.set(path.replace('registration5-gz-semver2', 'registration5-semver1'), route);
      } else server.set(path, route);
    }
    const nuget = registry({ baseUrl: `${server.url}v3/index.json` });
    expect((await nuget.fetchPackage('newtonsoft.json'))?.latest).toBe('13.0.3');
    expect(server.requests.map((r) => r.path).filter((p) => p.includes('/index.json') && p.includes('registration5'))).toEqual([
      '/v3/registration5-gz-semver2/newtonsoft.json/index.json',
      '/v3/registration5-semver1/newtonsoft.json/index.json',
    ]);
    const before = server.requests.length;
    expect((await nuget.describeVersion?.('newtonsoft.json', '13.0.3'))?.version).toBe('13.0.3');
    // (the page the copied index names stays where it was; the compressed index is not asked again)
    expect(server.requests.slice(before).some((r) => r.path === '/v3/registration5-gz-semver2/newtonsoft.json/index.json')).toBe(false);
  });

  it('describes a version: dependency groups with their framework, the .nupkg and its SHA-512', async () => {
    const { rebase } = await nugetOrg();
    const server = await serve();
    for (const [path, route] of Object.entries(rebase(server.url))) server.set(path, route);
    const nuget = registry({ baseUrl: `${server.url}v3/index.json` });
    const details = await nuget.describeVersion?.('newtonsoft.json', '13.0.3');
    expect(details).toMatchObject({
      name: 'Newtonsoft.Json',
      version: '13.0.3',
      dependencies: [
        { name: 'Microsoft.CSharp', requirement: '[4.3.0, )', kind: 'runtime', condition: '.NETStandard1.0' },
        { name: 'NETStandard.Library', requirement: '[1.6.1, )', kind: 'runtime', condition: '.NETStandard1.0' },
      ],
      artifacts: [
        {
          filename: 'newtonsoft.json.13.0.3.nupkg',
          url: `${server.url}v3-flatcontainer/newtonsoft.json/13.0.3/newtonsoft.json.13.0.3.nupkg`,
          digests: [{ algorithm: 'sha512', encoding: 'hex' }],
        },
      ],
    });
    expect(await nuget.describeVersion?.('newtonsoft.json', '13.0.1')).toMatchObject({ artifacts: [{ digests: [] }] });
    expect(await nuget.describeVersion?.('newtonsoft.json', '99.0.0')).toBeUndefined();
  });

  it('answers undefined for an unknown package and refuses bad ids, bad service indexes and bad documents', async () => {
    const { routes } = await nugetOrg();
    const server = await serve({ '/v3/index.json': routes['/v3/index.json'] as FixtureRoute });
    const nuget = registry({ baseUrl: `${server.url}v3/index.json` });
    // the index names nuget.org's hosts: point the flat container here instead
    server.set('/v3/index.json', {
      body: JSON.stringify({ version: '3.0.0', resources: [{ '@id': `${server.url}flat/`, '@type': 'PackageBaseAddress/3.0.0' }] }),
    });
    expect(await nuget.fetchPackage('NoSuch.Package')).toBeUndefined();
    await expect(nuget.fetchPackage('../etc')).rejects.toThrow(TypeError);
    server.set('/flat/broken/index.json', { body: '{"versions": "1.0"}' });
    await expect(nuget.fetchPackage('broken')).rejects.toMatchObject({ kind: 'bad_response' });
    server.set('/flat/odd/index.json', { body: '{"versions": ["1.0.0", "1.0a", "2.0.0", "x.y"]}' });
    const odd = await nuget.fetchPackage('odd');
    expect(odd?.versions.map((v) => v.version)).toEqual(['1.0.0', '2.0.0']);
    expect(odd?.latest).toBe('2.0.0');
    const none = registry({ baseUrl: `${server.url}missing/index.json` });
    await expect(none.fetchPackage('x')).rejects.toBeInstanceOf(RegistryError);
    server.set('/empty/index.json', { body: '{"version":"3.0.0","resources":[]}' });
    await expect(registry({ baseUrl: `${server.url}empty/index.json` }).fetchPackage('x')).rejects.toThrow(/PackageBaseAddress/);
  });

  it('sends credentials to the feed', async () => {
    const server = await serve({}, { requireAuthorization: 'Bearer secret' });
    server.set('/v3/index.json', {
      body: JSON.stringify({ version: '3.0.0', resources: [{ '@id': `${server.url}flat/`, '@type': 'PackageBaseAddress/3.0.0' }] }),
    });
    server.set('/flat/acme.internal/index.json', { body: '{"versions":["1.0.0"]}' });
    const anonymous = registry({ baseUrl: `${server.url}v3/index.json` });
    await expect(anonymous.fetchPackage('acme.internal')).rejects.toMatchObject({ kind: 'auth_failed' });
    const nuget = registry({ baseUrl: `${server.url}v3/index.json`, credentials: { token: 'secret' } });
    expect((await nuget.fetchPackage('Acme.Internal'))?.versions).toEqual([
      { version: '1.0.0', releasedAt: null, yanked: false, deprecated: null, digests: [] },
    ]);
  });
});

describe('NuGet adapter against the registry emulator', () => {
  it('reads the demo packages, a version published at run time, digests, and the private feed with credentials', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const open: { close(): Promise<void> }[] = [];
    try {
      const nuget = registryFor('nuget', { baseUrl: `${emulator.url}/nuget/v3/index.json`, retries: 0 });
      if (!nuget) throw new Error('no adapter');
      open.push(nuget);
      const before = await nuget.fetchPackage('newtonsoft.json');
      expect(before?.name).toBe('Newtonsoft.Json');
      expect(before?.latest).toBe('13.0.3');
      expect(before?.versions.find((v) => v.version === '13.0.2')).toMatchObject({ yanked: true });
      const sha512 = createHash('sha512').update('nuget:Newtonsoft.Json@13.0.3').digest('hex');
      expect(before?.versions.find((v) => v.version === '13.0.3')?.digests).toEqual([
        { algorithm: 'sha512', value: sha512, encoding: 'hex' },
      ]);
      expect(before?.sourceUrl).toBe('https://github.com/JamesNK/Newtonsoft.Json');

      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          packageManager: 'nuget',
          name: 'Newtonsoft.Json',
          version: '13.0.4',
          dependencies: { 'System.Memory': '[4.5.5, )' },
        }),
      });
      expect(published.status).toBe(201);
      const after = await nuget.fetchPackage('Newtonsoft.Json');
      expect(after?.latest).toBe('13.0.4');
      expect(await nuget.describeVersion?.('Newtonsoft.Json', '13.0.4')).toMatchObject({
        dependencies: [{ name: 'System.Memory', requirement: '[4.5.5, )', kind: 'runtime' }],
        artifacts: [{ filename: 'newtonsoft.json.13.0.4.nupkg' }],
      });

      const privateBase = `${emulator.url}/private/nuget/v3/index.json`;
      const anonymous = registryFor('nuget', { baseUrl: privateBase, retries: 0 });
      const authorised = registryFor('nuget', { baseUrl: privateBase, retries: 0, credentials: { token: DEMO_REGISTRY_TOKEN } });
      if (!anonymous || !authorised) throw new Error('no adapter');
      open.push(anonymous, authorised);
      await expect(anonymous.fetchPackage('Acme.Internal.Logging')).rejects.toMatchObject({ kind: 'auth_failed' });
      expect((await authorised.fetchPackage('Acme.Internal.Logging'))?.latest).toBe('1.2.0');
      expect(await nuget.fetchPackage('Acme.Internal.Logging')).toBeUndefined();
    } finally {
      for (const item of open) await item.close();
      await emulator.close();
    }
  });

  it('gradle: the Maven adapter answering for gradle, asking Google for Android groups only at Maven Central', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    try {
      const gradle = registryFor('gradle', { baseUrl: `${emulator.url}/maven/`, retries: 0 });
      if (!gradle) throw new Error('no adapter');
      expect(gradle.packageManager).toBe('gradle');
      // not Maven Central: everything, Android groups included, is asked at the base URL
      expect(await gradle.fetchPackage('androidx.core:core-ktx')).toBeUndefined();
      expect((await gradle.fetchPackage('com.squareup.okhttp3:okhttp'))?.latest).toBe('4.11.0');
      expect(gradle.stats().requests).toBeGreaterThan(1);
      await gradle.close();
      const central = registryFor('gradle', { retries: 0, connectTimeoutMs: 500, responseTimeoutMs: 500 });
      expect(central?.baseUrl).toBe('https://repo.maven.apache.org/maven2/');
      // no network here: which host the failed request went to shows the routing
      await expect(central?.fetchPackage('androidx.core:core-ktx')).rejects.toMatchObject({
        url: `${GOOGLE_MAVEN_URL}androidx/core/core-ktx/maven-metadata.xml`,
      });
      await expect(central?.fetchPackage('com.google.guava:guava')).rejects.toMatchObject({
        url: 'https://repo.maven.apache.org/maven2/com/google/guava/guava/maven-metadata.xml',
      });
      expect(GOOGLE_MAVEN_GROUPS.test('com.google.android.material')).toBe(true);
      expect(GOOGLE_MAVEN_GROUPS.test('com.androidx')).toBe(false);
      await central?.close();
      expect(registryFor('maven', {})?.packageManager).toBe('maven');
    } finally {
      await emulator.close();
    }
  });
});
