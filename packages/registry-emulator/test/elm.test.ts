import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, digests, get, post, startEmulator } from './fixtures.ts';

describe('elm protocol', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers releases.json with Unix seconds', async () => {
    const res = await get(server, '/elm/packages/elm/http/releases.json');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ '1.0.0': 1534866924, '2.0.0': 1542646690 });
  });

  it("answers a version's elm.json and endpoint.json, and serves the zip", async () => {
    const elmJson = (await get(server, '/elm/packages/elm/http/2.0.0/elm.json')).json();
    expect(elmJson).toMatchObject({
      type: 'package',
      name: 'elm/http',
      version: '2.0.0',
      dependencies: { 'elm/core': '1.0.0 <= v < 2.0.0' },
    });
    const endpoint = (await get(server, '/elm/packages/elm/http/2.0.0/endpoint.json')).json();
    expect(endpoint).toEqual({
      url: `${server.url}/elm/packages/elm/http/2.0.0/package.zip`,
      hash: digests('elm', 'elm/http', '2.0.0').sha1,
    });
    expect((await get(server, new URL(endpoint.url).pathname)).text).toBe('elm:elm/http@2.0.0');
  });

  it('answers unknown things with 404', async () => {
    for (const path of [
      '/elm/packages/elm/nope/releases.json',
      '/elm/packages/elm/http/9.9.9/elm.json',
      '/elm/packages/elm/http/2.0.0/docs.json',
      '/elm/all-packages',
    ]) {
      expect((await get(server, path)).status, path).toBe(404);
    }
  });

  it('shows a version published through the admin API, and private packages with credentials only', async () => {
    const published = await post(server, '/admin/publish', {
      packageManager: 'elm',
      name: 'elm/json',
      version: '1.1.4',
      releasedAt: '2025-01-01T00:00:00Z',
      dependencies: { 'elm/core': '1.0.0 <= v < 2.0.0' },
    });
    expect(published.status).toBe(201);
    expect(published.json()).toMatchObject({
      entry: { version: '1.1.4', released: 1735689600 },
      metadataUrl: `${server.url}/elm/packages/elm/json/releases.json`,
    });
    expect((await get(server, '/elm/packages/elm/json/releases.json')).json()['1.1.4']).toBe(1735689600);
    expect((await get(server, '/private/elm/packages/acme/elm-design-tokens/releases.json')).status).toBe(401);
    expect((await get(server, '/private/elm/packages/acme/elm-design-tokens/releases.json', bearer('demo-registry-token'))).status).toBe(
      200,
    );
  });
});
