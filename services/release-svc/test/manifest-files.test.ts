import { type CodeHost, CodeHostError, createGitHubCodeHost, type FileReads, personalToken, type TreeEntry } from '@switchyard/code-host';
import { type Ecosystem, ecosystemFor, gitlinkText, ManifestParseError } from '@switchyard/ecosystems';
import { createGitHubEmulator, generateRepos } from '@switchyard/github-emulator';
import { createLogger, type Listening, listen } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readTargetsTogether } from '../src/pipeline/read/fan-out-read.service.ts';
import { readManifestFiles, readTargetFiles } from '../src/pipeline/read/manifest-files.service.ts';
import type { ReadableTarget } from '../src/pipeline/read/target.policy.ts';

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

/** An ecosystem of `files` only (readManifestFiles reads nothing else of it). */
const ecosystemOf = (files: Ecosystem['files']) => ({ ...(npm as Ecosystem), files });

/**
 * A code host holding `tree` (path → text, or `{ gitlink }` for a submodule) that counts its requests: `listTree`
 * (recursive), `listDirectory` and `readFile`.
 */
function treeHost(tree: Record<string, string | { gitlink: string }>) {
  const calls: string[] = [];
  const host = {
    async listTree(_token: string, _repo: unknown, ref: string) {
      calls.push(`tree ${ref}`);
      const entries: TreeEntry[] = Object.entries(tree).map(([path, value]) =>
        typeof value === 'string'
          ? { path, type: 'blob', sha: '0'.repeat(40), size: value.length }
          : { path, type: 'commit', sha: value.gitlink },
      );
      return { entries, truncated: false };
    },
    async listDirectory(_token: string, _repo: unknown, path: string) {
      calls.push(`dir ${path}`);
      const prefix = path === '' ? '' : path.endsWith('/') ? path : `${path}/`;
      return Object.entries(tree)
        .filter(([p, value]) => typeof value === 'string' && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        .map(([p]) => ({ name: p.slice(prefix.length), type: 'file' as const, size: 1 }));
    },
    async readFile(_token: string, _repo: unknown, path: string) {
      calls.push(`read ${path}`);
      const value = tree[path];
      return typeof value === 'string' ? value : undefined;
    },
  } as unknown as CodeHost;
  return { host, calls };
}

describe('readManifestFiles: the files the first read points at (files.related)', () => {
  it("reads a parent directory's file under its ../ path, and drops one above the repository's root", async () => {
    const { host, calls } = treeHost({
      'src/App/App.csproj': '<Project />',
      'Directory.Packages.props': '<Project>central</Project>',
    });
    const nuget = ecosystemOf({
      required: [['*.csproj']],
      optional: [],
      lockfiles: [],
      related: () => ['../Directory.Packages.props', '../../Directory.Packages.props', '../../../Directory.Packages.props'],
    });
    expect(await readManifestFiles(host, 't', 'acme/web', '/src/App', 'main', nuget)).toEqual({
      files: { 'App.csproj': '<Project />', '../../Directory.Packages.props': '<Project>central</Project>' },
    });
    expect(calls).toEqual(['dir src/App', 'read src/App/App.csproj', 'read src/Directory.Packages.props', 'read Directory.Packages.props']);
  });

  it('matches related patterns against a recursive listing, given what the first files say', async () => {
    const { host, calls } = treeHost({
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]',
      'crates/grep/Cargo.toml': '[package]\nname = "grep"',
      'crates/cli/Cargo.toml': '[package]\nname = "cli"',
      'crates/cli/README.md': '#',
    });
    const cargo = ecosystemOf({
      required: [['Cargo.toml']],
      optional: [],
      lockfiles: [],
      related: (files) => (files['Cargo.toml']?.includes('crates/*') ? ['crates/*/Cargo.toml'] : []),
    });
    expect(await readManifestFiles(host, 't', 'acme/web', '/', 'main', cargo)).toEqual({
      files: {
        'Cargo.toml': '[workspace]\nmembers = ["crates/*"]',
        'crates/grep/Cargo.toml': '[package]\nname = "grep"',
        'crates/cli/Cargo.toml': '[package]\nname = "cli"',
      },
    });
    expect(calls).toEqual(['dir ', 'read Cargo.toml', 'tree main', 'read crates/grep/Cargo.toml', 'read crates/cli/Cargo.toml']);
  });

  it('follows a chain round by round (an included file that includes another), asking each path once', async () => {
    const includes = (files: Readonly<Record<string, string>>) =>
      Object.values(files).flatMap((text) => [...text.matchAll(/^-r (\S+)$/gm)].map((m) => m[1] as string));
    const pip = ecosystemOf({ required: [['requirements.txt']], optional: [], lockfiles: [], related: includes });
    const nested = treeHost({
      'app/requirements.txt': '-r base.txt',
      'app/base.txt': '-r ../shared/common.txt\nrequests',
      'shared/common.txt': 'idna',
    });
    expect(await readManifestFiles(nested.host, 't', 'acme/web', '/app', 'main', pip)).toEqual({
      files: { 'requirements.txt': '-r base.txt', 'base.txt': '-r ../shared/common.txt\nrequests', '../shared/common.txt': 'idna' },
    });
    expect(nested.calls).toEqual(['dir app', 'read app/requirements.txt', 'read app/base.txt', 'read shared/common.txt']);
  });

  it("reads a file that does not parse without following it: the parse error is the reader's to report", async () => {
    const { host, calls } = treeHost({ 'crate/Cargo.toml': '[package\nname = "x"' });
    const cargo = ecosystemOf({
      required: [['Cargo.toml']],
      optional: [],
      lockfiles: [],
      related: () => {
        throw new ManifestParseError('Cargo.toml', 'expected ]');
      },
    });
    expect(await readManifestFiles(host, 't', 'acme/web', '/crate', 'main', cargo)).toEqual({
      files: { 'Cargo.toml': '[package\nname = "x"' },
    });
    expect(calls).toEqual(['dir crate', 'read crate/Cargo.toml']);
  });

  it('reads nothing more when the first files point at nothing new', async () => {
    const { host, calls } = treeHost({ 'Cargo.toml': '[package]' });
    const cargo = ecosystemOf({ required: [['Cargo.toml']], optional: [], lockfiles: [], related: () => ['Cargo.toml'] });
    expect(await readManifestFiles(host, 't', 'acme/web', '/', 'main', cargo)).toEqual({ files: { 'Cargo.toml': '[package]' } });
    expect(calls).toEqual(['dir ', 'read Cargo.toml']);
  });
});

