import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readComposerLock } from '../src/composer/composer-json.ts';
import { composerContentHash } from '../src/composer/content-hash.ts';
import { normaliseComposerVersion } from '../src/composer/lockfile.ts';
import type { RegistryVersionDetails } from '../src/index.ts';
import { composer, type DependencyUse, type LockfileRequest } from '../src/index.ts';
import { CORPUS_PRESENT, corpusDirectories } from './corpus.ts';

const readComposerLockVersions = (text: string) => readComposerLock('composer.lock', text);

const manifest = `{
    "name": "acme/app",
    "require": {
        "php": ">=8.1",
        "monolog/monolog": "^2.9",
        "psr/log": "^1.1 || ^2.0 || ^3.0"
    },
    "require-dev": {
        "phpunit/phpunit": "^10.4"
    }
}
`;

const lockOf = (contentHash: string) => `{
    "_readme": [
        "This file locks the dependencies of your project to a known state",
        "This file is @generated automatically"
    ],
    "content-hash": "${contentHash}",
    "packages": [
        {
            "name": "monolog/monolog",
            "version": "2.9.3",
            "version_normalized": "2.9.3.0",
            "source": {
                "type": "git",
                "url": "https://github.com/Seldaek/monolog.git",
                "reference": "a30bfe2e142720dfa990d0a7e573997f5d884215"
            },
            "dist": {
                "type": "zip",
                "url": "https://api.github.com/repos/Seldaek/monolog/zipball/a30bfe2e142720dfa990d0a7e573997f5d884215",
                "reference": "a30bfe2e142720dfa990d0a7e573997f5d884215",
                "shasum": ""
            },
            "require": {
                "php": ">=7.2",
                "psr/log": "^1.0.1 || ^2.0 || ^3.0"
            },
            "type": "library",
            "time": "2024-04-12T20:52:51+00:00"
        },
        {
            "name": "psr/log",
            "version": "3.0.2",
            "version_normalized": "3.0.2.0",
            "type": "library"
        }
    ],
    "packages-dev": [
        {
            "name": "phpunit/phpunit",
            "version": "10.4.2",
            "require": {
                "php": ">=8.1",
                "monolog/monolog": "^2.0 || ^3.0"
            },
            "type": "library"
        }
    ],
    "aliases": [],
    "minimum-stability": "stable",
    "plugin-api-version": "2.6.0"
}
`;

const sha1 = '0123456789abcdef0123456789abcdef01234567';
const reference = 'fedcba9876543210fedcba9876543210fedcba98';

function target(version: string, dependencies: Record<string, string> | null): RegistryVersionDetails {
  return {
    name: 'monolog/monolog',
    version,
    dependencies:
      dependencies && Object.entries(dependencies).map(([name, requirement]) => ({ name, requirement, kind: 'runtime' as const })),
    artifacts: [
      {
        filename: `${version}.zip`,
        url: `https://repo.example.org/dists/monolog/monolog/${version}.zip`,
        digests: [{ algorithm: 'sha1', value: sha1, encoding: 'hex' }],
        attributes: { type: 'zip', reference, 'source-reference': reference, time: '2024-06-28T09:40:51+00:00' },
      },
    ],
  };
}

function request(
  details: RegistryVersionDetails,
  updatedManifest = manifest,
  lock = lockOf(composerContentHash(manifest) ?? ''),
): LockfileRequest {
  const files = { 'composer.json': manifest, 'composer.lock': lock };
  return {
    files,
    updated: { ...files, 'composer.json': updatedManifest },
    use: composer.findDependency(files, 'monolog/monolog') as DependencyUse,
    target: details,
    registries: [{ url: 'https://repo.packagist.org/' }],
  };
}

describe('composer content-hash', () => {
  it("is the MD5 of PHP's json_encode of the relevant keys, sorted (slashes escaped, {} as [])", () => {
    const text =
      '{"require": {"a/b": "^1.0"}, "name": "x/y", "description": "ignored", "extra": {}, "config": {"platform": {"php": "8.1"}, "sort-packages": true}}';
    const php = '{"config":{"platform":{"php":"8.1"}},"extra":[],"name":"x\\/y","require":{"a\\/b":"^1.0"}}';
    expect(composerContentHash(text)).toBe(createHash('md5').update(php).digest('hex'));
  });
});

