import { readFileSync } from 'node:fs';
import { createGitHubCodeHost, type RepoRef } from '@switchyard/code-host';
import type { PackageManager, PullRequestJobResource, UpdateConfigResource } from '@switchyard/contracts';
import { requireEcosystem } from '@switchyard/ecosystems';
import { createLogger } from '@switchyard/service-kit';
import { ProcessStack, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitHubApi } from './support/github-api.ts';
import { LAUNCHER_READY_MS, startLauncherWithEmulators } from './support/launcher.ts';
import { releaseApi } from './support/release-api.ts';

/**
 * Release notifications becoming pull requests for the six package managers, through the gateway of the one-process
 * launcher (apps/standalone): its GitHub emulator holds the repositories, its registry emulator the packages, and its
 * release worker runs pull-request jobs (`PULL_REQUESTS=on`) and keeps their pull requests current from the emulator's
 * signed webhooks (`POST /webhooks/github` through the gateway). Fixture manifests and lockfiles
 * (e2e/fixtures/pull-requests/) are committed into the demo repositories as alice, one directory per package manager,
 * each with its own update config. release-svc's own integration tests (pull-requests.int.test.ts,
 * pull-request-maintenance.int.test.ts) cover the executor's and the maintenance's rules in process.
 */

/** How long a notification's job may take to open its pull request (the worker reads, rewrites and commits; npm resolves). */
const OPENED_WITHIN_MS = 60_000;
/** How long a webhook's effect (a merge, a rebase of every open pull request of a repository) may take to show. */
const WEBHOOK_EFFECT_WITHIN_MS = 60_000;

const fixtures = new URL('./fixtures/pull-requests/', import.meta.url);

/** The demo seed's alice (admin of acme) and the acme organisation's id. */
const ALICE = 'demo-token-alice';
const ACME = '2001';

/** Demo repositories where the release worker's bot may push (a `write` collaborator); acme-cli (3104) it may only read. */
const STOREFRONT = { id: 3101, fullName: 'acme/web-storefront' };
const PIPELINE = { id: 3103, fullName: 'acme/data-pipeline' };

/** One package manager's case: its fixture directory, the repository it is committed to, and the release notified. */
interface PullRequestCase {
  /** The fixture directory under e2e/fixtures/pull-requests/, committed at the same path of the repository. */
  directory: string;
  packageManager: PackageManager;
  repo: { id: number; fullName: string };
  /** The files of the directory (manifest first). */
  files: readonly string[];
  /** The dependency as the manifest names it (and as the job and the branch name it). */
  name: string;
  /** The version the lockfile (or the manifest's pin) holds, and the release notified (the registry emulator's newest). */
  from: string;
  to: string;
  /** The config's `automerge-rule-runtime-deps` is `all` (the dependency is a runtime one). */
  automerge: boolean;
  /** The files the pull request changes: the lockfile always, the manifest when its requirement did not allow `to`. */
  changed: readonly string[];
}

/**
 * One directory per package manager, each depending on a package of the registry emulator's demo seed at an old version
 * and notified of its newest; cargo's lives in data-pipeline, whose main branch runs checks, with automerge on.
 */
const CASES: readonly PullRequestCase[] = [
  {
    directory: 'maven',
    packageManager: 'maven',
    repo: STOREFRONT,
    files: ['pom.xml'],
    name: 'org.apache.commons:commons-lang3',
    from: '3.10',
    to: '3.14.0',
    automerge: false,
    changed: ['pom.xml'],
  },
  {
    directory: 'cargo',
    packageManager: 'cargo',
    repo: PIPELINE,
    files: ['Cargo.toml', 'Cargo.lock'],
    name: 'serde',
    from: '1.0.110',
    to: '1.0.203',
    automerge: true,
    changed: ['Cargo.lock'],
  },
  {
    directory: 'composer',
    packageManager: 'composer',
    repo: STOREFRONT,
    files: ['composer.json', 'composer.lock'],
    name: 'monolog/monolog',
    from: '2.0.2',
    to: '3.7.0',
    automerge: false,
    changed: ['composer.json', 'composer.lock'],
  },
  {
    directory: 'poetry',
    packageManager: 'pip',
    repo: STOREFRONT,
    files: ['pyproject.toml', 'poetry.lock'],
    name: 'click',
    from: '7.1.2',
    // Published by the suite with its dependencies: the demo seed's click versions declare none, which PyPI's JSON API
    // says as `requires_dist: null` ("not known"), and a poetry.lock is not rewritten without them.
    to: '8.1.8',
    automerge: false,
    changed: ['pyproject.toml', 'poetry.lock'],
  },
  {
    directory: 'bundler',
    packageManager: 'bundler',
    repo: STOREFRONT,
    files: ['Gemfile', 'Gemfile.lock'],
    name: 'stripe',
    from: '5.22.0',
    to: '12.0.0',
    automerge: false,
    changed: ['Gemfile', 'Gemfile.lock'],
  },
  {
    directory: 'npm',
    packageManager: 'npm_and_yarn',
    repo: STOREFRONT,
    files: ['package.json', 'package-lock.json'],
    name: 'date-fns',
    from: '2.14.0',
    to: '3.0.0',
    automerge: false,
    changed: ['package.json', 'package-lock.json'],
  },
];

