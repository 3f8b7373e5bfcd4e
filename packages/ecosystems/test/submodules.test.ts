import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assessUpdate,
  ecosystemFor,
  InvalidVersionError,
  ManifestParseError,
  readGitmodules,
  submoduleDependencyName,
  submodules,
  submoduleVersions,
} from '../src/index.ts';
import { fixtureTree } from './fixtures.ts';
import { listChecked, rows } from './invariant.ts';

const files = fixtureTree('submodules');
const gitmodules = files['.gitmodules'] ?? '';
const find = (name: string) => submodules.findDependency(files, name);

describe('submodules readGitmodules', () => {
  it('reads every submodule section with path, url and branch, as git reads the file', () => {
    expect(readGitmodules('.gitmodules', gitmodules)).toEqual([
      { name: 'vendor/libgit2', path: 'vendor/libgit2', url: 'https://github.com/libgit2/libgit2.git', branch: null, line: 2 },
      { name: 'docs/theme', path: 'docs/theme', url: 'git@github.com:Acme/Hugo-Theme.git', branch: 'stable', line: 5 },
      { name: 'tools/lint', path: 'tools/lint', url: 'ssh://git@github.com/acme/lint-rules', branch: 'release/v2', line: 9 },
      {
        name: 'third_party/googletest',
        path: 'third_party/googletest',
        url: 'https://github.com/google/googletest',
        branch: null,
        line: 13,
      },
      { name: 'internal', path: 'internal/config', url: '../config.git', branch: null, line: 18 },
      { name: 'gitlab', path: 'vendor/gitlab-lib', url: 'https://gitlab.com/acme/lib.git', branch: null, line: 21 },
      { name: 'libgit2 tests', path: 'tests/libgit2', url: 'https://github.com/libgit2/libgit2', branch: 'main', line: 25 },
    ]);
  });
  it('reads CRLF, quotes, escapes, continuations, comments, the last of a repeated key and merged sections', () => {
    const text = [
      '\uFEFF[core]',
      '\tbare = false',
      '[submodule "a \\"quoted\\" name"]',
      '\tpath = "with space/dir" ; comment',
      '\turl = https://github.com/o/first.git',
      '\turl = https://github.com/o/second.git  # the last one counts',
      '\tbranch = "feature;x"',
      '\tupdate',
      '[submodule.Legacy]',
      '\tpath = legacy',
      '\turl = https://github.com/o/\\',
      'legacy',
      '[submodule "a \\"quoted\\" name"]',
      '\tbranch = de\\tv',
      '',
    ].join('\r\n');
    expect(readGitmodules('.gitmodules', text)).toEqual([
      { name: 'a "quoted" name', path: 'with space/dir', url: 'https://github.com/o/second.git', branch: 'de\tv', line: 3 },
      { name: 'legacy', path: 'legacy', url: 'https://github.com/o/legacy', branch: null, line: 9 },
    ]);
  });
  it('reads a variable on the header line and a boolean key without a value', () => {
    expect(readGitmodules('.gitmodules', '[submodule "x"] path = x\n\tshallow\n\turl=git@github.com:o/x\n')).toEqual([
      { name: 'x', path: 'x', url: 'git@github.com:o/x', branch: null, line: 1 },
    ]);
  });
  it.each([
    ['[submodule "x"\n', 'line 1: malformed section header'],
    ['path = x\n', 'line 1: a variable before any section'],
    ['[submodule "x"]\n\tpath = "x\n', 'line 2: unterminated quoted value'],
    ['[submodule "x"]\n\turl = a\\qb\n', "line 2: unknown escape '\\q'"],
    ['[submodule "x"]\n\t=x\n', "line 2: cannot read '=x'"],
    ['[submodule "x"]\n\tpath x\n', "line 2: cannot read 'path x'"],
    ['[submodule "x"]\n\turl = a\\', 'line 2: a line continuation at the end of the file'],
  ])('names the file and the line when %j does not read', (text, reason) => {
    expect(() => readGitmodules('.gitmodules', text)).toThrow(
      expect.objectContaining({ name: 'ManifestParseError', file: '.gitmodules', reason: expect.stringContaining(reason) }),
    );
  });
  it('names GitHub repositories from their URL forms, and nothing else', () => {
    for (const url of [
      'https://github.com/Owner/Repo.git',
      'https://github.com/owner/repo',
      'https://github.com/owner/repo/',
      'http://www.github.com/owner/repo.git',
      'https://token@github.com/owner/repo.git',
      'git://github.com/owner/repo.git',
      'ssh://git@github.com/owner/repo.git',
      'ssh://git@github.com:22/owner/repo',
      'git@github.com:owner/repo.git',
      'git@github.com:/owner/repo',
    ]) {
      expect(submoduleDependencyName(url), url).toBe('github.com/owner/repo');
    }
    expect(submoduleDependencyName('https://github.com/o/my.repo.js.git')).toBe('github.com/o/my.repo.js');
    for (const url of [
      '../repo.git',
      './sub',
      '/srv/git/repo.git',
      'https://gitlab.com/o/r.git',
      'https://github.com/o',
      'https://github.com/o/r/tree/main',
      'https://github.company.com/o/r',
    ]) {
      expect(submoduleDependencyName(url), url).toBeUndefined();
    }
  });
});

