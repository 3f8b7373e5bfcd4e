import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { npmAndYarn } from '@switchyard/ecosystems';
import { artifactDigests } from '@switchyard/registry-emulator';
import { expect, describe as group, it } from 'vitest';
import { describe, emulatorForTests, lockEntry, privateTmpdir, requestFor } from './npm-emulator.ts';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
// Leftover temporary directories are counted in a TMPDIR of this file's own (other files update lockfiles meanwhile).
privateTmpdir();
const tempDirectories = async () => (await readdir(tmpdir())).filter((name) => name.startsWith('npm-lockfile-')).sort();

type Manifest = {
  name: string;
  version?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  overrides?: Record<string, string>;
};

/**
 * An npm workspace as npm 9+ writes it: the root's package.json (`workspaces: ["packages/*"]`), each member's, and a
 * package-lock v3 with the members' folders, their links and the locked registry packages `locked` (location → entry).
 */
function workspace(rootManifest: Manifest, members: Record<string, Manifest>, locked: Record<string, unknown>) {
  const files: Record<string, string> = { 'package.json': json(rootManifest) };
  const packages: Record<string, unknown> = {
    '': {
      name: rootManifest.name,
      version: rootManifest.version,
      workspaces: rootManifest.workspaces,
      dependencies: rootManifest.dependencies,
    },
  };
  for (const [folder, manifest] of Object.entries(members)) {
    files[`${folder}/package.json`] = json(manifest);
    packages[`node_modules/${manifest.name}`] = { resolved: folder, link: true };
    packages[folder] = { name: manifest.name, version: manifest.version, dependencies: manifest.dependencies };
  }
  Object.assign(packages, locked);
  const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
  files['package-lock.json'] = json({
    name: rootManifest.name,
    version: rootManifest.version,
    lockfileVersion: 3,
    requires: true,
    packages: sorted,
  });
  return files;
}

const ROOT: Manifest = { name: 'app', version: '1.0.0', workspaces: ['packages/*'], dependencies: { alpha: '^1.0.0' } };

group('npm workspaces: package-lock.json update with arborist against the registry emulator', () => {
  const emulator = emulatorForTests();

  it('a member’s dependency: its package.json and its lockfile entry move, the hoisted package is the target, the rest stays', async () => {
    const base = emulator.publicUrl();
    const members = {
      'packages/a': { name: '@app/a', version: '1.0.0', dependencies: { beta: '^1.0.0' } },
      'packages/b': { name: '@app/b', version: '1.0.0', dependencies: { '@app/a': '^1.0.0', alpha: '^1.0.0' } },
    };
    const locked = {
      'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0'),
      'node_modules/beta': lockEntry(base, 'beta', '1.0.0'),
    };
    const files = workspace(ROOT, members, locked);
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'beta', '2.0.0');
    const request = requestFor(files, 'beta', target, registries);
    expect(request.use).toMatchObject({ requirement: '^1.0.0', version: '1.0.0', manifest: 'packages/a/package.json' });
    expect(Object.keys(request.updated).filter((path) => request.updated[path] !== files[path])).toEqual(['packages/a/package.json']);
    const before = await tempDirectories();
    const result = await npmAndYarn.updateLockfiles?.(request);
    expect(await tempDirectories()).toEqual(before);
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    const expected = workspace(
      ROOT,
      { ...members, 'packages/a': { ...members['packages/a'], dependencies: { beta: '^2.0.0' } } },
      {
        ...locked,
        'node_modules/beta': lockEntry(base, 'beta', '2.0.0', { dependencies: { gamma: '^1.1.0' } }),
        'node_modules/gamma': lockEntry(base, 'gamma', '1.2.0'),
      },
    );
    expect(result.files).toEqual({ 'package-lock.json': expected['package-lock.json'] });
    expect(npmAndYarn.findDependency({ ...request.updated, ...result.files }, 'beta')).toMatchObject({
      requirement: '^2.0.0',
      version: '2.0.0',
    });
  });

  it('declared by the root and a member: both ranges allow the target, the hoisted entry moves alone', async () => {
    const base = emulator.publicUrl();
    const members = { 'packages/b': { name: '@app/b', version: '1.0.0', dependencies: { alpha: '~1.0.0' } } };
    const files = workspace(ROOT, members, { 'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0') });
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'alpha', '1.2.0');
    const request = requestFor(files, 'alpha', target, registries);
    expect(request.updated['packages/b/package.json']).toContain('"alpha": "~1.2.0"');
    expect(request.updated['package.json']).toBe(files['package.json']);
    const result = await npmAndYarn.updateLockfiles?.(request);
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    const expected = workspace(
      ROOT,
      { 'packages/b': { ...members['packages/b'], dependencies: { alpha: '~1.2.0' } } },
      { 'node_modules/alpha': lockEntry(base, 'alpha', '1.2.0') },
    );
    expect(result.files['package-lock.json']).toBe(expected['package-lock.json']);
  });

  it('a member the lockfile holds but the files lack needs resolution (npm would drop its entries)', async () => {
    const base = emulator.publicUrl();
    const members = {
      'packages/a': { name: '@app/a', version: '1.0.0', dependencies: { alpha: '^1.0.0' } },
      'packages/deep/c': { name: '@app/c', version: '1.0.0' },
    };
    const files = workspace(ROOT, members, { 'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0') });
    delete files['packages/deep/c/package.json'];
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'alpha', '1.2.0');
    expect(await npmAndYarn.updateLockfiles?.(requestFor(files, 'alpha', target, registries))).toEqual({
      needsResolution: 'package-lock.json: npm workspaces: packages/deep/c/package.json not among the files read',
    });
  });

  it('npm overrides: a transitive pin is kept; an override written as the direct dependency’s spec moves with it', async () => {
    const base = emulator.publicUrl();
    const root: Manifest = { ...ROOT, dependencies: { beta: '^1.0.0' }, overrides: { beta: '^1.0.0', gamma: '1.0.0' } };
    const locked = { 'node_modules/beta': lockEntry(base, 'beta', '1.0.0'), 'node_modules/gamma': lockEntry(base, 'gamma', '1.0.0') };
    const files = workspace(root, { 'packages/a': { name: '@app/a', version: '1.0.0' } }, locked);
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'beta', '2.0.0');
    const request = requestFor(files, 'beta', target, registries);
    expect(JSON.parse(request.updated['package.json'] ?? '')).toMatchObject({
      dependencies: { beta: '^2.0.0' },
      overrides: { beta: '^2.0.0', gamma: '1.0.0' },
    });
    const result = await npmAndYarn.updateLockfiles?.(request);
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    const packages = JSON.parse(result.files['package-lock.json'] ?? '').packages;
    expect(packages['node_modules/beta']).toEqual(lockEntry(base, 'beta', '2.0.0', { dependencies: { gamma: '^1.1.0' } }));
    // gamma@^1.1.0 is what beta 2.0.0 asks; the override keeps 1.0.0, and no second gamma appears
    expect(packages['node_modules/gamma']).toEqual(lockEntry(base, 'gamma', '1.0.0'));
    expect(Object.keys(packages).filter((location) => location.endsWith('/gamma'))).toEqual(['node_modules/gamma']);
    expect(packages[''].dependencies).toEqual({ beta: '^2.0.0' });
  });

  it('Lerna: a package holding its own package-lock.json is updated on its own, under its own path', async () => {
    const base = emulator.publicUrl();
    const own = {
      name: '@app/api',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: '@app/api', version: '1.0.0', dependencies: { alpha: '^1.0.0' } },
        'node_modules/alpha': lockEntry(base, 'alpha', '1.0.0'),
      },
    };
    const files = {
      'package.json': json({ name: 'root', private: true }),
      'lerna.json': json({ version: 'independent', packages: ['modules/*'] }),
      'modules/api/package.json': json({ name: '@app/api', version: '1.0.0', dependencies: { alpha: '^1.0.0' } }),
      'modules/api/package-lock.json': json(own),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'alpha', '1.1.0');
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'alpha', target, registries));
    if (!result || !('files' in result)) throw new Error(`expected files, got ${JSON.stringify(result)}`);
    expect(Object.keys(result.files)).toEqual(['modules/api/package-lock.json']);
    expect(JSON.parse(result.files['modules/api/package-lock.json'] ?? '').packages['node_modules/alpha']).toEqual(
      lockEntry(base, 'alpha', '1.1.0'),
    );
  });
});

