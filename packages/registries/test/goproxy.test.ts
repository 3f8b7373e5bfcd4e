import { createHash } from 'node:crypto';
import { compareGoModuleVersions } from '@switchyard/ecosystems';
import { DEMO_REGISTRY_TOKEN, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  createGoProxyRegistry,
  DEFAULT_GOPROXY_URL,
  escapeModulePath,
  escapeModuleVersion,
  goDirHash1,
  goModuleSourceUrl,
  readGoModSummary,
} from '../src/adapters/goproxy.ts';
import { RegistryError } from '../src/port.ts';
import { registryFor } from '../src/registry-for.ts';
import { closedAfterEach, type FixtureRoute, fixture, startFixtureServer } from './fixture-server.ts';

/** Hash1 written out independently: SHA-256 over `<sha256 hex>  <name>\n` of the files sorted by name. */
/** The zip with every entry's declared uncompressed size (central directory and local header) set to `size`. */
const forgeSizes = (zip: Uint8Array, size: number): Buffer => {
  const out = Buffer.from(zip);
  for (let i = 0; i + 30 <= out.length; i++) {
    const signature = out.readUInt32LE(i);
    if (signature === 0x02014b50) out.writeUInt32LE(size, i + 24);
    else if (signature === 0x04034b50) out.writeUInt32LE(size, i + 22);
  }
  return out;
};

const expectedHash1 = (files: Record<string, string>) => {
  const lines = Object.keys(files)
    .sort()
    .map(
      (name) =>
        `${createHash('sha256')
          .update(files[name] ?? '')
          .digest('hex')}  ${name}\n`,
    )
    .join('');
  return `h1:${createHash('sha256').update(lines).digest('base64')}`;
};

