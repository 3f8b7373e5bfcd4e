import { describe, expect, it } from 'vitest';
import { createNpmRegistry, DEFAULT_NPM_URL, npmPackumentPath } from '../src/adapters/npm.ts';
import { codeHostRepository, normaliseRepositoryUrl } from '../src/adapters/source-url.ts';
import type { RegistryAdapterOptions } from '../src/http/registry-http.ts';
import { RegistryError } from '../src/port.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

const text = async (path: string) => (await fixture(path)).toString('utf8');
const json = async (path: string) =>
  JSON.parse(await text(path)) as Record<string, unknown> & { versions: Record<string, Record<string, unknown>> };

describe('npm registry adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: RegistryAdapterOptions) => {
    const npm = createNpmRegistry({ retryDelayMs: 10, ...options });
    track(npm);
    return npm;
  };

  it('maps a recorded packument: every version, its time, both digests, latest, and the latest version’s repository', async () => {
    const server = await serve({ '/is-number': { body: await text('npm/is-number.json') } });
    const npm = registry({ baseUrl: server.url });
    expect(npm.packageManager).toBe('npm_and_yarn');
    expect(npm.baseUrl).toBe(server.url);
    const pkg = await npm.fetchPackage('is-number');
    expect(pkg).toEqual({
      name: 'is-number',
      latest: '7.0.0',
      sourceUrl: 'https://github.com/jonschlinkert/is-number',
      changelogUrl: null,
      versions: [
        {
          version: '0.1.0',
          releasedAt: '2026-03-29T08:50:05.148Z',
          yanked: false,
          deprecated: null,
          digests: [
            {
              algorithm: 'sha512',
              value: 'sha512-WWl3iAruYOePW5iMf0IMcPiTsOTOu/FFsPyfx/ywixw7VmN6dI3/8/rgo4pdN6kVVjC5ByZ0Zk8xHLGEUSCdYA==',
              encoding: 'sri',
            },
            { algorithm: 'sha1', value: '4407a37aec259352affb5548886744ba4903f8bd', encoding: 'hex' },
          ],
        },
        {
          version: '2.1.0',
          releasedAt: '2024-11-22T23:22:22.345Z',
          yanked: false,
          deprecated: null,
          digests: [
            {
              algorithm: 'sha512',
              value: 'sha512-QUzH43Gfb9+5yckcrSA0VBDwEtDUchrk4F6tfJZQuNzDJbEDB9cZNzSfXGQ1jqmdDY/kl41lUOWM9syA8z8jlg==',
              encoding: 'sri',
            },
            { algorithm: 'sha1', value: '01fcbbb393463a548f2f466cce16dece49db908f', encoding: 'hex' },
          ],
        },
        {
          version: '6.0.0',
          releasedAt: '2024-12-02T18:34:18.416Z',
          yanked: false,
          deprecated: null,
          digests: [
            {
              algorithm: 'sha512',
              value: 'sha512-Wu1VHeILBK8KAWJUAiSZQX94GmOE45Rg6/538fKwiloUu21KncEkYGPqob2oSZ5mUT73vLGrHQjKw3KMPwfDzg==',
              encoding: 'sri',
            },
            { algorithm: 'sha1', value: 'e6d15ad31fc262887cccf217ae5f9316f81b1995', encoding: 'hex' },
          ],
        },
        {
          version: '7.0.0',
          releasedAt: '2024-02-27T16:27:13.411Z',
          yanked: false,
          deprecated: null,
          digests: [
            {
              algorithm: 'sha512',
              value: 'sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==',
              encoding: 'sri',
            },
            { algorithm: 'sha1', value: '7535345b896734d5f80c4d06c50955527a14f12b', encoding: 'hex' },
          ],
        },
      ],
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/is-number', status: 200 });
    expect(server.requests[0]?.headers.accept).toBe('application/json');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('maps the full document: deprecation messages, the top-level repository, `time.created`/`modified` not taken for versions', async () => {
    const server = await serve({ '/left-pad': { body: await text('npm/left-pad.full.json') } });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('left-pad');
    expect(pkg?.name).toBe('left-pad');
    expect(pkg?.latest).toBe('1.3.0');
    expect(pkg?.sourceUrl).toBe('https://github.com/stevemao/left-pad');
    expect(pkg?.changelogUrl).toBeNull();
    expect(pkg?.versions.map((v) => [v.version, v.releasedAt, v.deprecated, v.yanked])).toEqual([
      ['0.0.3', '2024-11-22T23:22:31.730Z', 'use String.prototype.padStart()', false],
      ['1.0.0', '2024-12-13T07:36:28.819Z', 'use String.prototype.padStart()', false],
      ['1.1.3', '2024-12-07T08:27:35.695Z', 'use String.prototype.padStart()', false],
      ['1.2.0', '2024-12-04T22:47:07.925Z', 'use String.prototype.padStart()', false],
      ['1.3.0', '2024-09-05T00:40:51.026Z', 'use String.prototype.padStart()', false],
    ]);
  });

  it('asks for a scoped package as @scope%2fname, under a base URL with a path too', async () => {
    const body = await text('npm/types-left-pad.json');
    const server = await serve({ '/@types%2fleft-pad': { body }, '/npm/private/@types%2fleft-pad': { body } });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('@types/left-pad');
    expect(pkg?.name).toBe('@types/left-pad');
    expect(pkg?.latest).toBe('1.2.0');
    expect(pkg?.versions.map((v) => v.version)).toEqual(['1.1.2', '1.1.0', '1.2.0']);
    expect(pkg?.versions.find((v) => v.version === '1.2.0')?.digests).toEqual([
      {
        algorithm: 'sha512',
        value: 'sha512-7byPJfj8xjiTTGGgr0upA4NXmX1LJTef4nQNCU1cX0LW8ED/qSa8ePF9SouKUhuLt55g2i6fOXZtxT7xx6nxbg==',
        encoding: 'sri',
      },
      { algorithm: 'sha1', value: 'a79764ac1bac2d467d68d2faac39ab0aff60ccf7', encoding: 'hex' },
    ]);
    // No top-level repository in this answer: the latest version's (a plain https string) is used.
    expect(pkg?.sourceUrl).toBe('https://github.com/stevemao/left-pad');
    const withPath = registry({ baseUrl: `${server.url}npm/private` });
    expect(withPath.baseUrl).toBe(`${server.url}npm/private/`);
    expect((await withPath.fetchPackage('@types/left-pad'))?.name).toBe('@types/left-pad');
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      ['/@types%2fleft-pad', 200],
      ['/npm/private/@types%2fleft-pad', 200],
    ]);
  });

  it('validates names before asking: npm’s encodings, and TypeError for names npm cannot hold', async () => {
    expect(npmPackumentPath('left-pad')).toBe('left-pad');
    expect(npmPackumentPath('JSONStream')).toBe('JSONStream');
    expect(npmPackumentPath('@babel/core')).toBe('@babel%2fcore');
    const server = await serve();
    const npm = registry({ baseUrl: server.url });
    for (const name of [
      '',
      ' left-pad',
      'a/b',
      '@scope',
      '@scope/',
      '@/name',
      '@a/b/c',
      '..',
      '.hidden',
      'a b',
      'a%2fb',
      'ü',
      'x'.repeat(215),
    ]) {
      await expect(npm.fetchPackage(name), name).rejects.toThrow(TypeError);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('answers undefined for 404 and 410, and for a package unpublished whole', async () => {
    const server = await serve({
      '/gone': { status: 410, body: '{"error":"gone"}' },
      '/unpublished': {
        body: JSON.stringify({
          _id: 'unpublished',
          name: 'unpublished',
          time: { created: '2020-01-01T00:00:00.000Z', unpublished: { time: '2021-01-01T00:00:00.000Z', versions: ['1.0.0'] } },
        }),
      },
    });
    const npm = registry({ baseUrl: server.url });
    expect(await npm.fetchPackage('no-such-package')).toBeUndefined();
    expect(await npm.fetchPackage('gone')).toBeUndefined();
    expect(await npm.fetchPackage('unpublished')).toBeUndefined();
    expect(server.requests.map((r) => r.status)).toEqual([404, 410, 200]);
  });

  it('refused credentials are auth_failed; given ones are sent as the Authorization header', async () => {
    const server = await serve(
      { '/@acme%2fwidget': { body: await text('npm/types-left-pad.json') } },
      { requireAuthorization: 'Bearer npm_token' },
    );
    const anonymous = await registry({ baseUrl: server.url })
      .fetchPackage('@acme/widget')
      .catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(RegistryError);
    expect(anonymous).toMatchObject({ kind: 'auth_failed', status: 401 });
    const wrong = await registry({ baseUrl: server.url, credentials: { token: 'other' } })
      .fetchPackage('@acme/widget')
      .catch((e: unknown) => e);
    expect(wrong).toMatchObject({ kind: 'auth_failed', status: 401 });
    const pkg = await registry({ baseUrl: server.url, credentials: { token: 'npm_token' } }).fetchPackage('@acme/widget');
    expect(pkg?.latest).toBe('1.2.0');
    expect(server.requests.map((r) => [r.headers.authorization, r.status])).toEqual([
      [undefined, 401],
      ['Bearer other', 401],
      ['Bearer npm_token', 200],
    ]);
    const basic = await serve(
      { '/left-pad': { body: await text('npm/left-pad.full.json') } },
      { requireAuthorization: `Basic ${Buffer.from('me:secret').toString('base64')}` },
    );
    expect(
      (await registry({ baseUrl: basic.url, credentials: { username: 'me', password: 'secret' } }).fetchPackage('left-pad'))?.latest,
    ).toBe('1.3.0');
  });

  it('a malformed answer is bad_response', async () => {
    const good = await json('npm/is-number.json');
    const variant = (change: (doc: typeof good) => void) => {
      const doc = structuredClone(good);
      change(doc);
      return { body: JSON.stringify(doc) };
    };
    const server = await serve({
      '/html': { body: '<html>Service Unavailable</html>', contentType: 'text/html' },
      '/array': { body: '[]' },
      '/no-name': variant((doc) => delete doc.name),
      '/no-versions': variant((doc) => delete (doc as Partial<typeof doc>).versions),
      '/versions-list': variant((doc) => Object.assign(doc, { versions: ['7.0.0'] })),
      '/no-dist': variant((doc) => delete doc.versions['7.0.0']?.dist),
      '/bad-integrity': variant((doc) => Object.assign(doc.versions['7.0.0']?.dist as object, { integrity: 'sha512-tooShort==' })),
      '/bad-shasum': variant((doc) => Object.assign(doc.versions['7.0.0']?.dist as object, { shasum: 42 })),
      '/bad-time': variant((doc) => Object.assign(doc.time as object, { '7.0.0': 'yesterday' })),
      '/bad-latest': variant((doc) => Object.assign(doc, { 'dist-tags': { latest: 7 } })),
      '/bad-deprecated': variant((doc) => Object.assign(doc.versions['7.0.0'] as object, { deprecated: { reason: 'x' } })),
    });
    const npm = registry({ baseUrl: server.url });
    for (const name of [
      'html',
      'array',
      'no-name',
      'no-versions',
      'versions-list',
      'no-dist',
      'bad-integrity',
      'bad-shasum',
      'bad-time',
      'bad-latest',
      'bad-deprecated',
    ]) {
      const error = await npm.fetchPackage(name).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(RegistryError);
      expect(error, name).toMatchObject({ kind: 'bad_response', url: `${server.url}${name}` });
    }
  });

  it('tolerates what publishers typed: odd repository shapes, a missing time, several SRI tokens, unknown algorithms', async () => {
    const doc = await json('npm/is-number.json');
    delete doc.time;
    for (const version of Object.values(doc.versions)) version.repository = { type: 'svn', url: 42 };
    Object.assign(doc.versions['7.0.0'] as object, { homepage: 'https://github.com/jonschlinkert/is-number#readme', deprecated: '' });
    Object.assign(doc.versions['6.0.0']?.dist as object, {
      integrity: `sha512-${'A'.repeat(86)}== sha1-${'B'.repeat(27)}= sha3-unknown`,
      shasum: 'E6D15AD31FC262887CCCF217AE5F9316F81B1995',
    });
    const server = await serve({ '/is-number': { body: JSON.stringify(doc) } });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('is-number');
    expect(pkg?.versions.every((v) => v.releasedAt === null && v.deprecated === null)).toBe(true);
    expect(pkg?.sourceUrl).toBe('https://github.com/jonschlinkert/is-number');
    expect(pkg?.versions.find((v) => v.version === '6.0.0')?.digests).toEqual([
      { algorithm: 'sha512', value: `sha512-${'A'.repeat(86)}==`, encoding: 'sri' },
      { algorithm: 'sha1', value: `sha1-${'B'.repeat(27)}=`, encoding: 'sri' },
      { algorithm: 'sha1', value: 'e6d15ad31fc262887cccf217ae5f9316f81b1995', encoding: 'hex' },
    ]);
  });

  it('revalidates: an unchanged packument is a 304, a published version shows on the next fetch', async () => {
    const doc = await json('npm/is-number.json');
    const server = await serve({ '/is-number': { body: JSON.stringify(doc) } });
    const npm = registry({ baseUrl: server.url });
    const first = await npm.fetchPackage('is-number');
    const second = await npm.fetchPackage('is-number');
    expect(second).toEqual(first);
    expect(npm.stats()).toEqual({ requests: 2, notModified: 1, fullDownloads: 1 });
    expect(server.requests.map((r) => r.status)).toEqual([200, 304]);

    const published = structuredClone(doc) as typeof doc & { time: Record<string, string>; 'dist-tags': Record<string, string> };
    published.versions['7.0.1'] = {
      ...published.versions['7.0.0'],
      version: '7.0.1',
      dist: {
        integrity: `sha512-${'C'.repeat(86)}==`,
        shasum: 'c'.repeat(40),
        tarball: 'https://registry.npmjs.org/is-number/-/is-number-7.0.1.tgz',
      },
    };
    published.time['7.0.1'] = '2026-11-25T09:30:00.000Z';
    published['dist-tags'].latest = '7.0.1';
    server.set('/is-number', { body: JSON.stringify(published) });
    const third = await npm.fetchPackage('is-number');
    expect(third?.latest).toBe('7.0.1');
    expect(third?.versions.find((v) => v.version === '7.0.1')).toEqual({
      version: '7.0.1',
      releasedAt: '2026-11-25T09:30:00.000Z',
      yanked: false,
      deprecated: null,
      digests: [
        { algorithm: 'sha512', value: `sha512-${'C'.repeat(86)}==`, encoding: 'sri' },
        { algorithm: 'sha1', value: 'c'.repeat(40), encoding: 'hex' },
      ],
    });
    expect(npm.stats()).toEqual({ requests: 3, notModified: 1, fullDownloads: 2 });
  });

  it('describes a version: its dependencies by kind, its tarball and both digests, from the one packument', async () => {
    const server = await serve({
      '/is-number': { body: await text('npm/is-number.json') },
      '/@types%2fleft-pad': { body: await text('npm/types-left-pad.json') },
    });
    const npm = registry({ baseUrl: server.url });
    expect(await npm.describeVersion?.('is-number', '2.1.0')).toEqual({
      name: 'is-number',
      version: '2.1.0',
      dependencies: [{ name: 'kind-of', requirement: '^3.0.2', kind: 'runtime' }],
      artifacts: [
        {
          filename: 'is-number-2.1.0.tgz',
          url: 'https://registry.npmjs.org/is-number/-/is-number-2.1.0.tgz',
          digests: [
            {
              algorithm: 'sha512',
              value: 'sha512-QUzH43Gfb9+5yckcrSA0VBDwEtDUchrk4F6tfJZQuNzDJbEDB9cZNzSfXGQ1jqmdDY/kl41lUOWM9syA8z8jlg==',
              encoding: 'sri',
            },
            { algorithm: 'sha1', value: '01fcbbb393463a548f2f466cce16dece49db908f', encoding: 'hex' },
          ],
        },
      ],
    });
    expect((await npm.describeVersion?.('is-number', '7.0.0'))?.dependencies).toEqual([]);
    const scoped = await npm.describeVersion?.('@types/left-pad', '1.2.0');
    expect(scoped?.dependencies).toEqual([{ name: 'left-pad', requirement: '*', kind: 'runtime' }]);
    expect(scoped?.artifacts.map((a) => [a.filename, a.url])).toEqual([
      ['left-pad-1.2.0.tgz', 'https://registry.npmjs.org/@types/left-pad/-/left-pad-1.2.0.tgz'],
    ]);
    expect(await npm.describeVersion?.('is-number', '9.9.9')).toBeUndefined();
    expect(await npm.describeVersion?.('no-such-package', '1.0.0')).toBeUndefined();
  });

  it('fetchPackage then describeVersion of one package: one download, the second a 304; concurrent ones share a request', async () => {
    const server = await serve({ '/is-number': { body: await text('npm/is-number.json') } });
    const npm = registry({ baseUrl: server.url });
    await npm.fetchPackage('is-number');
    await npm.describeVersion?.('is-number', '7.0.0');
    expect(npm.stats()).toEqual({ requests: 2, notModified: 1, fullDownloads: 1 });
    const other = registry({ baseUrl: server.url });
    await Promise.all([other.fetchPackage('is-number'), other.describeVersion?.('is-number', '7.0.0')]);
    expect(other.stats()).toEqual({ requests: 1, notModified: 0, fullDownloads: 1 });
  });

  it('optional and peer dependencies: optionalDependencies once (not again under dependencies), optional peers by peerDependenciesMeta', async () => {
    const doc = await json('npm/is-number.json');
    const version = doc.versions['7.0.0'] as Record<string, unknown>;
    Object.assign(version, {
      dependencies: { 'kind-of': '^6.0.0', fsevents: '~2.3.2' },
      optionalDependencies: { fsevents: '~2.3.2' },
      peerDependencies: { typescript: '>=4', bufferutil: '' },
      peerDependenciesMeta: { bufferutil: { optional: true }, typescript: { optional: false } },
    });
    const server = await serve({ '/is-number': { body: JSON.stringify(doc) } });
    const npm = registry({ baseUrl: server.url });
    expect((await npm.describeVersion?.('is-number', '7.0.0'))?.dependencies).toEqual([
      { name: 'kind-of', requirement: '^6.0.0', kind: 'runtime' },
      { name: 'fsevents', requirement: '~2.3.2', kind: 'optional' },
      { name: 'typescript', requirement: '>=4', kind: 'peer' },
      { name: 'bufferutil', requirement: '*', kind: 'optional' },
    ]);
  });

  it('a malformed dependency section or tarball is bad_response', async () => {
    const doc = await json('npm/is-number.json');
    const cases: [string, (v: Record<string, unknown>) => void][] = [
      ['dependencies', (v) => Object.assign(v, { dependencies: ['kind-of'] })],
      ['requirement', (v) => Object.assign(v, { dependencies: { 'kind-of': 3 } })],
      ['peerDependenciesMeta', (v) => Object.assign(v, { peerDependenciesMeta: 'optional' })],
      ['tarball', (v) => Object.assign(v, { dist: { ...(v.dist as object), tarball: 42 } })],
      ['credentials', (v) => Object.assign(v, { dist: { ...(v.dist as object), tarball: 'https://u:p@example.com/x.tgz' } })],
    ];
    for (const [label, change] of cases) {
      const broken = structuredClone(doc);
      change(broken.versions['7.0.0'] as Record<string, unknown>);
      const server = await serve({ '/is-number': { body: JSON.stringify(broken) } });
      const npm = registry({ baseUrl: server.url });
      const error = await npm.describeVersion?.('is-number', '7.0.0').catch((e: unknown) => e);
      expect(error, label).toBeInstanceOf(RegistryError);
      expect((error as RegistryError).kind, label).toBe('bad_response');
    }
  });

  it('defaults to the public registry', () => {
    const npm = createNpmRegistry();
    track(npm);
    expect(npm.baseUrl).toBe(DEFAULT_NPM_URL);
    expect(DEFAULT_NPM_URL).toBe('https://registry.npmjs.org/');
  });
});

describe('repository URL normalisation', () => {
  it.each([
    ['git+https://github.com/stevemao/left-pad.git', 'https://github.com/stevemao/left-pad'],
    ['git://github.com/jonschlinkert/is-number.git', 'https://github.com/jonschlinkert/is-number'],
    ['git+ssh://git@github.com/npm/cli.git', 'https://github.com/npm/cli'],
    ['git@github.com:azer/left-pad.git', 'https://github.com/azer/left-pad'],
    ['ssh://git@gitlab.com:2222/group/project.git', 'https://gitlab.com/group/project'],
    ['https://www.github.com/DefinitelyTyped/DefinitelyTyped.git', 'https://github.com/DefinitelyTyped/DefinitelyTyped'],
    ['http://github.com/o/r/', 'https://github.com/o/r'],
    ['https://user:secret@github.com/o/r.git#v1.2.3', 'https://github.com/o/r'],
    ['jonschlinkert/is-number', 'https://github.com/jonschlinkert/is-number'],
    ['github:o/r', 'https://github.com/o/r'],
    ['gitlab:group/project', 'https://gitlab.com/group/project'],
    ['bitbucket:team/repo', 'https://bitbucket.org/team/repo'],
    ['http://git.example.org:8080/scm/x.git', 'http://git.example.org:8080/scm/x'],
    ['svn://svn.example.org/trunk', null],
    ['file:///home/me/repo', null],
    ['see the README', null],
    ['example.com/repo', null],
    ['', null],
  ])('%s → %s', (raw, expected) => {
    expect(normaliseRepositoryUrl(raw)).toBe(expected);
  });

  it('finds the repository behind a code host page, and nothing behind other pages', () => {
    expect(codeHostRepository('https://github.com/stevemao/left-pad/issues')).toBe('https://github.com/stevemao/left-pad');
    expect(codeHostRepository('https://github.com/stevemao/left-pad#readme')).toBe('https://github.com/stevemao/left-pad');
    expect(codeHostRepository('https://github.com/stevemao')).toBeNull();
    expect(codeHostRepository('https://left-pad.io/')).toBeNull();
  });
});
