import { describe, expect, it } from 'vitest';
import { createPypiRegistry, DEFAULT_PYPI_URL, normalisePypiName, parseRequiresDist } from '../src/adapters/pypi.ts';
import type { RegistryAdapterOptions } from '../src/http/registry-http.ts';
import { RegistryError } from '../src/port.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

interface File {
  upload_time_iso_8601: string;
  yanked: boolean;
  yanked_reason: string | null;
  digests: Record<string, string>;
  [key: string]: unknown;
}
interface Project {
  info: Record<string, unknown> & { project_urls: Record<string, string> | null };
  releases: Record<string, File[]>;
  [key: string]: unknown;
}

const SAMPLEPROJECT = '/pypi/sampleproject/json';
const sampleproject = async () => JSON.parse((await fixture('pypi/sampleproject.json')).toString('utf8')) as Project;
/** The 4.0.0 wheel of a project document (the fixture has it). */
const wheel400 = (project: Project): Partial<File> => {
  const file = project.releases['4.0.0']?.[0];
  if (file === undefined) throw new Error('fixture has no 4.0.0 wheel');
  return file;
};
const variant = async (change: (project: Project) => void) => {
  const project = await sampleproject();
  change(project);
  return { body: JSON.stringify(project) };
};

describe('PyPI JSON API adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: RegistryAdapterOptions) => {
    const pypi = createPypiRegistry({ retryDelayMs: 10, ...options });
    track(pypi);
    return pypi;
  };

  it('maps the documented answer: releases, earliest upload times, every file’s SHA-256, latest, the Source URL', async () => {
    const server = await serve({ [SAMPLEPROJECT]: { body: await fixture('pypi/sampleproject.json') } });
    const pypi = registry({ baseUrl: server.url });
    expect(pypi.packageManager).toBe('pip');
    const pkg = await pypi.fetchPackage('sampleproject');
    expect(pkg).toEqual({
      name: 'sampleproject',
      latest: '4.0.0',
      sourceUrl: 'https://github.com/pypa/sampleproject',
      changelogUrl: null,
      versions: [
        // A release without files: no time, not yanked.
        { version: '1.0', releasedAt: null, yanked: false, deprecated: null, digests: [] },
        {
          version: '1.2.0',
          // The sdist went up nine seconds before the wheel.
          releasedAt: '2015-06-14T14:37:56.383Z',
          yanked: false,
          deprecated: null,
          digests: [
            { algorithm: 'sha256', value: '7a7a8b91086deccc54cac8d631e33f6a0e232ce5775c6be3dc44f86c2154019d', encoding: 'hex' },
            { algorithm: 'sha256', value: '3427a8a5dd0c1e176da48a44efb410875b3973bd9843403a0997e4187c408dc1', encoding: 'hex' },
          ],
        },
        {
          version: '4.0.0',
          releasedAt: '2024-11-06T22:37:09.220Z',
          yanked: false,
          deprecated: null,
          digests: [
            { algorithm: 'sha256', value: 'c23e447ea90d796d1e645c35c4b2de125040add12a845825546f91c93f391b6b', encoding: 'hex' },
            { algorithm: 'sha256', value: '0ace7980f82c5815ede4cd7bf9f6693684cec2ae47b9b7ade9add533b8627c6b', encoding: 'hex' },
          ],
        },
      ],
    });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: SAMPLEPROJECT, status: 200 });
    expect(server.requests[0]?.headers.accept).toBe('application/json');
  });

  it('a release is yanked when every file is; one yanked file of several does not yank it', async () => {
    const server = await serve({
      [SAMPLEPROJECT]: await variant((project) => {
        for (const file of project.releases['1.2.0'] ?? []) Object.assign(file, { yanked: true, yanked_reason: 'broken metadata' });
        Object.assign(project.releases['4.0.0']?.[1] ?? {}, { yanked: true, yanked_reason: 'sdist incomplete' });
      }),
    });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('sampleproject');
    expect(pkg?.versions.map((v) => [v.version, v.yanked])).toEqual([
      ['1.0', false],
      ['1.2.0', true],
      ['4.0.0', false],
    ]);
    // Yanked files stay resolvable by pinned lockfiles: their digests are kept.
    expect(pkg?.versions.find((v) => v.version === '1.2.0')?.digests).toHaveLength(2);
  });

  it('normalises names (PEP 503) into the path, and refuses names PyPI cannot hold without asking', async () => {
    expect(normalisePypiName('Sample_Project')).toBe('sample-project');
    expect(normalisePypiName('zope.interface')).toBe('zope-interface');
    expect(normalisePypiName('typing__extensions')).toBe('typing-extensions');
    expect(normalisePypiName('X')).toBe('x');
    const server = await serve({
      '/pypi/zope-interface/json': await variant((project) => Object.assign(project.info, { name: 'zope.interface' })),
    });
    const pypi = registry({ baseUrl: server.url });
    const pkg = await pypi.fetchPackage('Zope.Interface');
    expect(pkg?.name).toBe('zope-interface');
    expect(server.requests.map((r) => r.path)).toEqual(['/pypi/zope-interface/json']);
    for (const name of ['', ' requests', 'requests ', '-x', 'x-', '.x', 'a b', 'a/b', '../x', 'ü', 'a%2fb', 'x==1.0']) {
      await expect(pypi.fetchPackage(name), name).rejects.toThrow(TypeError);
    }
    expect(server.requests).toHaveLength(1);
  });

  it('answers undefined for 404 and 410', async () => {
    const server = await serve({ '/pypi/removed/json': { status: 410, body: '{"message":"Gone"}' } });
    const pypi = registry({ baseUrl: server.url });
    expect(await pypi.fetchPackage('no-such-project')).toBeUndefined();
    expect(await pypi.fetchPackage('removed')).toBeUndefined();
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      ['/pypi/no-such-project/json', 404],
      ['/pypi/removed/json', 410],
    ]);
  });

  it('refused credentials are auth_failed; given ones are sent, under a private index’s base path too', async () => {
    const basic = `Basic ${Buffer.from('deploy:s3cret').toString('base64')}`;
    const server = await serve(
      { [`/simple-index${SAMPLEPROJECT}`]: { body: await fixture('pypi/sampleproject.json') } },
      { requireAuthorization: basic },
    );
    const baseUrl = `${server.url}simple-index`;
    const anonymous = await registry({ baseUrl })
      .fetchPackage('sampleproject')
      .catch((e: unknown) => e);
    expect(anonymous).toBeInstanceOf(RegistryError);
    expect(anonymous).toMatchObject({ kind: 'auth_failed', status: 401 });
    const token = await registry({ baseUrl, credentials: { token: 'pypi-token' } })
      .fetchPackage('sampleproject')
      .catch((e: unknown) => e);
    expect(token).toMatchObject({ kind: 'auth_failed', status: 401 });
    const pkg = await registry({ baseUrl, credentials: { username: 'deploy', password: 's3cret' } }).fetchPackage('sampleproject');
    expect(pkg?.latest).toBe('4.0.0');
    expect(server.requests.map((r) => [r.path, r.headers.authorization, r.status])).toEqual([
      [`/simple-index${SAMPLEPROJECT}`, undefined, 401],
      [`/simple-index${SAMPLEPROJECT}`, 'Bearer pypi-token', 401],
      [`/simple-index${SAMPLEPROJECT}`, basic, 200],
    ]);
  });

  it('a malformed answer is bad_response', async () => {
    const routes = {
      'not-json': { body: '<!DOCTYPE html><title>Maintenance</title>', contentType: 'text/html' },
      'null-body': { body: 'null' },
      'no-info': await variant((project) => delete (project as Partial<Project>).info),
      'no-name': await variant((project) => delete project.info.name),
      'numeric-version': await variant((project) => Object.assign(project.info, { version: 4 })),
      'no-releases': await variant((project) => delete (project as Partial<Project>).releases),
      'release-not-list': await variant((project) => Object.assign(project.releases, { '1.0': {} })),
      'file-not-object': await variant((project) => Object.assign(project.releases, { '1.0': ['sampleproject-1.0.tar.gz'] })),
      'no-upload-time': await variant((project) => delete wheel400(project).upload_time_iso_8601),
      'bad-upload-time': await variant((project) => Object.assign(wheel400(project), { upload_time_iso_8601: 'Nov 6th' })),
      'yanked-string': await variant((project) => Object.assign(wheel400(project), { yanked: 'yes' })),
      'no-digests': await variant((project) => delete wheel400(project).digests),
      'bad-sha256': await variant((project) => Object.assign(wheel400(project).digests ?? {}, { sha256: 'c23e447e' })),
    };
    const server = await serve(Object.fromEntries(Object.entries(routes).map(([name, route]) => [`/pypi/${name}/json`, route])));
    const pypi = registry({ baseUrl: server.url });
    for (const name of Object.keys(routes)) {
      const error = await pypi.fetchPackage(name).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(RegistryError);
      expect(error, name).toMatchObject({ kind: 'bad_response', url: `${server.url}pypi/${name}/json` });
    }
  });

  it('finds the changelog and the source among project_urls by their well-known labels', async () => {
    const withUrls = (projectUrls: Record<string, unknown> | null, homePage = '') =>
      variant((project) => Object.assign(project.info, { project_urls: projectUrls, home_page: homePage }));
    const server = await serve({
      '/pypi/labels/json': await withUrls({
        Homepage: 'https://sampleproject.example.org',
        'Release Notes': 'https://sampleproject.example.org/releases',
        'Change Log': 'https://github.com/pypa/sampleproject/blob/main/CHANGELOG.md',
        Repository: 'git+https://gitlab.com/pypa/sampleproject.git',
      }),
      '/pypi/release-notes/json': await withUrls({
        'Release notes': 'https://docs.example.org/release-notes/',
        'Source Code': 'https://hg.example.org/sample/',
      }),
      '/pypi/whats-new/json': await withUrls({
        "What's New?": 'https://docs.example.org/whatsnew.html',
        Funding: 'https://donate.example.org',
      }),
      '/pypi/homepage/json': await withUrls(null, 'https://github.com/pypa/sampleproject'),
      '/pypi/tracker-only/json': await withUrls({
        'Bug Tracker': 'https://github.com/pypa/sampleproject/issues',
        Docs: 'https://sampleproject.readthedocs.io',
      }),
      '/pypi/nothing/json': await withUrls(
        { Homepage: 'https://sampleproject.example.org', Changelog: 'not a url', Source: 42 },
        'UNKNOWN',
      ),
    });
    const pypi = registry({ baseUrl: server.url });
    const links = async (name: string) => {
      const pkg = await pypi.fetchPackage(name);
      return [pkg?.sourceUrl, pkg?.changelogUrl];
    };
    expect(await links('labels')).toEqual([
      'https://gitlab.com/pypa/sampleproject',
      'https://github.com/pypa/sampleproject/blob/main/CHANGELOG.md',
    ]);
    expect(await links('release-notes')).toEqual(['https://hg.example.org/sample', 'https://docs.example.org/release-notes/']);
    expect(await links('whats-new')).toEqual([null, 'https://docs.example.org/whatsnew.html']);
    expect(await links('homepage')).toEqual(['https://github.com/pypa/sampleproject', null]);
    expect(await links('tracker-only')).toEqual(['https://github.com/pypa/sampleproject', null]);
    expect(await links('nothing')).toEqual([null, null]);
  });

  it('takes a file’s MD5 only when it has no SHA-256, and lists a digest once', async () => {
    const server = await serve({
      [SAMPLEPROJECT]: await variant((project) => {
        const [wheel, sdist] = project.releases['1.2.0'] ?? [];
        if (wheel) wheel.digests = { md5: 'BAB8EB22E6710EDDAE3C6C7AC3453BD9' };
        if (sdist) project.releases['1.2.0']?.push(structuredClone(sdist));
      }),
    });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('sampleproject');
    expect(pkg?.versions.find((v) => v.version === '1.2.0')?.digests).toEqual([
      { algorithm: 'md5', value: 'bab8eb22e6710eddae3c6c7ac3453bd9', encoding: 'hex' },
      { algorithm: 'sha256', value: '3427a8a5dd0c1e176da48a44efb410875b3973bd9843403a0997e4187c408dc1', encoding: 'hex' },
    ]);
  });

  it('revalidates: an unchanged project is a 304, a new release shows on the next fetch', async () => {
    const server = await serve({ [SAMPLEPROJECT]: { body: await fixture('pypi/sampleproject.json') } });
    const pypi = registry({ baseUrl: server.url });
    const first = await pypi.fetchPackage('sampleproject');
    expect(await pypi.fetchPackage('SampleProject')).toEqual(first);
    expect(pypi.stats()).toEqual({ requests: 2, notModified: 1, fullDownloads: 1 });
    expect(server.requests.map((r) => r.status)).toEqual([200, 304]);

    server.set(
      SAMPLEPROJECT,
      await variant((project) => {
        const wheel: File = {
          ...(structuredClone(wheel400(project)) as File),
          filename: 'sampleproject-4.1.0-py3-none-any.whl',
          upload_time_iso_8601: '2026-11-25T09:30:00.123456Z',
          digests: { sha256: 'd'.repeat(64), md5: 'e'.repeat(32) },
        };
        project.releases['4.1.0'] = [wheel];
        project.info.version = '4.1.0';
      }),
    );
    const third = await pypi.fetchPackage('sampleproject');
    expect(third?.latest).toBe('4.1.0');
    expect(third?.versions.find((v) => v.version === '4.1.0')).toEqual({
      version: '4.1.0',
      releasedAt: '2026-11-25T09:30:00.123Z',
      yanked: false,
      deprecated: null,
      digests: [{ algorithm: 'sha256', value: 'd'.repeat(64), encoding: 'hex' }],
    });
    expect(pypi.stats()).toEqual({ requests: 3, notModified: 1, fullDownloads: 2 });
  });

  it('defaults to the public index', () => {
    const pypi = createPypiRegistry();
    track(pypi);
    expect(pypi.baseUrl).toBe(DEFAULT_PYPI_URL);
    expect(DEFAULT_PYPI_URL).toBe('https://pypi.org/');
  });
});

