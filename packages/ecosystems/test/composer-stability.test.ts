import { describe, expect, it } from 'vitest';
import {
  assessUpdate,
  composer,
  type DependencyUse,
  installedVersion,
  type LockfileRequest,
  type RegistryVersionDetails,
} from '../src/index.ts';
import { checkedUpdate } from './update-check.ts';

/**
 * composer.json's `minimum-stability` and `prefer-stable` (https://getcomposer.org/doc/04-schema.md#minimum-stability),
 * and named branches (`dev-main`) in use at their locked commit, as Dependabot read them.
 */

/** A composer.json with the given root settings (written as JSON members) and requirements. */
const manifestOf = (settings: string, require: Record<string, string>) =>
  `{\n    "name": "shop/app",\n${settings ? `    ${settings},\n` : ''}    "require": ${JSON.stringify(require, null, 8).replace(/\n}$/, '\n    }')}\n}\n`;

/** A composer.lock locking `vendor/widget` at `version` (and its commit), hash left out (composer.json unchanged). */
const lockOf = (version: string, commit = '1111111111111111111111111111111111111111') => `{
    "packages": [
        {
            "name": "vendor/widget",
            "version": "${version}",
            "source": { "type": "git", "url": "https://github.com/vendor/widget.git", "reference": "${commit}" },
            "dist": { "type": "zip", "url": "https://api.github.com/repos/vendor/widget/zipball/${commit}", "reference": "${commit}", "shasum": "" },
            "type": "library"
        }
    ],
    "packages-dev": []
}
`;

const use = (files: Record<string, string>) => composer.findDependency(files, 'vendor/widget') as DependencyUse;

function details(version: string, reference?: string): RegistryVersionDetails {
  return {
    name: 'vendor/widget',
    version,
    dependencies: [],
    artifacts: [
      {
        filename: `${version}.zip`,
        url: `https://api.github.com/repos/vendor/widget/zipball/${reference ?? version}`,
        digests: [],
        ...(reference === undefined ? {} : { attributes: { type: 'zip', reference } }),
      },
    ],
  };
}

const lockRequest = (files: Record<string, string>, target: RegistryVersionDetails): LockfileRequest => ({
  files,
  updated: files,
  use: use(files),
  target,
  registries: [],
});

describe('composer minimum-stability', () => {
  const dev = { 'composer.json': manifestOf('"minimum-stability": "dev"', { 'vendor/widget': '^1.2' }), 'composer.lock': lockOf('1.2.0') };

  it('lowers a constraint without a flag to the root minimum-stability, as a flag Composer reads alike', () => {
    expect(use(dev)).toMatchObject({ requirement: '^1.2@dev', version: '1.2.0' });
    const beta = { 'composer.json': manifestOf('"minimum-stability": "beta"', { 'vendor/widget': '>=1.2 <2.0' }) };
    expect(use(beta)).toMatchObject({ requirement: '>=1.2 <2.0@beta' });
  });
  it('keeps an explicit flag, a constraint naming a less stable version, and the default stable', () => {
    const flag = { 'composer.json': manifestOf('"minimum-stability": "dev"', { 'vendor/widget': '^1.2@stable' }) };
    expect(use(flag)).toMatchObject({ requirement: '^1.2@stable' });
    const alpha = { 'composer.json': manifestOf('"minimum-stability": "beta"', { 'vendor/widget': '^2.0.0-alpha1' }) };
    expect(use(alpha)).toMatchObject({ requirement: '^2.0.0-alpha1' });
    const stable = { 'composer.json': manifestOf('', { 'vendor/widget': '^1.2' }) };
    expect(use(stable)).toMatchObject({ requirement: '^1.2' });
    const unknown = { 'composer.json': manifestOf('"minimum-stability": "nightly"', { 'vendor/widget': '^1.2' }) };
    expect(use(unknown)).toMatchObject({ requirement: '^1.2' });
  });
  it('makes a new pre-release an update, in range, and what Composer installs without a lock', () => {
    expect(assessUpdate(composer, use(dev), '1.3.0-beta1')).toMatchObject({ outdated: true, inRange: true });
    const { 'composer.lock': _, ...manifestOnly } = dev;
    expect(installedVersion(composer, use(manifestOnly).requirement ?? '', ['1.2.0', '1.3.0-beta1', '2.0.0'])).toBe('1.3.0-beta1');
  });
  it('leaves the manifest unchanged for a pre-release it admits, and locks it', async () => {
    expect(checkedUpdate(composer, dev, 'vendor/widget', '1.3.0-beta1')).toEqual({
      unchanged: expect.stringContaining('minimum-stability applied'),
    });
    const result = await composer.updateLockfiles?.(lockRequest(dev, details('1.3.0-beta1', '2222222222222222222222222222222222222222')));
    expect(result).toEqual({
      files: { 'composer.lock': lockOf('1.3.0-beta1', '2222222222222222222222222222222222222222') },
    });
  });
  it('still rewrites a constraint that excludes a release, keeping what is written', () => {
    expect(checkedUpdate(composer, dev, 'vendor/widget', '2.1.0')).toEqual({
      files: { 'composer.json': dev['composer.json'].replace('"^1.2"', '"^2.1"') },
      requirement: '^2.1@dev',
    });
  });
});

