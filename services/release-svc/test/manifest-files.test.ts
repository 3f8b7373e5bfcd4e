import { type CodeHost, CodeHostError } from '@switchyard/code-host';
import { ecosystemFor } from '@switchyard/ecosystems';
import { describe, expect, it } from 'vitest';
import { readManifestFiles } from '../src/scan/manifest-files.ts';

const MiB = 1024 * 1024;
const npm = ecosystemFor('npm_and_yarn');

/**
 * A code host whose files are `files` (by path); `too_large` for the paths of `tooLarge`, with or without a stated
 * size. Only `readFile`: the only method `readManifestFiles` calls.
 */
function codeHostWith(files: Record<string, string>, tooLarge: Record<string, number | undefined>): CodeHost {
  const readFile: CodeHost['readFile'] = async (_token, _repo, path) => {
    if (path in tooLarge) {
      const sizeBytes = tooLarge[path];
      throw new CodeHostError('too_large', `GitHub GET ${path}: too large`, {
        status: 200,
        limitBytes: 5 * MiB,
        ...(sizeBytes === undefined ? {} : { sizeBytes }),
      });
    }
    return files[path];
  };
  return { readFile } as unknown as CodeHost;
}

describe('readManifestFiles: files over the code host limit', () => {
  if (!npm) throw new Error('npm_and_yarn has no ecosystem');
  const read = (host: CodeHost, directory: string) => readManifestFiles(host, 'token', 'acme/web', directory, 'main', npm);

  it('names the file, the directory, its size and the limit; without a stated size, only the limit', async () => {
    const host = codeHostWith({ 'web/package.json': '{}' }, { 'web/package-lock.json': 150 * MiB });
    expect(await read(host, '/web')).toEqual({ tooLarge: 'package-lock.json in /web is 150.0 MiB, over the 5.0 MiB limit' });
    const streamed = codeHostWith({ 'package.json': '{}' }, { 'package-lock.json': undefined });
    expect(await read(streamed, '/')).toEqual({ tooLarge: 'package-lock.json in / is over the 5.0 MiB limit' });
  });

  it('names every file over the limit, in order, and reads the others as before', async () => {
    const host = codeHostWith({}, { 'web/package.json': 6 * MiB, 'web/yarn.lock': 8 * MiB });
    expect(await read(host, '/web')).toEqual({
      tooLarge: 'package.json in /web is 6.0 MiB, over the 5.0 MiB limit; yarn.lock in /web is 8.0 MiB, over the 5.0 MiB limit',
    });
    const ordinary = codeHostWith({ 'web/package.json': '{"name":"web"}' }, {});
    expect(await read(ordinary, '/web')).toEqual({ files: { 'package.json': '{"name":"web"}' } });
  });
});
