import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGoMod } from '../src/go/go-mod.ts';
import { readGoSum } from '../src/go/go-sum.ts';
import { pathMajor, versionFitsPath } from '../src/go/versions.ts';
import {
  compareGoVersions,
  ecosystemFor,
  goModules,
  goVersions,
  InvalidRequirementError,
  InvalidVersionError,
  isPseudoVersion,
  ManifestParseError,
} from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const files = fixture('go-modules');

describe('go_modules findDependency', () => {
  const find = (name: string) => goModules.findDependency(files, name);

  it('reads a direct require with no requirement (Go has minimum versions) and the required version', () => {
    expect(find('github.com/google/uuid')).toEqual({
      name: 'github.com/google/uuid',
      type: 'runtime',
      requirement: null,
      version: 'v1.3.0',
      manifest: 'go.mod',
    });
    expect(find('github.com/pkg/errors')).toMatchObject({ version: 'v0.9.1' });
    expect(find('example.com/mod/v2')).toMatchObject({ version: 'v2.1.0' });
    expect(find('github.com/Azure/go-autorest')).toMatchObject({ version: 'v14.2.0+incompatible' });
    expect(find('github.com/acme/pseudo')).toMatchObject({ version: 'v0.0.0-20191109021931-daa7c04131f5' });
    expect(find('github.com/quoted/mod')).toMatchObject({ version: 'v1.0.0' });
  });
  it('compares module paths exactly (Go paths are case-sensitive)', () => {
    expect(find('github.com/azure/go-autorest')).toBeUndefined();
    expect(find(' github.com/pkg/errors ')).toMatchObject({ name: 'github.com/pkg/errors' });
  });
  it('leaves out indirect requires', () => {
    expect(find('golang.org/x/sys')).toBeUndefined();
    expect(find('github.com/davecgh/go-spew')).toBeUndefined();
  });
  it('gives replaced modules no version: the replacement builds, by a directory or another module version', () => {
    expect(find('github.com/local/fork')).toMatchObject({ version: null, requirement: null });
    expect(find('github.com/old/lib')).toMatchObject({ version: null });
    // the uuid replacement names v1.0.0 only, and v1.3.0 is required
    expect(find('github.com/google/uuid')).toMatchObject({ version: 'v1.3.0' });
  });
  it('is undefined without go.mod and names the file that does not parse', () => {
    expect(goModules.findDependency({}, 'github.com/pkg/errors')).toBeUndefined();
    expect(() => goModules.findDependency({ 'go.mod': 'module x\nrequire (\n\ta v1.0.0\n' }, 'a')).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: 'go.mod', reason: expect.stringContaining('not closed') }),
    );
    expect(() => goModules.findDependency({ 'go.mod': 'module x\nrequires a v1.0.0\n' }, 'a')).toThrow(ManifestParseError);
    expect(() => goModules.findDependency({ 'go.mod': 'module x\nrequire a\n' }, 'a')).toThrow(/line 2: usage: require/);
    expect(() => goModules.findDependency({ ...files, 'go.sum': 'github.com/a/b v1.0.0\n' }, 'a')).toThrow(
      expect.objectContaining({ file: 'go.sum', reason: 'line 1: malformed line' }),
    );
  });
});

describe('go_modules listDependencies', () => {
  it('lists direct, not replaced requires in file order', () => {
    expect(rows(listChecked(goModules, files))).toEqual([
      ['github.com/pkg/errors', 'runtime', null, 'v0.9.1'],
      ['github.com/google/uuid', 'runtime', null, 'v1.3.0'],
      ['golang.org/x/text', 'runtime', null, 'v0.14.0'],
      ['example.com/mod/v2', 'runtime', null, 'v2.1.0'],
      ['github.com/Azure/go-autorest', 'runtime', null, 'v14.2.0+incompatible'],
      ['gopkg.in/yaml.v3', 'runtime', null, 'v3.0.1'],
      ['github.com/acme/pseudo', 'runtime', null, 'v0.0.0-20191109021931-daa7c04131f5'],
      ['github.com/quoted/mod', 'runtime', null, 'v1.0.0'],
    ]);
  });
  it('is empty without go.mod or requires, and is registered for go_modules', () => {
    expect(goModules.listDependencies({})).toEqual([]);
    expect(goModules.listDependencies({ 'go.mod': 'module example.com/x\n\ngo 1.22\n' })).toEqual([]);
    // a path without a dot in its first element is served by no proxy (only a replace can provide it)
    const local = { 'go.mod': 'module example.com/x\nrequire mycorp/lib v1.0.0\nrequire a.com/b v1.0.0\n' };
    expect(goModules.listDependencies(local).map((use) => use.name)).toEqual(['a.com/b']);
    expect(goModules.findDependency(local, 'mycorp/lib')).toMatchObject({ version: 'v1.0.0' });
    expect(ecosystemFor('go_modules')).toBe(goModules);
  });
});

