import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type LockfileRegistry,
  type LockfileRequest,
  npmAndYarn,
  type RegistryCredentials,
  type RegistryVersionDetails,
} from '@switchyard/ecosystems';
import { artifactDigests, type SeedInput, startRegistryEmulator } from '@switchyard/registry-emulator';
import { createLogger, type Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll } from 'vitest';
import { createNpmRegistry } from '../../src/index.ts';

const releasedAt = '2026-01-02T03:04:05.000Z';
const v = (version: string, dependencies: Record<string, string> = {}) => ({ version, releasedAt, dependencies });

/** The private registry's token in {@link SEED}. */
export const PRIVATE_TOKEN = 'lockfile-npm-private-token';

/**
 * A small npm world: `alpha` (no dependencies), `beta` whose 2.0.0 adds `gamma`, `gamma`, a private `@acme/widget`,
 * and `diff` (a direct dependency of the corpus's mocha package-lock.json) with a new patch version.
 */
export const SEED: SeedInput = {
  packages: [
    { packageManager: 'npm_and_yarn', name: 'alpha', versions: [v('1.0.0'), v('1.1.0'), v('1.2.0')] },
    { packageManager: 'npm_and_yarn', name: 'beta', versions: [v('1.0.0'), v('2.0.0', { gamma: '^1.1.0' })] },
    { packageManager: 'npm_and_yarn', name: 'gamma', versions: [v('1.0.0'), v('1.1.0'), v('1.2.0')] },
    { packageManager: 'npm_and_yarn', name: 'delta', versions: [v('1.0.0'), v('2.0.0', { gamma: '^1.0.0', alpha: '^1.0.0' })] },
    { packageManager: 'npm_and_yarn', name: 'diff', versions: [v('9.0.0'), v('9.0.1')] },
    { packageManager: 'npm_and_yarn', name: '@acme/widget', private: true, versions: [v('1.0.0'), v('1.1.0', { alpha: '^1.0.0' })] },
  ],
  credentials: [{ token: PRIVATE_TOKEN }],
};

/** The registry emulator with {@link SEED}, started before the file's tests and closed after them. */
export function emulatorForTests(): { url: () => string; publicUrl: () => string; privateUrl: () => string } {
  let emulator: Listening | undefined;
  beforeAll(async () => {
    emulator = await startRegistryEmulator({ seed: SEED, logger: createLogger('registry-emulator', 'silent') });
  });
  afterAll(() => emulator?.close());
  const url = () => {
    if (!emulator) throw new Error('emulator not started');
    return emulator.url;
  };
  return { url, publicUrl: () => `${url()}/npm/`, privateUrl: () => `${url()}/private/npm/` };
}

/** A lockfile v3 `packages` entry of a seeded version as npm writes it (tarball URL, SRI sha512, license). */
export function lockEntry(base: string, name: string, version: string, extra: Record<string, unknown> = {}) {
  const basename = name.split('/').pop();
  return {
    version,
    resolved: `${base}${name}/-/${basename}-${version}.tgz`,
    integrity: `sha512-${artifactDigests('npm_and_yarn', name, version).sha512}`,
    license: 'MIT',
    ...extra,
  };
}

/** The target as the npm adapter describes it from `registry` (with its credentials). */
export async function describe(registry: LockfileRegistry, name: string, version: string): Promise<RegistryVersionDetails> {
  const npm = createNpmRegistry({
    baseUrl: registry.url,
    retries: 0,
    ...(registry.credentials ? { credentials: registry.credentials as RegistryCredentials } : {}),
  });
  try {
    const details = await npm.describeVersion?.(name, version);
    if (!details) throw new Error(`${name}@${version} is not in the registry`);
    return details;
  } finally {
    await npm.close();
  }
}

/** The request of an update of `name` to `version`: the manifest updated with `updateManifest`, the target described. */
export function requestFor(
  files: Record<string, string>,
  name: string,
  target: RegistryVersionDetails,
  registries: LockfileRegistry[],
): LockfileRequest {
  const use = npmAndYarn.findDependency(files, name);
  if (!use) throw new Error(`${name} is not used`);
  const manifest = npmAndYarn.updateManifest(files, use, target.version);
  const updated = 'files' in manifest ? { ...files, ...manifest.files } : files;
  return { files, updated, use, target, registries };
}

/**
 * A temporary directory of this test file's own, made the process's `TMPDIR` (what `os.tmpdir()` answers), so that
 * counting the `npm-lockfile-*` directories an update leaves behind sees no other test file's updates running at the
 * same time. Call once at the top of a test file, before any update.
 */
export function privateTmpdir(): string {
  const directory = mkdtempSync(join(tmpdir(), 'npm-lock-test-'));
  process.env.TMPDIR = directory;
  return directory;
}
