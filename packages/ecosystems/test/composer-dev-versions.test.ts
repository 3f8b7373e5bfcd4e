import { describe, expect, it } from 'vitest';
import { normaliseComposerVersion } from '../src/composer/lockfile.ts';
import { composer, composerVersions, InvalidRequirementError } from '../src/index.ts';
import { sorted } from './fixtures.ts';

/**
 * Development versions and branch constraints as composer/semver reads them
 * (https://github.com/composer/semver/blob/main/src/VersionParser.php): `normalize` gives `1.0.0-dev` the dev
 * stability (`1.0.0.0-dev`) and a numeric branch `6.4.x-dev` the version `6.4.9999999.9999999-dev` (`normalizeBranch`);
 * `parseConstraint` reads `6.4.x-dev` as a basic `==` comparison with that branch version, and `dev-6.4` as the named
 * branch `dev-6.4`, which `Constraint::versionCompare` never orders against a version.
 */

describe('the issue: 1.0.0-dev is a version', () => {
  it('is valid, normalised to 1.0.0.0-dev, and ordered before 1.0.0-alpha', () => {
    expect(composerVersions.isValid('1.0.0-dev')).toBe(true);
    expect(normaliseComposerVersion('1.0.0-dev')).toBe('1.0.0.0-dev');
    expect(composerVersions.compare('1.0.0-dev', '1.0.0-alpha')).toBeLessThan(0);
    expect(composerVersions.compare('1.0.0-alpha', '1.0.0-dev')).toBeGreaterThan(0);
    expect(composerVersions.compare('1.0.0-dev', '0.9.9')).toBeGreaterThan(0);
    expect(composerVersions.compare('v1.0.0-dev', '1.0.0.0-dev')).toBe(0);
  });
  it('orders dev versions as version_compare orders their normalised forms', () => {
    const order = [
      '0.9.9',
      '1.0.0-dev',
      '1.0.0-alpha1-dev',
      '1.0.0-alpha1',
      '1.0.0-beta1-dev',
      '1.0.0-beta1',
      '1.0.0-RC1',
      '1.0.0',
      '1.0.0-p1-dev',
      '1.0.0-p1',
      '1.0.1-dev',
      '1.0.1',
    ];
    expect(sorted([...order].reverse(), composerVersions.compare)).toEqual(order);
  });
  it('normalises the -dev suffix as normalize writes it', () => {
    expect(normaliseComposerVersion('1.0.0-beta1-dev')).toBe('1.0.0.0-beta1-dev');
    expect(normaliseComposerVersion('2.1.dev')).toBe('2.1.0.0-dev');
    expect(normaliseComposerVersion('1.0.0-stable-dev')).toBe('1.0.0.0');
  });
  it('has the dev stability: a pre-release only a dev flag or a dev version in the constraint admits', () => {
    expect(composerVersions.isPrerelease('1.0.0-dev')).toBe(true);
    expect(composerVersions.isPrerelease('1.0.0-beta1-dev')).toBe(true);
    expect(composerVersions.satisfies('1.0.0-dev', '^1.0')).toBe(false);
    expect(composerVersions.satisfies('1.0.0-dev', '^1.0@dev')).toBe(true);
    expect(composerVersions.satisfies('1.0.0-dev', '^1.0@alpha')).toBe(false);
    expect(composerVersions.satisfies('1.0.0-dev', '1.0.0-dev')).toBe(true);
    expect(composerVersions.satisfies('1.0.0-dev', '>=1.0.0-dev')).toBe(true);
    expect(composerVersions.satisfies('1.0.0-alpha1', '>=1.0.0-dev')).toBe(true);
    expect(composerVersions.satisfies('2.0.0-dev', '^1.0@dev')).toBe(false); // <2.0.0.0-dev excludes it
    expect(composerVersions.release?.('1.0.0-dev')).toEqual([1, 0, 0]);
  });
  it('is the version in use of an exact constraint', () => {
    const files = { 'composer.json': JSON.stringify({ require: { 'acme/tool': '1.0.0-dev' } }) };
    expect(composer.findDependency(files, 'acme/tool')).toMatchObject({ requirement: '1.0.0-dev', version: '1.0.0-dev' });
  });
});

