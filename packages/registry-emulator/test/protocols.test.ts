import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, digests, get, sha1Hex, startEmulator, xmlValues } from './fixtures.ts';

describe('registry emulator: protocol answers for the demo seed', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('npm: the full packument of lodash with dist-tags, dist digests, time and repository', async () => {
    const res = await get(server, '/npm/lodash');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json();
    expect(doc.name).toBe('lodash');
    expect(doc['dist-tags']).toEqual({ latest: '4.17.21' });
    expect(Object.keys(doc.versions)).toEqual(['4.17.15', '4.17.19', '4.17.20', '4.17.21']);
    const d = digests('npm_and_yarn', 'lodash', '4.17.21');
    expect(doc.versions['4.17.21']).toMatchObject({
      name: 'lodash',
      version: '4.17.21',
      dist: { tarball: `${server.url}/npm/lodash/-/lodash-4.17.21.tgz`, shasum: d.sha1, integrity: `sha512-${d.sha512}` },
    });
    expect(doc.versions['4.17.21'].deprecated).toBeUndefined();
    expect(doc.time).toEqual({
      created: '2019-07-19T02:28:46.584Z',
      modified: '2021-02-20T15:42:16.891Z',
      '4.17.15': '2019-07-19T02:28:46.584Z',
      '4.17.19': '2020-07-08T17:14:40.866Z',
      '4.17.20': '2020-08-13T16:53:54.152Z',
      '4.17.21': '2021-02-20T15:42:16.891Z',
    });
    expect(doc.repository).toEqual({ type: 'git', url: 'git+https://github.com/lodash/lodash.git' });
    const tarball = await get(server, '/npm/lodash/-/lodash-4.17.21.tgz');
    expect(tarball.text).toBe(d.bytes.toString());
  });

  it('npm: deprecated versions, pre-release dist-tags and scoped names', async () => {
    const uuid = (await get(server, '/npm/uuid')).json();
    expect(uuid.versions['3.4.0'].deprecated).toMatch(/^Please upgrade {2}to version 7 or higher/);
    expect(uuid['dist-tags'].latest).toBe('10.0.0');
    const express = (await get(server, '/npm/express')).json();
    expect(express['dist-tags']).toEqual({ latest: '4.21.2', next: '5.0.0-beta.1' });
    expect((await get(server, '/npm/express/latest')).json().version).toBe('4.21.2');
    expect((await get(server, '/npm/express/4.17.1')).json()._id).toBe('express@4.17.1');
  });

  it('npm: 404 {"error":"Not found"} for unknown packages, versions and private packages on the public registry', async () => {
    for (const path of ['/npm/no-such-package', '/npm/%40acme%2fwidgets', '/npm/@acme/widgets']) {
      const res = await get(server, path);
      expect(res.status, path).toBe(404);
      expect(res.json()).toEqual({ error: 'Not found' });
    }
    expect((await get(server, '/npm/lodash/9.9.9')).json()).toEqual({ error: 'version not found: 9.9.9' });
  });

  it('PyPI: the JSON API of Django (any spelling of the name), with releases, digests and project URLs', async () => {
    for (const spelling of ['Django', 'django', 'DJANGO']) {
      const res = await get(server, `/pypi/pypi/${spelling}/json`);
      expect(res.status, spelling).toBe(200);
      expect(res.json().info.name).toBe('Django');
    }
    const doc = (await get(server, '/pypi/pypi/django/json')).json();
    expect(doc.info).toMatchObject({
      name: 'Django',
      version: '4.2.16',
      project_urls: {
        Homepage: 'https://www.djangoproject.com/',
        Source: 'https://github.com/django/django',
        Changelog: 'https://docs.djangoproject.com/en/stable/releases/',
      },
    });
    expect(Object.keys(doc.releases).sort()).toEqual(['2.2.13', '2.2.28', '3.0.7', '3.2.25', '4.2.16', '5.1a1']);
    const [file] = doc.releases['3.0.7'];
    expect(file).toMatchObject({
      filename: 'django-3.0.7.tar.gz',
      digests: { sha256: digests('pip', 'Django', '3.0.7').sha256 },
      upload_time_iso_8601: '2020-06-03T09:36:39.452000Z',
      yanked: false,
      yanked_reason: null,
    });
    expect(doc.urls).toEqual(doc.releases['4.2.16']);
    expect((await get(server, new URL(file.url).pathname)).text).toBe('pip:Django@3.0.7');
  });

  it('PyPI: a yanked release keeps its files marked yanked, is never the latest; 404 {"message":"Not Found"}', async () => {
    const doc = (await get(server, '/pypi/pypi/requests/json')).json();
    expect(doc.info.version).toBe('2.32.3');
    expect(doc.releases['2.32.0'][0]).toMatchObject({
      yanked: true,
      yanked_reason: 'Yanked due to conflicts with CVE-2024-35195 mitigation',
    });
    const release = (await get(server, '/pypi/pypi/requests/2.32.0/json')).json();
    expect(release.info).toMatchObject({ version: '2.32.0', yanked: true });
    const missing = await get(server, '/pypi/pypi/no-such-project/json');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ message: 'Not Found' });
    expect((await get(server, '/pypi/pypi/acme-tools/json')).status).toBe(404);
  });

  it('Maven: maven-metadata.xml, the POM with <scm>, and hex .sha1 files', async () => {
    const metadata = await get(server, '/maven/junit/junit/maven-metadata.xml');
    expect(metadata.status).toBe(200);
    expect(metadata.headers['content-type']).toMatch(/xml/);
    expect(xmlValues(metadata.text, 'groupId')).toEqual(['junit']);
    expect(xmlValues(metadata.text, 'artifactId')).toEqual(['junit']);
    expect(xmlValues(metadata.text, 'latest')).toEqual(['4.13.2']);
    expect(xmlValues(metadata.text, 'release')).toEqual(['4.13.2']);
    expect(xmlValues(metadata.text, 'version')).toEqual(['4.12', '4.13-beta-3', '4.13', '4.13.1', '4.13.2']);
    expect(xmlValues(metadata.text, 'lastUpdated')).toEqual(['20210213164433']);
    expect((await get(server, '/maven/junit/junit/maven-metadata.xml.sha1')).text).toBe(sha1Hex(metadata.text));

    const pom = await get(server, '/maven/com/google/guava/guava/33.2.1-jre/guava-33.2.1-jre.pom');
    expect(pom.status).toBe(200);
    expect(xmlValues(pom.text, 'url')).toContain('https://github.com/google/guava');
    expect(pom.text).toMatch(/<scm>\s*<url>https:\/\/github.com\/google\/guava<\/url>/);
    expect(pom.headers['last-modified']).toBe(new Date('2024-06-04T20:01:53.000Z').toUTCString());
    expect((await get(server, '/maven/com/google/guava/guava/33.2.1-jre/guava-33.2.1-jre.pom.sha1')).text).toBe(sha1Hex(pom.text));
    const jarSha1 = await get(server, '/maven/com/google/guava/guava/33.2.1-jre/guava-33.2.1-jre.jar.sha1');
    expect(jarSha1.text).toBe(digests('maven', 'com.google.guava:guava', '33.2.1-jre').sha1);
    expect(jarSha1.text).toMatch(/^[0-9a-f]{40}$/);
    for (const path of [
      '/maven/junit/nope/maven-metadata.xml',
      '/maven/junit/junit/9.9/junit-9.9.pom',
      '/maven/com/acme/acme-core/maven-metadata.xml',
    ]) {
      expect((await get(server, path)).status, path).toBe(404);
    }
  });

  it('RubyGems: versions.json and gems.json for rails', async () => {
    const versions = (await get(server, '/rubygems/api/v1/versions/rails.json')).json();
    expect(versions.map((v: { number: string }) => v.number)).toEqual(['7.1.3', '7.0.0', '7.0.0.rc1', '6.1.0', '6.0.3.3', '6.0.3.2']);
    expect(versions[2]).toMatchObject({ number: '7.0.0.rc1', platform: 'ruby', prerelease: true, created_at: '2021-12-06T21:34:31.441Z' });
    expect(versions[0]).toMatchObject({
      prerelease: false,
      sha: digests('bundler', 'rails', '7.1.3').sha256,
      summary: 'Full-stack web application framework.',
    });
    const gem = (await get(server, '/rubygems/api/v1/gems/rails.json')).json();
    expect(gem).toMatchObject({
      name: 'rails',
      version: '7.1.3',
      source_code_uri: 'https://github.com/rails/rails',
      changelog_uri: 'https://github.com/rails/rails/releases',
      homepage_uri: 'https://rubyonrails.org',
      sha: digests('bundler', 'rails', '7.1.3').sha256,
    });
    const missing = await get(server, '/rubygems/api/v1/gems/no-such-gem.json');
    expect(missing.status).toBe(404);
    expect(missing.text).toBe('This rubygem could not be found.');
  });

  it('crates.io: config.json, the sparse index with the prefix rule, and the crate API', async () => {
    expect((await get(server, '/crates/index/config.json')).json()).toEqual({
      dl: `${server.url}/crates/api/v1/crates`,
      api: `${server.url}/crates`,
    });
    const index = await get(server, '/crates/index/se/rd/serde');
    expect(index.status).toBe(200);
    const lines = index.text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((l) => l.vers)).toEqual(['1.0.110', '1.0.130', '1.0.188', '1.0.203']);
    expect(lines[3]).toEqual({
      name: 'serde',
      vers: '1.0.203',
      deps: [],
      cksum: digests('cargo', 'serde', '1.0.203').sha256,
      features: {},
      yanked: false,
      links: null,
    });
    expect((await get(server, '/crates/index/ra/nd/rand')).status).toBe(200);
    expect((await get(server, '/crates/index/4/rand')).status).toBe(404); // wrong prefix
    const api = (await get(server, '/crates/api/v1/crates/rand')).json();
    expect(api.crate).toMatchObject({
      name: 'rand',
      repository: 'https://github.com/rust-random/rand',
      max_stable_version: '0.8.5',
      max_version: '0.9.0-alpha.1',
    });
    expect(api.versions.map((v: { num: string }) => v.num)).toEqual(['0.9.0-alpha.1', '0.8.5', '0.8.0', '0.7.3']);
    expect(api.versions[1]).toMatchObject({
      num: '0.8.5',
      created_at: '2022-02-14T09:48:01.911Z',
      yanked: false,
      checksum: digests('cargo', 'rand', '0.8.5').sha256,
    });
    const download = await get(server, '/crates/api/v1/crates/rand/0.8.5/download');
    expect(download.text).toBe('cargo:rand@0.8.5');
    const missing = await get(server, '/crates/api/v1/crates/no-such-crate');
    expect(missing.status).toBe(404);
    expect(missing.json()).toEqual({ errors: [{ detail: 'crate `no-such-crate` does not exist' }] });
  });

  it('Packagist: p2 metadata, minified, newest first, with dist shasum and support.source', async () => {
    const res = await get(server, '/packagist/p2/monolog/monolog.json');
    expect(res.status).toBe(200);
    const doc = res.json();
    expect(doc.minified).toBe('composer/2.0');
    const versions = doc.packages['monolog/monolog'];
    expect(versions.map((v: { version: string }) => v.version)).toEqual(['3.7.0', '3.0.0-RC1', '2.9.3', '2.1.0', '2.0.2']);
    expect(versions[0]).toMatchObject({
      name: 'monolog/monolog',
      version: '3.7.0',
      version_normalized: '3.7.0.0',
      time: '2024-06-28T09:40:51+00:00',
      dist: { type: 'zip', shasum: digests('composer', 'monolog/monolog', '3.7.0').sha1 },
      source: { type: 'git', url: 'https://github.com/Seldaek/monolog.git' },
      support: { source: 'https://github.com/Seldaek/monolog/tree/3.7.0' },
    });
    // minified: only what changed from the previous entry
    expect(versions[1].name).toBeUndefined();
    expect(versions[1]).toMatchObject({ version: '3.0.0-RC1', version_normalized: '3.0.0.0-RC1' });
    const abandoned = (await get(server, '/packagist/p2/swiftmailer/swiftmailer.json')).json();
    expect(abandoned.packages['swiftmailer/swiftmailer'][0].abandoned).toBe('symfony/mailer');
    const console = (await get(server, '/packagist/p2/symfony/console.json')).json().packages['symfony/console'];
    expect(console[0]).toMatchObject({ version: 'v7.1.0', version_normalized: '7.1.0.0' });
    expect(console[1]).toMatchObject({ version: 'v7.1.0-BETA1', version_normalized: '7.1.0.0-beta1' });
    expect((await get(server, '/packagist/p2/symfony/console~dev.json')).json()).toEqual({
      packages: { 'symfony/console': [] },
      minified: 'composer/2.0',
    });
    const missing = await get(server, '/packagist/p2/acme/payments-sdk.json');
    expect(missing.status).toBe(404);
  });

  it('answers HEAD like GET without a body, 405 for other methods, and RFC 9457 404 elsewhere', async () => {
    const head = await call(server, 'HEAD', '/npm/lodash');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.etag).toBeDefined();
    const put = await call(server, 'PUT', '/npm/lodash', { body: {} });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    const unknown = await get(server, '/conda/v1/index.json');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/problem\+json/);
  });
});
