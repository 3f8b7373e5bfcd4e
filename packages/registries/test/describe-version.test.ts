import { createHash } from 'node:crypto';
import { loadDemoSeed, startRegistryEmulator } from '@switchyard/registry-emulator';
import type { Listening } from '@switchyard/service-kit';
import { createLogger } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackagistRegistry } from '../src/adapters/packagist.ts';
import { createPypiRegistry } from '../src/adapters/pypi.ts';
import type { PackageRegistry } from '../src/port.ts';

const hex = (algorithm: string, text: string) => createHash(algorithm).update(text).digest('hex');

/** `describeVersion` of the PyPI and Packagist adapters against the registry emulator. */
describe('describeVersion against the registry emulator', () => {
  let emulator: Listening;
  const open: PackageRegistry[] = [];
  const track = <T extends PackageRegistry>(registry: T) => {
    open.push(registry);
    return registry;
  };
  const publish = async (body: Record<string, unknown>) => {
    const res = await fetch(`${emulator.url}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ releasedAt: '2026-11-20T10:00:00Z', ...body }),
    });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    emulator = await startRegistryEmulator({ seed: loadDemoSeed(), logger: createLogger('registry-emulator', 'silent') });
  });
  afterAll(async () => {
    for (const registry of open) await registry.close();
    await emulator?.close();
  });

  it('PyPI: dependencies from requires_dist, the sdist and the wheel with the digests of the bytes served', async () => {
    await publish({
      packageManager: 'pip',
      name: 'requests',
      version: '2.33.0',
      dependencies: { urllib3: '>=1.21.1,<3', idna: '<4,>=2.5' },
    });
    const pypi = track(createPypiRegistry({ baseUrl: `${emulator.url}/pypi/`, retries: 0 }));
    const details = await pypi.describeVersion?.('Requests', '2.33.0');
    expect(details?.name).toBe('requests');
    expect(details?.dependencies).toEqual([
      { name: 'urllib3', requirement: '>=1.21.1,<3', kind: 'runtime' },
      { name: 'idna', requirement: '<4,>=2.5', kind: 'runtime' },
    ]);
    expect(details?.artifacts.map((a) => [a.filename, a.attributes?.packagetype])).toEqual([
      ['requests-2.33.0.tar.gz', 'sdist'],
      ['requests-2.33.0-py3-none-any.whl', 'bdist_wheel'],
    ]);
    for (const artifact of details?.artifacts ?? []) {
      const body = await (await fetch(artifact.url)).text();
      expect(artifact.digests).toEqual([
        { algorithm: 'sha256', value: hex('sha256', body), encoding: 'hex' },
        { algorithm: 'md5', value: hex('md5', body), encoding: 'hex' },
      ]);
      expect(artifact.attributes?.size).toBe(String(Buffer.byteLength(body)));
    }
    expect(await pypi.describeVersion?.('requests', '0.0.1')).toBeUndefined();
  });

  it('Packagist: require minus platform packages, the dist with its SHA-1 and references', async () => {
    await publish({
      packageManager: 'composer',
      name: 'monolog/monolog',
      version: '3.9.0',
      dependencies: { php: '>=8.1', 'ext-json': '*', 'psr/log': '^2.0 || ^3.0' },
    });
    const packagist = track(createPackagistRegistry({ baseUrl: `${emulator.url}/packagist/`, retries: 0 }));
    const details = await packagist.describeVersion?.('Monolog/Monolog', '3.9.0');
    const reference = hex('sha1', 'monolog/monolog@3.9.0');
    expect(details?.dependencies).toEqual([{ name: 'psr/log', requirement: '^2.0 || ^3.0', kind: 'runtime' }]);
    const [artifact] = details?.artifacts ?? [];
    expect(artifact).toMatchObject({ filename: '3.9.0.zip', attributes: { type: 'zip', reference, 'source-reference': reference } });
    const body = await (await fetch(artifact?.url ?? '')).text();
    expect(artifact?.digests).toEqual([{ algorithm: 'sha1', value: hex('sha1', body), encoding: 'hex' }]);
    // an older version, from the minified list: no dependencies
    expect((await packagist.describeVersion?.('monolog/monolog', '2.9.3'))?.dependencies).toEqual([]);
  });
});
