import type { Listening } from '@switchyard/service-kit';
import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGitmodules } from '../src/git/gitmodules.ts';
import { loadDemoSeed, type SeedInput } from '../src/index.ts';
import { hostedRepoOf } from '../src/representations.ts';
import { ALICE, auth, startEmulator } from './fixtures.ts';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { type Api, apiAs, headOf } from './writes.ts';

const REPO = 'acme/polyglot';
const V080 = 'd2b52ca5fa4553d5ed5f086711c78c518350b940';

describe('.gitmodules', () => {
  it('reads each submodule section: path, url and branch, quoted values and comments', () => {
    const text = [
      '# submodules',
      '[submodule "vendor/errors"]',
      '\tpath = vendor/errors',
      '\turl = https://github.com/acme-oss/errors.git ; the library',
      '\tbranch = main',
      '[submodule "docs"]',
      '  Path = "site docs"',
      '  URL = git@github.com:acme/docs.git',
      '[core]',
      '  path = ignored',
      '[submodule "no-url"]',
      '  path = lost',
      '',
    ].join('\r\n');
    expect(parseGitmodules(text)).toEqual([
      { name: 'vendor/errors', path: 'vendor/errors', url: 'https://github.com/acme-oss/errors.git', branch: 'main' },
      { name: 'docs', path: 'site docs', url: 'git@github.com:acme/docs.git' },
    ]);
    expect(parseGitmodules('not a config')).toEqual([]);
  });

  it('tells which submodule URLs the web root hosts', () => {
    const web = 'https://github.com';
    expect(hostedRepoOf('https://github.com/acme-oss/errors.git', web)).toEqual({ owner: 'acme-oss', name: 'errors' });
    expect(hostedRepoOf('git@github.com:acme/docs.git', web)).toEqual({ owner: 'acme', name: 'docs' });
    expect(hostedRepoOf('ssh://git@github.com/acme/docs', web)).toEqual({ owner: 'acme', name: 'docs' });
    expect(hostedRepoOf('https://gitlab.com/acme/docs.git', web)).toBeUndefined();
    expect(hostedRepoOf('../sibling.git', web)).toBeUndefined();
    expect(hostedRepoOf('https://github.com/acme/docs/tree/main', web)).toBeUndefined();
  });
});

