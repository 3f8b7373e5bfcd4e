import { afterEach, describe, expect, it } from 'vitest';
import { isCommitOid, keepRead, readKept, resetFileCache } from '../src/pipeline/read/file-cache.service.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('the files update runs read, kept by repository, commit and path', () => {
  afterEach(() => resetFileCache());

  it('gives back what a read of a directory found at a commit, by path relative to the directory; nothing for another commit', () => {
    keepRead('Acme/Web', A, '/app', 'npm_and_yarn', { 'package.json': '{}', '../package-lock.json': '{"lockfileVersion":3}' });
    expect(readKept('acme/web', A, '/app', 'npm_and_yarn')).toEqual({
      'package.json': '{}',
      '../package-lock.json': '{"lockfileVersion":3}',
    });
    expect(readKept('acme/web', B, '/app', 'npm_and_yarn')).toBeUndefined();
    expect(readKept('acme/web', A, '/app', 'pip')).toBeUndefined();
    // Another config of the same files shares them (keyed by the repository path).
    keepRead('acme/web', A, '/', 'npm_and_yarn', { 'package-lock.json': '{"lockfileVersion":3}' });
    expect(readKept('acme/web', A, '/', 'npm_and_yarn')).toEqual({ 'package-lock.json': '{"lockfileVersion":3}' });
  });

  it('is bounded by size: what was pushed out is a miss (read again at the commit by the caller), never a partial read', () => {
    resetFileCache(1_000);
    keepRead('acme/web', A, '/', 'pip', { 'requirements.txt': 'x'.repeat(400) });
    keepRead('acme/web', B, '/', 'pip', { 'requirements.txt': 'y'.repeat(400) });
    keepRead('acme/api', A, '/', 'pip', { 'requirements.txt': 'z'.repeat(400) });
    expect(readKept('acme/web', A, '/', 'pip')).toBeUndefined();
    expect(readKept('acme/api', A, '/', 'pip')).toEqual({ 'requirements.txt': 'z'.repeat(400) });
  });

  it('knows a commit oid from a branch name', () => {
    expect(isCommitOid(A)).toBe(true);
    expect(isCommitOid('main')).toBe(false);
  });
});
