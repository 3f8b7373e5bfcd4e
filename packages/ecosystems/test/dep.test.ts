import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGopkgLock } from '../src/dep/gopkg.ts';
import { dep, depToSemverRange, depVersions, ecosystemFor, InvalidRequirementError, ManifestParseError } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const files = fixture('dep');

describe('dep findDependency', () => {
  const find = (name: string) => dep.findDependency(files, name);

  it('reads a constraint with the version Gopkg.lock locks', () => {
    expect(find('github.com/pkg/errors')).toEqual({
      name: 'github.com/pkg/errors',
      type: 'runtime',
      requirement: '0.8.0',
      version: 'v0.8.0',
      manifest: 'Gopkg.toml',
    });
    expect(find('github.com/sirupsen/logrus')).toMatchObject({ requirement: '~1.0.4', version: 'v1.0.5' });
    expect(find('github.com/stretchr/testify')).toMatchObject({ requirement: '>= 1.1.0, < 1.3.0', version: 'v1.2.2' });
  });
  it('takes an override over the constraints of the same project, and an override alone', () => {
    expect(find('github.com/golang/protobuf')).toMatchObject({ requirement: '~1.2.0', version: 'v1.2.0' });
    expect(find('github.com/davecgh/go-spew')).toMatchObject({ requirement: '1.1.1', version: 'v1.1.1' });
  });
  it('gives branch, revision and other-source rules no requirement and no version', () => {
    expect(find('github.com/golang/glog')).toMatchObject({ requirement: null, version: null });
    expect(find('github.com/kr/pretty')).toMatchObject({ requirement: null, version: null });
    expect(find('github.com/acme/fork')).toMatchObject({ requirement: null, version: null });
  });
  it('does not count projects only in Gopkg.lock, and names the file that does not parse', () => {
    expect(find('github.com/pmezard/go-difflib')).toBeUndefined();
    expect(dep.findDependency({}, 'github.com/pkg/errors')).toBeUndefined();
    expect(() => dep.findDependency({ 'Gopkg.toml': '[[constraint]\nname = "x"' }, 'x')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'Gopkg.toml' }),
    );
    expect(() => dep.findDependency({ 'Gopkg.toml': '[[constraint]]\nversion = "1.0.0"\n' }, 'x')).toThrow(/has no name/);
    expect(() => dep.findDependency({ 'Gopkg.toml': 'constraint = "x"\n' }, 'x')).toThrow(ManifestParseError);
    expect(() => dep.findDependency({ ...files, 'Gopkg.lock': '[[projects]]\nversion = 1\n' }, 'github.com/pkg/errors')).toThrow(
      expect.objectContaining({ file: 'Gopkg.lock' }),
    );
  });
});

describe('dep listDependencies', () => {
  it('lists github.com projects that follow tags, constraints then overrides', () => {
    expect(rows(listChecked(dep, files))).toEqual([
      ['github.com/pkg/errors', 'runtime', '0.8.0', 'v0.8.0'],
      ['github.com/sirupsen/logrus', 'runtime', '~1.0.4', 'v1.0.5'],
      ['github.com/spf13/cobra', 'runtime', '=0.0.3', 'v0.0.3'],
      ['github.com/stretchr/testify', 'runtime', '>= 1.1.0, < 1.3.0', 'v1.2.2'],
      ['github.com/gorilla/mux', 'runtime', 'v1.6.2', 'v1.6.2'],
      ['github.com/golang/protobuf', 'runtime', '~1.2.0', 'v1.2.0'],
      ['github.com/davecgh/go-spew', 'runtime', '1.1.1', 'v1.1.1'],
    ]);
  });
  it('gives the version null without Gopkg.lock, and is registered for dep', () => {
    expect(rows(dep.listDependencies({ 'Gopkg.toml': files['Gopkg.toml'] ?? '' })).slice(0, 1)).toEqual([
      ['github.com/pkg/errors', 'runtime', '0.8.0', null],
    ]);
    expect(dep.listDependencies({})).toEqual([]);
    expect(ecosystemFor('dep')).toBe(dep);
  });
  it('reads Gopkg.lock projects', () => {
    const lock = readGopkgLock('Gopkg.lock', files['Gopkg.lock'] ?? '');
    expect(lock).toHaveLength(12);
    expect(lock.find((p) => p.name === 'github.com/golang/glog')).toMatchObject({ branch: 'master', version: null });
  });
});

