import { createGitHubCodeHost } from '@switchyard/code-host';
import { UpdateRunResource } from '@switchyard/contracts';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

// Ranges that move: acme/data-pipeline's requirements.txt (no lockfile) says `Django>=2.2,<3.0` while the registry
// emulator lists 4.2.16. The version in use is what the range installs today (2.2.28), the run says so, and the pull
// request moves the range: increased in the application, widened in a library (`lib/`, with a pyproject.toml [project]).

type RunAttributes = UpdateRunResource['attributes'];

interface Job {
  id: string;
  attributes: Record<string, unknown> & { status: string; 'pull-request-number': number | null; 'status-reason': string | null };
  relationships: { 'update-config': { data: { id: string } } };
}

describe('a range without a lockfile: the version in use resolved from the registry, the requirement moved', { timeout: 60_000 }, () => {
  let h: ReleaseHarness;
  const as = { authorization: `Personal ${ALICE}` };
  const github = async (path: string) => {
    const res = await fetch(`${h.codeHostUrl}${path}`, {
      headers: { authorization: `token ${BOT}`, accept: 'application/vnd.github+json' },
    });
    expect(res.status, `GET ${path}`).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const fileAt = async (path: string, ref: string) =>
    Buffer.from(
      ((await github(`/repos/acme/data-pipeline/contents/${path}?ref=${ref}`)) as { content: string }).content,
      'base64',
    ).toString('utf8');
  const finished = (id: string) =>
    waitFor(async () => {
      const run = UpdateRunResource.parse((await request(h.releaseUrl, 'GET', `/update_runs/${id}`, { headers: as })).body.data);
      return run.attributes.status === 'done' || run.attributes.status === 'failed' ? run.attributes : undefined;
    }, 20_000);
  const dependency = (run: RunAttributes, name: string) => run.dependencies.find((d) => d.name === name);
  /** The Django job of `configId` once its pull request is open (or the job has settled otherwise). */
  const openedJob = (configId: number) =>
    waitFor(async () => {
      const jobs = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3103&dependency-name=Django', { headers: as })).body
        .data as Job[];
      const job = jobs.find((j) => j.relationships['update-config'].data.id === String(configId));
      return job && !['pending', 'running'].includes(job.attributes.status) ? job : undefined;
    }, 30_000);
  const pullOf = async (job: Job) =>
    (await github(`/repos/acme/data-pipeline/pulls/${job.attributes['pull-request-number']}`)) as { title: string; head: { ref: string } };

  beforeAll(async () => {
    h = await startReleaseHarness('ranges', { workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' } });
    // A library beside the application: lib/ declares a package to publish ([project]) and the same range.
    const host = createGitHubCodeHost({ baseUrl: h.codeHostUrl, userAgent: 'test', throttle: false, logger: h.logger });
    const repo = { owner: 'acme', name: 'data-pipeline' };
    const head = (await host.getBranchHead?.(BOT, repo, 'main')) ?? '';
    await host.commitFiles?.(BOT, repo, {
      branch: 'main',
      parentSha: head,
      message: 'Add the pipeline library',
      files: {
        'lib/requirements.txt': 'Django>=2.2,<3.0\n',
        'lib/pyproject.toml': '[project]\nname = "acme-pipeline"\nversion = "0.1.0"\ndynamic = ["dependencies"]\n',
      },
    });
    await h.configure({ id: 801, repoId: 3103, packageManager: 'pip' });
    await h.configure({ id: 802, repoId: 3103, packageManager: 'pip', directory: '/lib' });
  });
  afterAll(() => h?.close());

  it('a run records a job for Django from the version its range installs, and the pull request increases the range', async () => {
    const started = await request(h.releaseUrl, 'POST', '/update_configs/801/trigger_update_job', { headers: as });
    expect(started.status).toBe(202);
    const run = await finished(UpdateRunResource.parse(started.body.data).id);
    expect(run.status).toBe('done');
    expect(dependency(run, 'Django')).toMatchObject({
      requirement: '>=2.2,<3.0',
      'version-in-use': '2.2.28',
      'latest-version': '4.2.16',
      'latest-allowed-version': '4.2.16',
      outcome: 'job-recorded',
    });
    expect(dependency(run, 'Django')?.reason).toContain("version in use 2.2.28 resolved from '>=2.2,<3.0'");
    // A pinned dependency's version is still the one read: nothing is resolved for it.
    expect(dependency(run, 'requests')).toMatchObject({ 'version-in-use': '2.23.0', outcome: 'job-recorded' });
    expect(dependency(run, 'requests')?.reason).not.toContain('resolved');

    const job = await openedJob(801);
    expect(job.attributes['status-reason']).toBeNull();
    expect(job.attributes).toMatchObject({ status: 'open', 'version-in-use': '2.2.28', 'target-version': '4.2.16' });
    const pull = await pullOf(job);
    expect(pull.title).toBe('Bump Django from 2.2.28 to 4.2.16');
    // An application: the range is increased to the new version (its lower bound too).
    expect(await fileAt('requirements.txt', pull.head.ref)).toBe('requests==2.23.0\nnumpy==1.18.5\npandas==1.0.4\nDjango>=4.2.16,<5.0\n');
  });

  it("a library's range is widened to keep the versions it allowed: a notification's run decides against the resolved version", async () => {
    const notificationId = await h.notifyAndWait('Django', '4.2.16', 'pip');
    const runs = (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=802', { headers: as })).body.data;
    const run = UpdateRunResource.parse(runs[0]);
    expect(run.relationships['release-notification'].data?.id).toBe(notificationId);
    expect(run.attributes.dependencies[0]).toMatchObject({ name: 'Django', 'version-in-use': '2.2.28', outcome: 'job-recorded' });
    expect(run.attributes.dependencies[0]?.reason).toContain('resolved from');

    const job = await openedJob(802);
    expect(job.attributes['status-reason']).toBeNull();
    expect(job.attributes).toMatchObject({ status: 'open', 'version-in-use': '2.2.28', 'target-version': '4.2.16' });
    const pull = await pullOf(job);
    expect(pull.title).toBe('Bump Django from 2.2.28 to 4.2.16 in /lib');
    expect(await fileAt('lib/requirements.txt', pull.head.ref)).toBe('Django>=2.2,<5.0\n');
  });
});
