import { RateLimited } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import {
  type Caller,
  type CodeHost,
  CodeHostView,
  filesInDirectoryListing,
  filesInTree,
  listDirectoryFiles,
  type RepoTree,
  treePrefix,
} from '../src/index.ts';

const sha = (c: string) => c.repeat(40);
const tree: RepoTree = {
  entries: [
    { path: 'package.json', type: 'blob', sha: sha('a'), size: 10 },
    { path: '.github/workflows/ci.yml', type: 'blob', sha: sha('b'), size: 20 },
    { path: 'web', type: 'tree', sha: sha('c') },
    { path: 'web/package.json', type: 'blob', sha: sha('d'), size: 30 },
    { path: 'web/vendor/lib', type: 'commit', sha: sha('e') },
    { path: 'website/package.json', type: 'blob', sha: sha('f'), size: 40 },
  ],
  truncated: false,
};

describe('directory files', () => {
  it('prefixes a directory as the tree names its entries', () => {
    expect(['/', '', '//', '/web', 'web/', '/helpers/npm/'].map(treePrefix)).toEqual(['', '', '', 'web/', 'web/', 'helpers/npm/']);
  });

  it('cuts a tree to a directory: its files at any depth, their sizes and its gitlinks, relative to it', () => {
    expect(filesInTree(tree, '/web')).toEqual({
      files: ['package.json'],
      sizes: { 'package.json': 30 },
      gitlinks: new Map([['vendor/lib', sha('e')]]),
      truncated: false,
    });
    expect(filesInTree(tree, '/').files).toEqual(['package.json', '.github/workflows/ci.yml', 'web/package.json', 'website/package.json']);
    expect(filesInTree(undefined, '/')).toEqual({ files: [], sizes: {}, gitlinks: new Map(), truncated: false });
    expect(filesInTree({ entries: [], truncated: true }, '/').truncated).toBe(true);
  });

  it('takes the files of a directory listing, not its subdirectories or submodules', () => {
    expect(
      filesInDirectoryListing([
        { name: 'Gemfile', type: 'file', size: 5 },
        { name: 'lib', type: 'dir', size: 0 },
        { name: 'vendor', type: 'submodule', size: 0 },
      ]),
    ).toEqual({ files: ['Gemfile'], sizes: { Gemfile: 5 }, gitlinks: new Map(), truncated: false });
    expect(filesInDirectoryListing(undefined).files).toEqual([]);
    // GitHub lists at most 1,000 entries of a directory: a listing that long may lack a file.
    const full = Array.from({ length: 1_000 }, (_, i) => ({ name: `f${i}`, type: 'file' as const, size: 1 }));
    expect(filesInDirectoryListing(full).truncated).toBe(true);
    expect(filesInDirectoryListing(full.slice(1)).truncated).toBe(false);
  });

  it('lists the tree when recursive, else the directory, and nothing on a host without that listing', async () => {
    const asked: string[] = [];
    const host: Pick<CodeHost, 'listTree' | 'listDirectory'> = {
      listTree: async (_token, repo, ref) => {
        asked.push(`tree ${repo.owner}/${repo.name}@${ref}`);
        return tree;
      },
      listDirectory: async (_token, repo, path, ref) => {
        asked.push(`dir ${repo.owner}/${repo.name}:${path}@${ref}`);
        return [{ name: 'package.json', type: 'file', size: 30 }];
      },
    };
    const repo = { owner: 'acme', name: 'web' };
    expect((await listDirectoryFiles(host, 't', repo, '/web/', 'main', { recursive: false }))?.files).toEqual(['package.json']);
    expect((await listDirectoryFiles(host, 't', repo, '/web', 'dev', { recursive: true }))?.gitlinks.size).toBe(1);
    expect(asked).toEqual(['dir acme/web:web@main', 'tree acme/web@dev']);
    expect(await listDirectoryFiles({}, 't', repo, '/', 'main', { recursive: false })).toBeUndefined();
  });
});

describe('CodeHostView.directoryFiles', () => {
  const account = { id: 1, login: 'alice', type: 'user' as const };
  const caller: Caller = { token: 'good', tokenHash: 'h', user: account, accounts: [account], capability: { kind: 'per-repo' } };
  const repo = { id: 7, fullName: 'alice/web' };

  function host() {
    const calls: string[] = [];
    const codeHost: CodeHost = {
      currentUser: async () => ({ account, capability: { kind: 'per-repo' } }),
      organisations: async () => [],
      organisationRole: async () => undefined,
      listRepos: async () => [],
      getRepo: async () => undefined,
      readFile: async () => undefined,
      listTree: async (_token, _repo, ref) => {
        calls.push(`tree@${ref}`);
        return ref === 'main' ? tree : undefined;
      },
      listDirectory: async (_token, _repo, path, ref) => {
        calls.push(`dir ${path}@${ref}`);
        return [{ name: 'package.json', type: 'file', size: 30 }];
      },
    };
    return { codeHost, calls };
  }

  it('caches per token, repo and ref; serves a directory from a cached tree; refreshes on demand', async () => {
    const { codeHost, calls } = host();
    const view = new CodeHostView(codeHost, { ttlMs: 60_000 });
    const first = await view.directoryFiles(caller, repo, '/web', 'main', { recursive: false });
    expect(first).toMatchObject({ fresh: true, listed: { files: ['package.json'] } });
    expect((await view.directoryFiles(caller, repo, '/web', 'main', { recursive: false }))?.fresh).toBe(false);
    expect((await view.directoryFiles(caller, repo, '/', 'main', { recursive: true }))?.listed.files).toHaveLength(4);
    // From the tree now: the directory's own files only, as a listing of it shows them.
    expect(await view.directoryFiles(caller, repo, '/', 'main', { recursive: false })).toEqual({
      fresh: false,
      listed: { files: ['package.json'], sizes: { 'package.json': 10 }, gitlinks: new Map(), truncated: false },
    });
    expect((await view.directoryFiles(caller, repo, '/', 'main', { recursive: false, refresh: true }))?.fresh).toBe(true);
    expect(await view.directoryFiles(caller, repo, '/', 'gone', { recursive: true })).toMatchObject({ fresh: true, listed: { files: [] } });
    expect(calls).toEqual(['dir web@main', 'tree@main', 'dir @main', 'tree@gone']);
  });

  it("spends the token's budget, one call a listing", async () => {
    const { codeHost, calls } = host();
    const view = new CodeHostView(codeHost, { ttlMs: 60_000, tokenBudget: { limit: 2, windowMs: 60_000 } });
    await view.directoryFiles(caller, repo, '/a', 'main', { recursive: false });
    await view.directoryFiles(caller, repo, '/b', 'main', { recursive: false });
    await expect(view.directoryFiles(caller, repo, '/c', 'main', { recursive: false })).rejects.toBeInstanceOf(RateLimited);
    expect(calls).toHaveLength(2);
  });

  it('answers undefined on a code host without the listing asked for', async () => {
    const { codeHost } = host();
    const { listTree: _tree, ...withoutTree } = codeHost;
    const view = new CodeHostView(withoutTree, { ttlMs: 60_000 });
    expect(await view.directoryFiles(caller, repo, '/', 'main', { recursive: true })).toBeUndefined();
    expect(await view.directoryFiles(caller, repo, '/', 'main', { recursive: false })).toBeDefined();
  });
});
