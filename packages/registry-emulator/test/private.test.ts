import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NPM_ONLY_TOKEN, DEMO_REGISTRY_TOKEN, DEMO_REGISTRY_USER } from '../src/index.ts';
import { basic, bearer, digests, get, post, startEmulator } from './fixtures.ts';

/** One private package per protocol in the demo seed, with its private metadata path. */
const PRIVATE_PATHS = [
  '/npm/@acme%2fwidgets',
  '/pypi/pypi/acme-tools/json',
  '/maven/com/acme/acme-core/maven-metadata.xml',
  '/rubygems/api/v1/versions/acme-billing-client.json',
  '/crates/index/ac/me/acme-crypto',
  '/packagist/p2/acme/payments-sdk.json',
];

describe('registry emulator: private registries', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(() => server.close());

  it('401 with WWW-Authenticate without credentials or with wrong ones', async () => {
    for (const path of PRIVATE_PATHS) {
      for (const headers of [{}, bearer('wrong-token'), basic(DEMO_REGISTRY_USER.username, 'wrong-password')]) {
        const res = await get(server, `/private${path}`, headers);
        expect(res.status, path).toBe(401);
        expect(String(res.headers['www-authenticate']), path).toMatch(/Basic realm="registry-emulator".*Bearer realm="registry-emulator"/);
      }
    }
  });

  it('200 with a bearer token, Basic user:password, a token as Basic password, or a bare token (as cargo sends it)', async () => {
    for (const path of PRIVATE_PATHS) {
      for (const headers of [
        bearer(DEMO_REGISTRY_TOKEN),
        basic(DEMO_REGISTRY_USER.username, DEMO_REGISTRY_USER.password),
        basic('__token__', DEMO_REGISTRY_TOKEN),
        { authorization: DEMO_REGISTRY_TOKEN },
      ]) {
        const res = await get(server, `/private${path}`, headers);
        expect(res.status, `${path} ${headers.authorization}`).toBe(200);
        expect(res.headers['cache-control']).toBe('private, max-age=300');
      }
    }
    const widgets = (await get(server, '/private/npm/@acme/widgets', bearer(DEMO_REGISTRY_TOKEN))).json();
    expect(widgets.versions['1.1.0'].dist.tarball).toBe(`${server.url}/private/npm/@acme/widgets/-/widgets-1.1.0.tgz`);
    const tarball = await get(server, '/private/npm/@acme/widgets/-/widgets-1.1.0.tgz', bearer(DEMO_REGISTRY_TOKEN));
    expect(tarball.text).toBe(digests('npm_and_yarn', '@acme/widgets', '1.1.0').bytes.toString());
    expect((await get(server, '/private/npm/@acme/widgets/-/widgets-1.1.0.tgz')).status).toBe(401);
    expect((await get(server, '/private/crates/index/config.json', bearer(DEMO_REGISTRY_TOKEN))).json()).toEqual({
      dl: `${server.url}/private/crates/api/v1/crates`,
      api: `${server.url}/private/crates`,
      'auth-required': true,
    });
  });

  it('403 for a credential that may not read that package manager', async () => {
    expect((await get(server, '/private/npm/@acme%2fwidgets', bearer(DEMO_NPM_ONLY_TOKEN))).status).toBe(200);
    const denied = await get(server, '/private/pypi/pypi/acme-tools/json', bearer(DEMO_NPM_ONLY_TOKEN));
    expect(denied.status).toBe(403);
    expect(denied.json()).toEqual({ message: 'Forbidden' });
  });

  it('private packages are absent from the public prefixes, public ones from the private prefixes', async () => {
    for (const path of PRIVATE_PATHS) expect((await get(server, path)).status, path).toBe(404);
    for (const path of ['/npm/lodash', '/pypi/pypi/django/json', '/maven/junit/junit/maven-metadata.xml', '/crates/index/se/rd/serde']) {
      expect((await get(server, `/private${path}`, bearer(DEMO_REGISTRY_TOKEN))).status, path).toBe(404);
    }
  });

  it('a private publish is served only under /private', async () => {
    const res = await post(server, '/admin/publish', { packageManager: 'pip', name: 'acme-tools', version: '1.1.0', private: true });
    expect(res.status).toBe(201);
    expect(res.json().metadataUrl).toBe(`${server.url}/private/pypi/pypi/acme-tools/json`);
    expect((await get(server, '/private/pypi/pypi/acme_tools/json', bearer(DEMO_REGISTRY_TOKEN))).json().info.version).toBe('1.1.0');
    expect((await get(server, '/pypi/pypi/acme-tools/json')).status).toBe(404);
    const yank = await post(server, '/admin/yank', { packageManager: 'pip', name: 'acme-tools', version: '1.1.0' });
    expect(yank.status).toBe(404); // the public registry has no acme-tools
  });
});
