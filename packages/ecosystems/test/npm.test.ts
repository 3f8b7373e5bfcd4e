import { describe, expect, it } from 'vitest';
import { InvalidRequirementError, InvalidVersionError, ManifestParseError, npmAndYarn, npmVersions } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

describe('npm_and_yarn findDependency with package-lock.json v1', () => {
  const files = fixture('npm-lock-v1');

  it('reads a runtime dependency with its range and the locked version', () => {
    expect(npmAndYarn.findDependency(files, 'axios')).toEqual({
      name: 'axios',
      type: 'runtime',
      requirement: '^0.21.1',
      version: '0.21.4',
      manifest: 'package.json',
    });
  });
  it('reads devDependencies as development', () => {
    expect(npmAndYarn.findDependency(files, 'jest')).toMatchObject({ type: 'development', requirement: '^26.6.3', version: '26.6.3' });
  });
  it('is runtime when listed in dependencies and devDependencies, and prefers dependencies over peerDependencies', () => {
    expect(npmAndYarn.findDependency(files, 'lodash')).toMatchObject({ type: 'runtime', requirement: '^4.17.15', version: '4.17.21' });
    expect(npmAndYarn.findDependency(files, 'react')).toMatchObject({ type: 'runtime', requirement: '^16.14.0', version: '16.14.0' });
  });
  it('counts optionalDependencies as runtime; not locked means version null', () => {
    expect(npmAndYarn.findDependency(files, 'fsevents')).toMatchObject({ type: 'runtime', requirement: '^2.3.2', version: null });
  });
  it('gives no requirement nor version for a git dependency', () => {
    expect(npmAndYarn.findDependency(files, 'legacy-utils')).toMatchObject({ requirement: null, version: null });
  });
  it('ignores packages that are only in the lockfile (transitive)', () => {
    expect(npmAndYarn.findDependency(files, 'follow-redirects')).toBeUndefined();
    expect(npmAndYarn.findDependency(files, 'scheduler')).toBeUndefined();
    expect(npmAndYarn.findDependency(files, 'left-pad')).toBeUndefined();
  });
});

describe('npm_and_yarn findDependency with package-lock.json v3', () => {
  const files = fixture('npm-lock-v3');

  it('reads scoped packages from packages["node_modules/<name>"]', () => {
    expect(npmAndYarn.findDependency(files, '@tanstack/react-query')).toMatchObject({ requirement: '^5.8.4', version: '5.8.4' });
    expect(npmAndYarn.findDependency(files, '@types/node')).toMatchObject({ type: 'development', version: '20.10.0' });
  });
  it('reads a pre-release in use', () => {
    expect(npmAndYarn.findDependency(files, 'vitest')).toMatchObject({ requirement: '^1.0.0-beta.5', version: '1.0.0-beta.6' });
  });
  it('finds an npm: alias by the real package name', () => {
    expect(npmAndYarn.findDependency(files, 'uuid')).toEqual({
      name: 'uuid',
      type: 'runtime',
      requirement: '^8.3.2',
      version: '8.3.2',
      manifest: 'package.json',
    });
    expect(npmAndYarn.findDependency(files, 'old-uuid')).toBeUndefined();
  });
  it('strips workspace: and gives dist-tags no requirement', () => {
    expect(npmAndYarn.findDependency(files, 'shared-ui')).toMatchObject({ requirement: '*', version: null });
    expect(npmAndYarn.findDependency(files, 'eslint')).toMatchObject({ requirement: null, version: '8.54.0' });
  });
  it('falls back to the exact pin without a lockfile', () => {
    const manifestOnly = fixture('npm-lock-v3', ['package.json']);
    expect(npmAndYarn.findDependency(manifestOnly, 'next')).toMatchObject({ requirement: '14.0.3', version: '14.0.3' });
    expect(npmAndYarn.findDependency(manifestOnly, 'express')).toMatchObject({ requirement: '~4.18.2', version: null });
  });
  it('compares names as written (npm names are case-sensitive)', () => {
    expect(npmAndYarn.normaliseName(' Zod ')).toBe('Zod');
    expect(npmAndYarn.findDependency(files, 'Zod')).toBeUndefined();
  });
});

