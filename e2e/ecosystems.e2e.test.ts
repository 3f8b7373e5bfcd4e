import { createGitHubCodeHost, type RepoRef } from '@switchyard/code-host';
import type { PackageManager, PullRequestJobResource } from '@switchyard/contracts';
import { filesMatching, gitlinkText, requireEcosystem } from '@switchyard/ecosystems';
import { createLogger } from '@switchyard/service-kit';
import { ProcessStack, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitHubApi } from './support/github-api.ts';
import { LAUNCHER_READY_MS, startLauncherWithEmulators } from './support/launcher.ts';
import { releaseApi } from './support/release-api.ts';

/**
 * The ten package managers beyond the first six, end to end through the gateway of the one-process launcher: for each,
 * an update config on a directory of the demo repository `acme/polyglot`, a new version published (to the registry
 * emulator, or as a tag or commit on the GitHub emulator for the package managers whose versions are the code host's),
 * "bump now", the run's decision, and the pull request it opens, whose files the ecosystem reads back at the new version.
 */

/** How long a run may take to open its pull requests (reads, registry requests, one commit and pull request per job). */
const OPENED_WITHIN_MS = 90_000;

const ALICE = 'demo-token-alice';
const ACME = '2001';
const POLYGLOT = { id: 3106, fullName: 'acme/polyglot' };

/** What a case's publication needs: the registry emulator's URL and the code host's. */
interface PublishContext {
  registryUrl: string;
  codeHostUrl: string;
}

/** One package manager's case. */
interface EcosystemCase {
  packageManager: PackageManager;
  /** The config's directory in acme/polyglot (`/` for workflows and submodules). */
  directory: string;
  /** The dependency, as its ecosystem names it. */
  name: string;
  /** The version the demo files hold. */
  from: string;
  /** The version published by {@link EcosystemCase.publish}: the run's target (a commit is known only once pushed). */
  to: string | ((published: string) => string);
  /** Makes the target a version the package manager's registry lists; returns what it published (a tag, a commit). */
  publish(context: PublishContext): Promise<string>;
  /** The version the ecosystem reads at the pull request's head, when not the target itself. */
  atHead?: string;
  /**
   * The start of the `status-reason` of a job that must fail rather than open a pull request whose lockfile is wrong
   * (dep: a `Gopkg.lock` digest the updater cannot compute as dep does).
   */
  fails?: string;
}