describe('submodules findDependency', () => {
  it('gives the branch as requirement and the gitlink commit as version', () => {
    expect(find('github.com/acme/hugo-theme')).toEqual({
      name: 'github.com/acme/hugo-theme',
      type: 'runtime',
      requirement: 'stable',
      version: '9c1d2e3f4a5b6c7d8e9f00112233445566778899',
      manifest: '.gitmodules',
    });
    expect(find('github.com/acme/lint-rules')).toMatchObject({
      requirement: 'release/v2',
      version: '0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3',
    });
  });
  it('takes a repository used twice from its first submodule', () => {
    expect(find('github.com/libgit2/libgit2')).toMatchObject({ requirement: null, version: '3f8d8a9a1b2c3d4e5f60718293a4b5c6d7e8f901' });
    const withoutFirstGitlink = { ...files };
    delete withoutFirstGitlink['vendor/libgit2'];
    expect(submodules.findDependency(withoutFirstGitlink, 'github.com/libgit2/libgit2')).toMatchObject({
      requirement: null,
      version: '7'.repeat(40),
    });
  });
  it('has no version without a gitlink, and reads `branch = .` as the default branch', () => {
    expect(find('github.com/google/googletest')).toMatchObject({ requirement: null, version: null });
    const f = { '.gitmodules': '[submodule "x"]\n\tpath = x\n\turl = https://github.com/o/x\n\tbranch = .\n', x: 'not a gitlink' };
    expect(submodules.findDependency(f, 'github.com/o/x')).toMatchObject({ requirement: null, version: null });
  });
  it('finds a submodule by any spelling of its repository URL', () => {
    expect(find('github.com/Acme/Hugo-Theme')).toMatchObject({ name: 'github.com/acme/hugo-theme' });
    expect(find('https://github.com/acme/hugo-theme.git')).toMatchObject({ name: 'github.com/acme/hugo-theme' });
    expect(find('git@github.com:ACME/hugo-theme.git')).toMatchObject({ name: 'github.com/acme/hugo-theme' });
    expect(submodules.normaliseName('https://www.github.com/Acme/Lib.git')).toBe('github.com/acme/lib');
  });
  it('leaves out relative URLs and other hosts, and is undefined when absent', () => {
    expect(find('github.com/acme/config')).toBeUndefined();
    expect(find('gitlab.com/acme/lib')).toBeUndefined();
    expect(find('github.com/acme/other')).toBeUndefined();
    expect(submodules.findDependency({}, 'github.com/acme/hugo-theme')).toBeUndefined();
  });
  it('names the file that does not parse', () => {
    expect(() => submodules.findDependency({ '.gitmodules': '[submodule "x\n' }, 'github.com/o/x')).toThrow(ManifestParseError);
  });
});