describe('npm_and_yarn findDependency with yarn.lock', () => {
  const files = fixture('yarn-v1');

  it('looks up name@requirement, also in multi-pattern entries', () => {
    expect(npmAndYarn.findDependency(files, '@babel/core')).toMatchObject({ requirement: '^7.12.3', version: '7.23.3' });
    expect(npmAndYarn.findDependency(files, 'debug')).toMatchObject({ version: '4.3.4' });
    expect(npmAndYarn.findDependency(files, 'typescript')).toMatchObject({ type: 'development', requirement: '~5.1.0', version: '5.1.6' });
  });
  it('falls back to the only locked version when the requirement changed since locking', () => {
    const edited = { ...files, 'package.json': (files['package.json'] ?? '').replace('"chalk": "^4.1.0"', '"chalk": "^4.0.0"') };
    expect(npmAndYarn.findDependency(edited, 'chalk')).toMatchObject({ requirement: '^4.0.0', version: '4.1.2' });
  });
  it('reads Yarn 2+ lockfiles too', () => {
    const berry = [
      '__metadata:',
      '  version: 6',
      '  cacheKey: 8',
      '',
      '"chalk@npm:^4.1.0":',
      '  version: 4.1.2',
      '  resolution: "chalk@npm:4.1.2"',
      '  dependencies:',
      '    ansi-styles: ^4.1.0',
      '',
    ].join('\n');
    expect(npmAndYarn.findDependency({ ...files, 'yarn.lock': berry }, 'chalk')).toMatchObject({ version: '4.1.2' });
  });
});

describe('npm_and_yarn malformed files', () => {
  it('names package.json when it does not parse', () => {
    const call = () => npmAndYarn.findDependency({ 'package.json': '{ "dependencies": { "a": "1" ' }, 'a');
    expect(call).toThrow(ManifestParseError);
    expect(call).toThrow(expect.objectContaining({ file: 'package.json' }));
  });
  it('names the lockfile when it does not parse', () => {
    const manifest = fixture('yarn-v1', ['package.json']);
    expect(() => npmAndYarn.findDependency({ ...manifest, 'package-lock.json': '[1, 2' }, 'chalk')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'package-lock.json' }),
    );
    expect(() => npmAndYarn.findDependency({ ...manifest, 'yarn.lock': 'chalk@^4:\n  version "4\n' }, 'chalk')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'yarn.lock' }),
    );
  });
  it('rejects a section that is not an object', () => {
    expect(() => npmAndYarn.findDependency({ 'package.json': '{"dependencies": ["a"]}' }, 'a')).toThrow(ManifestParseError);
  });
});

describe('npm_and_yarn listDependencies', () => {
  it('lists each package once in section order, with lockfile versions, leaving out git specs', () => {
    const list = listChecked(npmAndYarn, fixture('npm-lock-v1'));
    expect(rows(list)).toEqual([
      ['axios', 'runtime', '^0.21.1', '0.21.4'],
      ['lodash', 'runtime', '^4.17.15', '4.17.21'],
      ['moment', 'runtime', '2.29.1', '2.29.1'],
      ['react', 'runtime', '^16.14.0', '16.14.0'],
      ['react-dom', 'runtime', '^16.14.0', '16.14.0'],
      ['fsevents', 'runtime', '^2.3.2', null],
      ['jest', 'development', '^26.6.3', '26.6.3'],
      ['webpack', 'development', '^4.46.0', '4.46.0'],
    ]);
    expect(list.every((use) => use.manifest === 'package.json')).toBe(true);
  });
  it('lists aliases by their real name and dist-tags, leaving out workspace links', () => {
    const list = listChecked(npmAndYarn, fixture('npm-lock-v3'));
    expect(list.map((use) => use.name)).toEqual([
      '@tanstack/react-query',
      'express',
      'next',
      'zod',
      'uuid',
      '@types/node',
      'typescript',
      'vitest',
      'eslint',
    ]);
    expect(list.find((use) => use.name === 'uuid')).toMatchObject({ requirement: '^8.3.2', version: '8.3.2' });
    expect(list.find((use) => use.name === 'eslint')).toMatchObject({ type: 'development', requirement: null, version: '8.54.0' });
  });
  it('reads versions from yarn.lock, and exact pins without a lockfile', () => {
    expect(rows(listChecked(npmAndYarn, fixture('yarn-v1')))).toEqual([
      ['@babel/core', 'runtime', '^7.12.3', '7.23.3'],
      ['chalk', 'runtime', '^4.1.0', '4.1.2'],
      ['debug', 'runtime', '^4.1.0', '4.3.4'],
      ['prettier', 'development', '2.8.8', '2.8.8'],
      ['typescript', 'development', '~5.1.0', '5.1.6'],
    ]);
    const manifestOnly = listChecked(npmAndYarn, fixture('npm-lock-v3', ['package.json']));
    expect(manifestOnly.filter((use) => use.version !== null).map((use) => use.name)).toEqual(['next', 'typescript']);
  });
  it('leaves out file:, link:, patch:, git, URL, path and GitHub shorthand specs, keeping dist-tags and catalog: references', () => {
    const manifest = JSON.stringify({
      dependencies: {
        left: 'file:../left',
        linked: 'link:../linked',
        forked: 'git+https://github.com/acme/forked.git#v2',
        tarball: 'https://registry.example.com/tarball-1.0.0.tgz',
        local: './packages/local',
        short: 'acme/short#main',
        semver: '>=1.2.0 <2',
      },
      devDependencies: { tagged: 'next', catalogued: 'catalog:', patched: 'patch:left-pad@npm%3A1.3.0#./left-pad.patch' },
    });
    expect(rows(listChecked(npmAndYarn, { 'package.json': manifest }))).toEqual([
      ['semver', 'runtime', '>=1.2.0 <2', null],
      ['tagged', 'development', null, null],
      ['catalogued', 'development', null, null],
    ]);
  });
  it('is empty without package.json and throws on files that do not parse', () => {
    expect(npmAndYarn.listDependencies({})).toEqual([]);
    expect(() => npmAndYarn.listDependencies({ 'package.json': '{"dependencies": ' })).toThrow(ManifestParseError);
    const manifest = fixture('yarn-v1', ['package.json']);
    expect(() => npmAndYarn.listDependencies({ ...manifest, 'package-lock.json': '[1, 2' })).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'package-lock.json' }),
    );
  });
});

