import { describe, expect, it } from 'vitest';
import { composer, composerVersions } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';

describe('Composer patch releases (-p1, -pl1, -patch1)', () => {
  it('orders a patch release after its base version and before the next one', () => {
    const order = ['1.2.3-RC1', '1.2.3', '1.2.3-p1', '1.2.3-pl2', '1.2.3-patch3', '1.2.4-beta1', '1.2.4'];
    expect(sorted(order, composerVersions.compare)).toEqual(order);
    expect(composerVersions.compare('1.2.3-p1', '1.2.3')).toBeGreaterThan(0);
    expect(composerVersions.compare('1.2.3-p1', '1.2.4')).toBeLessThan(0);
    expect(composerVersions.compare('1.2.3-p1', '1.2.3-patch1')).toBe(0);
    expect(composerVersions.compare('v1.2.3-p1', '1.2.3.0-pl1')).toBe(0);
    expect(composerVersions.isPrerelease('1.2.3-p1')).toBe(false);
  });
  it.each([
    ['1.2.3-p1', '^1.2', true],
    ['1.2.3-p1', '>1.2.3', true],
    ['1.2.3-p1', '<=1.2.3', false],
    ['1.2.3-p1', '1.2.3', false],
    ['1.2.3-p1', '!=1.2.3', true],
    ['1.2.3-p1', '<1.2.4', true],
    ['1.2.3-p1', '1.2.3-p1', true],
    ['1.2.3', '>=1.2.3-p1', false],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(composerVersions.satisfies(version, requirement)).toBe(expected);
  });
});

describe('Composer stability (dev < alpha < beta < RC < stable)', () => {
  it.each([
    // a flag lowers the minimum stability to itself, not below
    ['1.0.0-alpha1', '^1.0@beta', false],
    ['1.1.0-beta1', '^1.0@beta', true],
    ['1.1.0-RC1', '^1.0@beta', true],
    ['1.1.0', '^1.0@beta', true],
    ['1.1.0-alpha1', '^1.0@alpha', true],
    ['1.1.0-beta1', '^1.0@RC', false],
    ['1.1.0-RC2', '^1.0@rc', true],
    ['1.1.0-alpha1', '^1.0@dev', true],
    ['1.1.0-RC1', '^1.0@stable', false],
    // a constraint naming a pre-release sets the minimum stability to that pre-release's
    ['2.1.0-beta2', '^2.0.0-RC1', false],
    ['2.0.0-RC2', '^2.0.0-RC1', true],
    ['2.1.0', '^2.0.0-RC1', true],
    ['2.0.0-beta1', '^2.0.0-RC1', false],
    ['2.0.0-beta3', '>=2.0.0-beta2, <3.0', true],
    ['2.0.0-alpha9', '>=2.0.0-beta2, <3.0', false],
    ['2.0.0-beta3', '2.0.0-beta3', true],
    // the least stable flag of the constraint counts; without flags, the least stable version named
    ['3.0.0-alpha1', '^2.0@beta || ^3.0@alpha', true],
    ['2.1.0-alpha1', '^2.0@beta || ^3.0@alpha', true],
    ['3.0.0-beta1', '^2.0.0-RC1 || ^3.0.0-beta1', true],
    // no flag, no pre-release named: stable only
    ['2.0.0-RC1', '^1.0 || ^2.0', false],
    ['2.0.0-RC1', '<2.0', false],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(composerVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('still says the requirement asks for pre-releases when it has a flag or names one', () => {
    expect(composerVersions.allowsPrereleases?.('^1.0@beta')).toBe(true);
    expect(composerVersions.allowsPrereleases?.('^2.0.0-RC1')).toBe(true);
    expect(composerVersions.allowsPrereleases?.('^2.0')).toBe(false);
  });
});

describe('Composer lock lists', () => {
  const files = fixture('composer-dev-in-packages');
  it('finds a require-dev package locked under packages (another package needs it at run time)', () => {
    expect(composer.findDependency(files, 'psr/log')).toEqual({
      name: 'psr/log',
      type: 'development',
      requirement: '^3.0',
      version: '3.0.0',
      manifest: 'composer.json',
    });
  });
  it('finds require and require-dev packages in their usual lists', () => {
    expect(composer.findDependency(files, 'phpunit/phpunit')).toMatchObject({ type: 'development', version: '10.5.5' });
    expect(composer.findDependency(files, 'monolog/monolog')).toMatchObject({ type: 'runtime', version: '3.5.0' });
  });
  it('finds a require package locked under packages-dev', () => {
    const lock = JSON.parse(files['composer.lock'] as string) as { packages: unknown[]; 'packages-dev': unknown[] };
    const moved = { ...lock, packages: lock.packages.slice(1), 'packages-dev': [...lock['packages-dev'], lock.packages[0]] };
    expect(composer.findDependency({ ...files, 'composer.lock': JSON.stringify(moved) }, 'guzzlehttp/guzzle')).toMatchObject({
      type: 'runtime',
      version: '7.8.1',
    });
  });
});