describe('dep version scheme', () => {
  it.each([
    ['0.8.0', '>=0.8.0 <0.9.0'],
    ['0.0.3', '>=0.0.3 <0.1.0'],
    ['^0.2', '>=0.2.0 <0.3.0'],
    ['1.2.3', '^1.2.3'],
    ['v1.2.3', '^1.2.3'],
    ['=1.2.3', '=1.2.3'],
    ['~1.2', '~1.2'],
    ['~> 1.2.0', '~1.2.0'],
    ['>= 1.0, < 2.0', '>=1.0 <2.0'],
    ['=> 1.0, =< 1.4', '>=1.0 <=1.4'],
    ['1.2.x', '1.2.x'],
    ['*', '*'],
    ['1.0.0 - 1.4.0', '1.0.0 - 1.4.0'],
    ['^1.0.0 || ^2.0.0', '^1.0.0 || ^2.0.0'],
  ])('maps %s to the semver range %s', (constraint, range) => {
    expect(depToSemverRange(constraint)).toBe(range);
  });
  it('rejects what it cannot read', () => {
    for (const bad of ['!=1.2.3', 'master', '>= 1.0,', '']) expect(() => depToSemverRange(bad), bad).toThrow(InvalidRequirementError);
  });
  it('reads tags with or without v and matches them as dep does', () => {
    expect(depVersions.isValid('v0.8.1')).toBe(true);
    expect(depVersions.isValid('0.8.1')).toBe(true);
    expect(depVersions.isValid('release-1')).toBe(false);
    expect(sorted(['v0.8.0', 'v0.8.1', 'v0.9.1-rc.1', 'v0.9.1', '1.0.0'], depVersions.compare)).toEqual([
      'v0.8.0',
      'v0.8.1',
      'v0.9.1-rc.1',
      'v0.9.1',
      '1.0.0',
    ]);
    expect(depVersions.satisfies('v0.8.1', '0.8.0')).toBe(true);
    expect(depVersions.satisfies('v0.9.1', '0.8.0')).toBe(false);
    expect(depVersions.satisfies('v1.9.0', '1.2.3')).toBe(true);
    expect(depVersions.satisfies('v1.3.0', '~1.2')).toBe(false);
    expect(depVersions.satisfies('v1.3.0-rc.1', '^1.2.0')).toBe(false);
    expect(depVersions.lowestAllowed?.('0.8.0')).toBe('0.8.0');
    expect(depVersions.updateKind('v0.8.0', 'v0.9.1')).toBe('major');
  });
});

describe('dep demo directory', () => {
  it('reads the demo repo dep/ directory and finds the dependency the end-to-end test updates', () => {
    const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/dep.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    const demo = Object.fromEntries(
      Object.entries(seed.files['acme/polyglot'] ?? {})
        .filter(([path]) => path.startsWith('dep/'))
        .map(([path, text]) => [path.slice('dep/'.length), text]),
    );
    expect(dep.findDependency(demo, 'github.com/acme-oss/errors')).toEqual({
      name: 'github.com/acme-oss/errors',
      type: 'runtime',
      requirement: '0.8.0',
      version: 'v0.8.0',
      manifest: 'Gopkg.toml',
    });
    expect(listChecked(dep, demo)).toHaveLength(1);
    expect(readGopkgLock('Gopkg.lock', demo['Gopkg.lock'] ?? '')[0]?.revision).toMatch(/^[0-9a-f]{40}$/);
  });
});
