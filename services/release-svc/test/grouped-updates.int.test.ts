import { DEFAULT_UPDATE_CONFIG_SETTINGS, GroupRule, type PullRequestJobResource, UpdateRunResource } from '@switchyard/contracts';
import { requireEcosystem } from '@switchyard/ecosystems';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

type Job = PullRequestJobResource;
type Pull = { number: number; state: string; title: string; body: string; head: { ref: string }; merged_at: string | null };

/** acme/web-storefront's config with two groups: the React packages, and the development dependencies. */
const GROUPS = [
  GroupRule.parse({ name: 'react', patterns: ['react*'] }),
  GroupRule.parse({ name: 'dev-dependencies', dependencyType: 'development', updateTypes: ['major'] }),
];

// Grouped updates (dependabot.yml `groups`, or the API config's): one pull request per group, one consistent lockfile.
describe('grouped updates: one pull request for a group, with one lockfile change', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('grouped_updates', { workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' } });
    await h.configure({ id: 701, repoId: 3101, settings: { ...DEFAULT_UPDATE_CONFIG_SETTINGS, groups: GROUPS } });
  });
  afterAll(() => h?.close());

  const as = { authorization: `Personal ${ALICE}` };
  const github = async <T>(path: string): Promise<T> =>
    (await (
      await fetch(`${h.codeHostUrl}${path}`, { headers: { authorization: `token ${BOT}`, accept: 'application/vnd.github+json' } })
    ).json()) as T;
  const fileAt = async (ref: string, path: string) =>
    Buffer.from((await github<{ content: string }>(`/repos/acme/web-storefront/contents/${path}?ref=${ref}`)).content, 'base64').toString(
      'utf8',
    );
  const runOf = async (id: string) =>
    waitFor(async () => {
      const run = UpdateRunResource.parse((await request(h.releaseUrl, 'GET', `/update_runs/${id}`, { headers: as })).body.data);
      return run.attributes.status === 'done' || run.attributes.status === 'failed' ? run : undefined;
    }, 30_000);
  const jobsOf = async (filter: string): Promise<Job[]> =>
    (await request(h.releaseUrl, 'GET', `/pull_request_jobs?repo-id=3101&${filter}`, { headers: as })).body.data;
  const settled = (filter: string, match: (job: Job) => boolean) =>
    waitFor(
      async () => (await jobsOf(filter)).find((job) => match(job) && !['pending', 'running'].includes(job.attributes.status)),
      30_000,
    );
  let first: Job;

  it('a run opens one pull request per group: every update of the group in it, the manifest and lockfile agreeing', async () => {
    const bumped = await request(h.releaseUrl, 'POST', '/update_configs/701/trigger_update_job', { headers: as });
    expect(bumped.status).toBe(202);
    const run = await runOf(bumped.body.data.id);
    expect(run.attributes.status).toBe('done');
    const byName = new Map(run.attributes.dependencies.map((d) => [d.name, d]));
    // react and react-dom go to the react group, the development majors to dev-dependencies; the others alone.
    expect(byName.get('react')).toMatchObject({ group: 'react', outcome: 'job-recorded', 'latest-allowed-version': '18.3.1' });
    expect(byName.get('react-dom')).toMatchObject({ group: 'react', outcome: 'job-recorded' });
    expect(byName.get('react')?.['pull-request-job-id']).toBe(byName.get('react-dom')?.['pull-request-job-id']);
    expect(byName.get('jest')).toMatchObject({ group: 'dev-dependencies' });
    expect(byName.get('typescript')).toMatchObject({ group: 'dev-dependencies' });
    expect(byName.get('lodash')).toMatchObject({ group: null, outcome: 'job-recorded' });
    // One job per group and per lone dependency: the group counts once towards the first run's limit of 5.
    expect(run.attributes['jobs-recorded']).toBe(4);

    first = await settled('dependency-name=react', (job) => job.attributes.group !== null);
    expect(first.attributes['status-reason']).toBeNull();
    expect(first.attributes).toMatchObject({
      status: 'open',
      'dependency-name': 'react',
      'update-kind': 'major',
      group: {
        name: 'react',
        updates: [
          { 'dependency-name': 'react', 'version-in-use': '16.13.1', 'target-version': '18.3.1', 'update-kind': 'major' },
          { 'dependency-name': 'react-dom', 'version-in-use': '16.13.1', 'target-version': '18.3.1', 'update-kind': 'major' },
        ],
      },
    });
    expect(first.attributes['target-version']).toMatch(/^[0-9a-f]{10}$/);
    const pull = await github<Pull>(`/repos/acme/web-storefront/pulls/${first.attributes['pull-request-number']}`);
    expect(pull.title).toBe('Bump the react group with 2 updates');
    expect(pull.head.ref).toBe(`dependabot/npm_and_yarn/react-${first.attributes['target-version']}`);
    expect(pull.body).toContain(
      'Bumps the react group with 2 updates: [react](https://github.com/facebook/react) and [react-dom](https://github.com/facebook/react).',
    );
    expect(pull.body).toContain('Updates `react-dom` from 16.13.1 to 18.3.1');
    expect(pull.body).not.toContain('@dependabot ignore this');

    // One commit holds both updates, and package-lock.json agrees with package.json for each.
    const files = {
      'package.json': await fileAt(pull.head.ref, 'package.json'),
      'package-lock.json': await fileAt(pull.head.ref, 'package-lock.json'),
    };
    const npm = requireEcosystem('npm_and_yarn');
    for (const name of ['react', 'react-dom']) expect(npm.findDependency(files, name)).toMatchObject({ version: '18.3.1' });
    expect(npm.findDependency(files, 'lodash')).toMatchObject({ version: '4.17.15' });
    const lock = JSON.parse(files['package-lock.json']) as { packages: Record<string, { version: string; integrity?: string }> };
    expect(lock.packages['node_modules/react']).toMatchObject({ version: '18.3.1', integrity: expect.stringMatching(/^sha512-/) });
    expect(lock.packages['node_modules/react-dom']).toMatchObject({ version: '18.3.1', integrity: expect.stringMatching(/^sha512-/) });
    // One commit on the target branch's head holds them.
    const head = await github<{ commit: { sha: string } }>(`/repos/acme/web-storefront/branches/${pull.head.ref}`);
    const main = await github<{ commit: { sha: string } }>('/repos/acme/web-storefront/branches/main');
    const commit = await github<{ parents: Array<{ sha: string }> }>(`/repos/acme/web-storefront/git/commits/${head.commit.sha}`);
    expect(commit.parents.map((p) => p.sha)).toEqual([main.commit.sha]);

    const dev = await settled('dependency-name=dev-dependencies', (job) => job.attributes.group !== null);
    expect(dev.attributes.group?.updates.map((u) => u['dependency-name'])).toEqual(['jest', 'typescript']);
    const devPull = await github<Pull>(`/repos/acme/web-storefront/pulls/${dev.attributes['pull-request-number']}`);
    expect(devPull.title).toBe('Bump the dev-dependencies group with 2 updates');
  });

  it('a run that finds the same updates records no second job: the group pull request is open', async () => {
    const bumped = await request(h.releaseUrl, 'POST', '/update_configs/701/trigger_update_job', { headers: as });
    const run = await runOf(bumped.body.data.id);
    const react = run.attributes.dependencies.find((d) => d.name === 'react');
    expect(react).toMatchObject({ outcome: 'pr-open', group: 'react', 'pull-request-job-id': first.id });
    expect(react?.reason).toContain(`the react group's job: pull request #${first.attributes['pull-request-number']}`);
    expect((await jobsOf('dependency-name=react')).filter((job) => job.attributes.group !== null)).toHaveLength(1);
  });

  it("a release of a grouped dependency makes the group's pull request again with it, which supersedes the old one as a whole", async () => {
    const published = await fetch(`${h.registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'npm_and_yarn', name: 'react-dom', version: '18.3.2' }),
    });
    expect(published.status).toBe(201);
    await h.notifyAndWait('react-dom', '18.3.2', 'npm_and_yarn');
    // The notification's run decided react-dom into the group and asked for a run of every dependency, which made the job.
    const runs = UpdateRunResource.array().parse(
      (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=701', { headers: as })).body.data,
    );
    const noted = runs.find((run) =>
      run.attributes.dependencies.some((d) => d.name === 'react-dom' && d.reason.includes('in the react group: run ')),
    );
    expect(noted?.attributes.trigger).toBe('notification');

    const second = await settled('dependency-name=react', (job) => job.attributes.group !== null && job.id !== first.id);
    expect(second.attributes.status).toBe('open');
    expect(second.attributes.group?.updates).toEqual([
      expect.objectContaining({ 'dependency-name': 'react', 'target-version': '18.3.1' }),
      expect.objectContaining({ 'dependency-name': 'react-dom', 'target-version': '18.3.2' }),
    ]);
    const old = await waitFor(async () => {
      const job = (await jobsOf('dependency-name=react')).find((j) => j.id === first.id);
      return job?.attributes.status === 'superseded' ? job : undefined;
    }, 20_000);
    expect(old.attributes['status-reason']).toBe(`superseded by #${second.attributes['pull-request-number']} (the react group)`);
    const closed = await github<Pull>(`/repos/acme/web-storefront/pulls/${first.attributes['pull-request-number']}`);
    expect(closed).toMatchObject({ state: 'closed', merged_at: null });
    const comments = await github<Array<{ body: string }>>(
      `/repos/acme/web-storefront/issues/${first.attributes['pull-request-number']}/comments`,
    );
    expect(comments.map((c) => c.body)).toContain(`Superseded by #${second.attributes['pull-request-number']}.`);
  });
});