describe('GOPROXY adapter helpers', () => {
  it('case-encodes module paths and rejects what the protocol cannot carry', () => {
    expect(escapeModulePath('github.com/BurntSushi/toml')).toBe('github.com/!burnt!sushi/toml');
    expect(escapeModulePath('golang.org/x/text')).toBe('golang.org/x/text');
    for (const bad of ['', 'a b', 'x/!y', '/abs', 'trailing/', 'a//b', 'back\\slash'])
      expect(() => escapeModulePath(bad), bad).toThrow(TypeError);
  });
  it('rejects module paths and versions that are not ones by Go’s rules, before asking anything', async () => {
    expect(escapeModulePath('gopkg.in/yaml.v3')).toBe('gopkg.in/yaml.v3');
    expect(escapeModuleVersion('v0.0.0-20191109021931-daa7c04131f5')).toBe('v0.0.0-20191109021931-daa7c04131f5');
    expect(escapeModuleVersion('v2.0.0+incompatible')).toBe('v2.0.0+incompatible');
    expect(escapeModuleVersion('v1.0.0-RC.1')).toBe('v1.0.0-!r!c.1');
    const paths = ['../../other-repo/x', 'example.com/../x', 'example.com/./x', 'example.com/a?b', 'example.com/a#b', 'example.com/a%2fb'];
    for (const bad of [...paths, 'example.com/.hidden', 'example.com/x.', 'nodot/x', 'Example.com/x', '-x.com/y', 'example.com/a+b'])
      expect(() => escapeModulePath(bad), bad).toThrow(TypeError);
    for (const bad of ['', 'latest', 'v1.0', '1.0.0', 'v1.0.0/../../x', '../v1.0.0', 'v1.0.0?x', 'v1.0.0#x', 'v1.0.0%2f', 'v01.0.0'])
      expect(() => escapeModuleVersion(bad), bad).toThrow(TypeError);
    const server = await startFixtureServer({});
    const proxy = createGoProxyRegistry({ baseUrl: `${server.url}api/go/private/`, retries: 0, credentials: { token: 'secret' } });
    try {
      await expect(proxy.fetchPackage('../../other-repo/x')).rejects.toThrow(TypeError);
      await expect(proxy.describeVersion?.('example.com/m', '../../../other-repo/x/@v/v1.0.0')).rejects.toThrow(TypeError);
      expect(server.requests).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
  it('computes dirhash Hash1 as go.sum records it', () => {
    // the go.mod the proxy synthesizes for github.com/pkg/errors, as go.sum files record `v0.9.1/go.mod`
    expect(goDirHash1([['go.mod', strToU8('module github.com/pkg/errors\n')]])).toBe('h1:bwawxfHBFNV+L2hUp1rHADufV3IMtnDRdf1r5NINEl0=');
    const files = { 'm@v1.0.0/xyz.go': 'data for xyz', 'm@v1.0.0/abc.go': 'data for abc', 'm@v1.0.0/go.mod': 'module m\n' };
    expect(goDirHash1(Object.entries(files).map(([n, t]) => [n, strToU8(t)]))).toBe(expectedHash1(files));
    expect(() => goDirHash1([['a\nb', strToU8('')]])).toThrow(TypeError);
  });
  it('orders versions by semantic precedence and reads go.mod requires and retractions', () => {
    const versions = ['v1.0.0', 'v0.9.1', 'v1.0.0-rc.1', 'v1.10.0', 'v1.2.0', 'v0.0.0-20191109021931-daa7c04131f5'];
    expect([...versions].sort(compareGoModuleVersions)).toEqual([
      'v0.0.0-20191109021931-daa7c04131f5',
      'v0.9.1',
      'v1.0.0-rc.1',
      'v1.0.0',
      'v1.2.0',
      'v1.10.0',
    ]);
    const summary = readGoModSummary(
      'module x\ngo 1.22\nrequire a.com/b v1.0.0\nrequire (\n\tc.com/d v2.0.0+incompatible // indirect\n)\nretract [v0.1.0, v0.2.0]\n',
    );
    expect(summary).toEqual({
      go: '1.22',
      requires: [
        { path: 'a.com/b', version: 'v1.0.0', indirect: false },
        { path: 'c.com/d', version: 'v2.0.0+incompatible', indirect: true },
      ],
      retracts: [{ low: 'v0.1.0', high: 'v0.2.0' }],
    });
    expect(goModuleSourceUrl('github.com/pkg/errors/v2')).toBe('https://github.com/pkg/errors');
    expect(goModuleSourceUrl('golang.org/x/text')).toBeNull();
  });
});

describe('GOPROXY adapter against documented answers', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: Parameters<typeof createGoProxyRegistry>[0]) =>
    track(createGoProxyRegistry({ retries: 0, retryDelayMs: 10, ...options }));
  const text = async (path: string) => (await fixture(path)).toString('utf8');
  const errorsRoutes = async (): Promise<Record<string, FixtureRoute>> => {
    const infos = JSON.parse(await text('goproxy/errors.infos.json')) as Record<string, unknown>;
    const routes: Record<string, FixtureRoute> = {
      '/github.com/pkg/errors/@v/list': { body: await text('goproxy/errors.list'), contentType: 'text/plain' },
      '/github.com/pkg/errors/@latest': { body: await text('goproxy/errors.latest.json') },
      '/github.com/pkg/errors/@v/v0.9.1.mod': { body: await text('goproxy/errors.v0.9.1.mod'), contentType: 'text/plain' },
    };
    for (const [version, info] of Object.entries(infos))
      routes[`/github.com/pkg/errors/@v/${version}.info`] = { body: JSON.stringify(info) };
    return routes;
  };

  it('defaults to proxy.golang.org and is what registryFor gives for go_modules', () => {
    const proxy = registry({});
    expect(proxy.baseUrl).toBe(DEFAULT_GOPROXY_URL);
    expect(proxy.packageManager).toBe('go_modules');
    const viaSwitch = track(registryFor('go_modules') ?? createGoProxyRegistry());
    expect(viaSwitch.baseUrl).toBe('https://proxy.golang.org/');
  });

  it('maps list, @latest and .info times; reads retractions from the highest release go.mod', async () => {
    const server = await serve(await errorsRoutes());
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('github.com/pkg/errors');
    expect(pkg).toEqual({
      name: 'github.com/pkg/errors',
      latest: 'v0.9.1',
      sourceUrl: 'https://github.com/pkg/errors',
      changelogUrl: null,
      versions: ['v0.8.0', 'v0.8.1', 'v0.9.0', 'v0.9.1', 'v0.7.0'].map((version) => ({
        version,
        releasedAt: expect.stringMatching(/^20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/),
        yanked: false,
        deprecated: null,
        digests: [],
      })),
    });
    expect(pkg?.versions.find((v) => v.version === 'v0.8.1')?.releasedAt).toBe('2019-01-03T06:52:24.000Z');
  });

  it('asks .info only for the highest versions when told so', async () => {
    const server = await serve(await errorsRoutes());
    const pkg = await registry({ baseUrl: server.url, releaseTimesFor: 2 }).fetchPackage('github.com/pkg/errors');
    expect(pkg?.versions.filter((v) => v.releasedAt !== null).map((v) => v.version)).toEqual(['v0.9.0', 'v0.9.1']);
    expect(server.requests.filter((r) => r.path.endsWith('.info')).map((r) => r.path)).toEqual(['/github.com/pkg/errors/@v/v0.9.0.info']);
  });

  it('case-encodes paths, marks retracted versions yanked and skips a retracted latest', async () => {
    const server = await serve({
      '/github.com/!acme/!widget/@v/list': { body: await text('goproxy/widget.list'), contentType: 'text/plain' },
      '/github.com/!acme/!widget/@latest': { body: '{"Version":"v1.0.1","Time":"2023-01-02T03:04:05Z"}' },
      '/github.com/!acme/!widget/@v/v1.1.0.mod': { body: await text('goproxy/widget.v1.1.0.mod'), contentType: 'text/plain' },
    });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('github.com/Acme/Widget');
    expect(pkg?.versions.map((v) => [v.version, v.yanked])).toEqual([
      ['v1.0.0', true],
      ['v1.0.1', true],
      ['v1.1.0', false],
      ['v1.2.0-beta.1', false],
      ['v2.0.0+incompatible', false],
    ]);
    expect(pkg?.latest).toBe('v1.1.0');
    expect(pkg?.sourceUrl).toBe('https://github.com/Acme/Widget');
  });

  it('takes @latest as the only version of a module without tags', async () => {
    const pseudo = 'v0.0.0-20240101000000-abcdefabcdef';
    const server = await serve({
      '/example.com/untagged/@v/list': { body: '', contentType: 'text/plain' },
      '/example.com/untagged/@latest': { body: JSON.stringify({ Version: pseudo, Time: '2024-01-01T00:00:00Z' }) },
    });
    const pkg = await registry({ baseUrl: server.url }).fetchPackage('example.com/untagged');
    expect(pkg?.versions).toEqual([
      { version: pseudo, releasedAt: '2024-01-01T00:00:00.000Z', yanked: false, deprecated: null, digests: [] },
    ]);
    expect(pkg?.latest).toBe(pseudo);
  });

  it('describes a version: requires as dependencies, h1 digests of the zip and the go.mod', async () => {
    const modText = await text('goproxy/widget.v1.1.0.mod');
    const zipFiles = { 'github.com/!acme/!widget@v1.1.0/go.mod': modText, 'github.com/!acme/!widget@v1.1.0/widget.go': 'package widget\n' };
    const zip = Buffer.from(zipSync(Object.fromEntries(Object.entries(zipFiles).map(([n, t]) => [n, strToU8(t)]))));
    const server = await serve({
      '/github.com/!acme/!widget/@v/v1.1.0.info': { body: '{"Version":"v1.1.0","Time":"2023-05-06T07:08:09Z"}' },
      '/github.com/!acme/!widget/@v/v1.1.0.mod': { body: modText, contentType: 'text/plain' },
      '/github.com/!acme/!widget/@v/v1.1.0.zip': { body: zip, contentType: 'application/zip' },
    });
    const details = await registry({ baseUrl: server.url }).describeVersion?.('github.com/Acme/Widget', 'v1.1.0');
    expect(details).toEqual({
      name: 'github.com/Acme/Widget',
      version: 'v1.1.0',
      dependencies: [
        { name: 'github.com/pkg/errors', requirement: 'v0.9.1', kind: 'runtime' },
        { name: 'golang.org/x/text', requirement: 'v0.3.8', kind: 'runtime' },
      ],
      artifacts: [
        {
          filename: 'v1.1.0.zip',
          url: `${server.url}github.com/!acme/!widget/@v/v1.1.0.zip`,
          digests: [{ algorithm: 'h1', value: expectedHash1(zipFiles), encoding: 'prefixed' }],
        },
        {
          filename: 'v1.1.0.mod',
          url: `${server.url}github.com/!acme/!widget/@v/v1.1.0.mod`,
          digests: [{ algorithm: 'h1', value: expectedHash1({ 'go.mod': modText }), encoding: 'prefixed' }],
          attributes: { go: '1.20' },
        },
      ],
    });
  });

  it('hashes the go.mod bytes as served, a BOM and invalid UTF-8 included', async () => {
    const mod = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('module b.example/m\n// \xff'), Buffer.from([0xff, 0x0a])]);
    const zip = Buffer.from(zipSync({ 'b.example/m@v1.0.0/go.mod': new Uint8Array(mod) }));
    const server = await serve({
      '/b.example/m/@v/v1.0.0.info': { body: '{"Version":"v1.0.0"}' },
      '/b.example/m/@v/v1.0.0.mod': { body: mod, contentType: 'text/plain' },
      '/b.example/m/@v/v1.0.0.zip': { body: zip, contentType: 'application/zip' },
    });
    const details = await registry({ baseUrl: server.url }).describeVersion?.('b.example/m', 'v1.0.0');
    const line = `${createHash('sha256').update(mod).digest('hex')}  go.mod\n`;
    expect(details?.artifacts[1]?.digests).toEqual([
      { algorithm: 'h1', value: `h1:${createHash('sha256').update(line).digest('base64')}`, encoding: 'prefixed' },
    ]);
  });

  it('refuses a zip declaring more than 500 MiB uncompressed before inflating it', async () => {
    const zip = zipSync({
      'z.example/m@v1.0.0/go.mod': strToU8('module z.example/m\n'),
      'z.example/m@v1.0.0/a.go': strToU8('package a\n'),
    });
    const server = await serve({
      '/z.example/m/@v/v1.0.0.info': { body: '{"Version":"v1.0.0"}' },
      '/z.example/m/@v/v1.0.0.mod': { body: 'module z.example/m\n', contentType: 'text/plain' },
      '/z.example/m/@v/v1.0.0.zip': { body: forgeSizes(zip, 0xf000_0000), contentType: 'application/zip' },
    });
    const error = await registry({ baseUrl: server.url })
      .describeVersion?.('z.example/m', 'v1.0.0')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({
      kind: 'bad_response',
      message: expect.stringMatching(/declares 8053063680 uncompressed bytes, over 524288000/),
    });
  });

  it('answers undefined for 404 and 410, and bad_response for nonsense', async () => {
    const server = await serve({
      '/gone.example/mod/@v/list': { status: 410, body: 'not found: gone', contentType: 'text/plain' },
      '/bad.example/mod/@v/list': { body: 'v1.0.0\n', contentType: 'text/plain' },
      '/bad.example/mod/@latest': { body: '{"Time":"2020-01-01T00:00:00Z"}' },
      '/bad.example/mod/@v/v1.0.0.info': { body: '{"Version":"v1.0.0","Time":"2020-01-01T00:00:00Z"}' },
      '/bad.example/mod/@v/v1.0.0.mod': { body: 'module bad.example/mod\n', contentType: 'text/plain' },
      '/bad.example/mod/@v/v1.0.0.zip': { body: 'not a zip', contentType: 'application/zip' },
    });
    const proxy = registry({ baseUrl: server.url });
    expect(await proxy.fetchPackage('missing.example/mod')).toBeUndefined();
    expect(await proxy.fetchPackage('gone.example/mod')).toBeUndefined();
    expect(await proxy.describeVersion?.('missing.example/mod', 'v1.0.0')).toBeUndefined();
    await expect(proxy.fetchPackage('bad.example/mod')).rejects.toMatchObject({
      kind: 'bad_response',
      message: 'version info has no Version',
    });
    await expect(proxy.describeVersion?.('bad.example/mod', 'v1.0.0')).rejects.toBeInstanceOf(RegistryError);
    await expect(proxy.fetchPackage('bad example')).rejects.toBeInstanceOf(TypeError);
  });

  it('sends credentials to the proxy (zip downloads included) and reports refusals as auth_failed', async () => {
    const zip = Buffer.from(zipSync({ 'p.example/m@v1.0.0/go.mod': strToU8('module p.example/m\n') }));
    const server = await serve(
      {
        '/p.example/m/@v/v1.0.0.info': { body: '{"Version":"v1.0.0"}' },
        '/p.example/m/@v/v1.0.0.mod': { body: 'module p.example/m\n', contentType: 'text/plain' },
        '/p.example/m/@v/v1.0.0.zip': { body: zip, contentType: 'application/zip' },
      },
      { requireAuthorization: 'Bearer secret' },
    );
    const described = await registry({ baseUrl: server.url, credentials: { token: 'secret' } }).describeVersion?.('p.example/m', 'v1.0.0');
    expect(described?.artifacts[0]?.digests[0]?.value).toBe(expectedHash1({ 'p.example/m@v1.0.0/go.mod': 'module p.example/m\n' }));
    await expect(registry({ baseUrl: server.url }).fetchPackage('p.example/m')).rejects.toMatchObject({ kind: 'auth_failed' });
  });
});

