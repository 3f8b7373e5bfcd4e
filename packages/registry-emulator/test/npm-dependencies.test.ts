import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedInput } from '../src/index.ts';
import { bearer, get, post, startEmulator } from './fixtures.ts';

const releasedAt = '2026-01-02T03:04:05.000Z';

/** Two public packages, one depending on the other, and a private scoped one depending on both. */
const SEED: SeedInput = {
  packages: [
    {
      packageManager: 'npm_and_yarn',
      name: 'left',
      versions: [
        { version: '1.0.0', releasedAt },
        { version: '1.1.0', releasedAt, dependencies: { right: '^2.0.0' } },
      ],
    },
    { packageManager: 'npm_and_yarn', name: 'right', versions: [{ version: '2.0.0', releasedAt }] },
    {
      packageManager: 'npm_and_yarn',
      name: '@acme/core',
      private: true,
      versions: [{ version: '3.0.0', releasedAt, dependencies: { left: '~1.1.0', right: '>=2 <3' } }],
    },
  ],
  credentials: [{ token: 'npm-dependencies-token' }],
};

describe('registry emulator: npm version documents carry the seeded dependencies', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startEmulator(SEED);
  });
  afterAll(() => server.close());

  it('in the packument and in the version document; none when the seed gives none', async () => {
    const doc = (await get(server, '/npm/left')).json();
    expect(doc.versions['1.0.0'].dependencies).toEqual({});
    expect(doc.versions['1.1.0'].dependencies).toEqual({ right: '^2.0.0' });
    expect((await get(server, '/npm/left/1.1.0')).json().dependencies).toEqual({ right: '^2.0.0' });
    expect((await get(server, '/npm/left/latest')).json().dependencies).toEqual({ right: '^2.0.0' });
    const core = (await get(server, '/private/npm/@acme%2fcore', bearer('npm-dependencies-token'))).json();
    expect(core.versions['3.0.0'].dependencies).toEqual({ left: '~1.1.0', right: '>=2 <3' });
  });

  it('a version published with dependencies serves them', async () => {
    const published = await post(server, '/admin/publish', {
      packageManager: 'npm_and_yarn',
      name: 'right',
      version: '2.1.0',
      releasedAt,
      dependencies: { left: '^1.0.0' },
    });
    expect(published.status).toBe(201);
    expect((await get(server, '/npm/right/2.1.0')).json().dependencies).toEqual({ left: '^1.0.0' });
    expect((await get(server, '/npm/right')).json().versions['2.0.0'].dependencies).toEqual({});
  });
});
