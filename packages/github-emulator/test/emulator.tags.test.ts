import { readFileSync } from 'node:fs';
import type { Listening } from '@switchyard/service-kit';
import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryFromSeed } from '../src/git/repository-store.ts';
import { DEMO_SEEDS_DIR, loadDemoSeed, type ParsedSeed, parseSeed, type SeedError, type SeedInput } from '../src/index.ts';
import { compareTagNames } from '../src/release-routes.ts';
import { ALICE, BOB, startEmulator } from './fixtures.ts';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { type Api, apiAs, commitThroughApi, headOf } from './writes.ts';

/** The demo seed with alice an admin of `acme-oss`, so tests can push tags to its repos. */
function seedWithMaintainer(): ParsedSeed {
  const seed = loadDemoSeed();
  return {
    ...seed,
    organizations: seed.organizations.map((org) =>
      org.login === 'acme-oss' ? { ...org, members: [...org.members, { login: 'alice', role: 'admin' as const }] } : org,
    ),
  };
}

const names = (body: { name: string }[]) => body.map((tag) => tag.name);

describe('tag names sort as versions', () => {
  it('compares digit runs as numbers, a prefix first', () => {
    const sorted = ['v1.10.0', 'v1.2.0', 'v2', 'v1.9.1', 'v1', 'v10', 'release-1', 'v1.2.0-rc.1'].sort(compareTagNames);
    expect(sorted).toEqual(['release-1', 'v1', 'v1.2.0', 'v1.2.0-rc.1', 'v1.9.1', 'v1.10.0', 'v2', 'v10']);
    expect(compareTagNames('v0.8.0', 'v0.8.0')).toBe(0);
    expect(compareTagNames('v99999999999999999999.1', 'v99999999999999999999.0')).toBeGreaterThan(0);
  });
});

describe('seed tags and releases', () => {
  const base = (repo: Record<string, unknown>): SeedInput => ({
    users: [{ id: 1, login: 'ann', token: 't-ann' }],
    repos: [{ id: 10, owner: 'ann', name: 'lib', private: false, fork: false, defaultBranch: 'main', language: null, ...repo }],
  });

  it('makes a tag of each tags/<name> key of files and of each tags entry, on no branch', () => {
    const seed = parseSeed(
      base({
        files: { main: { 'a.txt': 'main\n' }, 'tags/v1.0.0': { 'a.txt': 'one\n' } },
        tags: { v1: 'tags/v1.0.0', nightly: 'main' },
      }),
    );
    const git = repositoryFromSeed(seed.repos[0] as ParsedSeed['repos'][number]);
    expect(git.branches().map((b) => b.name)).toEqual(['main']);
    const tags = Object.fromEntries(git.tags().map((t) => [t.name, t.sha]));
    expect(Object.keys(tags).sort()).toEqual(['nightly', 'v1', 'v1.0.0']);
    expect(tags.v1).toBe(tags['v1.0.0']);
    expect(tags.nightly).toBe(git.branch('main'));
    expect(git.commit(tags['v1.0.0'] as string)?.message).toBe('Release v1.0.0');
  });

  it('refuses tags and releases that name what the repo lacks', () => {
    const problems = (repo: Record<string, unknown>) => {
      try {
        parseSeed(base(repo));
        return [];
      } catch (error) {
        return (error as SeedError).problems;
      }
    };
    expect(problems({ tags: { v1: 'tags/v9' } }).join()).toMatch(/tags\.v1.*no files tags\/v9/);
    expect(problems({ files: { 'tags/v1': {} }, tags: { v1: 'tags/v1' } }).join()).toMatch(/also has files/);
    expect(problems({ files: { 'tags/..bad': {} } }).join()).toMatch(/tags\/<a git tag name>/);
    expect(problems({ files: { main: {} }, releases: [{ tag: 'v2' }] }).join()).toMatch(/no tag v2/);
    expect(problems({ files: { 'tags/v1': {} }, releases: [{ tag: 'v1' }, { tag: 'v1' }] }).join()).toMatch(/second release/);
    expect(problems({ files: { main: { sub: { gitlink: 'abc' } } } }).join()).toMatch(/commit id/);
  });
});