describe('GOPROXY adapter against the registry emulator', () => {
  it('reads demo modules, a published version, and the private scope', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const proxy = createGoProxyRegistry({ baseUrl: `${emulator.url}/goproxy/`, retries: 0 });
    const privateProxy = createGoProxyRegistry({
      baseUrl: `${emulator.url}/private/goproxy/`,
      retries: 0,
      credentials: { token: DEMO_REGISTRY_TOKEN },
    });
    try {
      const uuid = await proxy.fetchPackage('github.com/acme-oss/uuid');
      expect(uuid?.versions.map((v) => v.version)).toEqual(['v1.2.0', 'v1.3.0', 'v1.3.1-rc.1']);
      expect(uuid?.latest).toBe('v1.3.0');
      expect(uuid?.versions[1]?.releasedAt).toBe('2023-09-05T16:40:00.000Z');
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          packageManager: 'go_modules',
          name: 'github.com/acme-oss/uuid',
          version: 'v1.4.0',
          dependencies: { 'golang.org/x/text': 'v0.14.0' },
        }),
      });
      expect(published.status).toBe(201);
      expect((await proxy.fetchPackage('github.com/acme-oss/uuid'))?.latest).toBe('v1.4.0');
      const details = await proxy.describeVersion?.('github.com/acme-oss/uuid', 'v1.4.0');
      expect(details?.dependencies).toEqual([{ name: 'golang.org/x/text', requirement: 'v0.14.0', kind: 'runtime' }]);
      expect(details?.artifacts.map((a) => a.digests[0]?.value)).toEqual([
        expect.stringMatching(/^h1:[A-Za-z0-9+/]{43}=$/),
        expect.stringMatching(/^h1:/),
      ]);
      // the same version always hashes the same (deterministic zips)
      expect(await proxy.describeVersion?.('github.com/acme-oss/uuid', 'v1.4.0')).toEqual(details);
      expect(await proxy.fetchPackage('git.acme.example/platform/auth')).toBeUndefined();
      const auth = await privateProxy.fetchPackage('git.acme.example/platform/auth');
      expect(auth?.versions.map((v) => v.version)).toEqual(['v0.1.0', 'v0.2.0']);
      expect((await privateProxy.describeVersion?.('git.acme.example/platform/auth', 'v0.2.0'))?.artifacts).toHaveLength(2);
    } finally {
      await proxy.close();
      await privateProxy.close();
      await emulator.close();
    }
  });
});
