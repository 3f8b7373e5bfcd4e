import { createHash } from 'node:crypto';
import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorRegistryUrls } from '../src/index.ts';
import { type DockerContext, dockerManifest, dockerProtocol, OCI_IMAGE_MANIFEST } from '../src/protocols/docker.ts';
import { createRegistry } from '../src/registry.ts';
import { DEMO_REGISTRY_TOKEN, DEMO_REGISTRY_USER, loadDemoSeed } from '../src/seed.ts';
import { basic, bearer, call, get, post, startEmulator } from './fixtures.ts';

const sha256 = (body: string | Buffer) => `sha256:${createHash('sha256').update(body).digest('hex')}`;

describe('registry emulator: docker (OCI distribution)', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  /**
   * A pull as Docker clients make it from Docker Hub: a token from `/docker/token` for the repository the path names (or
   * none, for `/v2/`), then the request with it.
   */
  const pull = async (path: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
    const name = /^\/docker\/v2\/(.+)\/(?:tags|manifests|blobs)\//.exec(path)?.[1];
    const scope = name === undefined ? '' : `&scope=repository:${name}:pull`;
    const { token } = (await get(server, `/docker/token?service=registry.test${scope}`)).json();
    return call(server, method, path, { headers: { ...headers, authorization: `Bearer ${token}` } });
  };

  it('is at <origin>/docker/ for clients', () => {
    expect(emulatorRegistryUrls(server.url).docker).toBe(`${server.url}/docker/`);
  });

  it('answers the API check and the token service, and challenges a pull without a token as Docker Hub does', async () => {
    const anonymous = await get(server, '/docker/v2/library/python/tags/list');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(
      /^Bearer realm="http:\/\/127\.0\.0\.1:\d+\/docker\/token",service="127\.0\.0\.1:\d+",scope="repository:library\/python:pull"$/,
    );
    const check = await pull('/docker/v2/');
    expect(check.status).toBe(200);
    expect(check.json()).toEqual({});
    expect(check.headers['docker-distribution-api-version']).toBe('registry/2.0');
    const token = await get(server, '/docker/token?service=registry.test&scope=repository:library/python:pull');
    expect(token.status).toBe(200);
    const body = token.json();
    expect(body).toEqual({ token: expect.any(String), access_token: body.token, expires_in: 300, issued_at: expect.any(String) });
    expect(Number.isNaN(Date.parse(body.issued_at))).toBe(false);
  });

  it('lists the tags of an official image under library/, with conditional requests', async () => {
    const tags = await pull('/docker/v2/library/python/tags/list');
    expect(tags.status).toBe(200);
    expect(tags.json().name).toBe('library/python');
    expect(tags.json().tags).toEqual(expect.arrayContaining(['3.9-slim', '3.10-slim', '3.11-slim', '3.12-slim']));
    expect((await pull('/docker/v2/library/python/tags/list', { 'if-none-match': tags.headers.etag as string })).status).toBe(304);
  });

  it('serves a manifest by tag and by digest, GET and HEAD, its sha256 the Docker-Content-Digest, deterministic from name and tag', async () => {
    const byTag = await pull('/docker/v2/library/python/manifests/3.11-slim');
    expect(byTag.status).toBe(200);
    expect(byTag.headers['content-type']).toBe(OCI_IMAGE_MANIFEST);
    const digest = byTag.headers['docker-content-digest'];
    expect(digest).toBe(sha256(byTag.text));
    expect(digest).toBe(dockerManifest('library/python', '3.11-slim').digest);
    expect(byTag.json()).toMatchObject({ schemaVersion: 2, mediaType: OCI_IMAGE_MANIFEST, layers: [{ size: expect.any(Number) }] });
    const head = await pull('/docker/v2/library/python/manifests/3.11-slim', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['docker-content-digest']).toBe(digest);
    const byDigest = await pull(`/docker/v2/library/python/manifests/${digest}`);
    expect(byDigest.text).toBe(byTag.text);
    // The digest the demo Dockerfile pins nginx:1.25-alpine with.
    expect(dockerManifest('library/nginx', '1.25-alpine').digest).toBe(
      'sha256:c67bfbbedc7274f82cb0c95adb03e2a3642a6c4e29d1b0fe88304e533a4beaef',
    );
  });

  it("serves the manifest's config and layer blobs", async () => {
    const manifest = (await pull('/docker/v2/library/node/manifests/20.11-alpine')).json();
    const config = await pull(`/docker/v2/library/node/blobs/${manifest.config.digest}`);
    expect(config.status).toBe(200);
    expect(sha256(config.text)).toBe(manifest.config.digest);
    const layer = await pull(`/docker/v2/library/node/blobs/${manifest.layers[0].digest}`);
    expect(layer.text).toBe('docker:library/node@20.11-alpine');
  });

  it('answers errors in the distribution format', async () => {
    const unknown = await pull('/docker/v2/library/nosuch/tags/list');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual({
      errors: [{ code: 'NAME_UNKNOWN', message: 'repository name not known to registry', detail: { name: 'library/nosuch' } }],
    });
    const noTag = await pull('/docker/v2/library/python/manifests/9.9');
    expect(noTag.status).toBe(404);
    expect(noTag.json().errors[0].code).toBe('MANIFEST_UNKNOWN');
    expect((await pull(`/docker/v2/library/python/blobs/sha256:${'0'.repeat(64)}`)).json().errors[0].code).toBe('BLOB_UNKNOWN');
    const method = await call(server, 'PUT', '/docker/v2/library/python/manifests/3.11-slim', { body: '{}' });
    expect(method.status).toBe(405);
    expect(method.json().errors[0].code).toBe('UNSUPPORTED');
  });

  it('serves private images under /private/docker/ with the seed credentials only', async () => {
    expect((await pull('/docker/v2/acme/base-python/tags/list')).status).toBe(404);
    const anonymous = await get(server, '/private/docker/v2/acme/base-python/tags/list');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json().errors[0].code).toBe('UNAUTHORIZED');
    const withUser = await get(
      server,
      '/private/docker/v2/acme/base-python/tags/list',
      basic(DEMO_REGISTRY_USER.username, DEMO_REGISTRY_USER.password),
    );
    expect(withUser.status).toBe(200);
    expect(withUser.json().tags).toEqual(expect.arrayContaining(['1.0-py3.11', '1.1-py3.11', '1.2-py3.12']));
    expect((await get(server, '/private/docker/token?scope=repository:acme/base-python:pull', bearer(DEMO_REGISTRY_TOKEN))).status).toBe(
      200,
    );
  });

  it('shows an admin publish as a new tag, and a yank as a deleted one', async () => {
    const published = await post(server, '/admin/publish', { packageManager: 'docker', name: 'library/python', version: '3.13-slim' });
    expect(published.status).toBe(201);
    expect(published.json().entry).toEqual({
      name: 'library/python',
      tag: '3.13-slim',
      mediaType: OCI_IMAGE_MANIFEST,
      digest: dockerManifest('library/python', '3.13-slim').digest,
    });
    expect((await pull('/docker/v2/library/python/tags/list')).json().tags).toContain('3.13-slim');
    expect((await pull('/docker/v2/library/python/manifests/3.13-slim')).headers['docker-content-digest']).toBe(
      dockerManifest('library/python', '3.13-slim').digest,
    );
    expect((await post(server, '/admin/yank', { packageManager: 'docker', name: 'library/python', version: '3.13-slim' })).status).toBe(
      200,
    );
    expect((await pull('/docker/v2/library/python/tags/list')).json().tags).not.toContain('3.13-slim');
    expect((await pull('/docker/v2/library/python/manifests/3.13-slim')).status).toBe(404);
  });
});