/** Publishes `version` of `name` on the registry emulator's admin API (`packageManager` as the emulator names it). */
const publishToRegistry =
  (packageManager: string, name: string, version: string, extra: Record<string, unknown> = {}) =>
  async ({ registryUrl }: PublishContext) => {
    const res = await fetch(`${registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager, name, version, ...extra }),
    });
    expect(res.status, await res.text()).toBe(201);
    return version;
  };

/** The demo seed's bot, which may write to the acme-oss repositories (their releases are made as it). */
const BOT = 'demo-token-bot';

/** Pushes a commit to `repo`'s main branch as the bot (a new release's sources), and returns it. */
async function pushCommit(codeHostUrl: string, repo: string, file: string, text: string): Promise<string> {
  const host = createGitHubCodeHost({
    baseUrl: codeHostUrl,
    userAgent: 'switchyard-e2e',
    throttle: false,
    logger: createLogger('e2e', 'error'),
  });
  const ref = refOf(repo);
  const parentSha = (await host.getBranchHead?.(BOT, ref, 'main')) as string;
  return (await host.commitFiles?.(BOT, ref, {
    branch: 'main',
    parentSha,
    message: `Release notes: ${file}`,
    files: { [file]: text },
  })) as string;
}

/** Tags a new commit of `repo`'s main branch `tag`, as its maintainers release: the code host's tag is the version. */
const publishTag =
  (repo: string, tag: string) =>
  async ({ codeHostUrl }: PublishContext) => {
    const sha = await pushCommit(codeHostUrl, repo, `CHANGELOG-${tag}.md`, `# ${tag}\n`);
    const tagged = await gitHubApi(() => codeHostUrl, BOT).call('POST', `/repos/${repo}/git/refs`, { ref: `refs/tags/${tag}`, sha });
    expect(tagged.status).toBe(201);
    return tag;
  };

const CASES: readonly EcosystemCase[] = [
  {
    packageManager: 'docker',
    directory: '/docker',
    name: 'python',
    from: '3.11-slim',
    to: '3.13-slim',
    publish: publishToRegistry('docker', 'library/python', '3.13-slim'),
  },
  {
    packageManager: 'gradle',
    directory: '/gradle',
    name: 'com.squareup.okhttp3:okhttp',
    from: '4.11.0',
    to: '4.12.0',
    // Gradle builds resolve against Maven repositories: the emulator's Maven repository is gradle's registry.
    publish: publishToRegistry('maven', 'com.squareup.okhttp3:okhttp', '4.12.0'),
  },
  {
    packageManager: 'nuget',
    directory: '/nuget',
    name: 'Newtonsoft.Json',
    from: '12.0.3',
    to: '13.0.4',
    publish: publishToRegistry('nuget', 'Newtonsoft.Json', '13.0.4'),
  },
  {
    packageManager: 'go_modules',
    directory: '/go',
    name: 'github.com/acme-oss/uuid',
    from: 'v1.3.0',
    to: 'v1.4.0',
    publish: publishToRegistry('go_modules', 'github.com/acme-oss/uuid', 'v1.4.0'),
  },
  {
    packageManager: 'terraform',
    directory: '/terraform',
    name: 'hashicorp/aws',
    from: '5.31.0',
    to: '5.32.0',
    publish: publishToRegistry('terraform', 'hashicorp/aws', '5.32.0'),
  },
  {
    packageManager: 'hex',
    directory: '/hex',
    name: 'jason',
    from: '1.4.0',
    to: '1.4.1',
    publish: publishToRegistry('hex', 'jason', '1.4.1'),
  },
  {
    packageManager: 'elm',
    directory: '/elm',
    name: 'elm/http',
    from: '2.0.0',
    to: '2.0.1',
    // What elm/http 2.0.1's own elm.json requires (the update checks the application's pins against it).
    publish: publishToRegistry('elm', 'elm/http', '2.0.1', {
      dependencies: {
        'elm/bytes': '1.0.0 <= v < 2.0.0',
        'elm/core': '1.0.0 <= v < 2.0.0',
        'elm/file': '1.0.0 <= v < 2.0.0',
        'elm/json': '1.0.0 <= v < 2.0.0',
      },
    }),
  },
  {
    packageManager: 'dep',
    directory: '/dep',
    name: 'github.com/acme-oss/errors',
    from: 'v0.8.0',
    to: 'v0.9.2',
    publish: publishTag('acme-oss/errors', 'v0.9.2'),
    fails: "needs-resolution: Gopkg.lock's digest of github.com/acme-oss/errors",
  },
  {
    packageManager: 'github_actions',
    directory: '/',
    name: 'acme-oss/setup-tool',
    from: 'v1.2.0',
    to: 'v2.1.0',
    publish: publishTag('acme-oss/setup-tool', 'v2.1.0'),
  },
  {
    packageManager: 'submodules',
    directory: '/',
    name: 'github.com/acme-oss/errors',
    // The commit of acme-oss/errors' tag v0.8.0; the new head of its main branch is the target.
    from: 'd2b52ca5fa4553d5ed5f086711c78c518350b940',
    to: (published) => published,
    publish: ({ codeHostUrl }) => pushCommit(codeHostUrl, 'acme-oss/errors', 'NEWS.md', '# News\n\nA fix on main.\n'),
  },
];

/** `owner/name` as a {@link RepoRef}. */
const refOf = (fullName: string): RepoRef => {
  const [owner = '', name = ''] = fullName.split('/');
  return { owner, name };
};

describe('the ten other package managers: a published version becomes a pull request, through the launcher', () => {
  const processes = new ProcessStack();
  let gatewayUrl = '';
  let codeHostUrl = '';
  let registryUrl = '';
  const api = releaseApi(() => gatewayUrl, ALICE);
  const github = gitHubApi(() => codeHostUrl, ALICE);
  const codeHost = () =>
    createGitHubCodeHost({ baseUrl: codeHostUrl, userAgent: 'switchyard-e2e', throttle: false, logger: createLogger('e2e', 'error') });

  /** The files of the case's ecosystem in its directory at `ref`, as the worker reads them (patterns, gitlinks). */
  const filesAt = async (c: EcosystemCase, ref: string) => {
    const ecosystem = requireEcosystem(c.packageManager);
    const tree = await codeHost().listTree?.(ALICE, refOf(POLYGLOT.fullName), ref);
    const base = c.directory === '/' ? '' : `${c.directory.slice(1)}/`;
    const below = (tree?.entries ?? []).filter((e) => e.path.startsWith(base)).map((e) => ({ ...e, path: e.path.slice(base.length) }));
    const entries = [...ecosystem.files.required.flat(), ...ecosystem.files.optional];
    const files: Record<string, string> = {};
    for (const path of filesMatching(
      entries,
      below.filter((e) => e.type === 'blob').map((e) => e.path),
    )) {
      files[path] = (await github.fileAt(POLYGLOT.fullName, `${base}${path}`, ref)) ?? '';
    }
    if (ecosystem.files.gitlinks) for (const e of below) if (e.type === 'commit') files[e.path] = gitlinkText(e.sha);
    return files;
  };

  beforeAll(async () => {
    ({
      gateway: gatewayUrl,
      codeHost: codeHostUrl,
      registry: registryUrl,
    } = await startLauncherWithEmulators(processes, {
      PULL_REQUESTS: 'on',
    }));
  }, LAUNCHER_READY_MS + 30_000);
  afterAll(() => processes.disposeAsync());

  for (const c of CASES) {
    it(`${c.packageManager} in ${c.directory}: ${c.name} ${c.from} → ${typeof c.to === 'string' ? c.to : 'its new head'}`, async () => {
      const ecosystem = requireEcosystem(c.packageManager);
      expect(ecosystem.findDependency(await filesAt(c, 'main'), c.name)?.version, 'the demo files hold the old version').toBe(c.from);
      const config = await api.createConfig({
        'repo-id': POLYGLOT.id,
        'account-id': ACME,
        'account-type': 'org',
        directory: c.directory,
        'update-schedule': 'monthly',
        'package-manager': c.packageManager,
      });
      const published = await c.publish({ registryUrl, codeHostUrl });
      const to = typeof c.to === 'string' ? c.to : c.to(published);

      const run = await api.finishedRun((await api.bumpNow(config.id)).id);
      const decided = run.attributes.dependencies.find((d) => d.name === c.name);
      expect(run.attributes.status, run.attributes.error ?? '').toBe('done');
      // Every dependency of the demo directory was found on its registry (the emulators serve all of them).
      expect(run.attributes.dependencies.filter((d) => d['error-kind'] !== null)).toEqual([]);
      expect(decided, JSON.stringify(run.attributes.dependencies)).toMatchObject({
        'version-in-use': c.from,
        'latest-allowed-version': to,
        outcome: 'job-recorded',
      });

      const job = await waitFor(
        async () => {
          const jobs = await api.jobs(`dependency-name=${encodeURIComponent(c.name)}`);
          const found = jobs.find((j: PullRequestJobResource) => j.relationships['update-run'].data?.id === run.id);
          return found && !['pending', 'running', 'queued-limit'].includes(found.attributes.status) ? found : undefined;
        },
        OPENED_WITHIN_MS,
        250,
      );
      if (c.fails) {
        expect(job.attributes, c.packageManager).toMatchObject({ status: 'failed', 'status-reason': expect.stringContaining(c.fails) });
        return;
      }
      expect(job.attributes.status, `${c.packageManager}: ${job.attributes['status-reason']}`).toBe('open');
      const pull = (await github.call('GET', `/repos/${POLYGLOT.fullName}/pulls/${job.attributes['pull-request-number']}`)).body;
      expect(pull.title).toBe(`Bump ${c.name} from ${c.from} to ${to}${c.directory === '/' ? '' : ` in ${c.directory}`}`);

      // The pull request's head holds the new version, as the ecosystem reads it; main still the old one.
      expect(ecosystem.findDependency(await filesAt(c, pull.head.sha), c.name)?.version).toBe(c.atHead ?? to);
      expect(ecosystem.findDependency(await filesAt(c, 'main'), c.name)?.version).toBe(c.from);
    });
  }
});