describe('GitHub emulator: gitlinks (submodules)', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let api: Api;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    const seed = loadDemoSeed();
    const extra: SeedInput['repos'] = [
      {
        id: 3199,
        owner: 'acme',
        name: 'no-gitmodules',
        private: false,
        fork: false,
        defaultBranch: 'main',
        language: null,
        files: { main: { 'lib/dep': { gitlink: 'a'.repeat(40) }, 'lib/readme.txt': 'x\n' } },
      },
    ];
    ({ server } = await startEmulator({ ...seed, repos: [...seed.repos, ...(extra ?? [])] }));
    api = apiAs(server.url, ALICE);
  }, 60_000);
  afterAll(() => server.close());

  function expectValid(res: TestResponse, openapiPath: string, status = 200, method: HttpMethod = 'get'): void {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(schemaErrors(openapi.validator(openapiPath, String(status), method), res.body)).toEqual([]);
  }

  type Entry = { path: string; mode: string; type: string; sha: string; size?: number; url?: string };

  it('GET /git/trees/{sha}?recursive=1 lists every entry below the tree, the gitlink as a commit of mode 160000', async () => {
    const main = await headOf(api, REPO, 'main');
    const tree = (await api.get(`/repos/${REPO}/git/commits/${main}`)).body.tree.sha;
    const recursive = await api.get(`/repos/${REPO}/git/trees/${tree}?recursive=1`);
    expectValid(recursive, '/repos/{owner}/{repo}/git/trees/{tree_sha}');
    const entries: Entry[] = recursive.body.tree;
    const paths = entries.map((e) => e.path);
    for (const path of [
      '.github',
      '.github/actions/local/action.yml',
      '.github/workflows/ci.yml',
      '.gitmodules',
      'vendor',
      'vendor/errors',
    ]) {
      expect(paths).toContain(path);
    }
    // Pre-order: a directory comes right before what it holds.
    expect(paths.indexOf('.github/workflows')).toBe(paths.indexOf('.github/workflows/ci.yml') - 1);
    expect(entries.find((e) => e.path === 'vendor/errors')).toEqual({ path: 'vendor/errors', mode: '160000', type: 'commit', sha: V080 });
    expect(entries.find((e) => e.path === 'vendor')).toMatchObject({ mode: '040000', type: 'tree' });
    expect(entries.find((e) => e.path === '.gitmodules')).toMatchObject({ mode: '100644', type: 'blob', size: expect.any(Number) });
    expect(recursive.body.truncated).toBe(false);
    // Without `recursive`, only the tree's own entries; any value of it (even 0) walks, as GitHub documents.
    const flat = (await api.get(`/repos/${REPO}/git/trees/${tree}`)).body.tree.map((e: Entry) => e.path);
    expect(flat).toContain('vendor');
    expect(flat).not.toContain('vendor/errors');
    expect((await api.get(`/repos/${REPO}/git/trees/main?recursive=0`)).body.tree).toHaveLength(entries.length);
  });

  it('GET /contents of the submodule answers type submodule with its URL from .gitmodules; raw is 404', async () => {
    const res = await api.get(`/repos/${REPO}/contents/vendor/errors`);
    expectValid(res, '/repos/{owner}/{repo}/contents/{path}');
    expect(res.body).toEqual({
      type: 'submodule',
      submodule_git_url: 'https://github.com/acme-oss/errors.git',
      size: 0,
      name: 'errors',
      path: 'vendor/errors',
      sha: V080,
      url: `${server.url}/repos/acme/polyglot/contents/vendor/errors?ref=main`,
      html_url: `https://github.com/acme-oss/errors/tree/${V080}`,
      git_url: `${server.url}/repos/acme-oss/errors/git/trees/${V080}`,
      download_url: null,
      _links: {
        self: `${server.url}/repos/acme/polyglot/contents/vendor/errors?ref=main`,
        git: `${server.url}/repos/acme-oss/errors/git/trees/${V080}`,
        html: `https://github.com/acme-oss/errors/tree/${V080}`,
      },
    });
    const raw = await fetch(`${server.url}/repos/${REPO}/contents/vendor/errors`, {
      headers: { ...auth(ALICE), accept: 'application/vnd.github.raw' },
    });
    expect(raw.status).toBe(404);
    expect((await api.get(`/repos/${REPO}/contents/vendor/errors/errors.go`)).status).toBe(404);
  });

  it('a directory listing shows the submodule with type file, as GitHub documents', async () => {
    const res = await api.get(`/repos/${REPO}/contents/vendor`);
    expectValid(res, '/repos/{owner}/{repo}/contents/{path}');
    expect(res.body).toEqual([
      expect.objectContaining({ type: 'file', name: 'errors', path: 'vendor/errors', sha: V080, size: 0, download_url: null }),
    ]);
    expect(res.body[0].git_url).toBe(`${server.url}/repos/acme-oss/errors/git/trees/${V080}`);
  });

  it('a submodule without a .gitmodules entry: listed with null links, its own path 404', async () => {
    const listing = await api.get('/repos/acme/no-gitmodules/contents/lib');
    expectValid(listing, '/repos/{owner}/{repo}/contents/{path}');
    expect(listing.body.find((e: { name: string }) => e.name === 'dep')).toMatchObject({ type: 'file', git_url: null, html_url: null });
    expect((await api.get('/repos/acme/no-gitmodules/contents/lib/dep')).status).toBe(404);
  });

  it('POST /git/trees moves and deletes a gitlink; 422 for a mode that does not go with the type', async () => {
    const main = await headOf(api, REPO, 'main');
    const base = (await api.get(`/repos/${REPO}/git/commits/${main}`)).body.tree.sha;
    const target = 'b'.repeat(40);
    const moved = await api.post(`/repos/${REPO}/git/trees`, {
      base_tree: base,
      tree: [{ path: 'vendor/errors', mode: '160000', type: 'commit', sha: target }],
    });
    expectValid(moved, '/repos/{owner}/{repo}/git/trees', 201, 'post');
    const commit = await api.post(`/repos/${REPO}/git/commits`, { message: 'Bump errors', tree: moved.body.sha, parents: [main] });
    expect(commit.status).toBe(201);
    const sub = await api.get(`/repos/${REPO}/contents/vendor/errors?ref=${commit.body.sha}`);
    expect(sub.body).toMatchObject({ type: 'submodule', sha: target });
    const recursive = (await api.get(`/repos/${REPO}/git/trees/${moved.body.sha}?recursive=1`)).body.tree as Entry[];
    expect(recursive.find((e) => e.path === 'vendor/errors')).toMatchObject({ type: 'commit', sha: target });
    // Only the gitlink changed.
    const before = (await api.get(`/repos/${REPO}/git/trees/${base}?recursive=1`)).body.tree as Entry[];
    const changed = recursive.filter((e) => !before.some((b) => b.path === e.path && b.sha === e.sha)).map((e) => e.path);
    expect(changed).toEqual(['vendor', 'vendor/errors']);
    const deleted = await api.post(`/repos/${REPO}/git/trees`, {
      base_tree: base,
      tree: [{ path: 'vendor/errors', mode: '160000', type: 'commit', sha: null }],
    });
    expect(deleted.status).toBe(201);
    expect((deleted.body.tree as Entry[]).map((e) => e.path)).not.toContain('vendor');
    const mismatch = await api.post(`/repos/${REPO}/git/trees`, {
      base_tree: base,
      tree: [{ path: 'vendor/errors', mode: '100644', type: 'commit', sha: target }],
    });
    expectValid(mismatch, '/repos/{owner}/{repo}/git/trees', 422, 'post');
    const added = await api.post(`/repos/${REPO}/git/trees`, {
      base_tree: base,
      tree: [{ path: 'vendor/other', mode: '160000', sha: target }],
    });
    expect((added.body.tree as Entry[]).map((e) => e.path)).toContain('vendor');
  });
});
