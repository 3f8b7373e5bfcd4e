import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_REGISTRY_USER, loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { createOciRegistry, DEFAULT_DOCKER_REGISTRY_URL, MANIFEST_ACCEPT, ociLocation, parseAuthChallenges } from '../src/adapters/oci.ts';
import type { PackageRegistry } from '../src/port.ts';
import { RegistryError } from '../src/port.ts';
import { DEFAULT_REGISTRY_URLS, registryFor } from '../src/registry-for.ts';
import { fixture } from './fixture-server.ts';

const TOKEN = JSON.parse((await fixture('oci/token.json')).toString('utf8')).token as string;
const PAGE_1 = (await fixture('oci/tags-page-1.json')).toString('utf8');
const PAGE_2 = (await fixture('oci/tags-page-2.json')).toString('utf8');
const INDEX = (await fixture('oci/image-index.json')).toString('utf8');
const NAME_UNKNOWN = (await fixture('oci/errors-name-unknown.json')).toString('utf8');
const DIGEST = `sha256:${createHash('sha256').update(INDEX).digest('hex')}`;

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
}

/** A registry with Docker's token auth: `/v2/…` needs `Bearer <TOKEN>`; `/token` issues it (to `basic` only, when set). */
async function startOciServer(options: { basic?: string; digestHeader?: boolean; challenge?: string; manifest?: Buffer } = {}) {
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: string | Buffer, headers: Record<string, string> = {}) => {
      requests.push({ method: req.method ?? '', path: `${url.pathname}${url.search}`, headers: req.headers, status });
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(req.method === 'HEAD' ? undefined : body);
    };
    const origin = `http://${req.headers.host}`;
    if (url.pathname === '/token') {
      if (options.basic !== undefined && req.headers.authorization !== options.basic)
        return send(401, '{"details":"incorrect username or password"}');
      return send(200, JSON.stringify({ token: TOKEN, access_token: TOKEN, expires_in: 300, issued_at: '2026-11-24T10:00:00Z' }));
    }
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      const scope = url.pathname.replace(/^\/v2\/(.*)\/(?:tags|manifests)\/.*$/, '$1');
      const challenge = options.challenge ?? `Bearer realm="${origin}/token",service="registry.test",scope="repository:${scope}:pull"`;
      return send(401, '{"errors":[{"code":"UNAUTHORIZED","message":"authentication required","detail":null}]}', {
        'www-authenticate': challenge,
      });
    }
    const path = `${url.pathname}${url.search}`;
    if (path === '/v2/library/python/tags/list?n=1000') {
      return send(200, PAGE_1, { link: '</v2/library/python/tags/list?n=1000&last=3.11-slim>; rel="next"' });
    }
    if (path === '/v2/library/python/tags/list?n=1000&last=3.11-slim') return send(200, PAGE_2);
    if (path === '/v2/team/app/tags/list?n=1000') return send(200, '{"name":"team/app","tags":null}');
    if (path === '/v2/library/broken/tags/list?n=1000') return send(200, '{"name":');
    if (url.pathname === '/v2/library/python/manifests/3.12-slim') {
      return send(200, options.manifest ?? INDEX, {
        'content-type': 'application/vnd.oci.image.index.v1+json',
        ...(options.digestHeader === false ? {} : { 'docker-content-digest': DIGEST }),
      });
    }
    if (url.pathname.includes('/manifests/')) return send(404, '{"errors":[{"code":"MANIFEST_UNKNOWN","message":"manifest unknown"}]}');
    return send(404, NAME_UNKNOWN);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OCI distribution registry adapter', () => {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const item of open.splice(0)) await item.close();
  });
  const serve = async (options?: Parameters<typeof startOciServer>[0]) => {
    const server = await startOciServer(options);
    open.push(server);
    return server;
  };
  const registry = (options: Parameters<typeof createOciRegistry>[0]): PackageRegistry => {
    const oci = createOciRegistry({ retries: 0, retryDelayMs: 10, ...options });
    open.push(oci);
    return oci;
  };

  it('maps image names to registry hosts and repositories as Docker does', () => {
    expect(ociLocation('python')).toEqual({ host: null, repository: 'library/python' });
    expect(ociLocation('acme/app')).toEqual({ host: null, repository: 'acme/app' });
    expect(ociLocation('docker.io/library/python')).toEqual({ host: null, repository: 'library/python' });
    expect(ociLocation('docker.io/python')).toEqual({ host: null, repository: 'library/python' });
    expect(ociLocation('ghcr.io/owner/img')).toEqual({ host: 'ghcr.io', repository: 'owner/img' });
    expect(ociLocation('registry.example.com:5000/team/app')).toEqual({ host: 'registry.example.com:5000', repository: 'team/app' });
    expect(ociLocation('localhost/x')).toEqual({ host: 'localhost', repository: 'x' });
    for (const bad of ['', 'Python', 'python:3.12', 'a//b', 'python@sha256:00', '/x'])
      expect(() => ociLocation(bad), bad).toThrow(TypeError);
  });

  it('reads WWW-Authenticate challenges', () => {
    expect(
      parseAuthChallenges(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:samalba/my-app:pull,push"',
      ),
    ).toEqual([
      {
        scheme: 'bearer',
        params: { realm: 'https://auth.docker.io/token', service: 'registry.docker.io', scope: 'repository:samalba/my-app:pull,push' },
      },
    ]);
    expect(parseAuthChallenges(['Basic realm="registry-emulator"', 'Bearer realm="registry-emulator"']).map((c) => c.scheme)).toEqual([
      'basic',
      'bearer',
    ]);
    expect(parseAuthChallenges('Basic realm="a, b", Bearer realm=x')).toEqual([
      { scheme: 'basic', params: { realm: 'a, b' } },
      { scheme: 'bearer', params: { realm: 'x' } },
    ]);
  });

  it('defaults to Docker Hub and is the docker adapter of registryFor', () => {
    const oci = registry({});
    expect(oci.packageManager).toBe('docker');
    expect(oci.baseUrl).toBe(DEFAULT_DOCKER_REGISTRY_URL);
    expect(DEFAULT_REGISTRY_URLS.docker).toBe(DEFAULT_DOCKER_REGISTRY_URL);
    const viaFor = registryFor('docker', { retries: 0 });
    if (viaFor) open.push(viaFor);
    expect(viaFor?.packageManager).toBe('docker');
  });

  it('answers the Bearer challenge with an anonymous token, then follows the Link pages with it', async () => {
    const server = await serve();
    const oci = registry({ baseUrl: server.url });
    expect(await oci.fetchPackage('python')).toEqual({
      name: 'python',
      latest: null,
      sourceUrl: null,
      changelogUrl: null,
      versions: ['3.9-slim', '3.10-slim', '3.11-slim', '3.12-slim', 'latest'].map((version) => ({
        version,
        releasedAt: null,
        yanked: false,
        deprecated: null,
        digests: [],
      })),
    });
    expect(server.requests.map((r) => [r.path, r.status])).toEqual([
      ['/v2/library/python/tags/list?n=1000', 401],
      ['/token?service=registry.test&scope=repository%3Alibrary%2Fpython%3Apull', 200],
      ['/v2/library/python/tags/list?n=1000', 200],
      ['/v2/library/python/tags/list?n=1000&last=3.11-slim', 200],
    ]);
    expect(server.requests[1]?.headers.authorization).toBeUndefined();
    expect(server.requests[3]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    // The token is kept for the repository: the next call needs no challenge.
    await oci.describeVersion?.('python', '3.12-slim');
    expect(server.requests.slice(4).map((r) => [r.method, r.path, r.status])).toEqual([
      ['HEAD', '/v2/library/python/manifests/3.12-slim', 200],
    ]);
  });

  it('gets the token with the Basic credentials for the base registry, never for an image on another host', async () => {
    const basic = `Basic ${Buffer.from('acme-ci:secret').toString('base64')}`;
    const own = await serve({ basic });
    const other = await serve();
    const oci = registry({ baseUrl: own.url, credentials: { username: 'acme-ci', password: 'secret' } });
    expect((await oci.fetchPackage('python'))?.versions).toHaveLength(5);
    expect(own.requests[0]?.headers.authorization).toBe(basic);
    expect(own.requests[1]).toMatchObject({ path: expect.stringMatching(/^\/token\?/), status: 200 });
    expect(own.requests[1]?.headers.authorization).toBe(basic);

    expect(await oci.fetchPackage(`${other.host}/team/app`)).toMatchObject({ name: `${other.host}/team/app`, versions: [] });
    expect(other.requests.map((r) => r.path)).toEqual([
      '/v2/team/app/tags/list?n=1000',
      '/token?service=registry.test&scope=repository%3Ateam%2Fapp%3Apull',
      '/v2/team/app/tags/list?n=1000',
    ]);
    expect(other.requests.slice(0, 2).map((r) => r.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('describes a tag by the HEAD of its manifest: Docker-Content-Digest, with every manifest media type accepted', async () => {
    const server = await serve();
    const oci = registry({ baseUrl: server.url });
    expect(await oci.describeVersion?.('python', '3.12-slim')).toEqual({
      name: 'python',
      version: '3.12-slim',
      dependencies: null,
      artifacts: [
        {
          filename: 'python:3.12-slim',
          url: `${server.url}v2/library/python/manifests/3.12-slim`,
          digests: [{ algorithm: 'sha256', value: DIGEST.slice('sha256:'.length), encoding: 'hex' }],
        },
      ],
    });
    const head = server.requests.filter((r) => r.method === 'HEAD' && r.status === 200);
    expect(head).toHaveLength(1);
    expect(head[0]?.headers.accept).toBe(MANIFEST_ACCEPT);
    for (const type of [
      'application/vnd.oci.image.index.v1+json',
      'application/vnd.oci.image.manifest.v1+json',
      'application/vnd.docker.distribution.manifest.list.v2+json',
      'application/vnd.docker.distribution.manifest.v2+json',
    ]) {
      expect(MANIFEST_ACCEPT).toContain(type);
    }
    expect(await oci.describeVersion?.('python', '3.99-slim')).toBeUndefined();
    expect(await oci.describeVersion?.('python', 'not a tag')).toBeUndefined();
  });

  it('hashes the manifest when the registry sends no Docker-Content-Digest', async () => {
    const server = await serve({ digestHeader: false });
    const oci = registry({ baseUrl: server.url });
    const details = await oci.describeVersion?.('python', '3.12-slim');
    expect(details?.artifacts[0]?.digests[0]?.value).toBe(DIGEST.slice('sha256:'.length));
    expect(server.requests.filter((r) => r.status === 200).map((r) => r.method)).toEqual(['GET', 'HEAD', 'GET']);
  });

  it('hashes the manifest bytes as served, a BOM and invalid UTF-8 included', async () => {
    const manifest = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(INDEX, 'utf8'), Buffer.from([0xff, 0x0a])]);
    const server = await serve({ digestHeader: false, manifest });
    const details = await registry({ baseUrl: server.url }).describeVersion?.('python', '3.12-slim');
    expect(details?.artifacts[0]?.digests[0]?.value).toBe(createHash('sha256').update(manifest).digest('hex'));
  });

  it('sends the credentials to a token realm on another origin only when tokenRealms names its host', async () => {
    const basic = `Basic ${Buffer.from('acme-ci:secret').toString('base64')}`;
    const tokens = await serve();
    const own = await serve({ challenge: `Bearer realm="${tokens.url}token",service="registry.test"` });
    const credentials = { username: 'acme-ci', password: 'secret' };
    expect((await registry({ baseUrl: own.url, credentials }).fetchPackage('python'))?.versions).toHaveLength(5);
    expect(own.requests[0]?.headers.authorization).toBe(basic);
    expect(tokens.requests.map((r) => [r.path, r.status, r.headers.authorization])).toEqual([
      ['/token?service=registry.test&scope=repository%3Alibrary%2Fpython%3Apull', 200, undefined],
    ]);
    // A bearer token is not sent there either.
    await registry({ baseUrl: own.url, credentials: { token: 'pat' } }).fetchPackage('python');
    expect(tokens.requests.map((r) => r.headers.authorization)).toEqual([undefined, undefined]);

    await registry({ baseUrl: own.url, credentials, tokenRealms: [tokens.host] }).fetchPackage('python');
    expect(tokens.requests[2]?.headers.authorization).toBe(basic);
  });

  it('gives undefined for an unknown repository, and RegistryError for refused tokens, bad challenges and bad bodies', async () => {
    const server = await serve({ basic: 'Basic nobody' });
    const anonymous = registry({ baseUrl: server.url });
    await expect(anonymous.fetchPackage('python')).rejects.toMatchObject({ name: 'RegistryError', kind: 'auth_failed' });
    const ok = await serve();
    const oci = registry({ baseUrl: ok.url });
    expect(await oci.fetchPackage('nosuch')).toBeUndefined();
    await expect(oci.fetchPackage('broken')).rejects.toMatchObject({ kind: 'bad_response' });
    await expect(oci.fetchPackage('Not/Valid')).rejects.toThrow(TypeError);
    const basicOnly = await serve({ challenge: 'Basic realm="registry"' });
    const refused = registry({ baseUrl: basicOnly.url });
    const error = await refused.fetchPackage('python').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ kind: 'auth_failed', status: 401 });
    expect(refused.stats().requests).toBe(1);
  });
});