describe('docker protocol with the request passed: Docker Hub token auth', () => {
  const registry = createRegistry(loadDemoSeed());
  const context = (request: { authorization?: string; query?: URLSearchParams }): DockerContext => ({
    registry,
    privateScope: false,
    baseUrl: 'http://registry.test/docker',
    startedAt: new Date(0),
    request: { authorization: request.authorization, query: request.query ?? new URLSearchParams() },
  });

  it('challenges without a token, issues one for the scope asked, and accepts it for that repository only', () => {
    const denied = dockerProtocol.answer('/v2/library/python/tags/list', context({ query: new URLSearchParams() }));
    expect(denied.status).toBe(401);
    expect(denied.headers?.['www-authenticate']).toBe(
      'Bearer realm="http://registry.test/docker/token",service="registry.test",scope="repository:library/python:pull"',
    );
    expect(JSON.parse(String(denied.body)).errors[0].code).toBe('UNAUTHORIZED');
    expect(dockerProtocol.answer('/v2/', context({})).headers?.['www-authenticate']).toBe(
      'Bearer realm="http://registry.test/docker/token",service="registry.test"',
    );

    const issued = dockerProtocol.answer(
      '/token',
      context({ query: new URLSearchParams({ service: 'registry.test', scope: 'repository:library/python:pull' }) }),
    );
    const { token } = JSON.parse(String(issued.body));
    const authorization = `Bearer ${token}`;
    expect(dockerProtocol.answer('/v2/library/python/tags/list', context({ authorization })).status).toBe(200);
    expect(dockerProtocol.answer('/v2/', context({ authorization })).status).toBe(200);
    expect(dockerProtocol.answer('/v2/library/node/tags/list', context({ authorization })).status).toBe(401);
    expect(dockerProtocol.answer('/v2/library/python/tags/list', context({ authorization: 'Bearer forged' })).status).toBe(401);
  });
});