describe('readManifestFiles: patterns, subdirectories and gitlinks', () => {
  it('reads the files a pattern matches in the directory, from one directory listing', async () => {
    const { host, calls } = treeHost({
      'app/Dockerfile': 'FROM a',
      'app/Dockerfile.prod': 'FROM b',
      'app/README.md': '#',
      Dockerfile: 'FROM c',
    });
    const docker = ecosystemOf({ required: [['Dockerfile*']], optional: [], lockfiles: [] });
    expect(await readManifestFiles(host, 't', 'acme/web', '/app', 'main', docker)).toEqual({
      files: { Dockerfile: 'FROM a', 'Dockerfile.prod': 'FROM b' },
    });
    expect(calls).toEqual(['dir app', 'read app/Dockerfile', 'read app/Dockerfile.prod']);
  });

  it('reads files in subdirectories of the directory from one tree listing, keyed by their path below it', async () => {
    const { host, calls } = treeHost({
      '.github/workflows/ci.yml': 'on: push',
      '.github/workflows/release.yaml': 'on: tag',
      '.github/workflows/notes.txt': 'x',
      '.github/dependabot.yml': 'version: 2',
    });
    const actions = ecosystemOf({
      required: [['.github/workflows/*.yml', '.github/workflows/*.yaml', 'action.yml']],
      optional: [],
      lockfiles: [],
    });
    expect(await readManifestFiles(host, 't', 'acme/web', '/', 'main', actions)).toEqual({
      files: { '.github/workflows/ci.yml': 'on: push', '.github/workflows/release.yaml': 'on: tag' },
    });
    expect(calls).toEqual(['tree main', 'read .github/workflows/ci.yml', 'read .github/workflows/release.yaml']);
  });

  it('gives the gitlinks below the directory as git shows them in a diff, without reading them', async () => {
    const sha = 'a'.repeat(40);
    const { host, calls } = treeHost({
      '.gitmodules': '[submodule "lib"]',
      'vendor/lib': { gitlink: sha },
      'other/x': { gitlink: 'b'.repeat(40) },
    });
    const submodules = ecosystemOf({ required: [['.gitmodules']], optional: [], lockfiles: [], gitlinks: true });
    expect(await readManifestFiles(host, 't', 'acme/web', '/', 'main', submodules)).toEqual({
      files: { '.gitmodules': '[submodule "lib"]', 'vendor/lib': gitlinkText(sha), 'other/x': gitlinkText('b'.repeat(40)) },
    });
    expect(calls).toEqual(['tree main', 'read .gitmodules']);
  });

  it('says which required entry is missing, pattern or not', async () => {
    const { host } = treeHost({ 'app/README.md': '#' });
    const nuget = ecosystemOf({ required: [['*.csproj', 'packages.config']], optional: [], lockfiles: [] });
    expect(await readManifestFiles(host, 't', 'acme/web', '/app', 'main', nuget)).toEqual({
      missing: 'no *.csproj or packages.config in /app on branch main',
    });
  });
});

