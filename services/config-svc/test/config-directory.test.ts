import {
  type Caller,
  type CodeHost,
  type CodeHostAccount,
  CodeHostError,
  type CodeHostRepo,
  CodeHostView,
  type DirectoryEntry,
  type DirectoryFiles,
  type RepoTree,
} from '@switchyard/code-host';
import { CodeHostUnavailable, InvalidInput, RateLimited } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import {
  ManifestFilesMissing,
  needsRecursiveListing,
  requiredFilesOf,
  requireManifestFiles,
} from '../src/update-configs/config-directory.policy.ts';
import { checkConfigDirectory } from '../src/update-configs/config-directory.service.ts';

// The directory check of create and PATCH without HTTP or a database: the rule (which files, matched how) and how the
// code host is asked (which listing, the cache, failures); the integration tests show it on the wire against the emulator.

const listing = (files: string[], truncated = false): DirectoryFiles => ({ files, sizes: {}, gitlinks: new Map(), truncated });

/** The error `check` throws, or undefined when it passes. */
function thrown(check: () => void): unknown {
  try {
    check();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('requireManifestFiles: the files release-svc requires, from @switchyard/ecosystems', () => {
  it('takes each package manager’s required files, a list of alternatives per entry', () => {
    expect(requiredFilesOf('npm_and_yarn')).toEqual([['package.json']]);
    expect(requiredFilesOf('pip')).toEqual([
      [
        'requirements.txt',
        'pyproject.toml',
        'Pipfile',
        'setup.py',
        'setup.cfg',
        'requirements.in',
        '*.txt',
        '*.in',
        'requirements/*.txt',
        'requirements/*.in',
      ],
    ]);
    expect(requiredFilesOf('github_actions')).toEqual([
      ['.github/workflows/*.yml', '.github/workflows/*.yaml', 'action.yml', 'action.yaml'],
    ]);
  });

  it('lists the tree only for a package manager whose files are in subdirectories', () => {
    expect(needsRecursiveListing('github_actions')).toBe(true);
    // pip's requirements/ folder (requirements/*.txt), as Dependabot looked there.
    expect(needsRecursiveListing('pip')).toBe(true);
    for (const pm of ['npm_and_yarn', 'nuget', 'docker', 'terraform', 'submodules', 'gradle'] as const) {
      expect(needsRecursiveListing(pm), pm).toBe(false);
    }
  });

  it('passes when one alternative is there, plainly or by a pattern', () => {
    expect(thrown(() => requireManifestFiles('pip', '/', 'main', listing(['README.md', 'pyproject.toml']), 'directory'))).toBeUndefined();
    expect(thrown(() => requireManifestFiles('nuget', '/src', 'main', listing(['App.fsproj']), 'directory'))).toBeUndefined();
    expect(thrown(() => requireManifestFiles('docker', '/', 'main', listing(['Dockerfile.prod']), 'directory'))).toBeUndefined();
    expect(
      thrown(() => requireManifestFiles('github_actions', '/', 'main', listing(['src/a.ts', '.github/workflows/ci.yaml']), 'directory')),
    ).toBeUndefined();
  });

  it('refuses naming every alternative, the directory and the branch, on the member given', () => {
    const error = thrown(() => requireManifestFiles('npm_and_yarn', '/nope', 'main', listing([]), 'directory'));
    expect(error).toBeInstanceOf(ManifestFilesMissing);
    expect(error).toBeInstanceOf(InvalidInput);
    expect((error as ManifestFilesMissing).message).toBe('No package.json found in /nope on branch main');
    expect((error as ManifestFilesMissing).errors).toEqual([
      { pointer: '#/directory', detail: '/nope has no package.json on branch main' },
    ]);

    const patched = thrown(() => requireManifestFiles('pip', '/', 'release', listing(['Gemfile']), 'target-branch'));
    expect((patched as ManifestFilesMissing).errors).toEqual([
      {
        pointer: '#/target-branch',
        detail:
          'release has no requirements.txt or pyproject.toml or Pipfile or setup.py or setup.cfg or requirements.in or *.txt or *.in or requirements/*.txt or requirements/*.in in /',
      },
    ]);
  });

  it('matches a pattern within one path segment: a project file in a subdirectory is not the directory’s', () => {
    const error = thrown(() => requireManifestFiles('nuget', '/', 'main', listing(['src/App.csproj']), 'directory'));
    expect((error as ManifestFilesMissing).files).toBe(
      '*.csproj or *.fsproj or *.vbproj or packages.config or Directory.Packages.props or *.sln or *.slnx or *.proj',
    );
    const actions = thrown(() => requireManifestFiles('github_actions', '/', 'main', listing(['.github/workflows/ci.json']), 'directory'));
    expect(actions).toBeInstanceOf(ManifestFilesMissing);
  });

  it('takes a listing the code host cut short as proof of nothing', () => {
    expect(thrown(() => requireManifestFiles('github_actions', '/', 'main', listing(['a.txt'], true), 'directory'))).toBeUndefined();
  });
});

const ACME: CodeHostAccount = { id: 2001, login: 'acme', type: 'org' };
const caller: Caller = { token: 't', tokenHash: 'h', user: ACME, accounts: [ACME], capability: { kind: 'per-repo' } };
const repo: Pick<CodeHostRepo, 'id' | 'fullName'> = { id: 3106, fullName: 'acme/polyglot' };

/** A code host holding `files` (paths from the root) on branch `main`, counting its listings; `fail` makes them reject. */
function fakeHost(files: string[]) {
  const state = { listings: 0, fail: undefined as CodeHostError | undefined, files };
  const answer = <T>(value: T): Promise<T> => {
    state.listings += 1;
    return state.fail ? Promise.reject(state.fail) : Promise.resolve(value);
  };
  const host: CodeHost = {
    currentUser: async () => ({ account: ACME, capability: caller.capability }),
    organisations: async () => [],
    organisationRole: async () => undefined,
    listRepos: async () => [],
    getRepo: async () => undefined,
    readFile: async () => undefined,
    listDirectory: (_token, _repo, path, ref) => {
      const prefix = path === '' ? '' : `${path}/`;
      const entries: DirectoryEntry[] = state.files
        .filter((f) => f.startsWith(prefix) && !f.slice(prefix.length).includes('/'))
        .map((f) => ({ name: f.slice(prefix.length), type: 'file', size: 1 }));
      return answer(ref === 'main' && (entries.length > 0 || path === '') ? entries : undefined);
    },
    listTree: (_token, _repo, ref) => {
      const tree: RepoTree = {
        entries: state.files.map((path) => ({ path, type: 'blob', sha: 'a'.repeat(40), size: 1 })),
        truncated: false,
      };
      return answer(ref === 'main' ? tree : undefined);
    },
  };
  return { host, state };
}

const at = (packageManager: 'npm_and_yarn' | 'github_actions' | 'docker', directory: string, branch = 'main') => ({
  repo,
  packageManager,
  directory,
  branch,
});

describe('checkConfigDirectory: one listing through the caller’s cached view of the code host', () => {
  it('lists the directory, or the tree for github_actions, and refuses a directory or branch without the files', async () => {
    const { host, state } = fakeHost(['package.json', 'web/package.json', '.github/workflows/ci.yml']);
    const view = new CodeHostView(host, { ttlMs: 60_000 });
    await checkConfigDirectory(view, caller, at('npm_and_yarn', '/web'), 'directory');
    await expect(checkConfigDirectory(view, caller, at('npm_and_yarn', '/nope'), 'directory')).rejects.toThrow(
      'No package.json found in /nope on branch main',
    );
    await expect(checkConfigDirectory(view, caller, at('npm_and_yarn', '/', 'develop'), 'directory')).rejects.toBeInstanceOf(
      ManifestFilesMissing,
    );
    expect(state.listings).toBe(3);
    await checkConfigDirectory(view, caller, at('github_actions', '/'), 'directory');
    await expect(checkConfigDirectory(view, caller, at('github_actions', '/web'), 'directory')).rejects.toBeInstanceOf(
      ManifestFilesMissing,
    );
    // One tree for both, then the refusal asked for it afresh.
    expect(state.listings).toBe(5);
  });

  it('reuses a listing within the TTL, serves a directory from a cached tree, and lists afresh before refusing', async () => {
    const { host, state } = fakeHost(['Dockerfile', '.github/workflows/ci.yml']);
    const view = new CodeHostView(host, { ttlMs: 60_000 });
    await checkConfigDirectory(view, caller, at('github_actions', '/'), 'directory');
    await checkConfigDirectory(view, caller, at('docker', '/'), 'directory');
    await checkConfigDirectory(view, caller, at('github_actions', '/'), 'directory');
    expect(state.listings).toBe(1);
    // A package.json pushed after the tree was listed: the cached tree lacks it, the fresh listing has it.
    state.files.push('package.json');
    await checkConfigDirectory(view, caller, at('npm_and_yarn', '/'), 'directory');
    expect(state.listings).toBe(2);
  });

  it('passes a code host failure on as the caller’s error, never as a missing file', async () => {
    const { host, state } = fakeHost(['package.json']);
    const view = new CodeHostView(host, { ttlMs: 60_000 });
    state.fail = new CodeHostError('unavailable', 'GitHub GET /repos/acme/polyglot/contents/: 503', { status: 503 });
    await expect(checkConfigDirectory(view, caller, at('npm_and_yarn', '/'), 'directory')).rejects.toBeInstanceOf(CodeHostUnavailable);
    state.fail = new CodeHostError('rate_limited', 'GitHub: rate limit', { status: 429, retryAfterSeconds: 7 });
    const limited = await checkConfigDirectory(view, caller, at('npm_and_yarn', '/'), 'directory').catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimited);
    expect((limited as RateLimited).retryAfterSeconds).toBe(7);
    state.fail = undefined;
    await checkConfigDirectory(view, caller, at('npm_and_yarn', '/'), 'directory');
  });

  it('checks nothing on a code host that cannot list', async () => {
    const { host } = fakeHost([]);
    const { listDirectory: _directory, listTree: _tree, ...unlisting } = host;
    const view = new CodeHostView(unlisting, { ttlMs: 60_000 });
    await checkConfigDirectory(view, caller, at('npm_and_yarn', '/nope'), 'directory');
  });
});