describe('GitHub emulator: tags, releases and the repository', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let api: Api;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server } = await startEmulator(seedWithMaintainer()));
    api = apiAs(server.url, ALICE);
  }, 60_000);
  afterAll(() => server.close());

  function expectValid(res: TestResponse, openapiPath: string, status = 200, method: HttpMethod = 'get'): void {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(schemaErrors(openapi.validator(openapiPath, String(status), method), res.body)).toEqual([]);
  }

  it('GET /repos/{owner}/{repo} answers the full repository with its default branch', async () => {
    const repo = await api.get('/repos/acme-oss/errors');
    expectValid(repo, '/repos/{owner}/{repo}');
    expect(repo.body).toMatchObject({ id: 3501, full_name: 'acme-oss/errors', default_branch: 'main', private: false });
    expect(repo.body.organization.login).toBe('acme-oss');
    expectValid(await apiAs(server.url, BOB).get('/repos/acme/web-storefront'), '/repos/{owner}/{repo}', 404);
  });

  it('GET /tags lists every tag, newest version first, with its commit, paginated with Link', async () => {
    const tags = await api.get('/repos/acme-oss/errors/tags');
    expectValid(tags, '/repos/{owner}/{repo}/tags');
    expect(names(tags.body)).toEqual(['v0.9.1', 'v0.8.1', 'v0.8.0']);
    const ref = await api.get('/repos/acme-oss/errors/git/ref/tags/v0.8.0');
    expectValid(ref, '/repos/{owner}/{repo}/git/ref/{ref}');
    expect(ref.body).toMatchObject({ ref: 'refs/tags/v0.8.0', object: { type: 'commit' } });
    expect(tags.body[2]).toMatchObject({
      name: 'v0.8.0',
      commit: { sha: ref.body.object.sha, url: `${server.url}/repos/acme-oss/errors/commits/${ref.body.object.sha}` },
      tarball_url: `${server.url}/repos/acme-oss/errors/tarball/refs/tags/v0.8.0`,
      zipball_url: `${server.url}/repos/acme-oss/errors/zipball/refs/tags/v0.8.0`,
    });
    const shas = new Set(tags.body.map((tag: { commit: { sha: string } }) => tag.commit.sha));
    expect(shas.size).toBe(3);
    expect(shas.has(await headOf(api, 'acme-oss/errors', 'main'))).toBe(false);
    expect(names((await api.get('/repos/acme-oss/checkout/tags')).body)).toEqual(['v4.1.0', 'v4', 'v3.1.0', 'v3']);
    const first = await api.get('/repos/acme-oss/checkout/tags?per_page=3');
    expect(names(first.body)).toEqual(['v4.1.0', 'v4', 'v3.1.0']);
    expect(first.headers.get('link')).toBe(
      `<${server.url}/repos/acme-oss/checkout/tags?per_page=3&page=2>; rel="next", <${server.url}/repos/acme-oss/checkout/tags?per_page=3&page=2>; rel="last"`,
    );
    expect(names((await api.get('/repos/acme-oss/checkout/tags?per_page=3&page=2')).body)).toEqual(['v3']);
    expectValid(await api.get('/repos/acme/web-storefront/tags'), '/repos/{owner}/{repo}/tags');
    expect((await api.get('/repos/acme/web-storefront/tags')).body).toEqual([]);
  });

  it('the commit of a tag is readable: its tree holds the files of that release', async () => {
    const sha = (await api.get('/repos/acme-oss/errors/git/ref/tags/v0.8.1')).body.object.sha;
    const commit = await api.get(`/repos/acme-oss/errors/git/commits/${sha}`);
    expect(commit.body).toMatchObject({ message: 'Release v0.8.1', parents: [] });
    const file = await api.get('/repos/acme-oss/errors/contents/errors.go?ref=v0.8.1');
    expect(Buffer.from(file.body.content, 'base64').toString('utf8')).toContain('const Version = "0.8.1"');
    const byFullRef = await api.get('/repos/acme-oss/errors/contents/errors.go?ref=refs/tags/v0.8.1');
    expect(byFullRef.body.sha).toBe(file.body.sha);
  });

  it('GET /git/matching-refs/tags lists the tag refs by name', async () => {
    const refs = await api.get('/repos/acme-oss/setup-tool/git/matching-refs/tags');
    expectValid(refs, '/repos/{owner}/{repo}/git/matching-refs/{ref}');
    expect(refs.body.map((r: { ref: string }) => r.ref)).toEqual(['refs/tags/v1', 'refs/tags/v1.2.0', 'refs/tags/v2', 'refs/tags/v2.0.0']);
    expect((await api.get('/repos/acme-oss/setup-tool/git/matching-refs/tags/v2')).body).toHaveLength(2);
    expect((await api.get('/repos/acme-oss/setup-tool/git/matching-refs/heads')).body.map((r: { ref: string }) => r.ref)).toEqual([
      'refs/heads/main',
    ]);
    expect((await api.get('/repos/acme-oss/setup-tool/git/matching-refs/tags/none')).body).toEqual([]);
  });

  it('GET /releases lists the seeded releases newest first; latest and by tag; [] without any', async () => {
    const releases = await api.get('/repos/acme-oss/errors/releases');
    expectValid(releases, '/repos/{owner}/{repo}/releases');
    expect(releases.body.map((r: { tag_name: string }) => r.tag_name)).toEqual(['v0.9.1', 'v0.8.1', 'v0.8.0']);
    expect(releases.body[2]).toMatchObject({
      tag_name: 'v0.8.0',
      name: 'v0.8.0',
      draft: false,
      prerelease: false,
      published_at: '2024-03-04T10:00:00Z',
      created_at: '2024-03-04T10:00:00Z',
      body: 'First public release.',
      assets: [],
    });
    const latest = await api.get('/repos/acme-oss/errors/releases/latest');
    expectValid(latest, '/repos/{owner}/{repo}/releases/latest');
    expect(latest.body.tag_name).toBe('v0.9.1');
    const byTag = await api.get('/repos/acme-oss/checkout/releases/tags/v3.1.0');
    expectValid(byTag, '/repos/{owner}/{repo}/releases/tags/{tag}');
    expect(byTag.body.published_at).toBe('2023-09-05T09:00:00Z');
    expectValid(await api.get('/repos/acme-oss/checkout/releases/tags/v3'), '/repos/{owner}/{repo}/releases/tags/{tag}', 404);
    const none = await api.get('/repos/acme/web-storefront/releases');
    expectValid(none, '/repos/{owner}/{repo}/releases');
    expect(none.body).toEqual([]);
    expectValid(await api.get('/repos/acme/web-storefront/releases/latest'), '/repos/{owner}/{repo}/releases/latest', 404);
    expect((await api.get('/repos/acme-oss/errors/releases?per_page=1&page=2')).body.map((r: { tag_name: string }) => r.tag_name)).toEqual([
      'v0.8.1',
    ]);
  });

  it('releasing: POST /git/refs with refs/tags/<name> adds a tag at a new commit, first in the list', async () => {
    const main = await headOf(api, 'acme-oss/errors', 'main');
    const commit = await commitThroughApi(api, 'acme-oss/errors', main, { 'CHANGELOG.md': '## v0.9.2\n' }, 'Release v0.9.2');
    const created = await api.post('/repos/acme-oss/errors/git/refs', { ref: 'refs/tags/v0.9.2', sha: commit });
    expectValid(created, '/repos/{owner}/{repo}/git/refs', 201, 'post');
    expect(created.body).toMatchObject({ ref: 'refs/tags/v0.9.2', object: { sha: commit } });
    const tags = (await api.get('/repos/acme-oss/errors/tags')).body;
    expect(tags[0]).toMatchObject({ name: 'v0.9.2', commit: { sha: commit } });
    expect((await api.get('/repos/acme-oss/errors/git/ref/tags/v0.9.2')).body.object.sha).toBe(commit);
    expect((await api.post('/repos/acme-oss/errors/git/refs', { ref: 'refs/tags/v0.9.2', sha: main })).status).toBe(422);
    // Without push access (bob sees the public repo read-only) a tag cannot be made.
    expect((await apiAs(server.url, BOB).post('/repos/acme-oss/errors/git/refs', { ref: 'refs/tags/x', sha: main })).status).toBe(403);
    expect((await api.get('/repos/acme-oss/errors/branches')).body.map((b: { name: string }) => b.name)).toEqual(['main']);
  });
});

