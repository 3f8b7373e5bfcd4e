import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMavenRegistry, DEFAULT_MAVEN_URL, type MavenRegistryOptions } from '../src/adapters/maven.ts';
import { RegistryError } from '../src/port.ts';
import { closedAfterEach, type FixtureRoute, fixture } from './fixture-server.ts';

const xml = async (path: string, lastModified?: string): Promise<FixtureRoute> => ({
  body: await fixture(`maven/${path}`),
  contentType: 'application/xml',
  ...(lastModified ? { lastModified } : {}),
});
const text = async (path: string): Promise<FixtureRoute> => ({ body: await fixture(`maven/${path}`), contentType: 'text/plain' });

/** Maven Central's junit:junit as of 4.13.1 (trimmed), with the POMs and jar checksums of 4.13 and 4.13.1. */
const junitRoutes = async (): Promise<Record<string, FixtureRoute>> => ({
  '/junit/junit/maven-metadata.xml': await xml('junit/maven-metadata.xml'),
  '/junit/junit/4.13/junit-4.13.pom': await xml('junit/junit-4.13.pom', 'Sat, 18 Jan 2020 13:19:58 GMT'),
  '/junit/junit/4.13/junit-4.13.jar.sha1': await text('junit/junit-4.13.jar.sha1'),
  '/junit/junit/4.13.1/junit-4.13.1.pom': await xml('junit/junit-4.13.1.pom', 'Sun, 11 Oct 2020 15:29:48 GMT'),
  '/junit/junit/4.13.1/junit-4.13.1.jar.sha1': await text('junit/junit-4.13.1.jar.sha1'),
});

