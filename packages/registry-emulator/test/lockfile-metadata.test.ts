import { createHash } from 'node:crypto';
import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digests, get, post, startEmulator } from './fixtures.ts';

const hex = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

/** What lockfiles need of a version: its dependencies and its files' digests, as PyPI and Packagist publish them. */
describe('registry emulator: dependencies and artifacts for lockfiles', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('PyPI: a release lists an sdist and a wheel whose digests match the bytes served, and requires_dist', async () => {
    const published = await post(server, '/admin/publish', {
      packageManager: 'pip',
      name: 'Django',
      version: '5.1.4',
      releasedAt: '2026-11-20T10:00:00Z',
      dependencies: { asgiref: '>=3.8.1,<4', sqlparse: '>=0.3.1', tzdata: '; sys_platform == "win32"' },
    });
    expect(published.status).toBe(201);
    const release = (await get(server, '/pypi/pypi/django/5.1.4/json')).json();
    expect(release.info.requires_dist).toEqual(['asgiref>=3.8.1,<4', 'sqlparse>=0.3.1', 'tzdata ; sys_platform == "win32"']);
    expect(release.urls.map((f: { filename: string; packagetype: string }) => [f.filename, f.packagetype])).toEqual([
      ['django-5.1.4.tar.gz', 'sdist'],
      ['django-5.1.4-py3-none-any.whl', 'bdist_wheel'],
    ]);
    const sdist = digests('pip', 'Django', '5.1.4');
    expect(release.urls[0].digests).toEqual({ md5: sdist.md5, sha256: sdist.sha256 });
    for (const file of release.urls) {
      const served = await get(server, new URL(file.url).pathname);
      const bytes = Buffer.from(served.text);
      expect(served.status).toBe(200);
      expect(file.digests).toEqual({ md5: hex('md5', bytes), sha256: hex('sha256', bytes) });
      expect(file.size).toBe(bytes.length);
    }
    expect(Buffer.from((await get(server, new URL(release.urls[1].url).pathname)).text).toString()).toBe('pip:Django@5.1.4#py3-none-any');
    // a version without dependencies: requires_dist null, as PyPI answers for metadata without Requires-Dist
    expect((await get(server, '/pypi/pypi/django/3.0.7/json')).json().info.requires_dist).toBeNull();
    expect((await get(server, '/pypi/files/django/django-3.0.7-cp312-none-any.whl')).status).toBe(404);
  });

  it('Packagist: require holds the stored dependencies; dist and source carry the reference, dist the shasum', async () => {
    const published = await post(server, '/admin/publish', {
      packageManager: 'composer',
      name: 'monolog/monolog',
      version: '3.8.0',
      releasedAt: '2026-11-20T10:00:00Z',
      dependencies: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' },
    });
    expect(published.status).toBe(201);
    const [newest, previous] = (await get(server, '/packagist/p2/monolog/monolog.json')).json().packages['monolog/monolog'];
    const reference = createHash('sha1').update('monolog/monolog@3.8.0').digest('hex');
    expect(newest).toMatchObject({
      version: '3.8.0',
      require: { php: '>=8.1', 'psr/log': '^2.0 || ^3.0' },
      source: { reference },
      dist: { reference, shasum: digests('composer', 'monolog/monolog', '3.8.0').sha1 },
    });
    // minified: the next entry (no dependencies) writes its own, empty require
    expect(previous.require).toEqual({});
  });
});
