import { describe, expect, it } from 'vitest';
import { type DependencyUse, gitlinkText, InvalidVersionError, readGitlink, submodules } from '../src/index.ts';
import { fixtureTree } from './fixtures.ts';

const files = fixtureTree('submodules');
const useOf = (f: Record<string, string>, name: string) => submodules.findDependency(f, name) as DependencyUse;
const HEAD = 'e83c5163316f89bfbde7d9ab23ca2e25604af290';

describe('submodules updateManifest', () => {
  it('moves the gitlink to the target commit and leaves .gitmodules alone', () => {
    const result = submodules.updateManifest(files, useOf(files, 'github.com/acme/hugo-theme'), HEAD);
    expect(result).toEqual({ files: { 'docs/theme': `Subproject commit ${HEAD}\n` }, requirement: 'stable' });
    if (!('files' in result)) return;
    const merged = { ...files, ...result.files };
    expect(submodules.findDependency(merged, 'github.com/acme/hugo-theme')).toMatchObject({ requirement: 'stable', version: HEAD });
    expect(readGitlink(result.files['docs/theme'] ?? '')).toBe(HEAD);
  });
  it('writes the target lower-cased, as git names objects', () => {
    expect(submodules.updateManifest(files, useOf(files, 'github.com/acme/lint-rules'), HEAD.toUpperCase())).toEqual({
      files: { 'tools/lint': gitlinkText(HEAD) },
      requirement: 'release/v2',
    });
  });
  it('moves every gitlink of the repository that pins the commit in use, and only those', () => {
    const same = { ...files, 'tests/libgit2': files['vendor/libgit2'] ?? '' };
    expect(submodules.updateManifest(same, useOf(same, 'github.com/libgit2/libgit2'), HEAD)).toEqual({
      files: { 'vendor/libgit2': gitlinkText(HEAD), 'tests/libgit2': gitlinkText(HEAD) },
      requirement: null,
    });
    expect(submodules.updateManifest(files, useOf(files, 'github.com/libgit2/libgit2'), HEAD)).toEqual({
      files: { 'vendor/libgit2': gitlinkText(HEAD) },
      requirement: null,
    });
  });
  it('is unchanged when the gitlink pins the target', () => {
    const use = useOf(files, 'github.com/acme/hugo-theme');
    expect(submodules.updateManifest(files, use, use.version ?? '')).toEqual({ unchanged: expect.stringContaining('already') });
  });
  it('cannot move a submodule without a gitlink, or one the files do not pin at the version in use', () => {
    expect(submodules.updateManifest(files, useOf(files, 'github.com/google/googletest'), HEAD)).toEqual({
      cannot: expect.stringContaining('no gitlink'),
    });
    const stale = { ...useOf(files, 'github.com/acme/hugo-theme'), version: 'f'.repeat(40) };
    expect(submodules.updateManifest(files, stale, HEAD)).toEqual({ cannot: expect.stringContaining(`pins ${'f'.repeat(40)}`) });
    const absent = { ...useOf(files, 'github.com/acme/hugo-theme'), name: 'github.com/acme/absent' };
    expect(submodules.updateManifest(files, absent, HEAD)).toEqual({ cannot: expect.stringContaining('not a submodule') });
  });
  it('throws on a target that is not a commit id', () => {
    expect(() => submodules.updateManifest(files, useOf(files, 'github.com/acme/hugo-theme'), 'v1.0.0')).toThrow(InvalidVersionError);
  });
  it('has no lockfile update', () => {
    expect(submodules.updateLockfiles).toBeUndefined();
  });
});