describe('the demo: acme/polyglot pins commits of the acme-oss tags', () => {
  const upstream = loadDemoSeed().repos.filter((repo) => repo.owner === 'acme-oss');
  const tagCommit = (name: string, tag: string) => {
    const repo = upstream.find((r) => r.name === name);
    if (!repo) throw new Error(`no acme-oss/${name}`);
    return repositoryFromSeed(repo)
      .tags()
      .find((t) => t.name === tag)?.sha;
  };
  const demo = JSON.parse(readFileSync(`${DEMO_SEEDS_DIR}code-host-ecosystems.json`, 'utf8')).files['acme/polyglot'];

  it('the workflow pins setup-tool at the commit of v1.2.0 and the gitlink is errors v0.8.0', () => {
    const pinned = /acme-oss\/setup-tool@([0-9a-f]{40}) # v1\.2\.0/.exec(demo['.github/workflows/ci.yml'])?.[1];
    expect(pinned).toBe(tagCommit('setup-tool', 'v1.2.0'));
    expect(demo['vendor/errors']).toEqual({ gitlink: tagCommit('errors', 'v0.8.0') });
    expect(tagCommit('errors', 'v0.8.0')).toBe('d2b52ca5fa4553d5ed5f086711c78c518350b940');
  });

  it('switchyard-bot may publish a tag of an acme-oss repo (how the demo releases a new version)', async () => {
    const { server } = await startEmulator(loadDemoSeed());
    try {
      const bot = apiAs(server.url, 'demo-token-bot');
      const main = await headOf(bot, 'acme-oss/checkout', 'main');
      expect((await bot.post('/repos/acme-oss/checkout/git/refs', { ref: 'refs/tags/v4.2.0', sha: main })).status).toBe(201);
      expect(names((await bot.get('/repos/acme-oss/checkout/tags')).body)[0]).toBe('v4.2.0');
      expect((await apiAs(server.url, ALICE).post('/repos/acme-oss/checkout/git/refs', { ref: 'refs/tags/v5', sha: main })).status).toBe(
        403,
      );
    } finally {
      await server.close();
    }
  });

  it('every tag of the upstream repos is its own commit, the same on every start', async () => {
    const all = upstream.flatMap((repo) =>
      repositoryFromSeed(repo)
        .tags()
        .map((tag) => tag.sha),
    );
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(11);
    const again = loadDemoSeed()
      .repos.filter((repo) => repo.owner === 'acme-oss')
      .flatMap((repo) =>
        repositoryFromSeed(repo)
          .tags()
          .map((tag) => tag.sha),
      );
    expect(again).toEqual(all);
  });
});