describe('normaliseComposerVersion', () => {
  it.each([
    ['3.7.0', '3.7.0.0'],
    ['v7.1.0', '7.1.0.0'],
    ['v7.1.0-BETA1', '7.1.0.0-beta1'],
    ['2.0-RC2', '2.0.0.0-RC2'],
    ['1.2.3-p1', '1.2.3.0-patch1'],
  ])('%s → %s', (version, normalised) => {
    expect(normaliseComposerVersion(version)).toBe(normalised);
  });
  it('is undefined for branches', () => {
    expect(normaliseComposerVersion('dev-main')).toBeUndefined();
  });
});

describe('composer updateLockfiles', () => {
  it('rewrites only the target entry: version, references, dist, time and non-platform require', async () => {
    const before = lockOf(composerContentHash(manifest) ?? '');
    const updatedManifest = manifest.replace('"^2.9"', '"^3.7"');
    const result = await composer.updateLockfiles?.(request(target('3.7.0', { 'psr/log': '^2.0 || ^3.0' }), updatedManifest));
    const expected = before
      .replace(composerContentHash(manifest) ?? '', composerContentHash(updatedManifest) ?? '')
      .replace('"version": "2.9.3"', '"version": "3.7.0"')
      .replace('"2.9.3.0"', '"3.7.0.0"')
      .replaceAll('a30bfe2e142720dfa990d0a7e573997f5d884215', reference)
      .replace(
        `https://api.github.com/repos/Seldaek/monolog/zipball/${reference}`,
        'https://repo.example.org/dists/monolog/monolog/3.7.0.zip',
      )
      .replace('"shasum": ""', `"shasum": "${sha1}"`)
      .replace('"psr/log": "^1.0.1 || ^2.0 || ^3.0"', '"psr/log": "^2.0 || ^3.0"')
      .replace('2024-04-12T20:52:51+00:00', '2024-06-28T09:40:51+00:00');
    expect(result).toEqual({ files: { 'composer.lock': expected } });
    const text = (result as { files: Record<string, string> }).files['composer.lock'] ?? '';
    expect(readComposerLockVersions(text).get('monolog/monolog')).toBe('3.7.0');
    expect(JSON.parse(text)['content-hash']).toBe(composerContentHash(updatedManifest));
    expect(composer.findDependency({ 'composer.json': updatedManifest, 'composer.lock': text }, 'monolog/monolog')).toMatchObject({
      version: '3.7.0',
    });
  });

  it('keeps the content-hash when composer.json is unchanged, and adds require after dist when the entry had none', async () => {
    const lock = lockOf(composerContentHash(manifest) ?? '').replace(/,\n {12}"require": \{\n[^}]*\}/, '');
    const result = await composer.updateLockfiles?.(request(target('2.10.0', { 'psr/log': '^3.0' }), manifest, lock));
    const text = (result as { files: Record<string, string> }).files['composer.lock'] ?? '';
    expect(text).toContain(
      `"shasum": "${sha1}"\n            },\n            "require": {\n                "psr/log": "^3.0"\n            },\n            "type": "library"`,
    );
    expect(JSON.parse(text)['content-hash']).toBe(composerContentHash(manifest));
  });

  it('needs resolution when a requirement is not locked, not allowed, or a dependent refuses the version', async () => {
    const wide = manifest.replace('"^2.9"', '">=2.9"');
    const cases: [LockfileRequest, string][] = [
      [request(target('3.7.0', {})), "require '^2.9' does not allow 3.7.0"],
      [request(target('3.7.0', { 'psr/log': '^2.0 || ^3.0', 'acme/new': '^1.0' }), wide), 'acme/new'],
      [request(target('3.7.0', { 'psr/log': '^4.0' }), wide), 'psr/log ^4.0'],
      [request(target('4.0.0', {}), wide), 'phpunit/phpunit requires'],
      [request(target('3.7.0', null), wide), 'does not publish'],
      [request(target('3.7.0', {}), wide, lockOf('ffffffffffffffffffffffffffffffff')), 'content-hash'],
    ];
    for (const [input, reason] of cases) {
      expect(await composer.updateLockfiles?.(input)).toEqual({ needsResolution: expect.stringContaining(reason) });
    }
  });

  it('takes a package that replaces or provides a requirement as meeting it', async () => {
    const lock = lockOf(composerContentHash(manifest) ?? '').replace(
      '"name": "psr/log",',
      '"name": "psr/log",\n            "provide": { "psr/log-implementation": "3.0.0" },\n            "replace": { "psr/log-legacy": "self.version" },',
    );
    const result = await composer.updateLockfiles?.(
      request(target('2.10.0', { 'psr/log-implementation': '^3.0', 'psr/log-legacy': '^3.0', 'ext-json': '*' }), manifest, lock),
    );
    expect(result).toHaveProperty('files');
  });
});