describe('Maven repository adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: MavenRegistryOptions) => {
    const created = createMavenRegistry({ retryDelayMs: 10, ...options });
    track(created);
    return created;
  };

  it('defaults to Maven Central and says it is maven', async () => {
    const central = registry({});
    expect(central.packageManager).toBe('maven');
    expect(central.baseUrl).toBe(DEFAULT_MAVEN_URL);
    expect(DEFAULT_MAVEN_URL).toBe('https://repo.maven.apache.org/maven2/');
  });

  it('maps maven-metadata.xml and the newest POMs and checksums onto versions, times, digests, latest and the SCM URL', async () => {
    const server = await serve(await junitRoutes());
    const maven = registry({ baseUrl: server.url, detailedVersions: 2 });
    const found = await maven.fetchPackage('junit:junit');
    expect(found).toEqual({
      name: 'junit:junit',
      latest: '4.13.1',
      // `<scm><url>` is http://github.com/junit-team/junit4/tree/master: the repository itself, over https.
      sourceUrl: 'https://github.com/junit-team/junit4',
      changelogUrl: null,
      versions: [
        { version: '4.11', releasedAt: null, yanked: false, deprecated: null, digests: [] },
        { version: '4.12', releasedAt: null, yanked: false, deprecated: null, digests: [] },
        { version: '4.13-rc-2', releasedAt: null, yanked: false, deprecated: null, digests: [] },
        {
          version: '4.13',
          releasedAt: '2020-01-18T13:19:58.000Z',
          yanked: false,
          deprecated: null,
          digests: [{ algorithm: 'sha1', value: 'e49ccba652b735c93bd6e6f59760d8254cf597dd', encoding: 'hex' }],
        },
        {
          version: '4.13.1',
          releasedAt: '2020-10-11T15:29:48.000Z',
          yanked: false,
          deprecated: null,
          digests: [{ algorithm: 'sha1', value: 'cdd00374f1fee76b11e2a9d127405aa3f6be5b6a', encoding: 'hex' }],
        },
      ],
    });
    // The bound: the metadata, then a POM and a checksum for each of the two newest versions, nothing for the others.
    expect(server.requests.map((r) => r.path).sort()).toEqual([
      '/junit/junit/4.13.1/junit-4.13.1.jar.sha1',
      '/junit/junit/4.13.1/junit-4.13.1.pom',
      '/junit/junit/4.13/junit-4.13.jar.sha1',
      '/junit/junit/4.13/junit-4.13.pom',
      '/junit/junit/maven-metadata.xml',
    ]);
    expect(server.requests.every((r) => r.method === 'GET')).toBe(true);
    expect(maven.stats()).toEqual({ requests: 5, notModified: 0, fullDownloads: 5 });
  });

  it('revalidates only the metadata of an unchanged package (one 304), and reads only the new version of a changed one', async () => {
    const server = await serve(await junitRoutes());
    const maven = registry({ baseUrl: server.url, detailedVersions: 2 });
    const first = await maven.fetchPackage('junit:junit');
    const second = await maven.fetchPackage('junit:junit');
    expect(second).toEqual(first);
    expect(maven.stats()).toEqual({ requests: 6, notModified: 1, fullDownloads: 5 });
    expect(server.requests.at(-1)).toMatchObject({ path: '/junit/junit/maven-metadata.xml', status: 304 });

    // 4.13.2 is deployed: the metadata changes, its POM and checksum appear.
    server.set('/junit/junit/maven-metadata.xml', await xml('junit/maven-metadata-after-4.13.2.xml'));
    server.set('/junit/junit/4.13.2/junit-4.13.2.pom', await xml('junit/junit-4.13.2.pom', 'Sat, 13 Feb 2021 16:42:55 GMT'));
    server.set('/junit/junit/4.13.2/junit-4.13.2.jar.sha1', await text('junit/junit-4.13.2.jar.sha1'));
    const seen = server.requests.length;
    const third = await maven.fetchPackage('junit:junit');
    expect(third?.latest).toBe('4.13.2');
    expect(third?.versions.map((v) => v.version)).toEqual(['4.11', '4.12', '4.13-rc-2', '4.13', '4.13.1', '4.13.2']);
    expect(third?.versions.at(-1)).toEqual({
      version: '4.13.2',
      releasedAt: '2021-02-13T16:42:55.000Z',
      yanked: false,
      deprecated: null,
      digests: [{ algorithm: 'sha1', value: '8ac9e16d933b6fb43bc7f576336b8f4d7eb5ba12', encoding: 'hex' }],
    });
    // 4.13 left the bound but keeps what the first fetch learnt; 4.13.1's details were not asked again.
    expect(third?.versions.find((v) => v.version === '4.13')?.releasedAt).toBe('2020-01-18T13:19:58.000Z');
    expect(server.requests.slice(seen).map((r) => [r.path, r.status])).toEqual(
      expect.arrayContaining([
        ['/junit/junit/maven-metadata.xml', 200],
        ['/junit/junit/4.13.2/junit-4.13.2.pom', 200],
        ['/junit/junit/4.13.2/junit-4.13.2.jar.sha1', 200],
      ]),
    );
    expect(server.requests.length - seen).toBe(3);
    expect(maven.stats()).toEqual({ requests: 9, notModified: 1, fullDownloads: 8 });
  });

  it('reports a relocated version as deprecated, with no digest when the relocation POM has no jar', async () => {
    const server = await serve({
      '/mysql/mysql-connector-java/maven-metadata.xml': await xml('mysql/maven-metadata.xml'),
      '/mysql/mysql-connector-java/8.0.33/mysql-connector-java-8.0.33.pom': await xml(
        'mysql/mysql-connector-java-8.0.33.pom',
        'Tue, 18 Apr 2023 06:08:40 GMT',
      ),
    });
    const maven = registry({ baseUrl: server.url, detailedVersions: 1 });
    const found = await maven.fetchPackage('mysql:mysql-connector-java');
    expect(found?.latest).toBe('8.0.33');
    expect(found?.sourceUrl).toBe('https://github.com/mysql/mysql-connector-j');
    expect(found?.versions.at(-1)).toEqual({
      version: '8.0.33',
      releasedAt: '2023-04-18T06:08:40.000Z',
      yanked: false,
      deprecated:
        'relocated to com.mysql:mysql-connector-j:8.0.33: MySQL Connector/J artifacts moved to reverse-DNS compliant Maven 2+ coordinates.',
      digests: [],
    });
    expect(server.requests.map((r) => [r.path, r.status])).toContainEqual([
      '/mysql/mysql-connector-java/8.0.33/mysql-connector-java-8.0.33.jar.sha1',
      404,
    ]);
  });

  it('maps the groupId to a path under a base URL with a path, and reads a pom-packaged artifact’s .pom.sha1', async () => {
    const pom = await fixture('maven/junit-bom/junit-bom-5.10.1.pom');
    const server = await serve({
      '/maven2/org/junit/junit-bom/maven-metadata.xml': await xml('junit-bom/maven-metadata.xml'),
      '/maven2/org/junit/junit-bom/5.10.1/junit-bom-5.10.1.pom': { body: pom, contentType: 'application/xml' },
      '/maven2/org/junit/junit-bom/5.10.1/junit-bom-5.10.1.pom.sha1': await text('junit-bom/junit-bom-5.10.1.pom.sha1'),
    });
    const maven = registry({ baseUrl: `${server.url}maven2`, detailedVersions: 1 });
    const found = await maven.fetchPackage('org.junit:junit-bom');
    expect(found?.name).toBe('org.junit:junit-bom');
    expect(found?.sourceUrl).toBe('https://github.com/junit-team/junit5');
    expect(found?.versions.at(-1)?.digests).toEqual([
      { algorithm: 'sha1', value: createHash('sha1').update(pom).digest('hex'), encoding: 'hex' },
    ]);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/maven2/org/junit/junit-bom/maven-metadata.xml',
      '/maven2/org/junit/junit-bom/5.10.1/junit-bom-5.10.1.pom',
      '/maven2/org/junit/junit-bom/5.10.1/junit-bom-5.10.1.pom.sha1',
    ]);
  });

  it('refuses names Maven cannot express, before any request', async () => {
    const server = await serve({});
    const maven = registry({ baseUrl: server.url });
    for (const name of [
      '',
      'junit',
      'a:b:c',
      ':junit',
      'junit:',
      'org..apache:x',
      '.org:x',
      'org.x:a/b',
      'org.x:..',
      'org x:y',
      'org.x:y%2F',
    ]) {
      await expect(maven.fetchPackage(name), name).rejects.toBeInstanceOf(TypeError);
    }
    expect(server.requests).toEqual([]);
    expect(() => createMavenRegistry({ detailedVersions: -1 })).toThrow(TypeError);
  });

  it('answers undefined for an unknown package (404)', async () => {
    const server = await serve({});
    const maven = registry({ baseUrl: server.url });
    expect(await maven.fetchPackage('org.example:nothing')).toBeUndefined();
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([['/org/example/nothing/maven-metadata.xml', 404]]);
  });

  it('fails with auth_failed when the repository refuses, and sends the credentials it is given', async () => {
    const authorization = `Basic ${Buffer.from('deployer:s3cret').toString('base64')}`;
    const server = await serve(await junitRoutes(), { requireAuthorization: authorization });
    const anonymous = registry({ baseUrl: server.url });
    await expect(anonymous.fetchPackage('junit:junit')).rejects.toMatchObject({ name: 'RegistryError', kind: 'auth_failed', status: 401 });
    const wrong = registry({ baseUrl: server.url, credentials: { username: 'deployer', password: 'wrong' } });
    const error = await wrong.fetchPackage('junit:junit').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect((error as RegistryError).message).not.toContain('wrong');

    const seen = server.requests.length;
    const allowed = registry({ baseUrl: server.url, credentials: { username: 'deployer', password: 's3cret' }, detailedVersions: 2 });
    expect((await allowed.fetchPackage('junit:junit'))?.latest).toBe('4.13.1');
    const sent = server.requests.slice(seen);
    expect(sent).toHaveLength(5);
    expect(sent.every((r) => r.headers.authorization === authorization && r.status === 200)).toBe(true);
  });

  it('fails with bad_response on an answer that is not Maven metadata, a DOCTYPE, or a malformed checksum', async () => {
    const metadata = (versions: string, head = '<groupId>org.example</groupId><artifactId>lib</artifactId>') =>
      `<?xml version="1.0"?><metadata>${head}<versioning><release>1.0</release><versions>${versions}</versions></versioning></metadata>`;
    const cases: [string, FixtureRoute][] = [
      ['HTML error page', { body: '<html><body><p>Oops</body></html>', contentType: 'text/html' }],
      ['not XML at all', { body: '{"versions":["1.0"]}' }],
      ['another root', { body: '<?xml version="1.0"?><project><version>1.0</version></project>' }],
      [
        'a DOCTYPE (entity expansion)',
        {
          body: '<?xml version="1.0"?><!DOCTYPE metadata [<!ENTITY x SYSTEM "file:///etc/passwd">]><metadata><versioning><versions><version>&x;</version></versions></versioning></metadata>',
        },
      ],
      ['a version with children', { body: metadata('<version><major>1</major></version>') }],
      ['a version that is a dot segment', { body: metadata('<version>..</version>') }],
      ['a version with a slash', { body: metadata('<version>1.0/../../x</version>') }],
      [
        'metadata of another artifact',
        { body: metadata('<version>1.0</version>', '<groupId>org.other</groupId><artifactId>lib</artifactId>') },
      ],
      [
        'a bad lastUpdated',
        { body: metadata('<version>1.0</version>').replace('</versioning>', '<lastUpdated>yesterday</lastUpdated></versioning>') },
      ],
    ];
    for (const [label, route] of cases) {
      const server = await serve({ '/org/example/lib/maven-metadata.xml': { contentType: 'application/xml', ...route } });
      const maven = registry({ baseUrl: server.url, detailedVersions: 0 });
      const error = await maven.fetchPackage('org.example:lib').catch((e: unknown) => e);
      expect(error, label).toBeInstanceOf(RegistryError);
      expect(error, label).toMatchObject({ kind: 'bad_response' });
    }

    const server = await serve({
      '/org/example/lib/maven-metadata.xml': { body: metadata('<version>1.0</version>'), contentType: 'application/xml' },
      '/org/example/lib/1.0/lib-1.0.pom': { body: '<project><artifactId>lib</artifactId></project>', contentType: 'application/xml' },
      '/org/example/lib/1.0/lib-1.0.jar.sha1': { body: '<html>not a checksum</html>', contentType: 'text/html' },
    });
    await expect(registry({ baseUrl: server.url }).fetchPackage('org.example:lib')).rejects.toMatchObject({ kind: 'bad_response' });
    server.set('/org/example/lib/1.0/lib-1.0.pom', { body: '<!DOCTYPE project><project/>', contentType: 'application/xml' });
    await expect(registry({ baseUrl: server.url }).fetchPackage('org.example:lib')).rejects.toMatchObject({ kind: 'bad_response' });
  });

  it('reads a checksum file that names its file, decodes XML entities, and never details snapshots', async () => {
    const server = await serve({
      '/org/example/lib/maven-metadata.xml': {
        contentType: 'application/xml',
        body: '<metadata><versioning><latest>2.0-SNAPSHOT</latest><release>1.0</release><versions><version>1.0</version><version>2.0-SNAPSHOT</version></versions></versioning></metadata>',
      },
      '/org/example/lib/1.0/lib-1.0.pom': {
        contentType: 'application/xml',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a POM property reference, resolved by the adapter
        body: '<project><artifactId>lib</artifactId><properties><repo>lib</repo></properties><scm><url>https://git.example.org/cgit/?p=${repo}.git&amp;a=summary</url></scm></project>',
      },
      '/org/example/lib/1.0/lib-1.0.jar.sha1': {
        body: 'A94A8FE5CCB19BA61C4C0873D391E987982FBBD3  lib-1.0.jar\n',
        contentType: 'text/plain',
      },
    });
    const found = await registry({ baseUrl: server.url }).fetchPackage('org.example:lib');
    expect(found?.latest).toBe('1.0');
    expect(found?.sourceUrl).toBe('https://git.example.org/cgit/?p=lib.git&a=summary');
    expect(found?.versions).toEqual([
      {
        version: '1.0',
        releasedAt: '2026-11-24T10:00:00.000Z',
        yanked: false,
        deprecated: null,
        digests: [{ algorithm: 'sha1', value: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3', encoding: 'hex' }],
      },
      { version: '2.0-SNAPSHOT', releasedAt: null, yanked: false, deprecated: null, digests: [] },
    ]);
    expect(server.requests.some((r) => r.path.includes('SNAPSHOT'))).toBe(false);
  });
});
