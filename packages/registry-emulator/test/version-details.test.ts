import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_REGISTRY_TOKEN } from '../src/index.ts';
import { bearer, digests, get, post, startEmulator } from './fixtures.ts';

describe('registry emulator: the dependencies and digests of one version (RubyGems v2 API, crates.io index deps)', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator();
    const publish = async (body: Record<string, unknown>) => expect((await post(server, '/admin/publish', body)).status).toBe(201);
    await publish({
      packageManager: 'bundler',
      name: 'rails',
      version: '7.2.0',
      dependencies: { railties: '= 7.2.0', rack: '>= 2.2.4, < 4' },
    });
    await publish({ packageManager: 'cargo', name: 'serde', version: '1.0.204', dependencies: { serde_derive: '=1.0.204', itoa: '^1.0' } });
    await publish({
      packageManager: 'bundler',
      name: 'acme-billing-client',
      version: '0.3.0',
      private: true,
      dependencies: { faraday: '~> 2.0' },
    });
  });
  afterAll(() => server.close());

  it('RubyGems: /api/v2/rubygems/{name}/versions/{number}.json gives the number, platform, sha and runtime dependencies', async () => {
    const res = await get(server, '/rubygems/api/v2/rubygems/rails/versions/7.2.0.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.json();
    expect(doc).toMatchObject({
      name: 'rails',
      version: '7.2.0',
      number: '7.2.0',
      platform: 'ruby',
      sha: digests('bundler', 'rails', '7.2.0').sha256,
      gem_uri: `${server.url}/rubygems/gems/rails-7.2.0.gem`,
      dependencies: {
        development: [],
        runtime: [
          { name: 'rack', requirements: '>= 2.2.4, < 4' },
          { name: 'railties', requirements: '= 7.2.0' },
        ],
      },
    });
    // A seed version without dependencies lists none.
    expect((await get(server, '/rubygems/api/v2/rubygems/rails/versions/7.1.3.json')).json().dependencies).toEqual({
      development: [],
      runtime: [],
    });
  });

  it('RubyGems: unknown gems and numbers are 404 in plain text, as rubygems.org answers', async () => {
    const unknownGem = await get(server, '/rubygems/api/v2/rubygems/no-such-gem/versions/1.0.0.json');
    expect(unknownGem.status).toBe(404);
    expect(unknownGem.text).toBe('This rubygem could not be found.');
    const unknownVersion = await get(server, '/rubygems/api/v2/rubygems/rails/versions/0.0.1.json');
    expect(unknownVersion.status).toBe(404);
    expect(unknownVersion.text).toBe('This version could not be found.');
  });

  it('RubyGems: private gems are served under /private with credentials only', async () => {
    const path = '/api/v2/rubygems/acme-billing-client/versions/0.3.0.json';
    expect((await get(server, `/rubygems${path}`)).status).toBe(404);
    expect((await get(server, `/private/rubygems${path}`)).status).toBe(401);
    const res = await get(server, `/private/rubygems${path}`, bearer(DEMO_REGISTRY_TOKEN));
    expect(res.status).toBe(200);
    expect(res.json().dependencies.runtime).toEqual([{ name: 'faraday', requirements: '~> 2.0' }]);
    expect(res.json().gem_uri).toBe(`${server.url}/private/rubygems/gems/acme-billing-client-0.3.0.gem`);
  });

  it('crates.io: index lines carry the stored dependencies as normal, non-optional deps', async () => {
    const res = await get(server, '/crates/index/se/rd/serde');
    const lines = res.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const published = lines.find((line) => line.vers === '1.0.204');
    expect(published.cksum).toBe(digests('cargo', 'serde', '1.0.204').sha256);
    expect(published.deps).toEqual([
      { name: 'itoa', req: '^1.0', features: [], optional: false, default_features: true, target: null, kind: 'normal' },
      { name: 'serde_derive', req: '=1.0.204', features: [], optional: false, default_features: true, target: null, kind: 'normal' },
    ]);
    expect(lines.find((line) => line.vers === '1.0.203').deps).toEqual([]);
  });
});