describe('go.mod and go.sum readers', () => {
  it('reads module, go, toolchain, exclude, replace and retract directives', () => {
    const mod = readGoMod('go.mod', files['go.mod'] ?? '');
    expect(mod).toMatchObject({ module: 'example.com/acme/service', go: '1.21', toolchain: 'go1.21.5' });
    expect(mod.excludes).toEqual([{ path: 'golang.org/x/text', version: 'v0.13.0' }]);
    expect(mod.replaces).toEqual([
      { path: 'github.com/local/fork', version: null, newPath: '../fork', newVersion: null, local: true },
      { path: 'github.com/old/lib', version: 'v1.1.0', newPath: 'github.com/new/lib', newVersion: 'v1.2.0', local: false },
      { path: 'github.com/google/uuid', version: 'v1.0.0', newPath: 'github.com/other/uuid', newVersion: 'v1.0.0', local: false },
    ]);
    expect(mod.retracts).toEqual([
      { low: 'v1.0.0', high: 'v1.0.5', rationale: 'broken releases' },
      { low: 'v1.1.0', high: 'v1.1.0', rationale: null },
    ]);
    expect(mod.requires.filter((r) => r.indirect).map((r) => r.path)).toEqual(['github.com/davecgh/go-spew', 'golang.org/x/sys']);
  });
  it('reads go.mod with CRLF line endings and an `indirect; ...` comment', () => {
    const mod = readGoMod(
      'go.mod',
      'module x\r\n\r\nrequire (\r\n\ta.com/b v1.0.0 // indirect; via c\r\n\td.com/e v2.0.0+incompatible\r\n)\r\n',
    );
    expect(mod.requires.map((r) => [r.path, r.version.value, r.indirect])).toEqual([
      ['a.com/b', 'v1.0.0', true],
      ['d.com/e', 'v2.0.0+incompatible', false],
    ]);
  });
  it('reads a go.mod with a BOM and no-break spaces', () => {
    const mod = readGoMod('go.mod', '\uFEFFmodule x\n\u00a0require\fa.com/b\vv1.0.0\u2028\u3000\n');
    expect(mod.module).toBe('x');
    expect(mod.requires.map((r) => [r.path, r.version.value])).toEqual([['a.com/b', 'v1.0.0']]);
    expect(readGoMod('go.mod', `module x\n${'\u00a0\uFEFF'.repeat(50_000)}\n`).module).toBe('x');
  });
  it('reads go.sum lines, zip and go.mod hashes apart', () => {
    const sum = readGoSum('go.sum', files['go.sum'] ?? '');
    expect(sum).toHaveLength(23);
    expect(sum.filter((l) => l.path === 'github.com/pkg/errors').map((l) => [l.version, l.goMod])).toEqual([
      ['v0.8.1', true],
      ['v0.9.1', false],
      ['v0.9.1', true],
    ]);
  });
});

