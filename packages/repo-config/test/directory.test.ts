import { describe, expect, it } from 'vitest';
import { expandDirectoryPattern, isGlob, normaliseDirectory } from '../src/index.ts';

// v2 `directories` globs, expanded over a repository's directories.
describe('expandDirectoryPattern', () => {
  const directories = ['/', '/lib-a', '/lib-b', '/lib-a/test', '/apps', '/apps/web', '/apps/web/admin', '/.github/actions/setup'];

  it('matches one segment with *, any depth with **, and keeps the listing order', () => {
    expect(expandDirectoryPattern('/lib-*', directories)).toEqual(['/lib-a', '/lib-b']);
    expect(expandDirectoryPattern('/apps/*', directories)).toEqual(['/apps/web']);
    expect(expandDirectoryPattern('/apps/**', directories)).toEqual(['/apps/web', '/apps/web/admin']);
    expect(expandDirectoryPattern('/**', directories)).toContain('/apps/web/admin');
    expect(expandDirectoryPattern('/{lib-a,apps}', directories)).toEqual(['/lib-a', '/apps']);
  });

  it('takes dot directories and spellings without a leading or with a trailing slash', () => {
    expect(expandDirectoryPattern('/.github/actions/*', directories)).toEqual(['/.github/actions/setup']);
    expect(expandDirectoryPattern('lib-?/', directories)).toEqual(['/lib-a', '/lib-b']);
  });

  it('matches nothing it should not', () => {
    expect(expandDirectoryPattern('/nope-*', directories)).toEqual([]);
    expect(isGlob('/lib-*')).toBe(true);
    expect(normaliseDirectory('/lib-*/')).toBe('/lib-*');
  });
});