group('Yarn 1 workspaces: yarn.lock update with what the registry emulator describes', () => {
  const emulator = emulatorForTests();

  /** A yarn.lock entry of a seeded version as Yarn 1 writes it. */
  const entry = (base: string, header: string, name: string, version: string, extra: string[] = []) => {
    const d = artifactDigests('npm_and_yarn', name, version);
    return [
      `${header}:`,
      `  version "${version}"`,
      `  resolved "${base}${name}/-/${name}-${version}.tgz#${d.sha1}"`,
      `  integrity sha512-${d.sha512}`,
      ...extra,
    ].join('\n');
  };
  const yarnLock = (...entries: string[]) => `# yarn lockfile v1\n\n\n${entries.join('\n\n')}\n`;

  it('the root’s and a member’s patterns join the target’s entry; the member’s moved range replaces its old pattern', async () => {
    const base = emulator.publicUrl();
    const files = {
      'package.json': json({ name: 'app', private: true, workspaces: { packages: ['packages/*'] }, dependencies: { alpha: '^1.0.0' } }),
      'packages/b/package.json': json({ name: '@app/b', version: '1.0.0', dependencies: { alpha: '~1.0.0', gamma: '^1.0.0' } }),
      'yarn.lock': yarnLock(entry(base, 'alpha@^1.0.0, alpha@~1.0.0', 'alpha', '1.0.0'), entry(base, 'gamma@^1.0.0', 'gamma', '1.2.0')),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'alpha', '1.2.0');
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'alpha', target, registries));
    expect(result).toEqual({
      files: {
        'yarn.lock': yarnLock(entry(base, 'alpha@^1.0.0, alpha@~1.2.0', 'alpha', '1.2.0'), entry(base, 'gamma@^1.0.0', 'gamma', '1.2.0')),
      },
    });
  });

  it('a `resolutions` pin of a transitive package is kept: the target’s dependency joins the pinned entry', async () => {
    const base = emulator.publicUrl();
    const files = {
      'package.json': json({ name: 'app', private: true, workspaces: ['packages/*'], resolutions: { '**/gamma': '1.0.0' } }),
      'packages/a/package.json': json({ name: '@app/a', version: '1.0.0', dependencies: { beta: '^1.0.0', gamma: '^1.0.0' } }),
      'yarn.lock': yarnLock(entry(base, 'beta@^1.0.0', 'beta', '1.0.0'), entry(base, 'gamma@^1.0.0', 'gamma', '1.0.0')),
    };
    const registries = [{ url: base }];
    const target = await describe(registries[0] as { url: string }, 'beta', '2.0.0');
    const result = await npmAndYarn.updateLockfiles?.(requestFor(files, 'beta', target, registries));
    expect(result).toEqual({
      files: {
        'yarn.lock': yarnLock(
          entry(base, 'beta@^2.0.0', 'beta', '2.0.0', ['  dependencies:', '    gamma "^1.1.0"']),
          entry(base, 'gamma@^1.0.0, gamma@^1.1.0', 'gamma', '1.0.0'),
        ),
      },
    });
  });
});
