import { createHash } from 'node:crypto';
import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { createRubyGemsRegistry, DEFAULT_RUBYGEMS_URL } from '../src/adapters/rubygems.ts';
import type { RegistryAdapterOptions } from '../src/http/registry-http.ts';
import { RegistryError } from '../src/port.ts';
import { closedAfterEach, type FixtureRoute, fixture } from './fixture-server.ts';

const route = async (path: string): Promise<FixtureRoute> => ({ body: await fixture(`rubygems/${path}`) });

const businessRoutes = async (): Promise<Record<string, FixtureRoute>> => ({
  '/api/v1/versions/business.json': await route('versions-business.json'),
  '/api/v1/gems/business.json': await route('gems-business.json'),
});

const sha256 = (value: string) => ({ algorithm: 'sha256', value, encoding: 'hex' });

describe('RubyGems adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: RegistryAdapterOptions) => {
    const created = createRubyGemsRegistry({ retryDelayMs: 10, ...options });
    track(created);
    return created;
  };

  it('defaults to rubygems.org and says it is bundler', () => {
    const rubygems = registry({});
    expect(rubygems.packageManager).toBe('bundler');
    expect(rubygems.baseUrl).toBe(DEFAULT_RUBYGEMS_URL);
    expect(DEFAULT_RUBYGEMS_URL).toBe('https://rubygems.org/');
  });

  it('maps the versions list and the gem onto versions, times, SHA-256 digests, latest and a GitHub homepage as source', async () => {
    const server = await serve(await businessRoutes());
    const rubygems = registry({ baseUrl: server.url });
    expect(await rubygems.fetchPackage('business')).toEqual({
      name: 'business',
      latest: '1.13.0',
      // No source_code_uri: the homepage is the GitHub repository.
      sourceUrl: 'https://github.com/gocardless/business',
      changelogUrl: null,
      versions: [
        {
          version: '1.13.0',
          releasedAt: '2018-04-17T12:27:38.160Z',
          yanked: false,
          deprecated: null,
          digests: [sha256('fe966bb39ff329b646a89dca43913b28ffd8ba70ae7ecb0d4af825b23996d9e0')],
        },
        {
          version: '1.12.0',
          releasedAt: '2018-04-03T16:08:56.609Z',
          yanked: false,
          deprecated: null,
          digests: [sha256('b518d6d50eda75045de0334440b7cf313c2c6779633fcf3f8f2ca793fcd8e2ba')],
        },
        {
          version: '1.11.1',
          releasedAt: '2017-12-20T17:34:17.691Z',
          yanked: false,
          deprecated: null,
          digests: [sha256('82536be00bcd1460c519ae8a39645c2187a70020842ae27dc018ecfec94bd0a1')],
        },
        {
          version: '1.10.0',
          releasedAt: '2017-09-21T09:40:21.492Z',
          yanked: false,
          deprecated: null,
          digests: [sha256('b7f327938fc39b4f0ddc95e5e75acbdabd2591bda996878ddc8cb095681f5a7a')],
        },
      ],
    });
    expect(server.requests.map((r) => [r.method, r.path, r.status]).sort()).toEqual([
      ['GET', '/api/v1/gems/business.json', 200],
      ['GET', '/api/v1/versions/business.json', 200],
    ]);
  });

  it('takes source_code_uri (the repository, not a tag’s folder) and changelog_uri from the gem', async () => {
    const server = await serve({
      '/api/v1/versions/activerecord.json': await route('versions-activerecord.json'),
      '/api/v1/gems/activerecord.json': await route('gems-activerecord.json'),
    });
    const found = await registry({ baseUrl: server.url }).fetchPackage('activerecord');
    expect(found?.sourceUrl).toBe('https://github.com/rails/rails');
    expect(found?.changelogUrl).toBe('https://github.com/rails/rails/blob/v5.2.2/activerecord/CHANGELOG.md');
    expect(found?.latest).toBe('5.2.2');
    // A version without a sha has no digest.
    expect(found?.versions.map((v) => [v.version, v.releasedAt, v.digests.length])).toEqual([
      ['5.2.2', '2018-12-04T18:12:50.611Z', 1],
      ['5.2.1', '2018-08-07T21:40:47.000Z', 0],
    ]);
  });

  it('keeps the ruby platform gem as the version, leaves platform builds’ checksums out, and keeps platform-only numbers', async () => {
    const body = await fixture('rubygems/versions-nokogiri.json');
    const entries = JSON.parse(body.toString('utf8')) as { number: string; platform: string; sha: string }[];
    const server = await serve({ '/api/v1/versions/nokogiri.json': { body } });
    const found = await registry({ baseUrl: server.url }).fetchPackage('nokogiri');
    const rubySha = entries.find((e) => e.number === '1.16.0' && e.platform === 'ruby')?.sha;
    expect(found).toEqual({
      name: 'nokogiri',
      // No gems answer (404): the newest release by created_at; the links come from that version's metadata.
      latest: '1.16.0',
      sourceUrl: 'https://github.com/sparklemotion/nokogiri',
      changelogUrl: 'https://nokogiri.org/CHANGELOG.html',
      versions: [
        { version: '1.16.0', releasedAt: '2023-12-27T19:00:36.892Z', yanked: false, deprecated: null, digests: [sha256(rubySha ?? '')] },
        { version: '1.16.0.rc1', releasedAt: '2023-12-14T21:20:10.402Z', yanked: false, deprecated: null, digests: [expect.anything()] },
        { version: '1.15.99', releasedAt: '2023-12-01T09:58:00.000Z', yanked: false, deprecated: null, digests: [] },
      ],
    });
  });

  it('revalidates both answers of an unchanged gem (two 304s) and shows a newly published version', async () => {
    const server = await serve({
      '/api/v1/versions/business.json': await route('versions-business-before-1.13.0.json'),
      '/api/v1/gems/business.json': await route('gems-business-before-1.13.0.json'),
    });
    const rubygems = registry({ baseUrl: server.url });
    const first = await rubygems.fetchPackage('business');
    expect(first?.latest).toBe('1.12.0');
    expect(await rubygems.fetchPackage('business')).toEqual(first);
    expect(rubygems.stats()).toEqual({ requests: 4, notModified: 2, fullDownloads: 2 });
    expect(server.requests.slice(2).map((r) => r.status)).toEqual([304, 304]);

    server.set('/api/v1/versions/business.json', await route('versions-business.json'));
    server.set('/api/v1/gems/business.json', await route('gems-business.json'));
    const changed = await rubygems.fetchPackage('business');
    expect(changed?.latest).toBe('1.13.0');
    expect(changed?.versions.map((v) => v.version)).toEqual(['1.13.0', '1.12.0', '1.11.1', '1.10.0']);
    expect(rubygems.stats()).toEqual({ requests: 6, notModified: 2, fullDownloads: 4 });
  });

  it('answers undefined for an unknown gem (404), and refuses names rubygems.org cannot hold before any request', async () => {
    const server = await serve({});
    const rubygems = registry({ baseUrl: server.url });
    expect(await rubygems.fetchPackage('no-such-gem')).toBeUndefined();
    expect(server.requests.map((r) => r.path).sort()).toEqual(['/api/v1/gems/no-such-gem.json', '/api/v1/versions/no-such-gem.json']);
    for (const name of ['', '..', '.', '123', 'a/b', '../gems/rails', 'rails?x=1', 'rails#x', 'nokogiri 1.16', 'r%61ils', 'ráils']) {
      await expect(rubygems.fetchPackage(name), name).rejects.toBeInstanceOf(TypeError);
    }
    expect(server.requests).toHaveLength(2);
  });

  it('asks for names with dots, underscores, capitals and dashes as they are', async () => {
    const server = await serve({
      '/api/v1/versions/RedCloth.json': { body: '[]' },
      '/api/v1/versions/net-http.persistent_x.json': { body: '[]' },
    });
    const rubygems = registry({ baseUrl: `${server.url}` });
    expect(await rubygems.fetchPackage('RedCloth')).toEqual({
      name: 'RedCloth',
      versions: [],
      latest: null,
      sourceUrl: null,
      changelogUrl: null,
    });
    expect((await rubygems.fetchPackage('net-http.persistent_x'))?.versions).toEqual([]);
  });

  it('fails with auth_failed when refused, and sends the token it is given', async () => {
    const server = await serve(await businessRoutes(), { requireAuthorization: 'Bearer gem-host-token' });
    await expect(registry({ baseUrl: server.url }).fetchPackage('business')).rejects.toMatchObject({
      name: 'RegistryError',
      kind: 'auth_failed',
      status: 401,
    });
    const error = await registry({ baseUrl: server.url, credentials: { token: 'stale' } })
      .fetchPackage('business')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as Error).message).not.toContain('stale');
    const seen = server.requests.length;
    expect((await registry({ baseUrl: server.url, credentials: { token: 'gem-host-token' } }).fetchPackage('business'))?.latest).toBe(
      '1.13.0',
    );
    const sent = server.requests.slice(seen);
    expect(sent).toHaveLength(2);
    expect(sent.every((r) => r.headers.authorization === 'Bearer gem-host-token' && r.status === 200)).toBe(true);
  });

  it('fails with bad_response on answers that are not the API’s', async () => {
    const good = { number: '1.0.0', platform: 'ruby', created_at: '2024-01-01T00:00:00.000Z', prerelease: false, sha: 'a'.repeat(64) };
    const cases: [string, string, string?][] = [
      ['not JSON', '<html>rate limited</html>'],
      ['an object, not a list', JSON.stringify({ versions: [good] })],
      ['a number that is not a string', JSON.stringify([{ ...good, number: 1 }])],
      ['a number with a slash', JSON.stringify([{ ...good, number: '1.0/../x' }])],
      ['no created_at', JSON.stringify([{ ...good, created_at: undefined }])],
      ['a created_at that is no time', JSON.stringify([{ ...good, created_at: 'last week' }])],
      ['prerelease as a string', JSON.stringify([{ ...good, prerelease: 'false' }])],
      ['a sha that is not SHA-256', JSON.stringify([{ ...good, sha: 'abc' }])],
      ['no platform', JSON.stringify([{ ...good, platform: null }])],
      ['a gem answer without version', JSON.stringify([good]), JSON.stringify({ name: 'lib' })],
      ['a gem answer for another gem', JSON.stringify([good]), JSON.stringify({ name: 'other', version: '1.0.0' })],
      [
        'a gem answer with a link that is not a string',
        JSON.stringify([good]),
        JSON.stringify({ name: 'lib', version: '1.0.0', source_code_uri: 5 }),
      ],
    ];
    for (const [label, versions, gem] of cases) {
      const server = await serve({
        '/api/v1/versions/lib.json': { body: versions },
        ...(gem !== undefined ? { '/api/v1/gems/lib.json': { body: gem } } : {}),
      });
      const error = await registry({ baseUrl: server.url })
        .fetchPackage('lib')
        .catch((e: unknown) => e);
      expect(error, label).toBeInstanceOf(RegistryError);
      expect(error, label).toMatchObject({ kind: 'bad_response' });
    }
  });
  it('describes one version from the v2 API: runtime and development dependencies, the .gem artifact and its SHA-256', async () => {
    const server = await serve({ '/api/v2/rubygems/activerecord/versions/5.2.2.json': await route('v2-activerecord-5.2.2.json') });
    const rubygems = registry({ baseUrl: server.url });
    expect(await rubygems.describeVersion?.('activerecord', '5.2.2')).toEqual({
      name: 'activerecord',
      version: '5.2.2',
      dependencies: [
        { name: 'activemodel', requirement: '= 5.2.2', kind: 'runtime' },
        { name: 'activesupport', requirement: '= 5.2.2', kind: 'runtime' },
        { name: 'arel', requirement: '>= 9.0', kind: 'runtime' },
      ],
      artifacts: [
        {
          filename: 'activerecord-5.2.2.gem',
          url: `${server.url}gems/activerecord-5.2.2.gem`,
          digests: [sha256('1e8c0fabfd6618e167d125d8d074a1392f4a760b8b16513d179f1765b4d540a5')],
        },
      ],
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/api/v2/rubygems/activerecord/versions/5.2.2.json']);
  });

  it('describes a platform build, an unknown version as undefined and a wrong or malformed answer as bad_response', async () => {
    const payload = JSON.parse((await fixture('rubygems/v2-activerecord-5.2.2.json')).toString('utf8'));
    const server = await serve({
      '/api/v2/rubygems/activerecord/versions/5.2.2.json': {
        body: JSON.stringify({ ...payload, platform: 'java', dependencies: { runtime: [{ name: 'arel', requirements: '' }] } }),
      },
      '/api/v2/rubygems/activerecord/versions/5.2.3.json': { body: JSON.stringify({ ...payload }) },
      '/api/v2/rubygems/activerecord/versions/5.2.4.json': { body: JSON.stringify({ ...payload, number: '5.2.4', sha: 'nope' }) },
      '/api/v2/rubygems/activerecord/versions/5.2.5.json': {
        body: JSON.stringify({ ...payload, number: '5.2.5', dependencies: { runtime: [{}] } }),
      },
      '/api/v2/rubygems/activerecord/versions/5.2.6.json': {
        body: 'This version could not be found.',
        status: 404,
        contentType: 'text/plain',
      },
    });
    const rubygems = registry({ baseUrl: server.url });
    const java = await rubygems.describeVersion?.('activerecord', '5.2.2');
    expect(java?.dependencies).toEqual([{ name: 'arel', requirement: '>= 0', kind: 'runtime' }]);
    expect(java?.artifacts[0]?.filename).toBe('activerecord-5.2.2-java.gem');
    expect(await rubygems.describeVersion?.('activerecord', '5.2.6')).toBeUndefined();
    for (const version of ['5.2.3', '5.2.4', '5.2.5']) {
      const error = await rubygems.describeVersion?.('activerecord', version).catch((e: unknown) => e);
      expect(error, version).toBeInstanceOf(RegistryError);
      expect((error as RegistryError).kind, version).toBe('bad_response');
    }
    await expect(rubygems.describeVersion?.('bad/name', '1.0')).rejects.toThrow(TypeError);
    await expect(rubygems.describeVersion?.('rails', '../1')).rejects.toThrow(TypeError);
  });

  it('describes versions the registry emulator publishes, public and private', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    try {
      const publish = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'bundler', name: 'rails', version: '7.2.0', dependencies: { railties: '= 7.2.0' } }),
      });
      expect(publish.status).toBe(201);
      const rubygems = registry({ baseUrl: `${emulator.url}/rubygems/`, retries: 0 });
      const details = await rubygems.describeVersion?.('rails', '7.2.0');
      expect(details?.dependencies).toEqual([{ name: 'railties', requirement: '= 7.2.0', kind: 'runtime' }]);
      const artifact = details?.artifacts[0];
      expect(artifact?.url).toBe(`${emulator.url}/rubygems/gems/rails-7.2.0.gem`);
      const bytes = Buffer.from(await (await fetch(artifact?.url ?? '')).arrayBuffer());
      expect(artifact?.digests).toEqual([sha256(createHash('sha256').update(bytes).digest('hex'))]);
      expect(await rubygems.describeVersion?.('rails', '0.0.1')).toBeUndefined();
      expect(await rubygems.describeVersion?.('acme-billing-client', '0.2.0')).toBeUndefined();
      const privateRegistry = registry({
        baseUrl: `${emulator.url}/private/rubygems/`,
        credentials: { token: DEMO_REGISTRY_TOKEN },
        retries: 0,
      });
      expect((await privateRegistry.describeVersion?.('acme-billing-client', '0.2.0'))?.artifacts[0]?.filename).toBe(
        'acme-billing-client-0.2.0.gem',
      );
    } finally {
      await emulator.close();
    }
  });
});