describe('submodules listDependencies', () => {
  it('lists each GitHub repository once, in file order', () => {
    expect(rows(listChecked(submodules, files))).toEqual([
      ['github.com/libgit2/libgit2', 'runtime', null, '3f8d8a9a1b2c3d4e5f60718293a4b5c6d7e8f901'],
      ['github.com/acme/hugo-theme', 'runtime', 'stable', '9c1d2e3f4a5b6c7d8e9f00112233445566778899'],
      ['github.com/acme/lint-rules', 'runtime', 'release/v2', '0a1b2c3d4e5f60718293a4b5c6d7e8f9a0b1c2d3'],
      ['github.com/google/googletest', 'runtime', null, null],
    ]);
    expect(submodules.listDependencies({})).toEqual([]);
  });
  it('is registered with its files and gitlinks', () => {
    expect(ecosystemFor('submodules')).toBe(submodules);
    expect(submodules.files).toEqual({ required: [['.gitmodules']], optional: [], lockfiles: [], gitlinks: true });
  });
});

describe('submodules versions', () => {
  const v = submoduleVersions;
  const a = '3f8d8a9a1b2c3d4e5f60718293a4b5c6d7e8f901';
  const b = '9c1d2e3f4a5b6c7d8e9f00112233445566778899';
  it('are 40-hex commit ids, compared as lower-cased ids', () => {
    expect(v.unordered).toBe(true);
    expect(v.isValid(a)).toBe(true);
    expect(v.isValid(a.toUpperCase())).toBe(true);
    for (const invalid of ['v1.0.0', 'main', a.slice(1), `${a}0`, `${a.slice(1)}g`]) expect(v.isValid(invalid)).toBe(false);
    expect(v.compare(a, a.toUpperCase())).toBe(0);
    expect(v.compare(a, b)).toBeLessThan(0);
    expect(v.compare(b, a)).toBeGreaterThan(0);
    expect(() => v.compare('main', a)).toThrow(InvalidVersionError);
  });
  it('satisfy every branch, are never pre-releases, and every move is major', () => {
    expect(v.satisfies(a, 'main')).toBe(true);
    expect(() => v.satisfies('main', 'main')).toThrow(InvalidVersionError);
    expect(v.isPrerelease(a)).toBe(false);
    expect(v.updateKind(a, b)).toBe('major');
    expect(v.updateKind(b, a)).toBe('major');
    expect(() => v.updateKind(a, 'v2')).toThrow(InvalidVersionError);
    expect(v.lowestAllowed?.('main')).toBeNull();
    expect(v.allowsPrereleases?.('main')).toBe(false);
  });
  it('order ids totally, antisymmetrically and transitively', () => {
    const id = fc.stringMatching(/^[0-9a-fA-F]{40}$/);
    fc.assert(
      fc.property(id, id, id, (x, y, z) => {
        const sign = (n: number) => Math.sign(n) || 0;
        expect(sign(v.compare(x, y)) + sign(v.compare(y, x))).toBe(0);
        expect(v.compare(x, y) === 0).toBe(x.toLowerCase() === y.toLowerCase());
        const [p, q, r] = [x, y, z].sort(v.compare);
        expect(v.compare(p as string, q as string)).toBeLessThanOrEqual(0);
        expect(v.compare(q as string, r as string)).toBeLessThanOrEqual(0);
        expect(v.compare(p as string, r as string)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
  it('let assessUpdate tell the commit in use from another', () => {
    const use = find('github.com/acme/hugo-theme');
    if (!use) throw new Error('unreachable');
    expect(assessUpdate(submodules, use, use.version ?? '')).toMatchObject({ outdated: false, inRange: true });
    expect(assessUpdate(submodules, use, 'main')).toMatchObject({ outdated: false, inRange: false });
  });
});
