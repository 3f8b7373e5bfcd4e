import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import {
  compareVersions,
  composerNormalize,
  cratesIndexPath,
  isPrerelease,
  loadDemoSeed,
  loadRegistryEmulatorConfig,
  minifyVersions,
  PACKAGE_MANAGERS,
  parseSeed,
  SeedError,
} from '../src/index.ts';

describe('registry emulator: configuration, seed and version rules', () => {
  it('defaults to port 8091 and the demo seed; rejects invalid variables', () => {
    expect(loadRegistryEmulatorConfig({})).toEqual({ HOST: '0.0.0.0', LOG_LEVEL: 'info', PORT: 8091 });
    expect(loadRegistryEmulatorConfig({ PORT: '0', REGISTRY_SEED: '/tmp/seed.json' })).toMatchObject({
      PORT: 0,
      REGISTRY_SEED: '/tmp/seed.json',
    });
    expect(() => loadRegistryEmulatorConfig({ PORT: 'eighty' })).toThrow(ConfigError);
  });

  it('the demo seed is valid and has public and private packages of every package manager', () => {
    const seed = loadDemoSeed();
    for (const pm of PACKAGE_MANAGERS) {
      expect(
        seed.packages.some((p) => p.packageManager === pm && !p.private),
        pm,
      ).toBe(true);
      expect(
        seed.packages.some((p) => p.packageManager === pm && p.private),
        pm,
      ).toBe(true);
    }
    const lodash = seed.packages.find((p) => p.name === 'lodash');
    expect(lodash?.versions.map((v) => v.version)).toEqual(['4.17.15', '4.17.19', '4.17.20', '4.17.21']);
    expect(seed.credentials.length).toBeGreaterThan(0);
  });

  it('rejects invalid seeds listing every problem', () => {
    const version = { version: '1.0.0', releasedAt: '2024-01-01T00:00:00Z' };
    try {
      parseSeed({
        packages: [
          { packageManager: 'npm_and_yarn', name: 'Bad Name', versions: [version] },
          { packageManager: 'pip', name: 'Django', versions: [version, version] },
          { packageManager: 'pip', name: 'django', versions: [version] },
          { packageManager: 'npm_and_yarn', name: 'x', abandoned: true, versions: [version] },
          { packageManager: 'cargo', name: 'serde', versions: [] },
        ],
        credentials: [{ username: 'only-user' }],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(SeedError);
      expect((error as SeedError).problems).toEqual([
        'packages.4.versions: Too small: expected array to have >=1 items',
        'credentials.0: needs a token or a username and password',
        'credentials.0: username and password go together',
        'packages.0.name: not a valid npm_and_yarn package name: Bad Name',
        'packages.1.versions.1.version: duplicate version 1.0.0',
        'packages.2.name: duplicate pip package django',
        'packages.3.abandoned: only composer packages',
      ]);
    }
    expect(() => parseSeed({ packages: [], credentials: [{ token: 't' }, { token: 't' }] })).toThrow(
      /credentials.1.token: duplicate token/,
    );
  });

  it('orders versions and tells pre-releases per package manager', () => {
    const sorted = ['1.0.0', '1.0.0-rc.1', '1.0.0-alpha', '0.9.10', '0.9.9', '1.0.1'].sort(compareVersions);
    expect(sorted).toEqual(['0.9.9', '0.9.10', '1.0.0-alpha', '1.0.0-rc.1', '1.0.0', '1.0.1']);
    expect(['5.1', '5.1a1', '5.0.9', '5.1rc1', '5.1b2'].sort(compareVersions)).toEqual(['5.0.9', '5.1a1', '5.1b2', '5.1rc1', '5.1']);
    expect(['4.13', '4.13-beta-3', '4.12'].sort(compareVersions)).toEqual(['4.12', '4.13-beta-3', '4.13']);
    expect(isPrerelease('npm_and_yarn', '5.0.0-beta.1')).toBe(true);
    expect(isPrerelease('pip', '2.0.0rc1')).toBe(true);
    expect(isPrerelease('pip', '2.0.0')).toBe(false);
    expect(isPrerelease('bundler', '7.0.0.rc1')).toBe(true);
    expect(isPrerelease('maven', '33.2.1-jre')).toBe(false);
    expect(isPrerelease('maven', '4.13-beta-3')).toBe(true);
    expect(isPrerelease('composer', 'v7.1.0-BETA1')).toBe(true);
    expect(isPrerelease('composer', 'v7.1.0')).toBe(false);
  });

  it("Composer's version_normalized, cargo's index paths and Composer's minifier", () => {
    expect(composerNormalize('v5.1.0')).toBe('5.1.0.0');
    expect(composerNormalize('2.0')).toBe('2.0.0.0');
    expect(composerNormalize('3.0.0-RC1')).toBe('3.0.0.0-RC1');
    expect(composerNormalize('v7.1.0-BETA1')).toBe('7.1.0.0-beta1');
    expect(['a', 'ab', 'abc', 'serde', 'Cargo'].map(cratesIndexPath)).toEqual(['1/a', '2/ab', '3/a/abc', 'se/rd/serde', 'ca/rg/cargo']);
    expect(
      minifyVersions([
        { name: 'a/b', version: '2.0.0', abandoned: true, require: { php: '>=8' } },
        { name: 'a/b', version: '1.0.0', require: { php: '>=8' } },
        { name: 'a/b', version: '0.9.0', require: { php: '>=7' } },
      ]),
    ).toEqual([
      { name: 'a/b', version: '2.0.0', abandoned: true, require: { php: '>=8' } },
      { version: '1.0.0', abandoned: '__unset' },
      { version: '0.9.0', require: { php: '>=7' } },
    ]);
  });
});
