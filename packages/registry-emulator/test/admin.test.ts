import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digests, get, post, startEmulator, xmlValues } from './fixtures.ts';

const METADATA_PATHS = [
  '/npm/lodash',
  '/pypi/pypi/requests/json',
  '/maven/junit/junit/maven-metadata.xml',
  '/rubygems/api/v1/versions/rails.json',
  '/crates/index/se/rd/serde',
  '/crates/api/v1/crates/serde',
  '/packagist/p2/monolog/monolog.json',
];

describe('registry emulator: conditional requests', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('every metadata answer has ETag, Last-Modified and Cache-Control, and a repeated conditional request gets 304', async () => {
    for (const path of METADATA_PATHS) {
      const first = await get(server, path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.etag as string;
      const lastModified = first.headers['last-modified'] as string;
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      expect(Date.parse(lastModified), path).not.toBeNaN();
      expect(first.headers['cache-control'], path).toBe('public, max-age=300');
      const byTag = await get(server, path, { 'if-none-match': etag });
      expect(byTag.status, path).toBe(304);
      expect(byTag.text).toBe('');
      expect(byTag.headers.etag).toBe(etag);
      expect((await get(server, path, { 'if-none-match': `W/${etag}` })).status, path).toBe(304);
      expect((await get(server, path, { 'if-modified-since': lastModified })).status, path).toBe(304);
      expect((await get(server, path, { 'if-none-match': '"something-else"' })).status, path).toBe(200);
      expect((await get(server, path, { 'if-modified-since': new Date(Date.parse(lastModified) - 1000).toUTCString() })).status, path).toBe(
        200,
      );
    }
  });

  it('a publish and a yank change the ETag and Last-Modified of the package', async () => {
    const before = await get(server, '/npm/lodash');
    const etag = before.headers.etag as string;
    expect((await post(server, '/admin/publish', { packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22' })).status).toBe(201);
    const afterPublish = await get(server, '/npm/lodash', { 'if-none-match': etag });
    expect(afterPublish.status).toBe(200);
    expect(afterPublish.headers.etag).not.toBe(etag);
    expect(Date.parse(afterPublish.headers['last-modified'] as string)).toBeGreaterThan(
      Date.parse(before.headers['last-modified'] as string),
    );
    expect(afterPublish.json()['dist-tags'].latest).toBe('4.17.22');
    expect((await get(server, '/npm/lodash', { 'if-none-match': afterPublish.headers.etag as string })).status).toBe(304);
    expect((await post(server, '/admin/yank', { packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.20' })).status).toBe(200);
    const afterYank = await get(server, '/npm/lodash', { 'if-none-match': afterPublish.headers.etag as string });
    expect(afterYank.status).toBe(200);
    expect(afterYank.headers.etag).not.toBe(afterPublish.headers.etag);
  });
});

describe('registry emulator: admin API', () => {
  let server: Listening;
  const releasedAt = '2026-11-20T10:00:00.000Z';
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('a published version shows at once through every protocol, with its digests', async () => {
    const publish = (packageManager: string, name: string, version: string) =>
      post(server, '/admin/publish', { packageManager, name, version, releasedAt });

    const npm = await publish('npm_and_yarn', 'lodash', '4.17.22');
    expect(npm.status).toBe(201);
    expect(npm.json()).toMatchObject({
      packageManager: 'npm_and_yarn',
      name: 'lodash',
      version: '4.17.22',
      releasedAt,
      private: false,
      yanked: false,
      metadataUrl: `${server.url}/npm/lodash`,
      entry: { version: '4.17.22', dist: { shasum: digests('npm_and_yarn', 'lodash', '4.17.22').sha1 } },
    });
    const packument = (await get(server, '/npm/lodash')).json();
    expect(packument['dist-tags'].latest).toBe('4.17.22');
    expect(packument.time['4.17.22']).toBe(releasedAt);
    expect(packument.versions['4.17.22'].dist.integrity).toBe(`sha512-${digests('npm_and_yarn', 'lodash', '4.17.22').sha512}`);

    expect((await publish('pip', 'Django', '5.1.4')).status).toBe(201);
    const pypi = (await get(server, '/pypi/pypi/django/json')).json();
    expect(pypi.info.version).toBe('5.1.4');
    expect(pypi.releases['5.1.4'][0]).toMatchObject({
      upload_time_iso_8601: '2026-11-20T10:00:00.000000Z',
      digests: { sha256: digests('pip', 'Django', '5.1.4').sha256 },
    });

    expect((await publish('maven', 'junit:junit', '4.13.3')).status).toBe(201);
    const metadata = (await get(server, '/maven/junit/junit/maven-metadata.xml')).text;
    expect(xmlValues(metadata, 'release')).toEqual(['4.13.3']);
    expect(xmlValues(metadata, 'version').at(-1)).toBe('4.13.3');
    expect((await get(server, '/maven/junit/junit/4.13.3/junit-4.13.3.jar.sha1')).text).toBe(
      digests('maven', 'junit:junit', '4.13.3').sha1,
    );

    expect((await publish('bundler', 'rails', '7.2.0')).status).toBe(201);
    expect((await get(server, '/rubygems/api/v1/versions/rails.json')).json()[0]).toMatchObject({
      number: '7.2.0',
      created_at: releasedAt,
    });
    expect((await get(server, '/rubygems/api/v1/gems/rails.json')).json().version).toBe('7.2.0');

    const cargo = await publish('cargo', 'serde', '1.0.204');
    expect(cargo.json().entry).toMatchObject({
      name: 'serde',
      vers: '1.0.204',
      cksum: digests('cargo', 'serde', '1.0.204').sha256,
      yanked: false,
    });
    const index = (await get(server, '/crates/index/se/rd/serde')).text.trimEnd().split('\n');
    expect(JSON.parse(index.at(-1) as string).vers).toBe('1.0.204');
    expect((await get(server, '/crates/api/v1/crates/serde')).json().crate.max_version).toBe('1.0.204');

    expect((await publish('composer', 'monolog/monolog', '3.8.0')).status).toBe(201);
    const p2 = (await get(server, '/packagist/p2/monolog/monolog.json')).json();
    expect(p2.packages['monolog/monolog'][0]).toMatchObject({
      name: 'monolog/monolog',
      version: '3.8.0',
      time: '2026-11-20T10:00:00+00:00',
    });
  });

  it('publishing a new package creates it; releasedAt defaults to now', async () => {
    const before = Date.now();
    const res = await post(server, '/admin/publish', { packageManager: 'cargo', name: 'tokio', version: '1.38.0' });
    expect(res.status).toBe(201);
    expect(Date.parse(res.json().releasedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await get(server, '/crates/index/to/ki/tokio')).text).toContain('"vers":"1.38.0"');
  });

  it('yank: npm deprecates, PyPI and crates.io mark yanked, RubyGems, Maven and Packagist drop the version', async () => {
    const yank = (packageManager: string, name: string, version: string, reason?: string) =>
      post(server, '/admin/yank', { packageManager, name, version, ...(reason ? { reason } : {}) });

    expect((await yank('npm_and_yarn', 'react', '18.3.1', 'Use 18.3.2')).json()).toMatchObject({
      yanked: true,
      entry: { deprecated: 'Use 18.3.2' },
    });
    expect((await get(server, '/npm/react')).json().versions['18.3.1'].deprecated).toBe('Use 18.3.2');

    expect((await yank('pip', 'numpy', '2.0.0', 'Broken wheels')).status).toBe(200);
    const numpy = (await get(server, '/pypi/pypi/numpy/json')).json();
    expect(numpy.releases['2.0.0'][0]).toMatchObject({ yanked: true, yanked_reason: 'Broken wheels' });
    expect(numpy.info.version).toBe('1.26.4');

    expect((await yank('cargo', 'rand', '0.8.5')).status).toBe(200);
    const rand = (await get(server, '/crates/index/ra/nd/rand')).text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rand.find((l) => l.vers === '0.8.5').yanked).toBe(true);
    expect((await get(server, '/crates/api/v1/crates/rand')).json().crate.max_stable_version).toBe('0.8.0');

    expect((await yank('bundler', 'puma', '6.4.2')).status).toBe(200);
    expect((await get(server, '/rubygems/api/v1/versions/puma.json')).json().map((v: { number: string }) => v.number)).toEqual([
      '5.0.0',
      '4.3.6',
      '4.3.5',
    ]);
    expect((await get(server, '/rubygems/api/v1/gems/puma.json')).json().version).toBe('5.0.0');

    expect((await yank('maven', 'com.google.guava:guava', '33.2.1-jre')).status).toBe(200);
    expect(xmlValues((await get(server, '/maven/com/google/guava/guava/maven-metadata.xml')).text, 'release')).toEqual(['32.1.3-jre']);
    expect((await get(server, '/maven/com/google/guava/guava/33.2.1-jre/guava-33.2.1-jre.pom')).status).toBe(404);

    expect((await yank('composer', 'symfony/console', 'v7.1.0')).status).toBe(200);
    const console = (await get(server, '/packagist/p2/symfony/console.json')).json().packages['symfony/console'];
    expect(console[0].version).toBe('v7.1.0-BETA1');

    expect((await yank('pip', 'numpy', '2.0.0', 'another reason')).json().yanked).toBe(true); // idempotent
  });

  it('400 for a bad body, 409 for an existing version, 404 for yanking an unknown version', async () => {
    const bad = [
      {},
      { packageManager: 'gradle', name: 'x:y', version: '1.0.0' },
      { packageManager: 'npm_and_yarn', name: 'Not A Valid Name', version: '1.0.0' },
      { packageManager: 'npm_and_yarn', name: 'lodash', version: '' },
      { packageManager: 'npm_and_yarn', name: 'lodash', version: '1.0.0', releasedAt: 'yesterday' },
      { packageManager: 'npm_and_yarn', name: 'lodash', version: '1.0.0', extra: true },
      { packageManager: 'maven', name: 'no-colon', version: '1.0.0' },
    ];
    for (const body of bad) {
      const res = await post(server, '/admin/publish', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.headers['content-type']).toMatch(/problem\+json/);
    }
    expect((await post(server, '/admin/publish', 'not json')).status).toBe(400);
    const conflict = await post(server, '/admin/publish', { packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.21' });
    expect(conflict.status).toBe(409);
    expect(conflict.json().detail).toBe('lodash@4.17.21 exists already');
    expect((await post(server, '/admin/publish', { packageManager: 'pip', name: 'DJANGO', version: '3.0.7' })).status).toBe(409);
    expect((await post(server, '/admin/yank', { packageManager: 'npm_and_yarn', name: 'lodash', version: '0.0.1' })).status).toBe(404);
    expect((await post(server, '/admin/yank', { packageManager: 'npm_and_yarn', name: 'lodash' })).status).toBe(400);
  });
});