describe('OCI adapter against the registry emulator', () => {
  it('lists the tags of an official image, describes a tag with the digest the demo Dockerfile pins, sees a publish, reads a private image', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const oci = createOciRegistry({ baseUrl: `${emulator.url}/docker/`, retries: 0 });
    const privateOci = createOciRegistry({ baseUrl: `${emulator.url}/private/docker/`, retries: 0, credentials: DEMO_REGISTRY_USER });
    try {
      const python = await oci.fetchPackage('python');
      expect(python?.versions.map((v) => v.version)).toEqual(expect.arrayContaining(['3.9-slim', '3.10-slim', '3.11-slim', '3.12-slim']));
      expect(await oci.fetchPackage('docker.io/library/python')).toMatchObject({ versions: python?.versions });
      const nginx = await oci.describeVersion?.('nginx', '1.25-alpine');
      expect(nginx?.artifacts[0]?.digests[0]?.value).toBe('c67bfbbedc7274f82cb0c95adb03e2a3642a6c4e29d1b0fe88304e533a4beaef');
      expect(nginx?.artifacts[0]?.url).toBe(`${emulator.url}/docker/v2/library/nginx/manifests/1.25-alpine`);
      expect(await oci.fetchPackage('nosuch')).toBeUndefined();
      expect(await oci.describeVersion?.('python', '9.9-slim')).toBeUndefined();

      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'docker', name: 'library/python', version: '3.13-slim' }),
      });
      expect(published.status).toBe(201);
      expect((await oci.fetchPackage('python'))?.versions.map((v) => v.version)).toContain('3.13-slim');
      expect((await oci.describeVersion?.('python', '3.13-slim'))?.artifacts[0]?.digests[0]?.value).toMatch(/^[0-9a-f]{64}$/);

      expect(await oci.fetchPackage('acme/base-python')).toBeUndefined();
      expect((await privateOci.fetchPackage('acme/base-python'))?.versions.map((v) => v.version)).toEqual(
        expect.arrayContaining(['1.0-py3.11', '1.1-py3.11']),
      );
      const anonymousPrivate = createOciRegistry({ baseUrl: `${emulator.url}/private/docker/`, retries: 0 });
      await expect(anonymousPrivate.fetchPackage('acme/base-python')).rejects.toMatchObject({ kind: 'auth_failed' });
      await anonymousPrivate.close();
    } finally {
      await oci.close();
      await privateOci.close();
      await emulator.close();
    }
  });
});
