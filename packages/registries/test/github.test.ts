import { DEMO_TOKEN_BOT, loadDemoSeed, startGitHubEmulator } from '@switchyard/github-emulator';
import { createLogger, type Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGitHubRegistry,
  DEFAULT_GITHUB_API_URL,
  type GitHubRegistryOptions,
  nextLink,
  parseGitHubRepoName,
} from '../src/adapters/github.ts';
import { RegistryError } from '../src/port.ts';
import { DEFAULT_REGISTRY_URLS, registryFor } from '../src/registry-for.ts';
import { closedAfterEach, type FixtureServer, fixture } from './fixture-server.ts';

const REPO = '/repos/octocat/Hello-World';

describe('GitHub repository names', () => {
  it('reads owner/repo, a path inside it, github.com names and clone URLs, case kept', () => {
    expect(parseGitHubRepoName('actions/checkout')).toEqual({ host: undefined, owner: 'actions', repo: 'checkout', path: '' });
    expect(parseGitHubRepoName('github/codeql-action/init')).toEqual({
      host: undefined,
      owner: 'github',
      repo: 'codeql-action',
      path: 'init',
    });
    expect(parseGitHubRepoName('GitHub.com/Acme-OSS/errors/sub/pkg')).toMatchObject({
      host: 'github.com',
      owner: 'Acme-OSS',
      path: 'sub/pkg',
    });
    expect(parseGitHubRepoName('https://github.com/acme-oss/errors.git')).toEqual({
      host: 'github.com',
      owner: 'acme-oss',
      repo: 'errors',
      path: '',
    });
    expect(parseGitHubRepoName('git@github.com:acme-oss/errors.git')).toMatchObject({ owner: 'acme-oss', repo: 'errors' });
    expect(parseGitHubRepoName('ssh://git@github.com/acme-oss/errors')).toMatchObject({ owner: 'acme-oss', repo: 'errors' });
    expect(parseGitHubRepoName('www.github.com/a/b')).toMatchObject({ owner: 'a', repo: 'b' });
    expect(parseGitHubRepoName('ghe.example.com/a/b', ['github.com', 'ghe.example.com'])).toMatchObject({ host: 'ghe.example.com' });
  });

  it('refuses other hosts and names GitHub cannot have with a TypeError', () => {
    for (const name of [
      '',
      'checkout',
      'actions/',
      'gitlab.com/a/b',
      'https://bitbucket.org/a/b.git',
      'golang.org/x/mod',
      'a_b/c',
      '-a/b',
      'a/..',
      'a/b/../c',
      'a/b//c',
      'a/b c',
      'https://github.com/a/b%',
      'https://github.com/a%E0%A4%A/b',
    ]) {
      expect(() => parseGitHubRepoName(name), name).toThrow(TypeError);
    }
  });

  it('finds the next page of a Link header', () => {
    const link =
      '<https://api.github.com/repositories/1/tags?page=2>; rel="next", <https://api.github.com/repositories/1/tags?page=5>; rel="last"';
    expect(nextLink(link)).toBe('https://api.github.com/repositories/1/tags?page=2');
    expect(nextLink('<https://x/?page=1>; rel="prev", <https://x/?page=1>; rel="first"')).toBeUndefined();
    expect(nextLink(undefined)).toBeUndefined();
  });
});