describe('npm versions (node-semver)', () => {
  it('orders versions, pre-releases before their release', () => {
    const order = [
      '0.9.0',
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.10.0',
      '2.0.0',
    ];
    expect(sorted(order, npmVersions.compare)).toEqual(order);
    expect(npmVersions.compare('v1.2.3', '1.2.3')).toBe(0);
  });
  it.each([
    ['1.2.3', '^1.0.0', true],
    ['2.0.0', '^1.0.0', false],
    ['0.2.5', '^0.2.3', true],
    ['0.3.0', '^0.2.3', false],
    ['0.0.4', '^0.0.3', false],
    ['0.1.5', '0.x', true],
    ['1.2.9', '~1.2.3', true],
    ['1.3.0', '~1.2.3', false],
    ['2.5.0', '1.2.x || 2.x', true],
    ['1.5.0', '1.0.0 - 2.0.0', true],
    ['1.0.0-rc.1', '>=1.0.0-beta', true],
    ['1.0.0-rc.1', '>=0.9.0', false],
    ['1.1.0-rc.1', '>=1.0.0-beta', false],
  ])('%s satisfies %s: %s', (version, range, expected) => {
    expect(npmVersions.satisfies(version, range)).toBe(expected);
  });
  it('throws on invalid versions and requirements', () => {
    expect(() => npmVersions.compare('latest', '1.0.0')).toThrow(InvalidVersionError);
    expect(() => npmVersions.satisfies('1.0.0', 'github:user/repo')).toThrow(InvalidRequirementError);
    expect(npmVersions.isValid('1.2')).toBe(false);
  });
  it('tells pre-releases and update kinds', () => {
    expect(npmVersions.isPrerelease('1.0.0-rc.1')).toBe(true);
    expect(npmVersions.isPrerelease('1.0.0')).toBe(false);
    expect(npmVersions.updateKind('1.2.3', '1.2.4')).toBe('patch');
    expect(npmVersions.updateKind('1.2.3', '1.3.0')).toBe('minor');
    expect(npmVersions.updateKind('1.2.3', '2.0.0')).toBe('major');
    expect(npmVersions.updateKind('0.1.0', '0.2.0')).toBe('major');
    expect(npmVersions.updateKind('1.0.0-rc.1', '1.0.0')).toBe('patch');
  });
  it('names the lowest version a range allows, null without a lower bound', () => {
    expect(npmVersions.lowestAllowed?.('^4.17.0')).toBe('4.17.0');
    expect(npmVersions.lowestAllowed?.('>=1.2.0 <2 || ^3.1.0')).toBe('1.2.0');
    expect(npmVersions.lowestAllowed?.('*')).toBeNull();
    expect(npmVersions.lowestAllowed?.('<2.0.0')).toBeNull();
  });
});
