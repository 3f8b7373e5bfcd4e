import { describe, expect, it } from 'vitest';
import { composer, composerToSemverRange, composerVersions, InvalidRequirementError, ManifestParseError } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('composer findDependency', () => {
  const files = fixture('composer');
  const find = (name: string) => composer.findDependency(files, name);

  it('reads require as runtime with the version from composer.lock', () => {
    expect(find('doctrine/orm')).toEqual({
      name: 'doctrine/orm',
      type: 'runtime',
      requirement: '^2.17',
      version: '2.17.1',
      manifest: 'composer.json',
    });
    expect(find('symfony/http-kernel')).toMatchObject({ requirement: '^6.3 || ^7.0', version: 'v6.3.8' });
  });
  it('reads require-dev as development (and packages-dev versions)', () => {
    expect(find('phpunit/phpunit')).toMatchObject({ type: 'development', requirement: '^10.4', version: '10.4.2' });
    expect(find('symfony/var-dumper')).toMatchObject({ type: 'development', version: 'v6.3.8' });
  });
  it('compares names case-insensitively', () => {
    expect(find('twig/twig')).toMatchObject({ name: 'Twig/Twig', requirement: '>=3.7 <4.0', version: 'v3.8.0' });
  });
  it('skips platform packages', () => {
    expect(find('php')).toBeUndefined();
    expect(find('ext-ctype')).toBeUndefined();
  });
  it("gives a named branch's locked commit (source.reference) as the version in use", () => {
    expect(find('acme/internal-sdk')).toMatchObject({ requirement: 'dev-main', version: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0' });
  });
  it('takes an exact constraint as the version without composer.lock', () => {
    const manifestOnly = fixture('composer', ['composer.json']);
    expect(composer.findDependency(manifestOnly, 'symfony/console')).toMatchObject({ requirement: 'v6.3.4', version: 'v6.3.4' });
    expect(composer.findDependency(manifestOnly, 'doctrine/orm')).toMatchObject({ version: null });
  });
  it('is undefined when absent and names the file that does not parse', () => {
    expect(find('laravel/framework')).toBeUndefined();
    expect(() => composer.findDependency({ 'composer.json': '{"require": {"a/b": "^1"' }, 'a/b')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'composer.json' }),
    );
    expect(() => composer.findDependency({ ...files, 'composer.lock': '{"packages": {}}' }, 'doctrine/orm')).toThrow(ManifestParseError);
  });
});

describe('composer listDependencies', () => {
  it('lists require then require-dev with composer.lock versions, leaving out platform packages', () => {
    expect(rows(listChecked(composer, fixture('composer')))).toEqual([
      ['doctrine/orm', 'runtime', '^2.17', '2.17.1'],
      ['guzzlehttp/guzzle', 'runtime', '~7.8', '7.8.0'],
      ['monolog/monolog', 'runtime', '3.5.*', '3.5.0'],
      ['symfony/console', 'runtime', 'v6.3.4', 'v6.3.4'],
      ['symfony/http-kernel', 'runtime', '^6.3 || ^7.0', 'v6.3.8'],
      ['Twig/Twig', 'runtime', '>=3.7 <4.0', 'v3.8.0'],
      ['league/flysystem', 'runtime', '^3.0@stable', '3.21.0'],
      ['acme/internal-sdk', 'runtime', 'dev-main', 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0'],
      ['phpunit/phpunit', 'development', '^10.4', '10.4.2'],
      ['phpstan/phpstan', 'development', '^1.10', '1.10.44'],
      ['symfony/var-dumper', 'development', '~6.3.0', 'v6.3.8'],
    ]);
  });
  it('gives a package in require and require-dev once, as runtime with the require constraint', () => {
    const json = JSON.stringify({
      require: { php: '^8.2', 'ext-json': '*', 'lib-icu': '>=70', 'composer-plugin-api': '^2.0', 'psr/log': '^3.0' },
      'require-dev': { 'PSR/Log': '3.0.0', 'mockery/mockery': '1.6.6' },
    });
    expect(listChecked(composer, { 'composer.json': json })).toEqual([
      { name: 'psr/log', type: 'runtime', requirement: '^3.0', version: null, manifest: 'composer.json' },
      { name: 'mockery/mockery', type: 'development', requirement: '1.6.6', version: '1.6.6', manifest: 'composer.json' },
    ]);
  });
  it('throws ManifestParseError on a composer.json or composer.lock that does not parse', () => {
    expect(() => composer.listDependencies({ 'composer.json': '{"require": ' })).toThrow(ManifestParseError);
    expect(() => composer.listDependencies({ ...fixture('composer'), 'composer.lock': '{"packages": {}}' })).toThrow(
      expect.objectContaining({ file: 'composer.lock' }),
    );
  });
});

describe('Composer versions', () => {
  it('orders versions with stabilities and v prefixes', () => {
    const order = ['0.9', '1.0.0-alpha1', '1.0.0-beta2', '1.0.0-RC1', '1.0.0', 'v1.0.1', '1.1', 'v2.0.0'];
    expect(sorted(order, composerVersions.compare)).toEqual(order);
    expect(composerVersions.compare('v2.0.0', '2.0')).toBe(0);
    expect(composerVersions.isValid('dev-main')).toBe(false);
    // a numeric branch is a version: VersionParser::normalize gives 1.9999999.9999999.9999999-dev
    expect(composerVersions.isValid('1.x-dev')).toBe(true);
  });
  it.each([
    ['1.9.0', '~1.2', true],
    ['2.0.0', '~1.2', false],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['0.9.1', '~0.4', true],
    ['0.4.5', '^0.4', true],
    ['0.5.0', '^0.4', false],
    ['3.5.2', '3.5.*', true],
    ['3.6.0', '3.5.*', false],
    ['v7.0.1', '^6.3 || ^7.0', true],
    ['7.0.1', '^6.3 | ^7.0', true],
    ['3.9.0', '>=3.7 <4.0', true],
    ['4.0.0', '>=3.7, <4.0', false],
    ['1.5.0', '>=1.0,!=1.5.0,<2.0', false],
    ['1.5.1', '>=1.0,!=1.5.0,<2.0', true],
    ['6.3.4', 'v6.3.4', true],
    ['3.21.0', '^3.0@stable', true],
    ['2.0.0-beta1', '^2.0@beta', true],
    ['2.0.0-beta1', '^2.0', false],
    ['1.5.0', '1.0 - 2.0', true],
    ['2.1.0', '1.0 - 2.0', false],
  ])('%s satisfies %s: %s', (version, requirement, expected) => {
    expect(composerVersions.satisfies(version, requirement)).toBe(expected);
  });
  it('converts constraints to semver ranges', () => {
    expect(composerToSemverRange('~1.2').range).toBe('>=1.2.0 <2.0.0-0');
    expect(composerToSemverRange('^2.0@beta')).toEqual({ range: '>=2.0.0-0 <3.0.0-0', includePrerelease: true });
    expect(() => composerToSemverRange('dev-main')).toThrow(InvalidRequirementError);
    expect(() => composerToSemverRange('self.version')).toThrow(InvalidRequirementError);
  });
  it('tells pre-releases and update kinds', () => {
    expect(composerVersions.isPrerelease('2.0.0-RC1')).toBe(true);
    expect(composerVersions.isPrerelease('v2.0.0')).toBe(false);
    expect(composerVersions.updateKind('v6.3.8', '6.4.0')).toBe('minor');
    expect(composerVersions.updateKind('2.17.1', '3.0.0')).toBe('major');
  });
});
