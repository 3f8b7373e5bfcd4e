import { type DependencyUse, elm } from '@switchyard/ecosystems';
import { loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../ecosystems/test/fixtures.ts';
import { createElmRegistry } from '../../src/index.ts';

/**
 * elm's manifest update on what the Elm adapter describes from the registry emulator (moved from @switchyard/ecosystems'
 * update-elm.test.ts: that package no longer depends on this one).
 */

const app = fixture('elm');
const use = (f: Record<string, string>, name: string) => elm.findDependency(f, name) as DependencyUse;
const core = { 'elm/core': '1.0.0 <= v < 2.0.0' };

describe('elm updates against the registry emulator', () => {
  it("checks the application with the published version's elm.json", async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const registry = createElmRegistry({ baseUrl: `${emulator.url}/elm/`, retries: 0 });
    try {
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          packageManager: 'elm',
          name: 'elm/http',
          version: '2.0.1',
          dependencies: { ...core, 'elm/json': '1.0.0 <= v < 2.0.0' },
        }),
      });
      expect(published.status).toBe(201);
      const target = await registry.describeVersion?.('elm/http', '2.0.1');
      expect(elm.updateManifest(app, use(app, 'elm/http'), '2.0.1', target)).toMatchObject({ requirement: '2.0.1' });
    } finally {
      await registry.close();
      await emulator.close();
    }
  });
});
