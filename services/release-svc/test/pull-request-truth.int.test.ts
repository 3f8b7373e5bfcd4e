import { createGitHubCodeHost } from '@switchyard/code-host';
import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgState } from './config-state.ts';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

// The code host is the source of truth: what the worker believes about a pull request is checked against the emulator
// (through its REST API and its signed webhooks), and people's decisions there are kept: a pull request closed
// unmerged ignores that version until it is reopened; a number that names another pull request makes the job vanish
// and the update is proposed again; a newer version replaces an open pull request even at the open pull-request limit,
// deleting the old branch, but never one someone else pushed to; a change of the config's settings reaches its open pull
// requests (automerge rules, target branch).

interface Job {
  id: string;
  attributes: Record<string, unknown> & {
    status: string;
    'pull-request-number': number | null;
    'status-reason': string | null;
    'target-version': string;
    'target-branch': string;
  };
}

/** How long a test waits for the worker's loops (every 300 ms here) and the webhooks: more beside the rest of the suite. */
const SETTLE_MS = 90_000;

describe('the code host is the source of truth for pull requests', { timeout: 4 * SETTLE_MS }, () => {
  let h: ReleaseHarness;
  const as = { authorization: `Personal ${ALICE}` };
  beforeAll(async () => {
    h = await startReleaseHarness('pr_truth', { webhooks: true, workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' } });
  });
  afterAll(() => h?.close());

  const host = () => createGitHubCodeHost({ baseUrl: h.codeHostUrl, userAgent: 'test', throttle: false, logger: h.logger });
  const github = async (path: string, init: { method?: string; body?: unknown; token?: string; ok?: boolean } = {}) => {
    const res = await fetch(`${h.codeHostUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `token ${init.token ?? BOT}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    if (init.ok !== false) expect(res.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
    return { status: res.status, body: (res.status === 204 ? {} : await res.json()) as Record<string, unknown> };
  };
  const jobs = async (name: string) =>
    (await request(h.releaseUrl, 'GET', `/pull_request_jobs?dependency-name=${name}`, { headers: as })).body.data as Job[];
  const jobOf = (name: string, where: (job: Job) => boolean) => waitFor(async () => (await jobs(name)).find(where), SETTLE_MS);
  const bumpNow = async (configId: number) => {
    const res = await request(h.releaseUrl, 'POST', `/update_configs/${configId}/trigger_update_job`, { headers: as });
    expect(res.status).toBe(202);
    const id = res.body.data.id as string;
    return waitFor(async () => {
      const run = (await request(h.releaseUrl, 'GET', `/update_runs/${id}`, { headers: as })).body.data;
      return run.attributes.status === 'done' ? run : undefined;
    }, SETTLE_MS);
  };
  const comments = async (repo: string, number: number) =>
    ((await github(`/repos/${repo}/issues/${number}/comments`)).body as unknown as Array<{ body: string }>).map((c) => c.body);
  const push = async (fullName: string, branch: string, files: Record<string, string>) => {
    const [owner = '', name = ''] = fullName.split('/');
    const head = (await host().getBranchHead?.(BOT, { owner, name }, branch)) ?? '';
    return (await host().commitFiles?.(BOT, { owner, name }, { branch, parentSha: head, message: 'a change by hand', files })) ?? '';
  };

  it('a pull request a person closes unmerged: its version is ignored (said on the pull request) until it is reopened', async () => {
    await h.configure({ id: 701, repoId: 3201, packageManager: 'pip' });
    await h.notifyAndWait('Flask', '2.0.0', 'pip');
    const opened = await jobOf('flask', (j) => j.attributes.status === 'open');
    const number = opened.attributes['pull-request-number'] as number;
    await github(`/repos/globex/analytics/pulls/${number}`, { method: 'PATCH', body: { state: 'closed' }, token: ALICE });
    const closed = await jobOf('flask', (j) => j.id === opened.id && j.attributes.status === 'closed');
    expect(closed.attributes['status-reason']).toBe(
      'closed unmerged on the code host by alice: this version is not proposed again for the config until the pull request is reopened',
    );
    const version = opened.attributes['target-version'];
    await waitFor(
      async () => (await comments('globex/analytics', number)).some((c) => c.includes(`won't propose flask ${version} again`)),
      SETTLE_MS,
    );
    // Notified again: no second job, no second pull request, and the run says why.
    await h.notifyAndWait('Flask', '2.0.0', 'pip');
    expect((await jobs('flask')).map((j) => j.attributes.status)).toEqual(['closed']);
    const run = (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=701', { headers: as })).body.data[0];
    expect(run.attributes.dependencies[0]).toMatchObject({ outcome: 'skipped', reason: expect.stringContaining('ignored: pull request') });
    // Reopened: the decision is undone.
    await github(`/repos/globex/analytics/pulls/${number}`, { method: 'PATCH', body: { state: 'open' }, token: ALICE });
    const reopened = await jobOf('flask', (j) => j.id === opened.id && j.attributes.status === 'open');
    expect(reopened.attributes['status-reason']).toBeNull();
  });

  it('a number that names another pull request now, or none: the job vanishes and the update is proposed again', async () => {
    const [open] = (await jobs('flask')).filter((j) => j.attributes.status === 'open');
    expect(open).toBeDefined();
    // Another pull request under the number the job knows (a repository recreated, an emulator started fresh).
    const other = await push('globex/analytics', 'main', { 'NOTES.md': 'notes\n' });
    await github('/repos/globex/analytics/git/refs', { method: 'POST', body: { ref: 'refs/heads/someone/notes', sha: other } });
    await push('globex/analytics', 'someone/notes', { 'NOTES.md': 'more notes\n' });
    const theirs = await github('/repos/globex/analytics/pulls', {
      method: 'POST',
      body: { title: 'Notes', head: 'someone/notes', base: 'main' },
      token: ALICE,
    });
    await h.db
      .updateTable('pull_request_job')
      .set({ pull_request_number: theirs.body.number as number, maintain_at: new Date() })
      .where('id', '=', Number(open?.id))
      .execute();
    const vanished = await jobOf('flask', (j) => j.id === open?.id && j.attributes.status === 'vanished');
    expect(vanished.attributes['status-reason']).toBe(
      `pull request #${theirs.body.number} on the code host is another pull request now: the next run proposes the update again`,
    );
    // Their pull request is not the bot's to touch.
    expect((await github(`/repos/globex/analytics/pulls/${theirs.body.number}`)).body).toMatchObject({ state: 'open' });
    // The next run proposes the update again: a new job, and its pull request.
    await h.notifyAndWait('Flask', '2.0.0', 'pip');
    const again = await jobOf('flask', (j) => j.id !== open?.id && j.attributes.status === 'open');
    expect(again.attributes['target-version']).toBe(open?.attributes['target-version']);
    // And a number the code host does not know at all: gone.
    await h.db
      .updateTable('pull_request_job')
      .set({ pull_request_number: 9_999, maintain_at: new Date() })
      .where('id', '=', Number(again.id))
      .execute();
    const gone = await jobOf('flask', (j) => j.id === again.id && j.attributes.status === 'vanished');
    expect(gone.attributes['status-reason']).toBe('pull request #9999 is gone from the code host: the next run proposes the update again');
  });

  it('a newer version replaces an open pull request even at the open pull-request limit, and deletes its branch', async () => {
    await h.configure({ id: 702, repoId: 3101 });
    const first = await bumpNow(702);
    expect(first.attributes['jobs-recorded']).toBe(5);
    await waitFor(async () => {
      const open = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3101&status=open', { headers: as })).body.data;
      return open.length === 5;
    }, SETTLE_MS);
    const [lodash] = (await jobs('lodash')).filter((j) => j.attributes.status === 'open');
    expect(lodash?.attributes['target-version']).toBe('4.17.21');
    const oldBranch = 'dependabot/npm_and_yarn/lodash-4.17.21';
    const published = await fetch(`${h.registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.22' }),
    });
    expect(published.status).toBe(201);
    await bumpNow(702);
    const newer = await jobOf('lodash', (j) => j.attributes['target-version'] === '4.17.22' && j.attributes.status === 'open');
    const old = await jobOf('lodash', (j) => j.id === lodash?.id && j.attributes.status === 'superseded');
    expect(old.attributes['status-reason']).toBe(`superseded by #${newer.attributes['pull-request-number']} (lodash 4.17.22)`);
    expect((await github(`/repos/acme/web-storefront/branches/${oldBranch}`, { ok: false })).status).toBe(404);
    // Five open pull requests still, and the sixth dependency waits for the limit.
    const open = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3101&status=open', { headers: as })).body.data;
    expect(open).toHaveLength(5);
  });

  it('never closes or force-pushes a pull request someone else pushed to: a newer version waits for it, saying so', async () => {
    const [current] = (await jobs('lodash')).filter((j) => j.attributes.status === 'open');
    const number = current?.attributes['pull-request-number'];
    const branch = `dependabot/npm_and_yarn/lodash-${current?.attributes['target-version']}`;
    const theirs = await push('acme/web-storefront', branch, { 'NOTES.md': 'checked by hand\n' });
    await fetch(`${h.registryUrl}/admin/publish`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ packageManager: 'npm_and_yarn', name: 'lodash', version: '4.17.23' }),
    });
    await bumpNow(702);
    // One pull request per dependency: theirs stays open and untouched, and the newer version waits for it.
    const waiting = await jobOf('lodash', (j) => j.attributes['target-version'] === '4.17.23' && j.attributes.status === 'queued-limit');
    expect(waiting.attributes['status-reason']).toBe(
      `waits for pull request #${number} (lodash ${current?.attributes['target-version']}), which has commits by someone else: it stays the dependency's one pull request until it is merged or closed`,
    );
    const pull = await github(`/repos/acme/web-storefront/pulls/${number}`);
    expect(pull.body).toMatchObject({ state: 'open', head: { sha: theirs } });
    expect((await jobs('lodash')).find((j) => j.id === current?.id)?.attributes.status).toBe('open');
    // The next run says so, and records no second job.
    const run = await bumpNow(702);
    const said = (run.attributes.dependencies as Array<{ name: string; outcome: string; reason: string }>).find((d) => d.name === 'lodash');
    expect(said).toMatchObject({
      outcome: 'pr-open',
      reason: expect.stringContaining(`the pull request for 4.17.23 ${waiting.attributes['status-reason']}`),
    });
    expect((await jobs('lodash')).filter((j) => j.attributes['target-version'] === '4.17.23')).toHaveLength(1);
    // Once they close it, the newer version's pull request is opened.
    await github(`/repos/acme/web-storefront/pulls/${number}`, { method: 'PATCH', body: { state: 'closed' }, token: ALICE });
    const opened = await jobOf('lodash', (j) => j.id === waiting.id && j.attributes.status === 'open');
    expect(opened.attributes['pull-request-number']).toEqual(expect.any(Number));
  });

  it('a change of the automerge rule reaches an open pull request within one look', async () => {
    await h.configure({ id: 703, repoId: 3103, packageManager: 'pip' });
    await h.notifyAndWait('numpy', '1.19.0', 'pip');
    const opened = await jobOf('numpy', (j) => j.attributes.status === 'open');
    expect(opened.attributes.automerge).toBe(false);
    await h.configure({ id: 703, repoId: 3103, packageManager: 'pip', automergeRuntime: 'all', revision: 2 });
    const merged = await jobOf('numpy', (j) => j.id === opened.id && j.attributes.status === 'merged');
    expect(merged.attributes).toMatchObject({ automerge: true, 'status-reason': 'merged automatically: its checks passed' });
  });

  it('a new target branch closes the pull requests against the old one and opens new ones against it', async () => {
    await h.configure({ id: 704, repoId: 3102, packageManager: 'bundler' });
    const before = await bumpNow(704);
    expect(before.attributes['jobs-recorded']).toBeGreaterThan(0);
    const opened = await waitFor(async () => {
      const open = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3102&status=open', { headers: as })).body.data as Job[];
      return open.length > 0 ? open[0] : undefined;
    }, SETTLE_MS);
    const main = await host().getBranchHead?.(BOT, { owner: 'acme', name: 'billing-api' }, 'main');
    await github('/repos/acme/billing-api/git/refs', { method: 'POST', body: { ref: 'refs/heads/develop', sha: main } });
    await h.configure({ id: 704, repoId: 3102, packageManager: 'bundler', targetBranch: 'develop', revision: 2 });
    const closed = await jobOf(String(opened.attributes['dependency-name']), (j) => j.id === opened.id && j.attributes.status === 'closed');
    expect(closed.attributes['status-reason']).toBe('closed: the config now targets develop');
    const number = opened.attributes['pull-request-number'] as number;
    // The job is marked before its pull request is closed (so the close's webhook is not taken for a person's).
    await waitFor(async () => (await github(`/repos/acme/billing-api/pulls/${number}`)).body.state === 'closed', SETTLE_MS);
    expect((await github(`/repos/acme/billing-api/pulls/${number}`)).body).toMatchObject({ state: 'closed', merged: false });
    expect(await comments('acme/billing-api', number)).toContainEqual(expect.stringContaining('now targets `develop`'));
    const replacement = await jobOf(
      String(opened.attributes['dependency-name']),
      (j) => j.attributes['target-branch'] === 'develop' && j.attributes.status === 'open',
    );
    const pull = await github(`/repos/acme/billing-api/pulls/${replacement.attributes['pull-request-number']}`);
    expect(pull.body).toMatchObject({ state: 'open', base: { ref: 'develop' } });
    const runs = (await request(h.releaseUrl, 'GET', '/update_runs?update-config-id=704', { headers: as })).body.data;
    expect(runs[0].attributes.trigger).toBe('settings');
  });

  it("a change of the account's settings reaches its open pull requests within one look: rebasing, then merge commits", async () => {
    const repo = { owner: 'acme', name: 'data-pipeline' };
    const account = async (revision: number, settings: Partial<ReturnType<typeof orgState>['settings']>) => {
      const acme = orgState(2001, 'acme');
      await h.publishAsConfigSvc([{ type: 'account.updated', data: { ...acme, revision, settings: { ...acme.settings, ...settings } } }]);
      await waitFor(async () => {
        const row = await h.db.selectFrom('account').select('revision').where('id', '=', 2001).executeTakeFirst();
        return row?.revision === revision;
      }, SETTLE_MS);
    };
    const row = (id: string) => h.db.selectFrom('pull_request_job').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow();
    // Rebasing off, and config 703 without automerge again.
    await account(2, { automaticallyRebasePrs: false });
    await h.configure({ id: 703, repoId: 3103, packageManager: 'pip', revision: 3 });
    await h.notifyAndWait('pandas', '1.0.5', 'pip');
    const opened = await jobOf('pandas', (j) => j.attributes.status === 'open');
    const before = await row(opened.id);
    // The target branch moves: the push's webhook has the pull request looked at, and it is left as it is.
    const pushedAt = Date.now();
    const moved = await push('acme/data-pipeline', 'main', { 'NOTES.md': 'a change on main\n' });
    const looked = await waitFor(async () => {
      const now = await row(opened.id);
      return now.maintain_at && now.maintain_at.getTime() > pushedAt + 60_000 ? now : undefined;
    }, SETTLE_MS);
    expect(looked).toMatchObject({ status: 'open', base_sha: before.base_sha, head_sha: before.head_sha });
    expect((await github(`/repos/acme/data-pipeline/pulls/${opened.attributes['pull-request-number']}`)).body).toMatchObject({
      head: { sha: before.head_sha },
    });
    // Rebasing on again: the account's change alone has it rebased on the moved branch.
    await account(3, { automaticallyRebasePrs: true, createMergeCommits: true });
    const rebased = await waitFor(async () => {
      const now = await row(opened.id);
      return now.base_sha === moved ? now : undefined;
    }, SETTLE_MS);
    expect(rebased.status_reason).toBe(`rebased on ${moved.slice(0, 7)}`);
    // And merge commits: automerge allowed now, the pull request is merged with a merge commit (two parents).
    await h.configure({ id: 703, repoId: 3103, packageManager: 'pip', automergeRuntime: 'all', revision: 4 });
    await jobOf('pandas', (j) => j.id === opened.id && j.attributes.status === 'merged');
    const head = (await host().getBranchHead?.(BOT, repo, 'main')) ?? '';
    const commit = await github(`/repos/acme/data-pipeline/commits/${head}`);
    expect((commit.body.parents as unknown[]).length).toBe(2);
  });
});