describe('Go module version scheme', () => {
  it('accepts canonical versions with v, pre-releases, pseudo-versions and +incompatible only', () => {
    for (const v of [
      'v0.0.1',
      'v1.2.3',
      'v1.2.3-rc.1',
      'v2.0.0+incompatible',
      'v0.0.0-20191109021931-daa7c04131f5',
      'v1.2.4-0.20191109021931-daa7c04131f5',
    ]) {
      expect(goVersions.isValid(v), v).toBe(true);
    }
    for (const v of ['1.2.3', 'v1.2', 'v1', 'v01.2.3', 'v1.2.3+build', 'v1.2.3-01', 'latest', 'master', '']) {
      expect(goVersions.isValid(v), v).toBe(false);
    }
    expect(() => goVersions.compare('v1.0.0', '1.0.0')).toThrow(InvalidVersionError);
  });
  it('orders by semantic precedence, pseudo-versions as pre-releases', () => {
    const ordered = [
      'v0.0.0-20191109021931-daa7c04131f5',
      'v0.0.0-20200101000000-aaaaaaaaaaaa',
      'v0.1.0',
      'v1.2.3',
      'v1.2.4-0.20191109021931-daa7c04131f5',
      'v1.2.4-alpha',
      'v1.2.4-pre.0.20191109021931-daa7c04131f5',
      'v1.2.4-rc.1',
      'v1.2.4-rc.2',
      'v1.2.4',
      'v1.10.0',
      'v2.0.0+incompatible',
      'v2.1.0+incompatible',
    ];
    expect(sorted(ordered, compareGoVersions)).toEqual(ordered);
    expect(goVersions.compare('v2.0.0+incompatible', 'v2.0.0')).toBe(0);
  });
  it('tells pseudo-versions and pre-releases', () => {
    expect(isPseudoVersion('v0.0.0-20191109021931-daa7c04131f5')).toBe(true);
    expect(isPseudoVersion('v1.2.4-0.20191109021931-daa7c04131f5')).toBe(true);
    expect(isPseudoVersion('v1.2.4-pre.0.20191109021931-daa7c04131f5')).toBe(true);
    expect(isPseudoVersion('v1.2.4-rc.1')).toBe(false);
    expect(goVersions.isPrerelease('v0.0.0-20191109021931-daa7c04131f5')).toBe(true);
    expect(goVersions.isPrerelease('v1.2.3')).toBe(false);
  });
  it('reads a requirement as a minimum of the same major line', () => {
    expect(goVersions.satisfies('v1.4.0', 'v1.3.0')).toBe(true);
    expect(goVersions.satisfies('v0.9.0', 'v0.3.0')).toBe(true);
    expect(goVersions.satisfies('v1.2.0', 'v1.3.0')).toBe(false);
    expect(goVersions.satisfies('v2.0.0+incompatible', 'v1.3.0')).toBe(false);
    expect(goVersions.satisfies('v3.0.0+incompatible', 'v2.1.0+incompatible')).toBe(false);
    expect(goVersions.satisfies('v2.2.0+incompatible', 'v2.1.0+incompatible')).toBe(true);
    expect(() => goVersions.satisfies('v1.0.0', '>=1.0')).toThrow(InvalidRequirementError);
    expect(goVersions.lowestAllowed?.('v1.3.0')).toBe('v1.3.0');
    expect(goVersions.updateKind('v1.2.3', 'v1.3.0')).toBe('minor');
    expect(goVersions.updateKind('v0.1.0', 'v0.1.1')).toBe('major');
    expect(goVersions.release?.('v2.3.4+incompatible')).toEqual([2, 3, 4]);
  });
  it('knows which versions a module path holds (major version suffixes)', () => {
    expect(pathMajor('example.com/mod/v2')).toBe(2);
    expect(pathMajor('gopkg.in/yaml.v3')).toBe(3);
    expect(pathMajor('github.com/pkg/errors')).toBeNull();
    expect(pathMajor('example.com/v1')).toBeNull();
    expect(versionFitsPath('example.com/mod/v2', 'v2.3.0')).toBe(true);
    expect(versionFitsPath('example.com/mod/v2', 'v3.0.0')).toBe(false);
    expect(versionFitsPath('github.com/pkg/errors', 'v1.9.0')).toBe(true);
    expect(versionFitsPath('github.com/pkg/errors', 'v2.0.0')).toBe(false);
    expect(versionFitsPath('github.com/pkg/errors', 'v2.0.0+incompatible')).toBe(true);
    expect(versionFitsPath('gopkg.in/yaml.v3', 'v3.0.1')).toBe(true);
    expect(versionFitsPath('gopkg.in/check.v1', 'v0.0.0-20161208181325-20d25e280405')).toBe(true);
  });
});

describe('go_modules demo directory', () => {
  it('reads the demo repo go/ directory and finds the dependency the end-to-end test updates', () => {
    const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/go_modules.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    const repo = seed.files['acme/polyglot'] ?? {};
    const demo = Object.fromEntries(
      Object.entries(repo)
        .filter(([path]) => path.startsWith('go/'))
        .map(([path, text]) => [path.slice('go/'.length), text]),
    );
    expect(goModules.findDependency(demo, 'github.com/acme-oss/uuid')).toEqual({
      name: 'github.com/acme-oss/uuid',
      type: 'runtime',
      requirement: null,
      version: 'v1.3.0',
      manifest: 'go.mod',
    });
    expect(rows(listChecked(goModules, demo)).map((row) => row[0])).toEqual(['github.com/acme-oss/i18n', 'github.com/acme-oss/uuid']);
  });
});
