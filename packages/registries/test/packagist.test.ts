import { describe, expect, it } from 'vitest';
import {
  createPackagistRegistry,
  DEFAULT_PACKAGIST_URL,
  expandComposerMetadata,
  packagistMetadataPath,
} from '../src/adapters/packagist.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

describe('Packagist p2 adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createPackagistRegistry>[0]) => {
    const packagist = createPackagistRegistry({ retryDelayMs: 10, retries: 0, ...options });
    track(packagist);
    return packagist;
  };
  const text = async (path: string) => (await fixture(path)).toString('utf8');

  it('builds the lower-cased p2 path and refuses names that are not vendor/package', () => {
    expect(packagistMetadataPath('monolog/monolog')).toBe('p2/monolog/monolog.json');
    expect(packagistMetadataPath('DrewM/MailChimp-API')).toBe('p2/drewm/mailchimp-api.json');
    expect(packagistMetadataPath('wpackagist-plugin/1beyt')).toBe('p2/wpackagist-plugin/1beyt.json');
    expect(packagistMetadataPath('symfony/polyfill-php8.0')).toBe('p2/symfony/polyfill-php8.0.json');
    for (const name of ['', 'monolog', 'a/b/c', '../x', './x', 'a/..', 'a b/c', 'a/b~dev', 'a/b?c', 'a/b#c', 'vendor/pàckage']) {
      expect(() => packagistMetadataPath(name), name).toThrow(TypeError);
    }
  });

  it('expands minified metadata like composer/metadata-minifier: changed keys replace, __unset removes', () => {
    const minified = [
      { name: 'a/a', version: '2.0.0', require: { php: '>=8.1', 'b/b': '^2' }, support: { source: 's' } },
      { version: '1.1.0', require: { php: '>=7.4' } },
      { version: '1.0.0', require: '__unset' },
      { version: '0.9.0', support: '__unset', require: { php: '>=5.3' } },
    ];
    const copy = structuredClone(minified);
    expect(expandComposerMetadata(minified)).toEqual([
      { name: 'a/a', version: '2.0.0', require: { php: '>=8.1', 'b/b': '^2' }, support: { source: 's' } },
      { name: 'a/a', version: '1.1.0', require: { php: '>=7.4' }, support: { source: 's' } },
      { name: 'a/a', version: '1.0.0', support: { source: 's' } },
      { name: 'a/a', version: '0.9.0', require: { php: '>=5.3' } },
    ]);
    expect(minified).toEqual(copy);
    expect(expandComposerMetadata([])).toEqual([]);
  });

  it('defaults to repo.packagist.org', () => {
    const packagist = registry({});
    expect(packagist.packageManager).toBe('composer');
    expect(packagist.baseUrl).toBe(DEFAULT_PACKAGIST_URL);
    expect(DEFAULT_PACKAGIST_URL).toBe('https://repo.packagist.org/');
  });

  it('maps a real p2 answer: versions as spelled, times, empty GitHub shasums, the repository', async () => {
    const server = await serve({ '/p2/drewm/mailchimp-api.json': { body: await fixture('packagist/drewm-mailchimp-api.json') } });
    const packagist = registry({ baseUrl: server.url });
    const pkg = await packagist.fetchPackage('drewm/mailchimp-api');
    const plain = { yanked: false, deprecated: null, digests: [] };
    expect(pkg).toEqual({
      name: 'drewm/mailchimp-api',
      latest: null,
      sourceUrl: 'https://github.com/drewm/mailchimp-api',
      changelogUrl: null,
      versions: [
        { version: 'v2.5.4', releasedAt: '2019-08-06T09:24:58.000Z', ...plain },
        { version: 'v2.5.3', releasedAt: '2019-03-28T15:20:43.000Z', ...plain },
        { version: 'v2.2.2', releasedAt: '2016-07-01T09:58:24.000Z', ...plain },
        { version: 'v1.1', releasedAt: '2015-07-07T15:38:25.000Z', ...plain },
        { version: 'v1.0', releasedAt: '2014-05-30T16:51:39.000Z', ...plain },
      ],
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/p2/drewm/mailchimp-api.json']);
  });

  it('maps abandoned, SHA-1 shasums, old-style and offset times and unset keys through the expansion', async () => {
    const server = await serve({ '/p2/acme/mailer.json': { body: await fixture('packagist/acme-mailer.json') } });
    const packagist = registry({ baseUrl: server.url });
    const pkg = await packagist.fetchPackage('acme/mailer');
    const deprecated = 'abandoned, use symfony/mailer instead';
    expect(pkg).toEqual({
      name: 'acme/mailer',
      latest: null,
      // `git@github.com:acme/mailer.git` in the answer.
      sourceUrl: 'https://github.com/acme/mailer',
      changelogUrl: null,
      versions: [
        {
          version: 'v3.1.0',
          releasedAt: '2024-03-12T07:15:00.000Z',
          yanked: false,
          deprecated,
          digests: [{ algorithm: 'sha1', value: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12', encoding: 'hex' }],
        },
        {
          version: 'v3.0.0-RC1',
          releasedAt: '2023-11-02T17:45:10.000Z',
          yanked: false,
          deprecated,
          digests: [{ algorithm: 'sha1', value: 'DA39A3EE5E6B4B0D3255BFEF95601890AFD80709', encoding: 'hex' }],
        },
        { version: 'v1.0.0', releasedAt: null, yanked: false, deprecated, digests: [] },
      ],
    });
    const plainAbandoned = JSON.parse(await text('packagist/acme-mailer.json'));
    plainAbandoned.packages['acme/mailer'][0].abandoned = true;
    server.set('/p2/acme/mailer.json', { body: JSON.stringify(plainAbandoned) });
    expect((await packagist.fetchPackage('acme/mailer'))?.versions.map((v) => v.deprecated)).toEqual([
      'abandoned',
      'abandoned',
      'abandoned',
    ]);
    // Without a source, the repository comes from the `support.source` tree URL.
    const withoutSource = JSON.parse(await text('packagist/acme-mailer.json'));
    delete withoutSource.packages['acme/mailer'][0].source;
    server.set('/p2/acme/mailer.json', { body: JSON.stringify(withoutSource) });
    expect((await packagist.fetchPackage('acme/mailer'))?.sourceUrl).toBe('https://github.com/acme/mailer');
  });

  it('does not expand an answer that is not minified', async () => {
    const body = JSON.stringify({
      packages: { 'a/b': [{ name: 'a/b', version: '2.0.0', time: '2024-01-01T00:00:00+00:00' }, { version: '1.0.0' }] },
    });
    const server = await serve({ '/p2/a/b.json': { body } });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('a/b');
    expect(pkg?.versions.map((v) => [v.version, v.releasedAt])).toEqual([
      ['2.0.0', '2024-01-01T00:00:00.000Z'],
      ['1.0.0', null],
    ]);
  });

  it('answers undefined for 404 and 410', async () => {
    const server = await serve({ '/p2/gone/package.json': { status: 410, body: 'gone' } });
    const packagist = registry({ baseUrl: server.url });
    expect(await packagist.fetchPackage('missing/package')).toBeUndefined();
    expect(await packagist.fetchPackage('gone/package')).toBeUndefined();
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      ['/p2/missing/package.json', 404],
      ['/p2/gone/package.json', 410],
    ]);
  });

  it('refuses missing credentials as auth_failed and sends given ones (Private Packagist: Basic token:…)', async () => {
    const authorization = `Basic ${Buffer.from('token:packagist_ort_secret').toString('base64')}`;
    const server = await serve(
      { '/acme-company/p2/drewm/mailchimp-api.json': { body: await fixture('packagist/drewm-mailchimp-api.json') } },
      { requireAuthorization: authorization },
    );
    const anonymous = registry({ baseUrl: `${server.url}acme-company` });
    await expect(anonymous.fetchPackage('drewm/mailchimp-api')).rejects.toMatchObject({
      name: 'RegistryError',
      kind: 'auth_failed',
      status: 401,
    });
    const packagist = registry({
      baseUrl: `${server.url}acme-company`,
      credentials: { username: 'token', password: 'packagist_ort_secret' },
    });
    expect((await packagist.fetchPackage('drewm/mailchimp-api'))?.versions).toHaveLength(5);
    expect(server.requests.map((r) => [r.path, r.status, r.headers.authorization])).toEqual([
      ['/acme-company/p2/drewm/mailchimp-api.json', 401, undefined],
      ['/acme-company/p2/drewm/mailchimp-api.json', 200, authorization],
    ]);
  });

  it('rejects malformed answers as bad_response', async () => {
    const good = JSON.parse(await text('packagist/acme-mailer.json'));
    const variant = (mutate: (document: typeof good) => void) => {
      const copy = structuredClone(good);
      mutate(copy);
      return JSON.stringify(copy);
    };
    const bodies: Record<string, string> = {
      'not JSON': '<!doctype html><title>Maintenance</title>',
      'no packages': '{"minified":"composer/2.0"}',
      'another package only': variant((d) => {
        d.packages = { 'acme/other': d.packages['acme/mailer'] };
      }),
      'versions not an array': variant((d) => {
        d.packages['acme/mailer'] = { 'v3.1.0': {} };
      }),
      'a version not an object': variant((d) => {
        d.packages['acme/mailer'].push('v0.1.0');
      }),
      'no version string': variant((d) => {
        d.packages['acme/mailer'][1].version = 310;
      }),
      'an unreadable time': variant((d) => {
        d.packages['acme/mailer'][1].time = 'last tuesday';
      }),
      'a short shasum': variant((d) => {
        d.packages['acme/mailer'][0].dist.shasum = 'abc123';
      }),
      'dist not an object': variant((d) => {
        d.packages['acme/mailer'][2].dist = 'zip';
      }),
      'abandoned a number': variant((d) => {
        d.packages['acme/mailer'][0].abandoned = 1;
      }),
    };
    const server = await serve();
    const packagist = registry({ baseUrl: server.url });
    for (const [what, body] of Object.entries(bodies)) {
      server.set('/p2/acme/mailer.json', { body });
      await expect(packagist.fetchPackage('acme/mailer'), what).rejects.toMatchObject({ name: 'RegistryError', kind: 'bad_response' });
    }
  });

  it('revalidates: an unchanged package is a 304, a changed one shows the new version', async () => {
    const original = await text('packagist/drewm-mailchimp-api.json');
    const server = await serve({ '/p2/drewm/mailchimp-api.json': { body: original } });
    const packagist = registry({ baseUrl: server.url });
    expect((await packagist.fetchPackage('drewm/mailchimp-api'))?.versions).toHaveLength(5);
    expect((await packagist.fetchPackage('drewm/mailchimp-api'))?.versions).toHaveLength(5);
    expect(packagist.stats()).toEqual({ requests: 2, notModified: 1, fullDownloads: 1 });
    const published = JSON.parse(original);
    const list = published.packages['drewm/mailchimp-api'];
    // A new release goes first, complete; the previous first entry becomes a diff against it.
    list.unshift({ ...list[0], version: 'v2.6.0', version_normalized: '2.6.0.0', time: '2026-11-24T10:00:00+00:00' });
    server.set('/p2/drewm/mailchimp-api.json', { body: JSON.stringify(published) });
    const pkg = await packagist.fetchPackage('drewm/mailchimp-api');
    expect(pkg?.versions.slice(0, 2).map((v) => [v.version, v.releasedAt])).toEqual([
      ['v2.6.0', '2026-11-24T10:00:00.000Z'],
      ['v2.5.4', '2019-08-06T09:24:58.000Z'],
    ]);
    expect(packagist.stats()).toEqual({ requests: 3, notModified: 1, fullDownloads: 2 });
  });

  it('asks for a mixed-case name at its lower-cased path and never asks for an invalid one', async () => {
    const server = await serve({ '/p2/drewm/mailchimp-api.json': { body: await fixture('packagist/drewm-mailchimp-api.json') } });
    const packagist = registry({ baseUrl: server.url });
    expect((await packagist.fetchPackage('DrewM/MailChimp-API'))?.name).toBe('drewm/mailchimp-api');
    await expect(packagist.fetchPackage('drewm/mailchimp-api/../../x')).rejects.toThrow(TypeError);
    expect(server.requests.map((r) => r.path)).toEqual(['/p2/drewm/mailchimp-api.json']);
  });
});