/** How long a test waits for the worker's loops and the webhooks (within a second idle, several beside the suite). */
const SETTLE_MS = 45_000;

describe('a group pull request is rebased, automerged, limited and closed as a whole', { timeout: SETTLE_MS + 15_000 }, () => {
  let h: ReleaseHarness;
  const as = { authorization: `Personal ${ALICE}` };
  beforeAll(async () => {
    h = await startReleaseHarness('grouped_maintenance', {
      webhooks: true,
      workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' },
    });
  });
  afterAll(() => h?.close());

  const settings = (groups: GroupRule[], more: Partial<typeof DEFAULT_UPDATE_CONFIG_SETTINGS> = {}) => ({
    ...DEFAULT_UPDATE_CONFIG_SETTINGS,
    groups,
    ...more,
  });
  const github = async <T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> => {
    const res = await fetch(`${h.codeHostUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `token ${init.token ?? BOT}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    expect(res.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
  const fileAt = async (repo: string, path: string, ref: string) =>
    Buffer.from((await github<{ content: string }>(`/repos/${repo}/contents/${path}?ref=${ref}`)).content, 'base64').toString('utf8');
  const headOf = async (repo: string, branch: string) =>
    (await github<{ commit: { sha: string } }>(`/repos/${repo}/branches/${branch}`)).commit.sha;
  const bumpNow = async (configId: number) => {
    const res = await request(h.releaseUrl, 'POST', `/update_configs/${configId}/trigger_update_job`, { headers: as });
    expect(res.status).toBe(202);
    return waitFor(async () => {
      const run = UpdateRunResource.parse(
        (await request(h.releaseUrl, 'GET', `/update_runs/${res.body.data.id}`, { headers: as })).body.data,
      );
      return run.attributes.status === 'done' ? run : undefined;
    }, SETTLE_MS);
  };
  const groupJob = (repoId: number, group: string, where: (job: Job) => boolean) =>
    waitFor(async () => {
      const jobs: Job[] = (
        await request(h.releaseUrl, 'GET', `/pull_request_jobs?repo-id=${repoId}&dependency-name=${group}`, { headers: as })
      ).body.data;
      return jobs.find((job) => job.attributes.group !== null && where(job));
    }, SETTLE_MS);

  it('merges a group whose every update the automerge rules allow, all its updates in one commit on the target branch', async () => {
    await h.configure({
      id: 711,
      repoId: 3103,
      packageManager: 'pip',
      automergeRuntime: 'all',
      settings: settings([GroupRule.parse({ name: 'science', patterns: ['numpy', 'pandas'] })]),
    });
    await bumpNow(711);
    const job = await groupJob(3103, 'science', (j) => j.attributes.status === 'merged');
    expect(job.attributes).toMatchObject({ automerge: true, 'status-reason': 'merged automatically: its checks passed' });
    const targets = Object.fromEntries((job.attributes.group?.updates ?? []).map((u) => [u['dependency-name'], u['target-version']]));
    expect(Object.keys(targets)).toEqual(['numpy', 'pandas']);
    const requirements = await fileAt('acme/data-pipeline', 'requirements.txt', 'main');
    expect(requirements).toContain(`numpy==${targets.numpy}\n`);
    expect(requirements).toContain(`pandas==${targets.pandas}\n`);
  });

  it("rebases a group's pull request as a whole when its target branch moves, and a person's close ignores those updates together", async () => {
    await h.configure({ id: 712, repoId: 3201, packageManager: 'pip', settings: settings([GroupRule.parse({ name: 'web' })]) });
    await bumpNow(712);
    const job = await groupJob(3201, 'web', (j) => j.attributes.status === 'open');
    const number = job.attributes['pull-request-number'] as number;
    const branch = `dependabot/pip/web-${job.attributes['target-version']}`;
    const before = await fileAt('globex/analytics', 'requirements.txt', branch);

    // Someone changes main: the group's one commit is made again on the new head, with every update.
    const main = await headOf('globex/analytics', 'main');
    await github('/repos/globex/analytics/contents/NOTES.md', {
      method: 'PUT',
      body: { message: 'Add notes', content: Buffer.from('notes\n').toString('base64'), branch: 'main' },
    });
    const moved = await headOf('globex/analytics', 'main');
    expect(moved).not.toBe(main);
    await waitFor(async () => {
      const head = await headOf('globex/analytics', branch);
      const commit = await github<{ parents: Array<{ sha: string }> }>(`/repos/globex/analytics/git/commits/${head}`);
      return commit.parents[0]?.sha === moved ? true : undefined;
    }, SETTLE_MS);
    expect(await fileAt('globex/analytics', 'requirements.txt', branch)).toBe(before);
    // flask's update fixes an advisory (no security-updates group takes it): sqlalchemy is the group's one update.
    const pull = await github<Pull>(`/repos/globex/analytics/pulls/${number}`);
    const [only] = job.attributes.group?.updates ?? [];
    expect(pull.title).toBe(`Bump sqlalchemy from 1.3.17 to ${only?.['target-version']} in the web group`);

    // A person closes it: the group's updates are not proposed again together, and no dependency is ignored.
    await github(`/repos/globex/analytics/pulls/${number}`, { method: 'PATCH', body: { state: 'closed' }, token: ALICE });
    const closed = await groupJob(3201, 'web', (j) => j.id === job.id && j.attributes.status === 'closed');
    expect(closed.attributes['status-reason']).toContain('closed unmerged on the code host');
    const ignores = await h.db.selectFrom('config_ignore').selectAll().where('update_config_id', '=', 712).execute();
    expect(ignores).toEqual([]);
    const again = await bumpNow(712);
    const sqlalchemy = again.attributes.dependencies.find((d) => d.name === 'sqlalchemy');
    expect(sqlalchemy).toMatchObject({ group: 'web', outcome: 'skipped' });
    expect(sqlalchemy?.reason).toContain(`ignored: pull request #${number}`);
  });

  it("counts a group's pull request once towards the open pull-request limit: the next group waits", async () => {
    await h.configure({
      id: 713,
      repoId: 3102,
      packageManager: 'bundler',
      settings: settings([GroupRule.parse({ name: 'web', patterns: ['puma'] }), GroupRule.parse({ name: 'xml', patterns: ['stripe'] })], {
        // Only these two are updated (allow rules), and rails, whose update fixes an advisory: three pull requests.
        openPullRequestsLimit: 2,
        allow: [{ dependencyName: 'puma' }, { dependencyName: 'stripe' }],
      }),
    });
    await bumpNow(713);
    const web = await groupJob(3102, 'web', (j) => !['pending', 'running'].includes(j.attributes.status));
    const xml = await groupJob(3102, 'xml', (j) => !['pending', 'running'].includes(j.attributes.status));
    const statuses = [web.attributes.status, xml.attributes.status].sort();
    expect(statuses).toEqual(['open', 'queued-limit']);
    const waiting = web.attributes.status === 'queued-limit' ? web : xml;
    expect(waiting.attributes['status-reason']).toBe("the config has 2 open pull requests, the config's open-pull-requests-limit is 2");
  });
  it('a group made later replaces the open pull requests of one dependency each that its pull request updates too', async () => {
    await h.configure({ id: 714, repoId: 3101 });
    await bumpNow(714);
    const single = await waitFor(async () => {
      const jobs: Job[] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3101&dependency-name=react-dom', { headers: as }))
        .body.data;
      return jobs.find((job) => job.attributes.group === null && job.attributes.status === 'open');
    }, SETTLE_MS);
    await h.configure({
      id: 714,
      repoId: 3101,
      revision: 2,
      settings: settings([GroupRule.parse({ name: 'ui', patterns: ['react*'] })]),
    });
    await bumpNow(714);
    const group = await groupJob(3101, 'ui', (j) => j.attributes.status === 'open');
    expect(group.attributes.group?.updates.map((u) => u['dependency-name'])).toEqual(['react', 'react-dom']);
    const replaced = await waitFor(async () => {
      const jobs: Job[] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3101&dependency-name=react-dom', { headers: as }))
        .body.data;
      return jobs.find((job) => job.id === single.id && job.attributes.status === 'superseded');
    }, SETTLE_MS);
    expect(replaced.attributes['status-reason']).toBe(
      `superseded by #${group.attributes['pull-request-number']} (the ui group, which updates react-dom too)`,
    );
    const pull = await github<Pull>(`/repos/acme/web-storefront/pulls/${single.attributes['pull-request-number']}`);
    expect(pull.state).toBe('closed');
  });
});