describe('the issue: the branch constraint 6.4.x-dev', () => {
  it('is read, and matches the 6.4 branch itself, however it is written', () => {
    for (const constraint of ['6.4.x-dev', '6.4.*-dev', 'v6.4.x-dev', '6.4.X-dev', '6.4.x-dev#0a1b2c3', '6.4.x-dev@dev']) {
      expect(composerVersions.satisfies('6.4.x-dev', constraint), constraint).toBe(true);
      expect(composerVersions.satisfies('6.4.*-dev', constraint), constraint).toBe(true);
      expect(composerVersions.satisfies('6.4.9999999.9999999-dev', constraint), constraint).toBe(true);
    }
  });
  it('is `==6.4.9999999.9999999-dev`: tagged releases and other branches do not match it', () => {
    // parseConstraint has no range form for `6.4.x-dev`: its basic comparator normalises the version to the branch's
    for (const version of ['6.4.0', '6.4.12', '6.4.0-dev', '6.5.0-dev', '6.5.x-dev', '6.x-dev', '6.3.x-dev']) {
      expect(composerVersions.satisfies(version, '6.4.x-dev'), version).toBe(false);
    }
  });
  it('orders the branch after every 6.4 version and before 6.5.0-dev', () => {
    expect(normaliseComposerVersion('6.4.x-dev')).toBe('6.4.9999999.9999999-dev');
    expect(normaliseComposerVersion('6.x-dev')).toBe('6.9999999.9999999.9999999-dev');
    expect(normaliseComposerVersion('6.4.*-dev')).toBe('6.4.9999999.9999999-dev');
    const order = ['6.4.0', '6.4.12', '6.4.12.1', '6.4.x-dev', '6.5.0-dev', '6.5.0', '6.x-dev', '7.0.0'];
    expect(sorted([...order].reverse(), composerVersions.compare)).toEqual(order);
    expect(composerVersions.compare('6.4.x-dev', '6.4.*-dev')).toBe(0);
    expect(composerVersions.isPrerelease('6.4.x-dev')).toBe(true);
  });
  it('reads ranges and carets of a branch as parseConstraint does', () => {
    // `^6.4.x-dev` is `>=6.4.9999999.9999999-dev <7.0.0.0-dev`, `~6.4.x-dev` `>=6.4.9999999.9999999-dev <6.5.0.0-dev`
    expect(composerVersions.satisfies('6.9.0-dev', '^6.4.x-dev')).toBe(true);
    expect(composerVersions.satisfies('6.4.12', '^6.4.x-dev')).toBe(false);
    expect(composerVersions.satisfies('6.5.0-dev', '~6.4.x-dev')).toBe(false);
    expect(composerVersions.satisfies('6.4.x-dev', '~6.4.x-dev')).toBe(true);
    expect(composerVersions.satisfies('6.4.x-dev', '>=6.4.x-dev')).toBe(true);
    expect(composerVersions.satisfies('6.4.12', '<6.4.x-dev')).toBe(true);
    expect(composerVersions.satisfies('6.5.0', '<6.4.x-dev')).toBe(false);
  });
  it('reads the named branch dev-6.4, which no version matches, only != does', () => {
    expect(composerVersions.satisfies('6.4.12', 'dev-6.4')).toBe(false);
    expect(composerVersions.satisfies('6.4.x-dev', 'dev-6.4')).toBe(false);
    expect(composerVersions.satisfies('6.4.12', 'dev-main || ^6.4')).toBe(true);
    expect(composerVersions.satisfies('6.4.12', '!=dev-main')).toBe(true);
    expect(composerVersions.satisfies('6.4.12', 'dev-main#0a1b2c3')).toBe(false);
    expect(composerVersions.satisfies('6.4.12', 'main-dev')).toBe(false);
    expect(composerVersions.isValid('dev-6.4')).toBe(false);
  });
  it('has no semver form, so lowestAllowed cannot name one', () => {
    expect(() => composerVersions.lowestAllowed?.('6.4.x-dev')).toThrow(InvalidRequirementError);
    expect(composerVersions.allowsPrereleases?.('6.4.x-dev')).toBe(false);
  });
  it('leaves the manifest alone: a branch constraint is not rewritten to a release', () => {
    const files = { 'composer.json': JSON.stringify({ require: { 'symfony/console': '6.4.x-dev' } }, null, 4) };
    const use = composer.findDependency(files, 'symfony/console');
    expect(use).toMatchObject({ requirement: '6.4.x-dev', version: null });
    expect(composer.updateManifest(files, use as NonNullable<typeof use>, '7.0.0')).toEqual({
      cannot: expect.stringContaining('6.4.x-dev'),
    });
    const pinned = { 'composer.json': JSON.stringify({ require: { 'symfony/console': '1.0.0-dev' } }) };
    const dev = composer.findDependency(pinned, 'symfony/console') as NonNullable<typeof use>;
    expect(composer.updateManifest(pinned, dev, '7.0.0')).toEqual({ cannot: expect.stringContaining('1.0.0-dev') });
  });
});

describe('four-part versions', () => {
  it('orders a non-zero 4th part as normalize keeps it', () => {
    expect(composerVersions.isValid('1.2.3.4')).toBe(true);
    expect(composerVersions.compare('1.2.3.4', '1.2.3')).toBeGreaterThan(0);
    expect(composerVersions.compare('1.2.3.4', '1.2.4')).toBeLessThan(0);
    expect(composerVersions.satisfies('1.2.3.4', '^1.2')).toBe(true);
    expect(composerVersions.satisfies('1.2.3.4', '1.2.3.4')).toBe(true);
    expect(composerVersions.satisfies('1.2.3.4', '1.2.3')).toBe(false);
    expect(composerVersions.updateKind('1.2.3.4', '1.2.4')).toBe('patch');
  });
});
