import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGitHubCodeHost, personalToken } from '@switchyard/code-host';
import { requireEcosystem } from '@switchyard/ecosystems';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullRequestJobRow } from '../src/jobs/job.table.ts';
import { BASE_FRESH_MS, executeJob, JobBusyError, resumeStalledJobs } from '../src/pipeline/deliver/pull-request.service.ts';
import { readTargetFiles } from '../src/pipeline/read/manifest-files.service.ts';
import { readableTarget } from '../src/pipeline/read/target.policy.ts';
import { RegistryAccess } from '../src/pipeline/resolve/registry-access.client.ts';
import { findScanTargets } from '../src/read-model/read-model.repository.ts';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

describe('pull-request jobs become branches, commits and pull requests on the code host', () => {
  let h: ReleaseHarness;
  beforeAll(async () => {
    h = await startReleaseHarness('pull_requests', { workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' } });
    await h.configure({ id: 301, repoId: 3103, packageManager: 'pip' });
    await h.configure({ id: 302, repoId: 3101 });
  });
  afterAll(() => h?.close());

  const as = { authorization: `Personal ${ALICE}` };
  const github = (path: string) =>
    fetch(`${h.codeHostUrl}${path}`, { headers: { authorization: `token ${BOT}`, accept: 'application/vnd.github+json' } });
  const notify = (name: string, version: string, packageManager: string) => h.notifyAndWait(name, version, packageManager);
  const settledJob = (notificationId: string) =>
    waitFor(async () => {
      const [job] = (await request(h.releaseUrl, 'GET', `/pull_request_jobs?notification-id=${notificationId}`, { headers: as })).body.data;
      return job && !['pending', 'running'].includes(job.attributes.status) ? job : undefined;
    }, 20_000);

  /** The executor's dependencies as a worker has them, on the harness (`leaseMs` when given); close `registries` after. */
  const executor = (leaseMs?: number) => {
    const codeHost = createGitHubCodeHost({ baseUrl: h.codeHostUrl, userAgent: 'test', throttle: false, logger: h.logger });
    const registries = new RegistryAccess({ publicUrls: h.releaseConfig.REGISTRY_URLS, timeoutMs: 5_000 });
    return {
      codeHost,
      registries,
      deps: { db: h.db, codeHost, tokens: personalToken(BOT), registries, logger: h.logger, ...(leaseMs ? { leaseMs } : {}) },
    };
  };
  /**
   * Records a `pending` job like `model` (its row with `changes`), with no pull request, branch or commit yet, and
   * without its event (no delivery comes for it): its id.
   */
  const insertPendingLike = async (model: PullRequestJobRow, changes: Partial<PullRequestJobRow>): Promise<number> => {
    const { id: _id, created_at: _c, status_changed_at: _s, claimed_by: _b, claimed_at: _a, ...fields } = model;
    const { id } = await h.db
      .insertInto('pull_request_job')
      .values({
        ...fields,
        status: 'pending',
        status_reason: null,
        pull_request_number: null,
        pull_request_url: null,
        pull_request_node_id: null,
        maintain_at: null,
        waits_for_job_id: null,
        branch: null,
        head_sha: null,
        base_sha: null,
        ...changes,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  };

  it('opens the pull request of a job: its branch, one commit with the requirement rewritten, title, body and labels', async () => {
    const notificationId = await notify('requests', '2.31.0', 'pip');
    const job = await settledJob(notificationId);
    expect(job.attributes['status-reason']).toBeNull();
    expect(job.attributes).toMatchObject({ status: 'open', 'target-version': '2.32.3', 'pull-request-number': expect.any(Number) });
    const number = job.attributes['pull-request-number'] as number;
    const pull = (await (await github(`/repos/acme/data-pipeline/pulls/${number}`)).json()) as {
      body: string;
      html_url: string;
      labels: Array<{ name: string }>;
    };
    expect(pull).toMatchObject({
      state: 'open',
      title: '[Security] Bump requests from 2.23.0 to 2.32.3',
      head: { ref: 'dependabot/pip/requests-2.32.3' },
      base: { ref: 'main' },
    });
    expect(pull.body).toContain('Bumps');
    expect((pull.labels as Array<{ name: string }>).map((l) => l.name)).toEqual(expect.arrayContaining(['dependencies', 'python']));
    expect(job.attributes['pull-request-url']).toBe(pull.html_url);
    const file = await github('/repos/acme/data-pipeline/contents/requirements.txt?ref=dependabot/pip/requests-2.32.3');
    const text = Buffer.from(((await file.json()) as { content: string }).content, 'base64').toString('utf8');
    expect(text).toBe('requests==2.32.3\nnumpy==1.18.5\npandas==1.0.4\nDjango>=2.2,<3.0\n');
    // The notification links the pull request it caused.
    const notification = (await request(h.releaseUrl, 'GET', `/release_notifications/${notificationId}`, { headers: as })).body.data;
    expect(notification.attributes['pull-requests']).toEqual([
      {
        'repo-id': '3103',
        'update-config-id': '301',
        'pull-request-job-id': job.id,
        status: 'open',
        'pull-request-number': number,
        'pull-request-url': pull.html_url,
      },
    ]);
  });

  it('opens nothing more when a job is delivered again', async () => {
    const [job] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=requests&status=open', { headers: as })).body
      .data;
    await h.db.updateTable('pull_request_job').set({ status: 'pending' }).where('id', '=', Number(job.id)).execute();
    const { registries, deps } = executor();
    await executeJob(deps, Number(job.id), false);
    await registries.close();
    const pulls = (await (await github('/repos/acme/data-pipeline/pulls?state=all')).json()) as unknown[];
    expect(pulls).toHaveLength(1);
    const again = (await request(h.releaseUrl, 'GET', `/pull_request_jobs?dependency-name=requests`, { headers: as })).body.data[0];
    expect(again.attributes).toMatchObject({ status: 'open', 'pull-request-number': job.attributes['pull-request-number'] });
  });

  it('supersedes the open pull request of an older version: closed with a comment naming the new one', async () => {
    const [older] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=requests&status=open', { headers: as })).body
      .data;
    await fetch(`${h.registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'pip', name: 'requests', version: '2.33.0' }),
    });
    const job = await settledJob(await notify('requests', '2.33.0', 'pip'));
    expect(job.attributes).toMatchObject({ status: 'open', 'target-version': '2.33.0' });
    const number = job.attributes['pull-request-number'] as number;
    const before = await waitFor(async () => {
      const rows = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=requests', { headers: as })).body.data;
      return rows.find((r: { id: string }) => r.id === older.id);
    }, 5_000);
    expect(before.attributes).toMatchObject({ status: 'superseded', 'status-reason': `superseded by #${number} (requests 2.33.0)` });
    const closed = (await (await github(`/repos/acme/data-pipeline/pulls/${older.attributes['pull-request-number']}`)).json()) as Record<
      string,
      unknown
    >;
    expect(closed).toMatchObject({ state: 'closed', merged: false });
    const comments = (await (
      await github(`/repos/acme/data-pipeline/issues/${older.attributes['pull-request-number']}/comments`)
    ).json()) as Array<{
      body: string;
    }>;
    expect(comments.map((c) => c.body)).toContain(`Superseded by #${number}.`);
  });

  it('keeps a job waiting as queued-limit while the config has 5 open pull requests', async () => {
    const open = (n: number) => ({
      notification_id: null,
      update_run_id: null,
      update_config_id: 301,
      repo_id: 3103,
      account_id: 2001,
      package_manager: 'pip' as const,
      dependency_name: `placeholder-${n}`,
      dependency_type: 'runtime' as const,
      version_in_use: '1.0.0',
      target_version: '1.0.1',
      update_kind: 'patch' as const,
      automerge: false,
      security_fix: false,
      target_branch: 'main',
      directory: '/',
      status: 'open' as const,
    });
    await h.db.insertInto('pull_request_job').values([1, 2, 3, 4].map(open)).execute();
    const job = await settledJob(await notify('numpy', '1.19.0', 'pip'));
    expect(job.attributes).toMatchObject({ status: 'queued-limit', 'pull-request-number': null });
    expect(job.attributes['status-reason']).toContain('5 open pull requests');
    // One of them is merged: the waiting job goes at the next round (the harness's worker looks every 300 ms here).
    await h.db.updateTable('pull_request_job').set({ status: 'merged' }).where('dependency_name', '=', 'placeholder-1').execute();
    const opened = await waitFor(async () => {
      const [row] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=numpy', { headers: as })).body.data;
      return row.attributes.status === 'open' ? row : undefined;
    }, 10_000);
    expect(opened.attributes['pull-request-number']).toEqual(expect.any(Number));
  });

  it('carries out a job once when it is delivered several times at once: one branch, one pull request, the head recorded', async () => {
    const { registries, deps } = executor(2_000);
    // Room under the open pull-request limit (the test above filled it).
    await h.db.updateTable('pull_request_job').set({ status: 'closed' }).where('dependency_name', 'like', 'placeholder-%').execute();
    const res = await request(h.releaseUrl, 'POST', '/release_notifications/private', {
      headers: as,
      body: { name: 'pandas', version: '1.0.5', 'package-manager': 'pip' },
    });
    expect(res.status).toBe(204);
    const pending = await waitFor(async () => {
      const row = await h.db.selectFrom('pull_request_job').select('id').where('dependency_name', '=', 'pandas').executeTakeFirst();
      return row?.id;
    }, 20_000);
    // The worker's own delivery and two more, at once: the ones that find it claimed are put off (or, last, leave it).
    const outcomes = await Promise.allSettled([
      executeJob(deps, pending, false),
      executeJob(deps, pending, true),
      executeJob(deps, pending, false),
    ]);
    await registries.close();
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(JobBusyError);
    const job = await waitFor(async () => {
      const row = await h.db.selectFrom('pull_request_job').selectAll().where('id', '=', pending).executeTakeFirstOrThrow();
      // The execution that opened it lets go of its claim just after recording the pull request.
      return row.status === 'open' && row.claimed_by === null ? row : undefined;
    }, 20_000);
    const pulls = (await (await github(`/repos/acme/data-pipeline/pulls?state=all&head=acme:${job.branch}`)).json()) as unknown[];
    expect(pulls).toHaveLength(1);
    const head = (await (await github(`/repos/acme/data-pipeline/git/ref/heads/${job.branch}`)).json()) as { object: { sha: string } };
    expect(job.head_sha).toBe(head.object.sha);
  });

  it("takes a branch its own earlier attempt left without a pull request, and leaves anyone else's alone", async () => {
    const { codeHost, registries, deps } = executor();
    const repo = { owner: 'acme', name: 'data-pipeline' };
    const model = await h.db.selectFrom('pull_request_job').selectAll().where('dependency_name', '=', 'pandas').executeTakeFirstOrThrow();
    const main = (await codeHost.getBranchHead?.(BOT, repo, 'main')) ?? '';
    // A numpy job whose branch exists already: `recorded` when an earlier attempt of the job made it (its worker stopped
    // before the pull request was opened), else someone made it.
    const leftBranch = async (version: string, recorded: boolean) => {
      const branch = `dependabot/pip/numpy-${version}`;
      const files = { 'NOTES.md': `${version}\n` };
      const sha = (await codeHost.commitFiles?.(BOT, repo, { branch, parentSha: main, message: 'left', files, createBranch: true })) ?? '';
      const id = await insertPendingLike(model, {
        dependency_name: 'numpy',
        version_in_use: '1.18.5',
        target_version: version,
        branch: recorded ? branch : null,
        head_sha: recorded ? sha : null,
      });
      await executeJob(deps, id, false);
      const job = await h.db.selectFrom('pull_request_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { job, branch, sha, head: await codeHost.getBranchHead?.(BOT, repo, branch) };
    };
    const own = await leftBranch('2.1.0', true);
    expect(own.job).toMatchObject({ status: 'open', status_reason: null, branch: own.branch, head_sha: own.head });
    expect(own.head).not.toBe(own.sha);
    const theirs = await leftBranch('2.1.1', false);
    await registries.close();
    expect(theirs.job.status).toBe('failed');
    expect(theirs.job.status_reason).toBe(
      `the branch ${theirs.branch} exists without a pull request of this job, and its head ${theirs.sha.slice(0, 7)} is not a commit this service made: it is left alone`,
    );
    expect(theirs.head).toBe(theirs.sha);
    const pulls = (await (await github(`/repos/acme/data-pipeline/pulls?state=all&head=acme:${theirs.branch}`)).json()) as unknown[];
    expect(pulls).toHaveLength(0);
  });

  it('updates the lockfile with the manifest: package-lock.json locks the new version, from the registry', async () => {
    const job = await settledJob(await notify('lodash', '4.17.21', 'npm_and_yarn'));
    expect(job.attributes['status-reason']).toBeNull();
    expect(job.attributes).toMatchObject({ status: 'open', 'target-version': '4.17.21' });
    const read = async (path: string) => {
      const file = await github(`/repos/acme/web-storefront/contents/${path}?ref=dependabot/npm_and_yarn/lodash-4.17.21`);
      return Buffer.from(((await file.json()) as { content: string }).content, 'base64').toString('utf8');
    };
    const files = { 'package.json': await read('package.json'), 'package-lock.json': await read('package-lock.json') };
    const use = requireEcosystem('npm_and_yarn').findDependency(files, 'lodash');
    // The requirement already allows it (increase if necessary): only the lockfile moves.
    expect(use).toMatchObject({ requirement: '^4.17.15', version: '4.17.21' });
    const lock = JSON.parse(files['package-lock.json']) as { packages: Record<string, { version: string; integrity: string }> };
    expect(lock.packages['node_modules/lodash']?.integrity).toMatch(/^sha512-/);
  });

  it("an older version's job that comes after a newer one's pull request is open is superseded, and opens nothing", async () => {
    const { registries, deps } = executor();
    const newer = await h.db
      .selectFrom('pull_request_job')
      .selectAll()
      .where('dependency_name', '=', 'numpy')
      .where('status', '=', 'open')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // Its message came late (a restart of the launcher lost it, and the stall sweep took it up): numpy 1.18.6.
    const id = await insertPendingLike(newer, { target_version: '1.18.6' });
    await executeJob(deps, id, false);
    await registries.close();
    const late = await h.db.selectFrom('pull_request_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(late).toMatchObject({
      status: 'superseded',
      status_reason: `superseded by #${newer.pull_request_number} (${newer.target_version}), opened before this one`,
      pull_request_number: null,
    });
    const pulls = (await (
      await github('/repos/acme/data-pipeline/pulls?state=all&head=acme:dependabot/pip/numpy-1.18.6')
    ).json()) as unknown[];
    expect(pulls).toHaveLength(0);
    const still = await h.db.selectFrom('pull_request_job').select('status').where('id', '=', newer.id).executeTakeFirstOrThrow();
    expect(still.status).toBe('open');
  });

  it('takes up, once a worker has started, a job left pending from before its start with no message (an in-process bus lost it)', async () => {
    const { registries, deps } = executor();
    const model = await h.db.selectFrom('pull_request_job').selectAll().where('dependency_name', '=', 'pandas').executeTakeFirstOrThrow();
    // Recorded without its event (so no delivery comes), as a job whose message the launcher's bus held when it stopped.
    const id = await insertPendingLike(model, {
      dependency_name: 'Django',
      dependency_type: 'runtime',
      version_in_use: '2.2.28',
      target_version: '2.2.29',
    });
    const status = async () =>
      (await h.db.selectFrom('pull_request_job').select(['status', 'status_reason']).where('id', '=', id).executeTakeFirstOrThrow()).status;
    // A worker that started before the job was recorded leaves it to its delivery (or to the 10-minute sweep)...
    const earlier = new Date(Date.now() - 60_000);
    await resumeStalledJobs(deps, earlier);
    expect(await status()).toBe('pending');
    // ...one that starts after it takes it up at once.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await resumeStalledJobs(deps, new Date())).toBeGreaterThanOrEqual(1);
    await registries.close();
    expect(await status()).not.toMatch(/^(pending|running)$/);
  });

  it('opens a one-file pull request with at most 4 code-host requests, on the commit and with the files the update read', async () => {
    // The requests this executor sends, through a proxy in front of the emulator (the harness's worker sends its own).
    const sent: string[] = [];
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', async () => {
        sent.push(`${req.method} ${req.url?.split('?')[0]}`);
        const headers = Object.fromEntries(
          ['authorization', 'accept', 'content-type', 'user-agent'].flatMap((name) => {
            const value = req.headers[name];
            return typeof value === 'string' ? [[name, value]] : [];
          }),
        );
        const upstream = await fetch(`${h.codeHostUrl}${req.url}`, {
          method: req.method ?? 'GET',
          headers,
          ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        const passed = [...upstream.headers].filter(
          ([name]) => !['content-encoding', 'content-length', 'transfer-encoding', 'connection'].includes(name),
        );
        res.writeHead(upstream.status, Object.fromEntries(passed));
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const codeHost = createGitHubCodeHost({ baseUrl, userAgent: 'test', throttle: false, logger: h.logger });
      const registries = new RegistryAccess({ publicUrls: h.releaseConfig.REGISTRY_URLS, timeoutMs: 5_000 });
      const tokens = personalToken(BOT);
      // No older numpy pull request to supersede or wait for: this is one pull request's cost.
      await h.db.updateTable('pull_request_job').set({ status: 'closed' }).where('dependency_name', '=', 'numpy').execute();
      // The update run's read (in this process, as the worker runs the update and then its jobs): the branch's head, then
      // the files at it.
      const readable = readableTarget((await findScanTargets(h.db, [301])).get(301), 'pip');
      if ('skipped' in readable) throw new Error(readable.skipped.reason);
      const read = await readTargetFiles(codeHost, tokens, readable, { atHead: true });
      if ('failed' in read) throw new Error(read.failed);
      expect(read.commit).toMatch(/^[0-9a-f]{40}$/);
      const inUse = /^numpy==(.+)$/m.exec(read.files['requirements.txt'] ?? '')?.[1] ?? '';
      const model = await h.db.selectFrom('pull_request_job').selectAll().where('dependency_name', '=', 'pandas').executeTakeFirstOrThrow();
      const id = await insertPendingLike(model, {
        dependency_name: 'numpy',
        version_in_use: inUse,
        target_version: '1.26.4',
        update_kind: 'minor',
        base_sha: read.commit ?? null,
      });
      sent.length = 0;
      await executeJob({ db: h.db, codeHost, tokens, registries, logger: h.logger }, id, false);
      await registries.close();
      const job = await h.db.selectFrom('pull_request_job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect([job.status, job.status_reason]).toEqual(['open', null]);
      // The repository's id (once per repository and process), the branch with its commit, the pull request, its labels.
      expect(sent, sent.join('\n')).toHaveLength(4);
      expect(sent).toEqual([
        'POST /graphql',
        'POST /graphql',
        'POST /repos/acme/data-pipeline/pulls',
        `POST /repos/acme/data-pipeline/issues/${job.pull_request_number}/labels`,
      ]);
      // Made on the commit the update read, with the requirement rewritten.
      expect(job.base_sha).toBe(read.commit);
      const commit = (await (await github(`/repos/acme/data-pipeline/commits/${job.head_sha}`)).json()) as {
        parents: Array<{ sha: string }>;
      };
      expect(commit.parents.map((parent) => parent.sha)).toEqual([read.commit]);
      const file = await github(`/repos/acme/data-pipeline/contents/requirements.txt?ref=${job.branch}`);
      const text = Buffer.from(((await file.json()) as { content: string }).content, 'base64').toString('utf8');
      expect(text).toBe((read.files['requirements.txt'] ?? '').replace(`numpy==${inUse}`, 'numpy==1.26.4'));

      // A job recorded longer ago than BASE_FRESH_MS (it waited for the limit): made on the branch's head as it is now.
      await h.db.updateTable('pull_request_job').set({ status: 'closed' }).where('id', '=', id).execute();
      const late = await insertPendingLike(model, {
        dependency_name: 'numpy',
        version_in_use: inUse,
        target_version: '1.26.5',
        update_kind: 'minor',
        base_sha: read.commit ?? null,
        created_at: new Date(Date.now() - BASE_FRESH_MS - 60_000),
      });
      sent.length = 0;
      const lateRegistries = new RegistryAccess({ publicUrls: h.releaseConfig.REGISTRY_URLS, timeoutMs: 5_000 });
      await executeJob({ db: h.db, codeHost, tokens, registries: lateRegistries, logger: h.logger }, late, false);
      await lateRegistries.close();
      expect(sent[0]).toBe('GET /repos/acme/data-pipeline/branches/main');
      const lateJob = await h.db.selectFrom('pull_request_job').selectAll().where('id', '=', late).executeTakeFirstOrThrow();
      expect([lateJob.status, lateJob.status_reason]).toEqual(['open', null]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});
