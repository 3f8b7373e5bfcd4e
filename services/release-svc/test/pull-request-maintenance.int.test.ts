import { createGitHubCodeHost } from '@switchyard/code-host';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

// Open pull requests kept current by the worker's maintenance loop (every 300 ms here) and the emulator's signed
// webhooks: automerge (at once without checks, after green checks with them), rebase when the target branch moves
// (not when a person pushed to the branch), reconciliation of a missed webhook, and no second pull request for a
// version whose pull request was closed.

interface Job {
  id: string;
  attributes: Record<string, unknown> & { status: string; 'pull-request-number': number | null; 'status-reason': string | null };
}

/**
 * How long a test may wait for the worker's loops and the webhooks to move a job: they act within a second on an idle
 * machine, several times that beside the rest of the suite.
 */
const SETTLE_MS = 45_000;

describe('open pull requests: automerge, rebase, reconciliation', { timeout: SETTLE_MS + 15_000 }, () => {
  let h: ReleaseHarness;
  const as = { authorization: `Personal ${ALICE}` };
  beforeAll(async () => {
    h = await startReleaseHarness('pr_maintenance', { webhooks: true, workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' } });
  });
  afterAll(() => h?.close());

  const host = () => createGitHubCodeHost({ baseUrl: h.codeHostUrl, userAgent: 'test', throttle: false, logger: h.logger });
  const github = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await fetch(`${h.codeHostUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `token ${init.token ?? BOT}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    expect(res.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
    return (await res.json()) as Record<string, unknown> & { sha: string };
  };
  const fileAt = async (repo: string, path: string, ref: string) =>
    Buffer.from(
      ((await github(`/repos/${repo}/contents/${path}?ref=${ref}`)) as unknown as { content: string }).content,
      'base64',
    ).toString('utf8');
  const jobOf = (name: string, where: (job: Job) => boolean, timeoutMs = SETTLE_MS) =>
    waitFor(async () => {
      const jobs = (await request(h.releaseUrl, 'GET', `/pull_request_jobs?dependency-name=${name}`, { headers: as })).body.data as Job[];
      return jobs.find(where);
    }, timeoutMs);
  const headOf = async (fullName: string, branch: string, token = BOT) => {
    const [owner = '', name = ''] = fullName.split('/');
    return (await host().getBranchHead?.(token, { owner, name }, branch)) ?? '';
  };
  /** Commits `files` on `branch` of `acme/...` or `globex/...` as `token`'s user; returns the new head. */
  const push = async (fullName: string, branch: string, files: Record<string, string>, token = BOT) => {
    const [owner = '', name = ''] = fullName.split('/');
    const repo = { owner, name };
    const head = await headOf(fullName, branch, token);
    return (await host().commitFiles?.(token, repo, { branch, parentSha: head, message: 'a change by hand', files })) ?? '';
  };

  it('merges an automerge pull request at once in a repository without checks (squash: create-merge-commits is off)', async () => {
    await h.configure({ id: 421, repoId: 3201, packageManager: 'pip', automergeRuntime: 'all' });
    await h.notifyAndWait('SQLAlchemy', '1.3.24', 'pip');
    const job = await jobOf('sqlalchemy', (j) => j.attributes.status === 'merged');
    expect(job.attributes['status-reason']).toBe('merged automatically: its checks passed');
    const pull = await github(`/repos/globex/analytics/pulls/${job.attributes['pull-request-number']}`);
    expect(pull).toMatchObject({ state: 'closed', merged: true });
    const main = await github(`/repos/globex/analytics/git/commits/${await headOf('globex/analytics', 'main')}`);
    expect((main as unknown as { parents: unknown[] }).parents).toHaveLength(1);
    expect(await fileAt('globex/analytics', 'requirements.txt', 'main')).toBe(
      `flask==1.1.2\nsqlalchemy==${job.attributes['target-version']}\n`,
    );
  });

  it('waits for the checks of a repository that runs them, and merges once they pass', async () => {
    const [owner, name] = ['acme', 'data-pipeline'];
    const mainHead = await headOf(`${owner}/${name}`, 'main');
    await github(`/repos/${owner}/${name}/statuses/${mainHead}`, { method: 'POST', body: { state: 'success', context: 'ci' } });
    await h.configure({ id: 422, repoId: 3103, packageManager: 'pip', automergeRuntime: 'all' });
    await h.notifyAndWait('numpy', '1.19.0', 'pip');
    const opened = await jobOf('numpy', (j) => j.attributes.status === 'open');
    const number = opened.attributes['pull-request-number'];
    const head = ((await github(`/repos/${owner}/${name}/pulls/${number}`)) as unknown as { head: { sha: string } }).head.sha;
    // No checks on its head yet, a pending one, a failed one: it stays open (looked at every 300 ms, and on each status webhook).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await github(`/repos/${owner}/${name}/statuses/${head}`, { method: 'POST', body: { state: 'pending', context: 'ci' } });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await jobOf('numpy', (j) => j.id === opened.id)).attributes.status).toBe('open');
    await github(`/repos/${owner}/${name}/statuses/${head}`, { method: 'POST', body: { state: 'failure', context: 'ci' } });
    const failed = await jobOf('numpy', (j) => j.id === opened.id && j.attributes['status-reason'] !== null);
    expect(failed.attributes).toMatchObject({ status: 'open', 'status-reason': 'not merged automatically: its checks failed' });
    await github(`/repos/${owner}/${name}/statuses/${head}`, { method: 'POST', body: { state: 'success', context: 'ci' } });
    // The status webhook makes it due at once (the reconciliation interval is 15 min).
    const merged = await jobOf('numpy', (j) => j.id === opened.id && j.attributes.status === 'merged');
    expect(merged.attributes['status-reason']).toBe('merged automatically: its checks passed');
    expect(await fileAt(`${owner}/${name}`, 'requirements.txt', 'main')).toContain(`numpy==${merged.attributes['target-version']}\n`);
  });

  it('rebases an open pull request when its target branch moves, keeping the other change', async () => {
    await h.configure({ id: 421, repoId: 3201, packageManager: 'pip', automergeRuntime: 'never', revision: 2 });
    await h.notifyAndWait('Flask', '2.0.0', 'pip');
    const opened = await jobOf('flask', (j) => j.attributes.status === 'open');
    const number = opened.attributes['pull-request-number'];
    const newMain = await push('globex/analytics', 'main', { 'README.md': 'analytics\n' });
    const rebased = await jobOf(
      'flask',
      (j) => j.id === opened.id && String(j.attributes['status-reason']).startsWith('rebased on'),
      10_000,
    );
    expect(rebased.attributes['status-reason']).toBe(`rebased on ${newMain.slice(0, 7)}`);
    const pull = (await github(`/repos/globex/analytics/pulls/${number}`)) as unknown as {
      head: { sha: string; ref: string };
      state: string;
    };
    const commit = (await github(`/repos/globex/analytics/git/commits/${pull.head.sha}`)) as unknown as { parents: Array<{ sha: string }> };
    expect(commit.parents.map((p) => p.sha)).toEqual([newMain]);
    expect(await fileAt('globex/analytics', 'README.md', pull.head.ref)).toBe('analytics\n');
    expect(await fileAt('globex/analytics', 'requirements.txt', pull.head.ref)).toContain(
      `flask==${opened.attributes['target-version']}\n`,
    );
  });

  it('leaves alone a pull request a person pushed to', async () => {
    const [opened] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=flask&status=open', { headers: as })).body
      .data as Job[];
    const pull = (await github(`/repos/globex/analytics/pulls/${opened?.attributes['pull-request-number']}`)) as unknown as {
      head: { sha: string; ref: string };
    };
    const theirs = await push('globex/analytics', pull.head.ref, { 'NOTES.md': 'checked by hand\n' });
    await push('globex/analytics', 'main', { 'README.md': 'analytics, again\n' });
    const left = await jobOf(
      'flask',
      (j) => j.id === opened?.id && j.attributes['status-reason'] === 'not rebased: a person pushed to its branch',
    );
    expect(left.attributes.status).toBe('open');
    const after = (await github(`/repos/globex/analytics/pulls/${opened?.attributes['pull-request-number']}`)) as unknown as {
      head: { sha: string };
    };
    expect(after.head.sha).toBe(theirs);
  });

  it('catches a missed webhook: a pull request closed on the code host closes its job at the next look', async () => {
    const [opened] = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=flask&status=open', { headers: as })).body
      .data as Job[];
    const url = h.webhooks.url;
    h.webhooks.url = undefined;
    try {
      await github(`/repos/globex/analytics/pulls/${opened?.attributes['pull-request-number']}`, {
        method: 'PATCH',
        body: { state: 'closed' },
      });
    } finally {
      h.webhooks.url = url;
    }
    // As if the reconciliation interval had gone by.
    await h.db.updateTable('pull_request_job').set({ maintain_at: new Date() }).where('id', '=', Number(opened?.id)).execute();
    const closed = await jobOf('flask', (j) => j.id === opened?.id && j.attributes.status === 'closed');
    // Closed unmerged while its job was open: a person's decision, which ignores that version (defect 2 of the issue).
    expect(closed.attributes['status-reason']).toBe(
      'closed unmerged on the code host: this version is not proposed again for the config until the pull request is reopened',
    );
  });

  it('does not open a pull request again for a version whose pull request was closed unmerged', async () => {
    const before = (await github('/repos/globex/analytics/pulls?state=all')) as unknown as unknown[];
    await h.notifyAndWait('Flask', '2.0.0', 'pip');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const jobs = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?dependency-name=flask', { headers: as })).body.data as Job[];
    expect(jobs.map((j) => j.attributes.status)).toEqual(['closed']);
    expect((await github('/repos/globex/analytics/pulls?state=all')) as unknown as unknown[]).toHaveLength(before.length);
  });
});