describe('GitHub adapter (tags, branches and commits of repositories)', () => {
  const { serve, track } = closedAfterEach();
  const registry = (options: GitHubRegistryOptions) => track(createGitHubRegistry({ retryDelayMs: 10, retries: 0, ...options }));
  const text = async (path: string) => (await fixture(`github/${path}`)).toString('utf8');

  /** A fixture server with octocat/Hello-World: the repository, two pages of tags, releases, two pages of branches, refs. */
  async function github(options: { requireAuthorization?: string } = {}): Promise<FixtureServer> {
    const server = await serve(
      {
        '/repositories/1296269/tags?per_page=100&page=2': { body: await text('tags-page-2.json') },
        '/repositories/1296269/branches?per_page=100&page=2': { body: await text('branches-page-2.json') },
        [`${REPO}/git/ref/tags/v0.1`]: { body: await text('ref-tag-lightweight.json') },
        [`${REPO}/git/ref/tags/v0.0.1`]: { body: await text('ref-tag-annotated.json') },
        [`${REPO}/git/tags/940bd336248efae0f9ee5bc7b2d5c985887b16ac`]: { body: await text('tag-annotated.json') },
        [`${REPO}/git/commits/7638417db6d59f3c431d3e1f261cc637155684cd`]: { body: await text('commit.json') },
      },
      options,
    );
    const link = (path: string) => `<${server.url}${path.slice(1)}&page=2>; rel="next", <${server.url}${path.slice(1)}&page=2>; rel="last"`;
    // GitHub reads owner and repository names case-insensitively; the fixture server does not, so both spellings are served.
    for (const repo of [REPO, REPO.toLowerCase()]) {
      server.set(repo, { body: await text('repo-hello-world.json') });
      server.set(`${repo}/releases?per_page=100`, { body: await text('releases.json') });
      server.set(`${repo}/tags?per_page=100`, {
        body: await text('tags-page-1.json'),
        headers: { link: link('/repositories/1296269/tags?per_page=100') },
      });
      server.set(`${repo}/branches?per_page=100`, {
        body: await text('branches-page-1.json'),
        headers: { link: link('/repositories/1296269/branches?per_page=100') },
      });
    }
    return server;
  }

  it('defaults to api.github.com for the three package managers, through registryFor too', () => {
    expect(DEFAULT_GITHUB_API_URL).toBe('https://api.github.com/');
    for (const pm of ['submodules', 'dep', 'github_actions'] as const) {
      const adapter = track(registryFor(pm) ?? createGitHubRegistry({ packageManager: pm }));
      expect([adapter.packageManager, adapter.baseUrl, DEFAULT_REGISTRY_URLS[pm]]).toEqual([
        pm,
        DEFAULT_GITHUB_API_URL,
        DEFAULT_GITHUB_API_URL,
      ]);
    }
    expect(() => createGitHubRegistry({ packageManager: 'npm_and_yarn' as never })).toThrow(TypeError);
  });

  it('github_actions: every tag of every page is a version; release times and latest from the releases', async () => {
    const server = await github({ requireAuthorization: 'Bearer gh-token' });
    const actions = registry({ packageManager: 'github_actions', baseUrl: server.url, credentials: { token: 'gh-token' } });
    const pkg = await actions.fetchPackage('octocat/hello-world');
    expect(pkg).toEqual({
      name: 'octocat/Hello-World',
      latest: 'v0.1',
      sourceUrl: 'https://github.com/octocat/Hello-World',
      changelogUrl: null,
      versions: [
        { version: 'v0.2', releasedAt: '2013-03-01T10:00:00.000Z', yanked: false, deprecated: null, digests: [], refs: ['v0.2'] },
        { version: 'v0.1', releasedAt: '2013-02-27T19:35:32.000Z', yanked: false, deprecated: null, digests: [], refs: ['v0.1'] },
        { version: 'v0.1-beta', releasedAt: null, yanked: false, deprecated: null, digests: [], refs: ['v0.1-beta'] },
      ],
    });
    const lower = REPO.toLowerCase();
    expect(server.requests.map((r) => r.path)).toEqual([
      lower,
      `${lower}/tags?per_page=100`,
      '/repositories/1296269/tags?per_page=100&page=2',
      `${lower}/releases?per_page=100`,
    ]);
    expect(server.requests.every((r) => r.headers.accept === 'application/vnd.github+json')).toBe(true);
    // An action in a subdirectory is its repository's; the name keeps the path.
    expect((await actions.fetchPackage('octocat/Hello-World/sub/action'))?.name).toBe('octocat/Hello-World/sub/action');
  });

  it('dep: github.com import paths; an unchanged repository is revalidated with 304s', async () => {
    const server = await github();
    const dep = registry({ packageManager: 'dep', baseUrl: server.url });
    const first = await dep.fetchPackage('github.com/octocat/hello-world');
    expect(first?.name).toBe('github.com/octocat/Hello-World');
    expect(first?.versions.map((v) => v.version)).toEqual(['v0.2', 'v0.1', 'v0.1-beta']);
    const again = await dep.fetchPackage('github.com/octocat/hello-world');
    expect(again).toEqual(first);
    expect(dep.stats()).toMatchObject({ requests: 8, notModified: 4, fullDownloads: 4 });
    await expect(dep.fetchPackage('gitlab.com/octocat/hello-world')).rejects.toThrow(TypeError);
  });

  it('submodules: each branch head is a version named by its commit, with the branches at it; latest is the default branch', async () => {
    const server = await github();
    const submodules = registry({ packageManager: 'submodules', baseUrl: server.url });
    const pkg = await submodules.fetchPackage('https://github.com/octocat/Hello-World.git');
    const version = (sha: string, refs: string[]) => ({
      version: sha,
      releasedAt: null,
      yanked: false,
      deprecated: null,
      digests: [],
      refs,
    });
    expect(pkg).toEqual({
      name: 'github.com/octocat/Hello-World',
      latest: 'c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc',
      sourceUrl: 'https://github.com/octocat/Hello-World',
      changelogUrl: null,
      versions: [
        version('c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc', ['master', 'release']),
        version('b1b3f9723831141a31a1a7252a213e216ea76e56', ['octocat-patch-1']),
        version('b3cbd5bbd7e81436d2eee04537ea2b4c0cad4cdf', ['test']),
      ],
    });
  });

  it('describeVersion: a tag’s commit (an annotated tag peeled), or a commit itself, as one tarball artifact', async () => {
    const server = await github();
    const actions = registry({ packageManager: 'github_actions', baseUrl: server.url });
    expect(await actions.describeVersion?.('octocat/Hello-World', 'v0.1')).toEqual({
      name: 'octocat/Hello-World',
      version: 'v0.1',
      dependencies: null,
      artifacts: [
        {
          filename: 'octocat/Hello-World@v0.1',
          url: `${server.url}repos/octocat/Hello-World/tarball/refs/tags/v0.1`,
          digests: [],
          attributes: { commit: 'c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc' },
        },
      ],
    });
    const annotated = await actions.describeVersion?.('octocat/Hello-World', 'v0.0.1');
    expect(annotated?.artifacts[0]?.attributes).toEqual({ commit: 'c3d0be41ecbe669545ee3e94d31ed9a4bc91ee3c' });
    expect(server.requests.map((r) => r.path).slice(-2)).toEqual([
      `${REPO}/git/ref/tags/v0.0.1`,
      `${REPO}/git/tags/940bd336248efae0f9ee5bc7b2d5c985887b16ac`,
    ]);
    expect(await actions.describeVersion?.('octocat/Hello-World', 'v9')).toBeUndefined();
    const submodules = registry({ packageManager: 'submodules', baseUrl: server.url });
    const commit = await submodules.describeVersion?.('github.com/octocat/Hello-World', '7638417DB6D59F3C431D3E1F261CC637155684CD');
    expect(commit?.artifacts).toEqual([
      {
        filename: 'octocat/Hello-World@7638417DB6D59F3C431D3E1F261CC637155684CD',
        url: `${server.url}repos/octocat/Hello-World/tarball/7638417db6d59f3c431d3e1f261cc637155684cd`,
        digests: [],
        attributes: { commit: '7638417db6d59f3c431d3e1f261cc637155684cd' },
      },
    ]);
    expect(await submodules.describeVersion?.('github.com/octocat/Hello-World', 'master')).toBeUndefined();
    expect(await submodules.describeVersion?.('github.com/octocat/Hello-World', 'a'.repeat(40))).toBeUndefined();
  });

  it('404 is undefined; 401 is auth_failed; nonsense is bad_response; a next page elsewhere is refused', async () => {
    const server = await github({ requireAuthorization: 'Bearer right' });
    const wrong = registry({ packageManager: 'dep', baseUrl: server.url, credentials: { token: 'wrong' } });
    await expect(wrong.fetchPackage('octocat/Hello-World')).rejects.toMatchObject({ kind: 'auth_failed', status: 401 });
    const open = await github();
    const actions = registry({ packageManager: 'github_actions', baseUrl: open.url });
    expect(await actions.fetchPackage('octocat/no-such-repo')).toBeUndefined();
    open.set(`${REPO}/tags?per_page=100`, { body: '{"message":"oops"}' });
    await expect(actions.fetchPackage('octocat/Hello-World')).rejects.toMatchObject({ kind: 'bad_response' });
    open.set(`${REPO}/tags?per_page=100`, { body: '[{"commit":{}}]' });
    await expect(actions.fetchPackage('octocat/Hello-World')).rejects.toBeInstanceOf(RegistryError);
    open.set(`${REPO}/tags?per_page=100`, { body: '[]', headers: { link: '<https://evil.example/tags?page=2>; rel="next"' } });
    await expect(actions.fetchPackage('octocat/Hello-World')).rejects.toThrow(/another origin/);
    open.set(REPO, { body: '{"full_name":"octocat/Hello-World"}' });
    await expect(actions.fetchPackage('octocat/Hello-World')).rejects.toThrow(/default_branch/);
    open.set(`${REPO}/git/ref/tags/v0.1`, {
      body: '{"ref":"refs/tags/v0.1","object":{"type":"blob","sha":"c5b97d5ae6c19d5c5df71a34c7fbeeda2479ccbc"}}',
    });
    await expect(actions.describeVersion?.('octocat/Hello-World', 'v0.1')).rejects.toThrow(/blob/);
  });
});