/** The case of fixture directory `directory`. */
const caseOf = (directory: string) => CASES.find((c) => c.directory === directory) as PullRequestCase;

/** `owner/name` as a {@link RepoRef}. */
const refOf = (fullName: string): RepoRef => {
  const [owner = '', name = ''] = fullName.split('/');
  return { owner, name };
};

/** The branch Dependabot names for a case's job (`dependabot/<pm>/<directory>/<dependency>-<version>`, `:` made `-`). */
const branchOf = (c: PullRequestCase) => `dependabot/${c.packageManager}/${c.directory}/${c.name.replace(/:/g, '-')}-${c.to}`;

/** Resolves after `ms` milliseconds. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A pull-request job as `GET /pull_request_jobs` answers it. */
type Job = PullRequestJobResource;

describe('release notifications become pull requests for six package managers, through the launcher', () => {
  const processes = new ProcessStack();
  let gatewayUrl = '';
  let codeHostUrl = '';
  let registryUrl = '';
  const api = releaseApi(() => gatewayUrl, ALICE, { finishedWithinMs: 60_000 });
  const github = gitHubApi(() => codeHostUrl, ALICE);
  const codeHost = () =>
    createGitHubCodeHost({ baseUrl: codeHostUrl, userAgent: 'switchyard-e2e', throttle: false, logger: createLogger('e2e', 'error') });
  /** Each case's update config, by directory. */
  const configs = new Map<string, UpdateConfigResource>();
  /** Each case's job once its pull request is open, by directory. */
  const opened = new Map<string, Job>();

  /** Commits `files` (paths from the repository's root → text) on `branch` of `fullName` as alice; returns the new head. */
  const commitAsAlice = async (fullName: string, branch: string, files: Record<string, string>, message: string) => {
    const host = codeHost();
    const repo = refOf(fullName);
    const parentSha = await host.getBranchHead?.(ALICE, repo, branch);
    expect(parentSha, `${fullName} has a ${branch} branch`).toBeTruthy();
    return (await host.commitFiles?.(ALICE, repo, { branch, parentSha: parentSha as string, message, files })) as string;
  };
  /** The case's files at `ref` of its repository (only those that exist there). */
  const filesAt = async (c: PullRequestCase, ref: string) => {
    const files: Record<string, string> = {};
    for (const file of c.files) {
      const text = await github.fileAt(c.repo.fullName, `${c.directory}/${file}`, ref);
      if (text !== undefined) files[file] = text;
    }
    return files;
  };
  /** The case's dependency as its ecosystem reads it at `ref`. */
  const useAt = async (c: PullRequestCase, ref: string) => requireEcosystem(c.packageManager).findDependency(await filesAt(c, ref), c.name);
  /** Polls the case's jobs until one matches `where`. */
  const jobWhere = (c: PullRequestCase, where: (job: Job) => boolean, timeoutMs: number) =>
    waitFor(async () => (await api.jobs(`dependency-name=${encodeURIComponent(c.name)}`)).find(where), timeoutMs, 250);
  /** The case's job whose pull request its notification test opened. @throws Error when that test did not get one */
  const openedJob = (directory: string) => {
    const job = opened.get(directory);
    if (!job) throw new Error(`the ${directory} case has no open pull request (see its test above)`);
    return job;
  };

  beforeAll(async () => {
    // The worker's loops (scheduler, pull-request maintenance) look every second, so a webhook's effect shows within the
    // tests' patience.
    ({
      gateway: gatewayUrl,
      codeHost: codeHostUrl,
      registry: registryUrl,
    } = await startLauncherWithEmulators(processes, {
      PULL_REQUESTS: 'on',
      SCHEDULER_INTERVAL_MS: '1000',
    }));

    // One commit of the fixtures per repository, as alice.
    for (const repo of [STOREFRONT, PIPELINE]) {
      const files: Record<string, string> = {};
      for (const c of CASES.filter((each) => each.repo === repo)) {
        for (const file of c.files) files[`${c.directory}/${file}`] = readFileSync(new URL(`${c.directory}/${file}`, fixtures), 'utf8');
      }
      await commitAsAlice(repo.fullName, 'main', files, 'Add the command line tools');
    }
    // data-pipeline runs checks: a status on its main branch's head.
    const pipelineHead = await codeHost().getBranchHead?.(ALICE, refOf(PIPELINE.fullName), 'main');
    await github.call('POST', `/repos/${PIPELINE.fullName}/statuses/${pipelineHead}`, { state: 'success', context: 'ci' });
    // click 8.1.8 with what it declares (https://pypi.org/project/click/8.1.8/: importlib-metadata below Python 3.8).
    const published = await fetch(`${registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        packageManager: 'pip',
        name: 'click',
        version: '8.1.8',
        dependencies: { 'importlib-metadata': '; python_version < "3.8"' },
      }),
    });
    expect(published.status, await published.text()).toBe(201);

    for (const c of CASES) {
      const config = await api.createConfig({
        'repo-id': c.repo.id,
        'account-id': ACME,
        'account-type': 'org',
        directory: `/${c.directory}`,
        // Monthly: no scheduled run falls within the suite's minutes to add jobs of its own.
        'update-schedule': 'monthly',
        'package-manager': c.packageManager,
        ...(c.automerge ? { 'automerge-rule-runtime-deps': 'all' } : {}),
      });
      configs.set(c.directory, config);
    }
  }, LAUNCHER_READY_MS + 60_000);
  afterAll(() => processes.disposeAsync());

  describe('a release notification opens a pull request with the manifest and the lockfile moved to the release', () => {
    for (const c of CASES) {
      it(`${c.packageManager} in /${c.directory}: ${c.name} ${c.from} → ${c.to}`, async () => {
        const { id, done } = await api.notifyAndFinish({ name: c.name, version: c.to, 'package-manager': c.packageManager });
        expect(done, JSON.stringify(done.outcomes)).toMatchObject({ status: 'done', 'jobs-recorded': 1 });
        const job = await waitFor(async () => {
          const [found] = await api.jobs(`notification-id=${id}`);
          return found && !['pending', 'running', 'queued-limit'].includes(found.attributes.status) ? found : undefined;
        }, OPENED_WITHIN_MS);
        expect(job.attributes.status, `${c.packageManager}: ${job.attributes['status-reason']}`).toBe('open');
        expect(job.attributes).toMatchObject({
          'dependency-name': c.name,
          'version-in-use': c.from,
          'target-version': c.to,
          directory: `/${c.directory}`,
          automerge: c.automerge,
          'target-branch': 'main',
        });
        opened.set(c.directory, job);

        const number = job.attributes['pull-request-number'];
        const pull = (await github.call('GET', `/repos/${c.repo.fullName}/pulls/${number}`)).body;
        expect(pull).toMatchObject({
          state: 'open',
          title: `Bump ${c.name} from ${c.from} to ${c.to} in /${c.directory}`,
          head: { ref: branchOf(c) },
          base: { ref: 'main' },
        });
        expect(job.attributes['pull-request-url']).toBe(pull.html_url);

        // The head branch holds the release in the manifest's requirement and in the lockfile; main still the old one.
        const ecosystem = requireEcosystem(c.packageManager);
        const [atHead, atMain] = [await filesAt(c, pull.head.ref), await filesAt(c, 'main')];
        expect(c.files.filter((file) => atHead[file] !== atMain[file])).toEqual(c.changed);
        const use = ecosystem.findDependency(atHead, c.name);
        expect(use, `${c.name} in ${c.directory} at ${pull.head.ref}`).toBeDefined();
        expect(use?.version).toBe(c.to);
        expect(use?.requirement, 'the manifest states a requirement').toBeTruthy();
        expect(ecosystem.versions.satisfies(c.to, use?.requirement as string), `${use?.requirement} allows ${c.to}`).toBe(true);
        expect(ecosystem.findDependency(atMain, c.name)?.version).toBe(c.from);

        // The notification lists the pull request it caused.
        const notification = await api.send('GET', `/release_notifications/${id}`);
        expect(notification.body.data.attributes['pull-requests']).toEqual([
          {
            'repo-id': String(c.repo.id),
            'update-config-id': configs.get(c.directory)?.id,
            'pull-request-job-id': job.id,
            status: 'open',
            'pull-request-number': number,
            'pull-request-url': pull.html_url,
          },
        ]);
      });
    }
  });

  describe('open pull requests are kept current from the code host webhooks, through the gateway', () => {
    it('a pull request merged by hand: its job becomes merged, and main holds the release', async () => {
      const c = caseOf('maven');
      const job = openedJob('maven');
      const merged = await github.call('PUT', `/repos/${c.repo.fullName}/pulls/${job.attributes['pull-request-number']}/merge`, {
        merge_method: 'merge',
      });
      expect(merged.body).toMatchObject({ merged: true });
      const after = await jobWhere(c, (j) => j.id === job.id && j.attributes.status !== 'open', WEBHOOK_EFFECT_WITHIN_MS);
      expect(after.attributes.status).toBe('merged');
      expect(after.attributes['status-reason']).toMatch(/^merged on the code host/);
      expect((await useAt(c, 'main'))?.version).toBe(c.to);
    });

    it("an automerge pull request in a repository that runs checks waits for its head's checks, and is merged once they pass", async () => {
      const c = caseOf('cargo');
      const job = openedJob('cargo');
      const number = job.attributes['pull-request-number'];
      const head = (await github.call('GET', `/repos/${c.repo.fullName}/pulls/${number}`)).body.head.sha as string;
      const current = async () => (await jobWhere(c, (j) => j.id === job.id, 10_000)).attributes;
      // main's head has a status and the pull request's head none yet: its checks are still to come.
      await pause(2_000);
      expect(await current()).toMatchObject({ status: 'open', 'status-reason': null });
      await github.call('POST', `/repos/${c.repo.fullName}/statuses/${head}`, { state: 'pending', context: 'ci' });
      await pause(2_000);
      expect(await current()).toMatchObject({ status: 'open', 'status-reason': null });
      await github.call('POST', `/repos/${c.repo.fullName}/statuses/${head}`, { state: 'success', context: 'ci' });
      const merged = await jobWhere(c, (j) => j.id === job.id && j.attributes.status !== 'open', WEBHOOK_EFFECT_WITHIN_MS);
      expect(merged.attributes).toMatchObject({ status: 'merged', 'status-reason': 'merged automatically: its checks passed' });
      expect((await github.call('GET', `/repos/${c.repo.fullName}/pulls/${number}`)).body).toMatchObject({ state: 'closed', merged: true });
      expect((await useAt(c, 'main'))?.version).toBe(c.to);
    });

    it('a push to the target branch rebases its open pull requests on the new head, keeping the release', async () => {
      const newMain = await commitAsAlice(
        STOREFRONT.fullName,
        'main',
        { 'docs/releasing.md': '# Releasing\n\nTag main.\n' },
        'Document releasing',
      );
      const open = CASES.filter((c) => c.repo === STOREFRONT && opened.has(c.directory) && c.directory !== 'maven');
      expect(open.length, 'open pull requests on web-storefront').toBeGreaterThan(0);
      for (const c of open) {
        const job = openedJob(c.directory);
        const rebased = await jobWhere(
          c,
          (j) =>
            j.id === job.id && (j.attributes.status !== 'open' || j.attributes['status-reason'] === `rebased on ${newMain.slice(0, 7)}`),
          WEBHOOK_EFFECT_WITHIN_MS,
        );
        expect(rebased.attributes, c.directory).toMatchObject({ status: 'open', 'status-reason': `rebased on ${newMain.slice(0, 7)}` });
        const pull = (await github.call('GET', `/repos/${c.repo.fullName}/pulls/${job.attributes['pull-request-number']}`)).body;
        const commit = (await github.call('GET', `/repos/${c.repo.fullName}/git/commits/${pull.head.sha}`)).body;
        expect(
          commit.parents.map((p: { sha: string }) => p.sha),
          c.directory,
        ).toEqual([newMain]);
        expect(await github.fileAt(c.repo.fullName, 'docs/releasing.md', pull.head.ref)).toBe('# Releasing\n\nTag main.\n');
        expect((await useAt(c, pull.head.ref))?.version, c.directory).toBe(c.to);
      }
    });
  });

  it('the same notification again opens no second pull request', async () => {
    const c = caseOf('bundler');
    const job = openedJob('bundler');
    const { id, done } = await api.notifyAndFinish({ name: c.name, version: c.to, 'package-manager': c.packageManager });
    expect(done.status).toBe('done');
    // Give a second job, had one been recorded, the time to open its pull request.
    await pause(3_000);
    const jobs = await api.jobs(`dependency-name=${encodeURIComponent(c.name)}`);
    expect(jobs.map((j) => [j.id, j.attributes.status])).toEqual([[job.id, 'open']]);
    const pulls = (await github.call('GET', `/repos/${c.repo.fullName}/pulls?state=all&head=acme:${encodeURIComponent(branchOf(c))}`)).body;
    expect(pulls.map((p: { number: number }) => p.number)).toEqual([job.attributes['pull-request-number']]);
    const notification = (await api.send('GET', `/release_notifications/${id}`)).body.data.attributes;
    for (const listed of notification['pull-requests']) expect(listed['pull-request-number']).toBe(job.attributes['pull-request-number']);
  });
});
