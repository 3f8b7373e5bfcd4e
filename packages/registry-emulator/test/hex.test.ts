import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hexInnerChecksum } from '../src/protocols/hex.ts';
import { bearer, digests, get, post, startEmulator } from './fixtures.ts';

describe('hex protocol', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers a package with hex.pm's fields, retirements for yanked versions", async () => {
    const res = await get(server, '/hex/api/packages/ex_doc');
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'ex_doc',
      latest_stable_version: '0.31.0',
      meta: { links: { GitHub: 'https://github.com/elixir-lang/ex_doc' } },
      releases: [
        { version: '0.31.1', inserted_at: '2024-01-10T08:30:11.000Z', url: `${server.url}/hex/api/packages/ex_doc/releases/0.31.1` },
        { version: '0.31.0' },
        { version: '0.30.9' },
      ],
      retirements: { '0.31.1': { reason: 'other', message: 'broken release' } },
    });
  });

  it('answers a release with both checksums and its requirements, and serves the tarball', async () => {
    const res = await get(server, '/hex/api/packages/jason/releases/1.4.0');
    expect(res.json()).toMatchObject({
      version: '1.4.0',
      checksum: digests('hex', 'jason', '1.4.0').sha256,
      inner_checksum: hexInnerChecksum('jason', '1.4.0'),
      requirements: {},
      retirement: null,
      meta: { build_tools: ['mix'] },
    });
    const tarball = await get(server, '/hex/repo/tarballs/jason-1.4.0.tar');
    expect(tarball.status).toBe(200);
    expect(tarball.text).toBe('hex:jason@1.4.0');
  });

  it("answers unknown things with hex.pm's error shape", async () => {
    for (const path of [
      '/hex/api/packages/nope',
      '/hex/api/packages/jason/releases/9.9.9',
      '/hex/api/users/x',
      '/hex/repo/tarballs/jason-9.tar',
    ]) {
      const res = await get(server, path);
      expect(res.status, path).toBe(404);
      expect(res.json(), path).toEqual({ status: 404, message: 'Page not found' });
    }
  });

  it('shows a version published through the admin API, and private packages with credentials only', async () => {
    const published = await post(server, '/admin/publish', {
      packageManager: 'hex',
      name: 'telemetry',
      version: '1.3.0',
      dependencies: { jason: '~> 1.4' },
    });
    expect(published.status).toBe(201);
    expect(published.json()).toMatchObject({ entry: { version: '1.3.0' }, metadataUrl: `${server.url}/hex/api/packages/telemetry` });
    expect((await get(server, '/hex/api/packages/telemetry')).json().latest_stable_version).toBe('1.3.0');
    expect((await get(server, '/hex/api/packages/telemetry/releases/1.3.0')).json().requirements).toEqual({
      jason: { app: 'jason', optional: false, requirement: '~> 1.4' },
    });
    expect((await get(server, '/private/hex/api/packages/acme_auth')).status).toBe(401);
    expect((await get(server, '/private/hex/api/packages/acme_auth', bearer('demo-registry-token'))).json().repository).toBe('acme');
  });
});