describe('GitHub adapter against the GitHub emulator (its demo seed: acme-oss/errors, acme-oss/setup-tool)', () => {
  let server: Listening;
  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: loadDemoSeed(), logger: createLogger('github-emulator', 'silent') });
  });
  afterAll(() => server.close());
  const client = (packageManager: 'submodules' | 'dep' | 'github_actions') =>
    createGitHubRegistry({ baseUrl: `${server.url}/`, credentials: { token: DEMO_TOKEN_BOT }, packageManager });

  it("lists an action repository's tags as versions, each describing its commit", async () => {
    const actions = client('github_actions');
    const found = await actions.fetchPackage('acme-oss/setup-tool');
    expect(found?.versions.map((v) => v.version).sort()).toEqual(['v1', 'v1.2.0', 'v2', 'v2.0.0']);
    expect(found?.versions.find((v) => v.version === 'v1.2.0')?.refs).toEqual(['v1.2.0']);
    const described = await actions.describeVersion?.('acme-oss/setup-tool', 'v1.2.0');
    // The commit the demo workflow pins setup-tool to, with its version comment `# v1.2.0`.
    expect(described?.artifacts[0]?.attributes?.commit).toBe('a57eefa7eaf77c4ddb38fa2c8fe7727c187fa556');
    expect(await actions.fetchPackage('acme-oss/no-such-action')).toBeUndefined();
    await actions.close();
  });

  it('takes dep import paths, and lists branch heads for submodules with the default branch as latest', async () => {
    const dep = client('dep');
    const errors = await dep.fetchPackage('github.com/acme-oss/errors');
    expect(errors?.versions.map((v) => v.version).sort()).toEqual(['v0.8.0', 'v0.8.1', 'v0.9.1']);
    expect((await dep.describeVersion?.('github.com/acme-oss/errors', 'v0.8.0'))?.artifacts[0]?.attributes?.commit).toBe(
      'd2b52ca5fa4553d5ed5f086711c78c518350b940',
    );
    const submodules = client('submodules');
    const heads = await submodules.fetchPackage('github.com/acme-oss/errors');
    const main = heads?.versions.find((v) => v.refs?.includes('main'));
    expect(main?.version).toMatch(/^[0-9a-f]{40}$/);
    expect(heads?.latest).toBe(main?.version);
    await Promise.all([dep.close(), submodules.close()]);
  });
});