describe('PyPI describeVersion', () => {
  const { serve, track } = closedAfterEach();
  /** The release document of 4.0.0 as `GET /pypi/sampleproject/4.0.0/json` answers it: the project's `info` and `urls`. */
  const release = async () => {
    const project = await sampleproject();
    return { info: project.info, urls: project.urls, last_serial: project.last_serial, vulnerabilities: [] };
  };

  it('maps requires_dist (extras optional) and the files with SHA-256, MD5, packagetype, size and upload time', async () => {
    const server = await serve({ '/pypi/sampleproject/4.0.0/json': { body: JSON.stringify(await release()) } });
    const pypi = createPypiRegistry({ baseUrl: server.url, retryDelayMs: 10 });
    track(pypi);
    const details = await pypi.describeVersion?.('SampleProject', '4.0.0');
    expect(details).toMatchObject({
      name: 'sampleproject',
      version: '4.0.0',
      dependencies: [
        { name: 'peppercorn', requirement: '*', kind: 'runtime' },
        { name: 'check-manifest', requirement: '*', kind: 'optional', condition: "extra == 'dev'" },
        { name: 'coverage', requirement: '*', kind: 'optional', condition: "extra == 'test'" },
      ],
    });
    expect(details?.artifacts[0]).toEqual({
      filename: 'sampleproject-4.0.0-py3-none-any.whl',
      url: 'https://files.pythonhosted.org/packages/d7/73/c16e5f3f0d37c60947e70865c255a58dc408780a6474de0523afd0ec553a/sampleproject-4.0.0-py3-none-any.whl',
      digests: [
        { algorithm: 'sha256', value: 'c23e447ea90d796d1e645c35c4b2de125040add12a845825546f91c93f391b6b', encoding: 'hex' },
        { algorithm: 'md5', value: 'd3857a217dacbca9e40a85f06f2b34f1', encoding: 'hex' },
      ],
      attributes: { packagetype: 'bdist_wheel', size: '4661', 'upload-time': '2024-11-06T22:37:09.220617Z' },
    });
    expect(details?.artifacts.map((a) => a.attributes?.packagetype)).toEqual(['bdist_wheel', 'sdist']);
    expect(server.requests.map((r) => r.path)).toEqual(['/pypi/sampleproject/4.0.0/json']);
    expect(await pypi.describeVersion?.('sampleproject', '9.9.9')).toBeUndefined();
  });

  it('reads PEP 508 specifiers with parentheses, markers and direct references', () => {
    expect(parseRequiresDist('requests (>=2.0,<3) ; python_version < "3.8"')).toEqual({
      name: 'requests',
      requirement: '>=2.0,<3',
      kind: 'runtime',
      condition: 'python_version < "3.8"',
    });
    expect(parseRequiresDist('pytest[testing]>=7; extra == "test" and sys_platform != "win32"')).toEqual({
      name: 'pytest',
      requirement: '>=7',
      kind: 'optional',
      condition: 'extra == "test" and sys_platform != "win32"',
    });
    expect(parseRequiresDist('pkg @ https://example.org/pkg.whl ; os_name == "nt"')).toEqual({
      name: 'pkg',
      requirement: '*',
      kind: 'runtime',
      condition: 'os_name == "nt"',
    });
    expect(parseRequiresDist('not a requirement!')).toBeUndefined();
  });

  it('null requires_dist is no dependency with a wheel, unknown with sdists only; a malformed file is bad_response', async () => {
    const doc = await release();
    const server = await serve({
      '/pypi/sampleproject/4.0.0/json': { body: JSON.stringify({ ...doc, info: { ...doc.info, requires_dist: null } }) },
    });
    const pypi = createPypiRegistry({ baseUrl: server.url, retryDelayMs: 10 });
    track(pypi);
    expect((await pypi.describeVersion?.('sampleproject', '4.0.0'))?.dependencies).toEqual([]);
    const sdists = (doc.urls as Array<{ packagetype: string }>).filter((file) => file.packagetype === 'sdist');
    server.set('/pypi/sampleproject/4.0.0/json', {
      body: JSON.stringify({ ...doc, info: { ...doc.info, requires_dist: null }, urls: sdists }),
    });
    expect((await pypi.describeVersion?.('sampleproject', '4.0.0'))?.dependencies).toBeNull();
    server.set('/pypi/sampleproject/4.0.0/json', {
      body: JSON.stringify({ ...doc, urls: [{ filename: 'x.whl', url: 'u', digests: { sha256: 'zz' } }] }),
    });
    await expect(pypi.describeVersion?.('sampleproject', '4.0.0')).rejects.toMatchObject({ kind: 'bad_response' });
  });
});