describe.runIf(CORPUS_PRESENT)('composer updateLockfiles over the real-world corpus', () => {
  const directories = corpusDirectories(composer).filter((d) => d.files['composer.lock'] !== undefined);

  it("reproduces every composer.lock's content-hash from its composer.json", () => {
    expect(directories.length).toBeGreaterThan(0);
    for (const { label, files } of directories) {
      expect(composerContentHash(files['composer.json'] ?? ''), label).toBe(JSON.parse(files['composer.lock'] ?? '{}')['content-hash']);
    }
  });

  it('moves each locked dependency to a next patch without dependencies: only its entry changes', async () => {
    let updated = 0;
    for (const { label, files } of directories) {
      const lock = files['composer.lock'] ?? '';
      const parsed = JSON.parse(lock);
      // the first dependencies of each directory: every update re-reads a lock of hundreds of kilobytes
      for (const use of composer.listDependencies(files).slice(0, 12)) {
        if (use.version === null || !composer.versions.isValid(use.version) || !composer.versions.release) continue;
        const [major, minor, patch] = composer.versions.release(use.version);
        const version = `${major}.${minor}.${patch + 1}`;
        const details: RegistryVersionDetails = {
          name: use.name,
          version,
          dependencies: [],
          artifacts: [
            {
              filename: `${version}.zip`,
              url: `https://repo.example.org/${use.name}/${version}.zip`,
              digests: [],
              attributes: { type: 'zip', reference },
            },
          ],
        };
        const result = await composer.updateLockfiles?.({ files, updated: files, use, target: details, registries: [] });
        if (!result || !('files' in result)) continue;
        const text = result.files['composer.lock'] ?? '';
        const after = JSON.parse(text);
        const wanted = use.name.toLowerCase();
        for (const section of ['packages', 'packages-dev']) {
          const strip = (list: { name: string }[]) => list.filter((p) => p.name.toLowerCase() !== wanted);
          expect(strip(after[section] ?? []), `${label} ${use.name}`).toEqual(strip(parsed[section] ?? []));
        }
        const { packages: _a, 'packages-dev': _b, ...rest } = after;
        const { packages: _c, 'packages-dev': _d, ...restBefore } = parsed;
        expect(rest).toEqual(restBefore);
        expect(readComposerLockVersions(text).get(wanted), `${label} ${use.name}`).toBe(version);
        // outside the entry's own lines, the text is byte-identical
        const lines = lock.split('\n');
        const newLines = text.split('\n');
        const prefix = lines.findIndex((line, i) => line !== newLines[i]);
        const suffix = [...lines].reverse().findIndex((line, i) => line !== newLines[newLines.length - 1 - i]);
        const changed = lines.slice(prefix, lines.length - suffix).join('\n');
        expect(changed.split('"name":').length - 1, `${label} ${use.name}`).toBeLessThanOrEqual(1);
        updated++;
      }
    }
    process.stdout.write(`composer.lock corpus updates: ${updated}\n`);
    expect(updated).toBeGreaterThan(0);
  }, 120_000);
});
