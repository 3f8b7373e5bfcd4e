import { readFileSync } from 'node:fs';
import { type DependencyUse, goModules, type LockfileRequest, type RegistryVersionDetails } from '@switchyard/ecosystems';
import { loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger, type Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGoProxyRegistry } from '../../src/index.ts';

/**
 * go_modules' updaters on what the GOPROXY adapter describes from the registry emulator (moved from
 * @switchyard/ecosystems' update-go-modules.test.ts: that package no longer depends on this one).
 */

const use = (f: Record<string, string>, name: string) => goModules.findDependency(f, name) as DependencyUse;

/** The lockfile request of updating `name` to `target` in `f` (go.mod updated first). */
function lockRequest(f: Record<string, string>, name: string, target: RegistryVersionDetails): LockfileRequest {
  const manifest = goModules.updateManifest(f, use(f, name), target.version);
  const updatedFiles = 'files' in manifest ? { ...f, ...manifest.files } : f;
  return { files: f, updated: updatedFiles, use: use(f, name), target, registries: [{ url: 'https://proxy.golang.org/' }] };
}

describe('go_modules against the registry emulator (demo seed)', () => {
  let emulator: Listening | undefined;
  beforeAll(async () => {
    emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
  });
  afterAll(() => emulator?.close());
  const demo = () => {
    const seed = JSON.parse(readFileSync(new URL('../../../github-emulator/src/demo-seeds/go_modules.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    return Object.fromEntries(
      Object.entries(seed.files['acme/polyglot'] ?? {})
        .filter(([path]) => path.startsWith('go/') && !path.endsWith('.go'))
        .map(([path, text]) => [path.slice(3), text]),
    );
  };

  it('the demo go.sum holds the digests the emulator and the adapter compute', async () => {
    const registry = createGoProxyRegistry({ baseUrl: `${emulator?.url}/goproxy/`, retries: 0 });
    try {
      const lines: string[] = [];
      for (const [name, version] of [
        ['github.com/acme-oss/i18n', 'v0.2.0'],
        ['github.com/acme-oss/uuid', 'v1.3.0'],
        ['golang.org/x/text', 'v0.14.0'],
      ] as const) {
        const described = await registry.describeVersion?.(name, version);
        lines.push(`${name} ${version} ${described?.artifacts[0]?.digests[0]?.value}`);
        lines.push(`${name} ${version}/go.mod ${described?.artifacts[1]?.digests[0]?.value}`);
      }
      expect(demo()['go.sum']).toBe(`${lines.join('\n')}\n`);
    } finally {
      await registry.close();
    }
  });

  it('updates the demo to a version published through the admin API', async () => {
    const published = await fetch(`${emulator?.url}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'go_modules', name: 'github.com/acme-oss/uuid', version: 'v1.4.0' }),
    });
    expect(published.status).toBe(201);
    await published.text();
    const registry = createGoProxyRegistry({ baseUrl: `${emulator?.url}/goproxy/`, retries: 0 });
    try {
      const f = demo();
      const pkg = await registry.fetchPackage('github.com/acme-oss/uuid');
      expect(pkg?.latest).toBe('v1.4.0');
      const target = await registry.describeVersion?.('github.com/acme-oss/uuid', 'v1.4.0');
      if (!target) throw new Error('v1.4.0 not described');
      const request = lockRequest(f, 'github.com/acme-oss/uuid', target);
      expect(request.updated['go.mod']).toBe((f['go.mod'] ?? '').replace('uuid v1.3.0', 'uuid v1.4.0'));
      const result = await goModules.updateLockfiles?.(request);
      const zip = target.artifacts[0]?.digests[0]?.value;
      const goMod = target.artifacts[1]?.digests[0]?.value;
      expect(result).toEqual({
        files: {
          // both v1.3.0 lines give way to v1.4.0's two, as go mod tidy leaves go.sum
          'go.sum': (f['go.sum'] ?? '').replace(
            /github\.com\/acme-oss\/uuid v1\.3\.0 h1:\S+\ngithub\.com\/acme-oss\/uuid v1\.3\.0\/go\.mod h1:\S+/,
            `github.com/acme-oss/uuid v1.4.0 ${zip}\ngithub.com/acme-oss/uuid v1.4.0/go.mod ${goMod}`,
          ),
        },
      });
    } finally {
      await registry.close();
    }
  });
});