describe('readManifestFiles: every file at once through readFiles', () => {
  if (!npm) throw new Error('npm_and_yarn has no ecosystem');

  it('lists, then asks readFiles for the files the listing shows, with their sizes; reports those over the limit', async () => {
    const asked: Array<[readonly string[], unknown]> = [];
    const host = {
      async listDirectory() {
        return [
          { name: 'package.json', type: 'file', size: 20 },
          { name: 'package-lock.json', type: 'file', size: 150 * MiB },
          { name: 'yarn.lock', type: 'file', size: 30 },
          { name: 'README.md', type: 'file', size: 5 },
        ];
      },
      async readFiles(_token: string, _repo: unknown, paths: readonly string[], options: unknown): Promise<FileReads> {
        asked.push([paths, options]);
        return {
          files: { 'web/package.json': '{"name":"web"}', 'web/yarn.lock': '# yarn' },
          tooLarge: { 'web/package-lock.json': { limitBytes: 5 * MiB, sizeBytes: 150 * MiB } },
        };
      },
    } as unknown as CodeHost;
    expect(await readManifestFiles(host, 't', 'acme/web', '/web', 'main', npm)).toEqual({
      tooLarge: 'package-lock.json in /web is 150.0 MiB, over the 5.0 MiB limit',
    });
    expect(asked).toEqual([
      [
        ['web/package.json', 'web/package-lock.json', 'web/yarn.lock'],
        { ref: 'main', sizes: { 'web/package.json': 20, 'web/package-lock.json': 150 * MiB, 'web/yarn.lock': 30 } },
      ],
    ]);
  });

  describe('on the GitHub adapter against the emulator', () => {
    const lockfile = (lodash: string) =>
      JSON.stringify({ name: 'app', lockfileVersion: 3, packages: { 'node_modules/lodash': { version: lodash } } });
    const seed = {
      users: [{ id: 1, login: 'bot', token: 'bot-token' }],
      repos: [
        ...generateRepos('bot', 1, 10, {
          namePrefix: 'locked',
          files: { 'package.json': '{"dependencies":{"lodash":"^4.17.15"}}', 'package-lock.json': lockfile('4.17.15') },
        }),
        ...generateRepos('bot', 1, 20, { namePrefix: 'loose', files: { 'package.json': '{"dependencies":{"lodash":"^4.17.15"}}' } }),
      ],
    };
    const requests: string[] = [];
    let server: Listening;
    let host: CodeHost;

    beforeAll(async () => {
      const logger = createLogger('test', 'silent');
      const app = createGitHubEmulator({ seed, logger });
      server = await listen(
        (req, res) => {
          res.on('finish', () => requests.push(`${req.method} ${req.url} ${res.statusCode}`));
          app(req, res);
        },
        0,
        '127.0.0.1',
      );
      host = createGitHubCodeHost({ baseUrl: server.url, throttle: false, logger });
    });
    afterAll(() => server.close(100));

    async function requestsOf(repo: string): Promise<{ read: unknown; requests: string[] }> {
      const start = requests.length;
      const read = await readManifestFiles(host, 'bot-token', repo, '/', 'main', npm as Ecosystem);
      await new Promise((resolve) => setImmediate(resolve));
      return { read, requests: requests.slice(start) };
    }

    it('an npm repo with its lockfile costs 2 requests (the listing, one GraphQL query); without a lockfile 2 too', async () => {
      const locked = await requestsOf('bot/locked-1');
      expect(locked.read).toEqual({
        files: { 'package.json': expect.stringContaining('lodash'), 'package-lock.json': lockfile('4.17.15') },
      });
      expect(locked.requests).toEqual(['GET /repos/bot/locked-1/contents?ref=main 200', 'POST /graphql 200']);
      const loose = await requestsOf('bot/loose-1');
      expect(loose.read).toEqual({ files: { 'package.json': expect.stringContaining('lodash') } });
      expect(loose.requests).toEqual([
        'GET /repos/bot/loose-1/contents?ref=main 200',
        'GET /repos/bot/loose-1/contents/package.json?ref=main 200',
      ]);
    });

    it("a fan-out's batch reads all its repositories in 2 requests (sizes and head commits, then texts), to the same files", async () => {
      // 30 configs on the two repositories (each config its own read), and one on a repository that does not exist.
      const names = [...Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? 'bot/locked-1' : 'bot/loose-1')), 'bot/absent'];
      const targets = new Map(
        names.map((fullName, i) => [
          i + 1,
          { config: { directory: '/' }, repo: { fullName }, ecosystem: npm, branch: 'main' } as unknown as ReadableTarget,
        ]),
      );
      const start = requests.length;
      const found = await readTargetsTogether(host, personalToken('bot-token'), targets, createLogger('test', 'silent'));
      await new Promise((resolve) => setImmediate(resolve));
      expect(requests.slice(start)).toEqual(['POST /graphql 200', 'POST /graphql 200']);
      expect(found.size).toBe(30);
      expect(found.has(31)).toBe(false);
      for (const [id, target] of [...targets].slice(0, 30)) {
        const mine = found.get(id);
        expect(mine?.commit).toBe(await host.getBranchHead?.('bot-token', { owner: 'bot', name: target.repo.fullName.slice(4) }, 'main'));
        const read = await readTargetFiles(host, personalToken('bot-token'), target, { found: mine });
        expect(read).toEqual({
          ...(await readManifestFiles(host, 'bot-token', target.repo.fullName, '/', 'main', npm as Ecosystem)),
          commit: mine?.commit,
        });
      }
    });

    it('reading again asks conditionally: unchanged answers are 304s, which GitHub does not count against the rate limit', async () => {
      const locked = await requestsOf('bot/locked-1');
      expect(locked.requests).toEqual(['GET /repos/bot/locked-1/contents?ref=main 304', 'POST /graphql 200']);
      expect((await requestsOf('bot/loose-1')).requests).toEqual([
        'GET /repos/bot/loose-1/contents?ref=main 304',
        'GET /repos/bot/loose-1/contents/package.json?ref=main 304',
      ]);
    });
  });
});