describe('composer prefer-stable', () => {
  const settings = '"minimum-stability": "dev",\n    "prefer-stable": true';
  const stableInUse = { 'composer.json': manifestOf(settings, { 'vendor/widget': '^2.0' }), 'composer.lock': lockOf('2.1.0') };
  const betaInUse = { 'composer.json': manifestOf(settings, { 'vendor/widget': '^2.0' }), 'composer.lock': lockOf('2.0.0-beta3') };

  it('prefers the newest stable version: a pre-release is not an update while a stable one is in use', () => {
    expect(use(stableInUse)).toMatchObject({ requirement: '^2.0', version: '2.1.0' });
    expect(assessUpdate(composer, use(stableInUse), '2.2.0-RC1')).toMatchObject({ outdated: false });
    const { 'composer.lock': _, ...manifestOnly } = stableInUse;
    expect(installedVersion(composer, use(manifestOnly).requirement ?? '', ['2.1.0', '2.2.0-RC1'])).toBe('2.1.0');
  });
  it('admits the minimum stability when a pre-release is locked (no stable one satisfied)', () => {
    expect(use(betaInUse)).toMatchObject({ requirement: '^2.0@dev', version: '2.0.0-beta3' });
    expect(assessUpdate(composer, use(betaInUse), '2.0.0-beta4')).toMatchObject({ outdated: true, inRange: true });
    expect(checkedUpdate(composer, betaInUse, 'vendor/widget', '2.0.0-beta4')).toHaveProperty('unchanged');
  });
});

describe('composer named branches', () => {
  const commit = 'c0ffee3b9d2e41f7a8c6b5d4e3f2a1b0c9d8e7f6';
  const head = 'dead4b1e5e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b';
  const files = { 'composer.json': manifestOf('', { 'vendor/widget': 'dev-main' }), 'composer.lock': lockOf('dev-main', commit) };

  it("gives the lock's source.reference (else dist.reference) as the version in use: a commit, not ordered", () => {
    expect(use(files)).toEqual({
      name: 'vendor/widget',
      type: 'runtime',
      requirement: 'dev-main',
      version: commit,
      manifest: 'composer.json',
    });
    const distOnly = { ...files, 'composer.lock': files['composer.lock'].replace(/"source": \{[^}]*\},\n\s*/, '') };
    expect(use(distOnly)).toMatchObject({ version: commit });
    expect(composer.versions.isValid(commit)).toBe(false);
    expect(composer.listDependencies(files)).toEqual([use(files)]);
  });
  it('leaves the constraint unchanged (it allows the new head) and refuses a constraint pinning a commit', () => {
    expect(composer.updateManifest(files, use(files), head)).toEqual({ unchanged: expect.stringContaining('follows the branch') });
    const pinned = { ...files, 'composer.json': manifestOf('', { 'vendor/widget': `dev-main#${commit}` }) };
    expect(composer.updateManifest(pinned, use(pinned), 'dev-main')).toEqual({ cannot: expect.stringContaining('pins a commit') });
  });
  it("moves source.reference and dist.reference to the registry's commit, keeping the branch", async () => {
    const result = await composer.updateLockfiles?.(lockRequest(files, details('dev-main', head)));
    expect(result).toEqual({ files: { 'composer.lock': files['composer.lock'].replaceAll(commit, head) } });
    const moved = (result as { files: Record<string, string> }).files;
    expect(use({ ...files, ...moved })).toMatchObject({ requirement: 'dev-main', version: head });
  });
  it('needs resolution without the commit, or for another branch', async () => {
    expect(await composer.updateLockfiles?.(lockRequest(files, details('dev-main')))).toEqual({
      needsResolution: expect.stringContaining('no commit'),
    });
    expect(await composer.updateLockfiles?.(lockRequest(files, details('dev-develop', head)))).toEqual({
      needsResolution: expect.stringContaining('follows the branch dev-main'),
    });
  });
});
