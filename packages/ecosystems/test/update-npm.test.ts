import { describe, expect, it } from 'vitest';
import { type DependencyUse, InvalidVersionError, npmAndYarn } from '../src/index.ts';
import { fixture } from './fixtures.ts';
import { checkedUpdate } from './update-check.ts';

const manifest = (spec: string) =>
  `{\n  "name": "app",\n  "dependencies": {\n    "left": "^1.0.0",\n    "pkg": "${spec}",\n    "right": "~2.0.0"\n  }\n}\n`;

/** The new requirement, or `unchanged` / `cannot`. */
function outcome(spec: string, target: string): string {
  const result = checkedUpdate(npmAndYarn, { 'package.json': manifest(spec) }, 'pkg', target);
  if ('files' in result) {
    expect(result.files['package.json']).toBe(manifest(result.requirement ?? ''));
    return result.requirement ?? '';
  }
  return 'unchanged' in result ? 'unchanged' : 'cannot';
}

describe('npm_and_yarn updateManifest: one requirement per operator', () => {
  it.each([
    ['^1.2.3', '2.0.1', '^2.0.1'],
    ['^1.2.3', '1.9.0', 'unchanged'],
    ['~1.2.3', '1.3.0', '~1.3.0'],
    ['1.2.3', '2.0.1', '2.0.1'],
    ['=1.2.3', '2.0.1', '=2.0.1'],
    ['1.2.3', '1.2.3', 'unchanged'],
    ['^1.2', '2.0.1', '^2.0'],
    ['~0.2', '0.3.4', '~0.3'],
    ['1.x', '2.3.4', '2.x'],
    ['1.2.x', '1.3.0', '1.3.x'],
    ['1', '2.5.0', '2'],
    ['>=1.2.0 <2', '2.1.0', '>=1.2.0 <3'],
    ['>=1.2.0 <2.0.0', '2.1.0', '>=1.2.0 <3.0.0'],
    ['>= 1.2.0 < 1.5', '1.7.2', '>= 1.2.0 < 1.8'],
    ['>=1.0.0 <=1.5.0', '1.7.2', '>=1.0.0 <=1.7.2'],
    ['1.0.0 - 1.5.0', '1.7.2', '1.0.0 - 1.7.2'],
    ['^1.0.0 || ^2.0.0', '3.1.0', '^1.0.0 || ^2.0.0 || ^3.1.0'],
    ['^v1.2.3', '2.0.0', '^v2.0.0'],
    ['^1.2.3', '2.0.0-beta.1', '^2.0.0-beta.1'],
    ['>=2.0.0', '1.5.0', 'cannot'],
    ['*', '9.9.9', 'unchanged'],
    ['latest', '9.9.9', 'unchanged'],
  ])('%s for %s → %s', (spec, target, expected) => {
    expect(outcome(spec, target)).toBe(expected);
  });
});

describe('npm_and_yarn updateManifest: declarations and formatting', () => {
  const use = (files: Record<string, string>, name: string) => npmAndYarn.findDependency(files, name) as DependencyUse;

  it('updates every section declaring the package and keeps CRLF, tabs and the missing final newline', () => {
    const text =
      '{\r\n\t"dependencies": {\r\n\t\t"lodash": "^4.17.15"\r\n\t},\r\n\t"devDependencies": {\r\n\t\t"lodash":   "~4.16.0"\r\n\t}\r\n}';
    const result = checkedUpdate(npmAndYarn, { 'package.json': text }, 'lodash', '5.0.1');
    expect(result).toEqual({
      files: { 'package.json': text.replace('^4.17.15', '^5.0.1').replace('~4.16.0', '~5.0.1') },
      requirement: '^5.0.1',
    });
  });
  it('edits only the range of an npm: alias, found by the real name', () => {
    const files = fixture('npm-lock-v3');
    const result = checkedUpdate(npmAndYarn, files, 'uuid', '9.0.1');
    expect(result).toMatchObject({ requirement: '^9.0.1' });
    if ('files' in result) expect(result.files['package.json']).toContain('"npm:uuid@^9.0.1"');
    expect(Object.keys('files' in result ? result.files : {})).toEqual(['package.json']);
  });
  it('leaves a requirement that allows the target, saying so', () => {
    const files = fixture('npm-lock-v1');
    expect(npmAndYarn.updateManifest(files, use(files, 'axios'), '0.21.9')).toEqual({
      unchanged: expect.stringContaining("'^0.21.1' already allows 0.21.9"),
    });
  });
  it('cannot rewrite git, workspace, catalog or escaped specs, nor an undeclared package', () => {
    const of = (spec: string) => {
      const files = { 'package.json': `{"dependencies":{"pkg":"${spec}"}}` };
      return npmAndYarn.updateManifest(
        files,
        { name: 'pkg', type: 'runtime', requirement: null, version: null, manifest: 'package.json' },
        '2.0.0',
      );
    };
    expect(of('github:acme/pkg')).toEqual({ cannot: expect.stringContaining('not a registry range') });
    expect(of('workspace:^1.0.0')).toEqual({ cannot: expect.stringContaining('not a registry range') });
    expect(of('catalog:')).toEqual({ cannot: expect.stringContaining('catalog') });
    expect(of('\\u005e1.0.0')).toEqual({ cannot: expect.stringContaining('escapes') });
    expect(
      npmAndYarn.updateManifest(
        { 'package.json': '{}' },
        { name: 'pkg', type: 'runtime', requirement: null, version: null, manifest: 'package.json' },
        '1.0.0',
      ),
    ).toEqual({
      cannot: "'pkg' is not declared in the files read",
    });
  });
  it('throws InvalidVersionError for a target that is not a version', () => {
    const files = { 'package.json': manifest('^1.0.0') };
    expect(() => npmAndYarn.updateManifest(files, use(files, 'pkg'), 'latest')).toThrow(InvalidVersionError);
  });
});
