import { createHash } from 'node:crypto';
import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import {
  crateDownloadUrl,
  crateIndexPath,
  createCratesRegistry,
  DEFAULT_CRATES_API_URL,
  DEFAULT_CRATES_URL,
} from '../src/adapters/crates.ts';
import { RegistryError } from '../src/port.ts';
import { closedAfterEach, fixture } from './fixture-server.ts';

describe('crates.io sparse index adapter', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createCratesRegistry>[0]) => {
    const crates = createCratesRegistry({ retryDelayMs: 10, retries: 0, ...options });
    track(crates);
    return crates;
  };
  const text = async (path: string) => (await fixture(path)).toString('utf8');

  it('computes the index path from the lower-cased name with the 1/2/3/ab/cd prefix rule', () => {
    expect(crateIndexPath('a')).toBe('1/a');
    expect(crateIndexPath('XZ')).toBe('2/xz');
    expect(crateIndexPath('Syn')).toBe('3/s/syn');
    expect(crateIndexPath('cargo')).toBe('ca/rg/cargo');
    expect(crateIndexPath('Serde_JSON')).toBe('se/rd/serde_json');
    expect(crateIndexPath('tokio-util')).toBe('to/ki/tokio-util');
    for (const name of ['', 'a/b', '../etc', 'foo bar', 'café', 'serde%2f', 'a.b']) {
      expect(() => crateIndexPath(name), name).toThrow(TypeError);
    }
  });

  it('defaults to the public index and its web API', () => {
    const crates = registry({});
    expect(crates.packageManager).toBe('cargo');
    expect(crates.baseUrl).toBe(DEFAULT_CRATES_URL);
    expect(DEFAULT_CRATES_API_URL).toBe('https://crates.io/api/v1/');
  });

  it('maps a real index file and the API answer: versions, times, yanked, sha256 digests, latest, repository', async () => {
    const server = await serve({
      '/index/am/et/amethyst': { body: await fixture('crates/amethyst'), contentType: 'text/plain' },
      '/api/v1/crates/amethyst?include=versions': { body: await fixture('crates/amethyst.api.json') },
    });
    const crates = registry({ baseUrl: `${server.url}index/`, apiUrl: `${server.url}api/v1/` });
    const pkg = await crates.fetchPackage('amethyst');
    expect(pkg).toEqual({
      name: 'amethyst',
      latest: '0.1.3',
      sourceUrl: 'https://github.com/amethyst/amethyst',
      changelogUrl: null,
      versions: [
        {
          version: '0.1.0',
          releasedAt: '2016-01-04T03:42:04.120Z',
          yanked: false,
          deprecated: null,
          digests: [{ algorithm: 'sha256', value: '2884e8cf8d78d9a6de8bbc1898603edb2b625eb8f64e371919906d0fec5660e7', encoding: 'hex' }],
        },
        {
          version: '0.1.1',
          releasedAt: '2016-01-10T19:01:07.347Z',
          yanked: false,
          deprecated: null,
          digests: [{ algorithm: 'sha256', value: '878a28535503732a2a6394c1f4e6a310e181bfe2fa8dd39f3ae926e91f8666cf', encoding: 'hex' }],
        },
        {
          version: '0.1.3',
          releasedAt: '2016-01-31T20:50:23.602Z',
          yanked: false,
          deprecated: null,
          digests: [{ algorithm: 'sha256', value: '9e041bb5d13c7f98185d3536891e5a2f50f22b3529bdb1f2ba7f6e0ea6c84e45', encoding: 'hex' }],
        },
        {
          version: '0.10.1',
          releasedAt: '2019-01-30T01:11:21.125Z',
          yanked: true,
          deprecated: null,
          digests: [{ algorithm: 'sha256', value: 'ab13cb760f6ff4b6a23f82599a8c64a77a45ca21cc66b27e1a72a863152747be', encoding: 'hex' }],
        },
      ],
    });
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      ['/index/am/et/amethyst', 200],
      ['/api/v1/crates/amethyst?include=versions', 200],
    ]);
  });

  it('takes times from pubtime and asks the API for the crate alone when every entry has one', async () => {
    const server = await serve({
      '/se/rd/serde': { body: await fixture('crates/serde'), contentType: 'text/plain' },
      '/api/v1/crates/serde?include=': { body: await fixture('crates/serde.api.json') },
    });
    const crates = registry({ baseUrl: server.url, apiUrl: `${server.url}api/v1` });
    const pkg = await crates.fetchPackage('Serde');
    expect(pkg).toMatchObject({
      name: 'serde',
      latest: '1.0.229',
      // `git+https://github.com/serde-rs/serde.git` in the answer.
      sourceUrl: 'https://github.com/serde-rs/serde',
      versions: [{ version: '1.0.229', releasedAt: '2026-07-18T23:05:13.000Z', yanked: false }],
    });
    expect(server.requests.map((r) => r.path)).toEqual(['/se/rd/serde', '/api/v1/crates/serde?include=']);
  });

  it('reads the index alone when no API is configured: no times, no latest, no source', async () => {
    const server = await serve({ '/am/et/amethyst': { body: await fixture('crates/amethyst') } });
    const crates = registry({ baseUrl: server.url });
    const pkg = await crates.fetchPackage('amethyst');
    expect(pkg?.versions.map((v) => [v.version, v.releasedAt, v.yanked])).toEqual([
      ['0.1.0', null, false],
      ['0.1.1', null, false],
      ['0.1.3', null, false],
      ['0.10.1', null, true],
    ]);
    expect(pkg).toMatchObject({ latest: null, sourceUrl: null, changelogUrl: null });
    expect(server.requests).toHaveLength(1);
  });

  it('answers undefined for an unknown crate (404, 410, 451) and leaves the index unenriched on an API 404', async () => {
    const server = await serve({
      '/3/o/old': { status: 410, body: 'gone' },
      '/le/ga/legal': { status: 451, body: 'unavailable' },
      '/se/rd/serde': { body: await fixture('crates/serde') },
    });
    const crates = registry({ baseUrl: server.url, apiUrl: `${server.url}api/v1/` });
    expect(await crates.fetchPackage('missing')).toBeUndefined();
    expect(await crates.fetchPackage('old')).toBeUndefined();
    expect(await crates.fetchPackage('legal')).toBeUndefined();
    const pkg = await crates.fetchPackage('serde');
    expect(pkg).toMatchObject({ name: 'serde', latest: null, sourceUrl: null });
    expect(pkg?.versions[0]?.releasedAt).toBe('2026-07-18T23:05:13.000Z');
    // Only the crate that exists costs an API request.
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      ['/mi/ss/missing', 404],
      ['/3/o/old', 410],
      ['/le/ga/legal', 451],
      ['/se/rd/serde', 200],
      ['/api/v1/crates/serde?include=', 404],
    ]);
  });

  it('refuses missing credentials as auth_failed and sends given ones to the index and the API', async () => {
    const routes = {
      '/am/et/amethyst': { body: await fixture('crates/amethyst') },
      '/api/v1/crates/amethyst?include=versions': { body: await fixture('crates/amethyst.api.json') },
    };
    const server = await serve(routes, { requireAuthorization: 'Bearer cargo-token' });
    const anonymous = registry({ baseUrl: server.url });
    await expect(anonymous.fetchPackage('amethyst')).rejects.toMatchObject({ name: 'RegistryError', kind: 'auth_failed', status: 401 });
    const crates = registry({ baseUrl: server.url, apiUrl: `${server.url}api/v1/`, credentials: { token: 'cargo-token' } });
    expect((await crates.fetchPackage('amethyst'))?.latest).toBe('0.1.3');
    const sent = server.requests.slice(1);
    expect(sent.map((r) => [r.path, r.status, r.headers.authorization])).toEqual([
      ['/am/et/amethyst', 200, 'Bearer cargo-token'],
      ['/api/v1/crates/amethyst?include=versions', 200, 'Bearer cargo-token'],
    ]);
  });

  it('rejects malformed answers as bad_response', async () => {
    const serdeLine = (await text('crates/serde')).trim();
    const entry = JSON.parse(serdeLine) as Record<string, unknown>;
    const line = (patch: Record<string, unknown>) => JSON.stringify({ ...entry, ...patch });
    const bodies: Record<string, string> = {
      'not JSON': `${serdeLine}\n{"name":"serde",`,
      'an array line': '[1,2]',
      'no vers': line({ vers: undefined }),
      'a short cksum': line({ cksum: 'abc' }),
      'a string yanked': line({ yanked: 'no' }),
      'a bad pubtime': line({ pubtime: 'yesterday' }),
      "another crate's line": line({ name: 'serde_json' }),
    };
    const server = await serve();
    const crates = registry({ baseUrl: server.url, apiUrl: null });
    for (const [what, body] of Object.entries(bodies)) {
      server.set('/se/rd/serde', { body });
      await expect(crates.fetchPackage('serde'), what).rejects.toMatchObject({ kind: 'bad_response' });
    }
    server.set('/se/rd/serde', { body: serdeLine });
    const withApi = registry({ baseUrl: server.url, apiUrl: `${server.url}api/` });
    for (const body of ['<html>', '{"crate":null}', '{"crate":{"repository":7}}']) {
      server.set('/api/crates/serde?include=', { body });
      await expect(withApi.fetchPackage('serde'), body).rejects.toMatchObject({ kind: 'bad_response' });
    }
  });

  it('revalidates: an unchanged index file is a 304, a changed one shows the new version', async () => {
    const original = await text('crates/serde');
    const server = await serve({ '/se/rd/serde': { body: original } });
    const crates = registry({ baseUrl: server.url });
    expect((await crates.fetchPackage('serde'))?.versions).toHaveLength(1);
    expect((await crates.fetchPackage('serde'))?.versions).toHaveLength(1);
    expect(crates.stats()).toEqual({ requests: 2, notModified: 1, fullDownloads: 1 });
    const published = JSON.stringify({
      ...JSON.parse(original.trim()),
      vers: '1.0.230',
      cksum: 'e'.repeat(64),
      pubtime: '2026-11-24T09:30:00Z',
    });
    server.set('/se/rd/serde', { body: `${original}${published}\n` });
    const pkg = await crates.fetchPackage('serde');
    expect(pkg?.versions.map((v) => [v.version, v.releasedAt])).toEqual([
      ['1.0.229', '2026-07-18T23:05:13.000Z'],
      ['1.0.230', '2026-11-24T09:30:00.000Z'],
    ]);
    expect(crates.stats()).toEqual({ requests: 3, notModified: 1, fullDownloads: 2 });
  });

  it('counts the API requests in the stats too', async () => {
    const server = await serve({
      '/se/rd/serde': { body: await fixture('crates/serde') },
      '/api/v1/crates/serde?include=': { body: await fixture('crates/serde.api.json') },
    });
    const crates = registry({ baseUrl: server.url, apiUrl: `${server.url}api/v1/` });
    await crates.fetchPackage('serde');
    await crates.fetchPackage('serde');
    expect(crates.stats()).toEqual({ requests: 4, notModified: 2, fullDownloads: 2 });
  });

  it("takes a sparse+ base URL, asks for a mixed-case name at its lower-cased path, answers the index's name", async () => {
    const server = await serve({ '/se/rd/serde': { body: await fixture('crates/serde') } });
    const crates = registry({ baseUrl: `sparse+${server.url}` });
    expect(crates.baseUrl).toBe(server.url);
    expect((await crates.fetchPackage('SERDE'))?.name).toBe('serde');
    expect(server.requests[0]?.path).toBe('/se/rd/serde');
    await expect(crates.fetchPackage('../serde')).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(1);
  });
  it('describes a version from its index line: deps as runtime/optional, the .crate from config.json dl and its cksum', async () => {
    const server = await serve({
      '/index/se/rd/serde': { body: await fixture('crates/serde'), contentType: 'text/plain' },
      // crates.io's own index configuration (https://index.crates.io/config.json).
      '/index/config.json': { body: JSON.stringify({ dl: 'https://static.crates.io/crates', api: 'https://crates.io' }) },
    });
    const crates = registry({ baseUrl: `${server.url}index/`, apiUrl: null });
    expect(await crates.describeVersion?.('serde', '1.0.229')).toEqual({
      name: 'serde',
      version: '1.0.229',
      dependencies: [
        { name: 'serde_core', requirement: '=1.0.229', kind: 'runtime' },
        { name: 'serde_derive', requirement: '^1', kind: 'optional' },
      ],
      artifacts: [
        {
          filename: 'serde-1.0.229.crate',
          url: 'https://static.crates.io/crates/serde/1.0.229/download',
          digests: [{ algorithm: 'sha256', value: '4148590afebada386688f18773da617792bf2ef03ffc1e4cbd2b1d45b023e0ba', encoding: 'hex' }],
        },
      ],
    });
    expect(await crates.describeVersion?.('serde', '0.0.1')).toBeUndefined();
    expect(await crates.describeVersion?.('no-such-crate', '1.0.0')).toBeUndefined();
  });

  it('maps build, dev, renamed and target-specific deps, and fills the dl template markers', async () => {
    const line = {
      name: 'Demo_Crate',
      vers: '0.2.0',
      cksum: 'a'.repeat(64),
      deps: [
        { name: 'cc', req: '^1.0', kind: 'build', optional: false, target: null },
        { name: 'proptest', req: '^1', kind: 'dev', optional: false, target: null },
        { name: 'winapi_alias', package: 'winapi', req: '^0.3', kind: 'normal', optional: false, target: 'cfg(windows)' },
        { name: 'libc', req: '^0.2', optional: false },
      ],
      features: {},
      yanked: false,
    };
    const server = await serve({
      '/index/de/mo/demo_crate': { body: `${JSON.stringify(line)}\n`, contentType: 'text/plain' },
      '/index/config.json': {
        body: JSON.stringify({ dl: 'https://user:secret@dl.example/{prefix}/{lowerprefix}/{crate}-{version}-{sha256-checksum}.crate' }),
      },
    });
    const crates = registry({ baseUrl: `${server.url}index/`, apiUrl: null });
    const details = await crates.describeVersion?.('demo_crate', '0.2.0');
    expect(details?.dependencies).toEqual([
      { name: 'cc', requirement: '^1.0', kind: 'build' },
      { name: 'proptest', requirement: '^1', kind: 'dev' },
      { name: 'winapi', requirement: '^0.3', kind: 'runtime', condition: 'cfg(windows)' },
      { name: 'libc', requirement: '^0.2', kind: 'runtime' },
    ]);
    expect(details?.artifacts[0]?.url).toBe(`https://dl.example/De/mo/de/mo/Demo_Crate-0.2.0-${'a'.repeat(64)}.crate`);
    expect(crateDownloadUrl('https://dl.example/api/v1/crates/', 'a', '1.0.0', 'b'.repeat(64))).toBe(
      'https://dl.example/api/v1/crates/a/1.0.0/download',
    );
    expect(crateDownloadUrl('https://dl.example/{prefix}/{crate}', 'abc', '1.0.0', '')).toBe('https://dl.example/3/a/abc');
  });

  it('rejects a bad dep or a config.json without dl as bad_response', async () => {
    const good = JSON.parse((await fixture('crates/serde')).toString('utf8'));
    const server = await serve({
      '/index/se/rd/serde': { body: `${JSON.stringify({ ...good, vers: '1.0.0', deps: [{ name: 'x' }] })}\n${JSON.stringify(good)}\n` },
      '/index/config.json': { body: JSON.stringify({ api: 'https://crates.io' }) },
    });
    const crates = registry({ baseUrl: `${server.url}index/`, apiUrl: null });
    for (const version of ['1.0.0', '1.0.229']) {
      const error = await crates.describeVersion?.('serde', version).catch((e: unknown) => e);
      expect(error, version).toBeInstanceOf(RegistryError);
      expect((error as RegistryError).kind, version).toBe('bad_response');
    }
  });

  it('describes versions the registry emulator publishes, with their stored dependencies and downloadable artifact', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    try {
      const publish = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'cargo', name: 'serde', version: '1.0.204', dependencies: { serde_derive: '=1.0.204' } }),
      });
      expect(publish.status).toBe(201);
      const crates = registry({ baseUrl: `${emulator.url}/crates/index/`, apiUrl: null });
      const details = await crates.describeVersion?.('serde', '1.0.204');
      expect(details?.dependencies).toEqual([{ name: 'serde_derive', requirement: '=1.0.204', kind: 'runtime' }]);
      const artifact = details?.artifacts[0];
      expect(artifact?.url).toBe(`${emulator.url}/crates/api/v1/crates/serde/1.0.204/download`);
      const bytes = Buffer.from(await (await fetch(artifact?.url ?? '')).arrayBuffer());
      expect(artifact?.digests[0]?.value).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect((await crates.describeVersion?.('serde', '1.0.203'))?.dependencies).toEqual([]);
      const privateRegistry = registry({
        baseUrl: `${emulator.url}/private/crates/index/`,
        apiUrl: null,
        credentials: { authorization: DEMO_REGISTRY_TOKEN },
      });
      expect((await privateRegistry.describeVersion?.('acme-crypto', '0.2.1'))?.artifacts[0]?.url).toBe(
        `${emulator.url}/private/crates/api/v1/crates/acme-crypto/0.2.1/download`,
      );
    } finally {
      await emulator.close();
    }
  });
});
