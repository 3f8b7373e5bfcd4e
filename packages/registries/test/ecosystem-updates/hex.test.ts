import { createHash } from 'node:crypto';
import { type DependencyUse, hex, type RegistryVersionDetails } from '@switchyard/ecosystems';
import { loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../ecosystems/test/fixtures.ts';
import { createHexRegistry } from '../../src/index.ts';

/**
 * hex's mix.lock update on what the Hex adapter describes from the registry emulator (moved from @switchyard/ecosystems'
 * update-hex.test.ts: that package no longer depends on this one).
 */

const files = fixture('hex');
const lock = files['mix.lock'] ?? '';
const use = (f: Record<string, string>, name: string) => hex.findDependency(f, name) as DependencyUse;

describe('hex updateLockfiles', () => {
  const lineOf = (text: string, name: string) => text.split('\n').find((line) => line.startsWith(`  "${name}":`));
  it('locks the checksums the registry emulator serves for a published version', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const registry = createHexRegistry({ baseUrl: `${emulator.url}/hex/api/`, retries: 0 });
    try {
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'hex', name: 'jason', version: '1.4.1' }),
      });
      expect(published.status).toBe(201);
      const details = (await registry.describeVersion?.('jason', '1.4.1')) as RegistryVersionDetails;
      const bare = { ...files, 'mix.lock': lock.replace(/\[\{:decimal[^\]]*\]\}\]/, '[]') };
      const result = await hex.updateLockfiles?.({ files: bare, updated: bare, use: use(bare, 'jason'), target: details, registries: [] });
      const line = lineOf((result as { files: Record<string, string> }).files['mix.lock'] ?? '', 'jason') ?? '';
      const tarball = Buffer.from(await (await fetch(details.artifacts[0]?.url ?? '')).arrayBuffer());
      expect(line).toContain(
        `"1.4.1", "${details.artifacts[0]?.attributes?.inner_checksum}", [:mix], [], "hexpm", "${createHash('sha256').update(tarball).digest('hex')}"}`,
      );
    } finally {
      await registry.close();
      await emulator.close();
    }
  });
});