describe('Packagist describeVersion', () => {
  const { serve, track } = closedAfterEach();
  const registry = (baseUrl: string) => {
    const packagist = createPackagistRegistry({ baseUrl, retryDelayMs: 10, retries: 0 });
    track(packagist);
    return packagist;
  };

  it('maps a real minified entry: platform requirements left out, the GitHub zipball without a digest', async () => {
    const server = await serve({ '/p2/drewm/mailchimp-api.json': { body: await fixture('packagist/drewm-mailchimp-api.json') } });
    const packagist = registry(server.url);
    const reference = 'c6cdfab4ca6ddbc3b260913470bd0a4a5cb84c7a';
    expect(await packagist.describeVersion?.('drewm/mailchimp-api', 'v2.5.4')).toEqual({
      name: 'drewm/mailchimp-api',
      version: 'v2.5.4',
      dependencies: [],
      artifacts: [
        {
          filename: reference,
          url: `https://api.github.com/repos/drewm/mailchimp-api/zipball/${reference}`,
          digests: [],
          attributes: { type: 'zip', reference, 'source-reference': reference, time: '2019-08-06T09:24:58+00:00' },
        },
      ],
    });
    // a later entry inherits `require` through the expansion
    expect((await packagist.describeVersion?.('drewm/mailchimp-api', 'v2.5.3'))?.dependencies).toEqual([]);
    expect(await packagist.describeVersion?.('drewm/mailchimp-api', '9.9.9')).toBeUndefined();
    expect(await packagist.describeVersion?.('drewm/unknown', '1.0.0')).toBeUndefined();
  });

  it('gives require entries as runtime dependencies and the shasum as a SHA-1 digest', async () => {
    const server = await serve({ '/p2/acme/mailer.json': { body: await fixture('packagist/acme-mailer.json') } });
    const details = await registry(server.url).describeVersion?.('acme/mailer', 'v3.1.0');
    expect(details).toEqual({
      name: 'acme/mailer',
      version: 'v3.1.0',
      dependencies: [{ name: 'symfony/mime', requirement: '^6.4', kind: 'runtime' }],
      artifacts: [
        {
          filename: 'acme-mailer-3.1.0.zip',
          url: 'https://repo.example.org/dist/acme/mailer/acme-mailer-3.1.0.zip',
          digests: [{ algorithm: 'sha1', value: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12', encoding: 'hex' }],
          attributes: {
            type: 'zip',
            reference: '4f1b9ad1c2e4a8d03b6f0c9f6e7d2a1b3c4d5e6f',
            'source-reference': '4f1b9ad1c2e4a8d03b6f0c9f6e7d2a1b3c4d5e6f',
            time: '2024-03-12T08:15:00+01:00',
          },
        },
      ],
    });
  });
});
