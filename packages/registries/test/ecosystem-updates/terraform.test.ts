import { createHash } from 'node:crypto';
import { type DependencyUse, type RegistryVersionDetails, terraform } from '@switchyard/ecosystems';
import { loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger } from '@switchyard/service-kit';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { fixture } from '../../../ecosystems/test/fixtures.ts';
import { createTerraformRegistry } from '../../src/index.ts';

/**
 * terraform's lock file update on what the Terraform registry adapter describes from the registry emulator (moved
 * from @switchyard/ecosystems' update-terraform.test.ts: that package no longer depends on this one).
 */

const files = fixture('terraform');
const use = (f: Record<string, string>, name: string) => terraform.findDependency(f, name) as DependencyUse;

describe('terraform updateLockfiles', () => {
  it('locks the digests the registry emulator serves for a published version', async () => {
    const emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
    const registry = createTerraformRegistry({ baseUrl: `${emulator.url}/terraform/`, retries: 0 });
    try {
      const published = await fetch(`${emulator.url}/admin/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ packageManager: 'terraform', name: 'hashicorp/aws', version: '5.32.0' }),
      });
      expect(published.status).toBe(201);
      const target = await registry.describeVersion?.('hashicorp/aws', '5.32.0');
      expect(target?.artifacts).toHaveLength(4);
      const result = await terraform.updateLockfiles?.({
        files,
        updated: files,
        use: use(files, 'hashicorp/aws'),
        target: target as RegistryVersionDetails,
        registries: [],
      });
      const text = (result as { files: Record<string, string> }).files['.terraform.lock.hcl'] ?? '';
      for (const artifact of target?.artifacts ?? []) expect(text).toContain(`"zh:${artifact.digests[0]?.value}",`);
      expect(text).toContain('version     = "5.32.0"');
      // the h1 of the linux_amd64 zip, computed here from the zip the registry serves
      const linux = target?.artifacts.find((artifact) => artifact.filename.endsWith('_linux_amd64.zip'));
      const unzipped = unzipSync(new Uint8Array(await (await fetch(linux?.url ?? '')).arrayBuffer()));
      const lines = Object.entries(unzipped).map(([name, bytes]) => `${createHash('sha256').update(bytes).digest('hex')}  ${name}\n`);
      expect(text).toContain(`"h1:${createHash('sha256').update(lines.sort().join('')).digest('base64')}",`);
    } finally {
      await registry.close();
      await emulator.close();
    }
  });
});
