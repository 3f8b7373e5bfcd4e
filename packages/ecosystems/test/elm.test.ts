import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { elm, elmVersions, InvalidRequirementError, InvalidVersionError, ManifestParseError, parseElmConstraint } from '../src/index.ts';
import { fixture, sorted } from './fixtures.ts';

const app = fixture('elm');
const pkg = fixture('elm-package');

describe('elm findDependency', () => {
  it("reads an application's direct dependencies with their exact versions", () => {
    expect(elm.findDependency(app, 'elm/http')).toEqual({
      name: 'elm/http',
      type: 'runtime',
      requirement: '2.0.0',
      version: '2.0.0',
      manifest: 'elm.json',
    });
    expect(elm.findDependency(app, 'elm-explorations/test')).toMatchObject({ type: 'development', version: '2.1.1' });
  });
  it('does not count indirect dependencies as used', () => {
    expect(elm.findDependency(app, 'elm/bytes')).toBeUndefined();
    expect(elm.findDependency(app, 'elm/random')).toBeUndefined();
  });
  it("reads a package's ranges without a version in use", () => {
    expect(elm.findDependency(pkg, 'elm/http')).toEqual({
      name: 'elm/http',
      type: 'runtime',
      requirement: '1.0.0 <= v < 2.0.0',
      version: null,
      manifest: 'elm.json',
    });
    expect(elm.findDependency(pkg, 'elm-explorations/test')).toMatchObject({ type: 'development' });
  });
  it('lists direct dependencies in file order', () => {
    expect(elm.listDependencies(app).map((use) => use.name)).toEqual([
      'elm/browser',
      'elm/core',
      'elm/http',
      'elm/json',
      'mdgriffith/elm-ui',
      'elm-explorations/test',
    ]);
    expect(elm.listDependencies(pkg).map((use) => use.name)).toEqual(['elm/core', 'elm/http', 'elm/json', 'elm-explorations/test']);
    for (const use of elm.listDependencies(app)) expect(elm.findDependency(app, use.name)).toEqual(use);
    expect(elm.listDependencies({})).toEqual([]);
  });
  it('reports malformed files', () => {
    for (const text of [
      '{',
      '[]',
      '{"type": "library"}',
      '{"type": "package", "dependencies": []}',
      '{"type": "application", "dependencies": {"direct": {"a/b": 1}}}',
    ]) {
      expect(() => elm.listDependencies({ 'elm.json': text }), text).toThrow(ManifestParseError);
    }
  });
});

describe('elm version scheme', () => {
  const v = elmVersions;
  it('orders three-number versions and has no pre-releases', () => {
    expect(sorted(['1.10.0', '1.2.0', '0.9.9', '2.0.0', '1.2.1'], v.compare)).toEqual(['0.9.9', '1.2.0', '1.2.1', '1.10.0', '2.0.0']);
    expect(v.isValid('1.0.0')).toBe(true);
    for (const version of ['1.0', '1.0.0-beta', 'v1.0.0', '01.0.0']) expect(v.isValid(version), version).toBe(false);
    expect(v.isPrerelease('1.0.0')).toBe(false);
    expect(() => v.compare('1.0', '1.0.0')).toThrow(InvalidVersionError);
  });
  it.each([
    ['1.0.0 <= v < 2.0.0', '1.0.0', true],
    ['1.0.0 <= v < 2.0.0', '1.9.9', true],
    ['1.0.0 <= v < 2.0.0', '2.0.0', false],
    ['1.0.0 < v < 2.0.0', '1.0.0', false],
    ['1.1.0 <= v <= 1.1.3', '1.1.3', true],
    ['2.0.0', '2.0.0', true],
    ['2.0.0', '2.0.1', false],
  ])("'%s' allows %s: %s", (requirement, version, expected) => {
    expect(v.satisfies(version, requirement)).toBe(expected);
  });
  it('rejects what is not a constraint, and gives bounds and kinds', () => {
    for (const requirement of ['', '^1.0.0', '>= 1.0.0', '1.0.0 <= x < 2.0.0', '1.0 <= v < 2.0']) {
      expect(() => v.satisfies('1.0.0', requirement), requirement).toThrow(InvalidRequirementError);
    }
    expect(v.lowestAllowed?.('1.0.0 <= v < 2.0.0')).toBe('1.0.0');
    expect(v.lowestAllowed?.('1.0.0 < v < 2.0.0')).toBeNull();
    expect(v.lowestAllowed?.('2.0.1')).toBe('2.0.1');
    expect(v.updateKind('2.0.0', '2.1.0')).toBe('minor');
    expect(parseElmConstraint('1.0.0 <= v < 2.0.0')).toEqual({
      kind: 'range',
      lower: [1, 0, 0],
      lowerOp: '<=',
      upper: [2, 0, 0],
      upperOp: '<',
    });
  });
});

describe('elm demo directory', () => {
  it('reads the GitHub emulator demo files and finds the end-to-end dependency', () => {
    const seed = JSON.parse(readFileSync(new URL('../../github-emulator/src/demo-seeds/elm.json', import.meta.url), 'utf8')) as {
      files: Record<string, Record<string, string>>;
    };
    const demo = { 'elm.json': seed.files['acme/polyglot']?.['elm/elm.json'] ?? '' };
    expect(elm.findDependency(demo, 'elm/http')).toEqual({
      name: 'elm/http',
      type: 'runtime',
      requirement: '2.0.0',
      version: '2.0.0',
      manifest: 'elm.json',
    });
    expect(elm.listDependencies(demo).map((use) => `${use.name}@${use.version}`)).toEqual([
      'elm/browser@1.0.2',
      'elm/core@1.0.5',
      'elm/http@2.0.0',
      'elm/json@1.1.2',
    ]);
  });
});
