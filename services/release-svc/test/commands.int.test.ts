import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimMerge, MERGE_CLAIM_LEASE_MS, releaseMerge, setMergeRequest } from '../src/jobs/job.repository.ts';
import { ALICE, BOT, type ReleaseHarness, startReleaseHarness } from './harness.ts';

/** How long a test waits for the worker's loops and the webhooks (within a second idle, several beside the suite). */
const SETTLE_MS = 45_000;

// `@dependabot` commands in comments, delivered by the emulator's signed issue_comment webhooks and answered by the
// worker's command loop; among them a command given while the pull request's job has not recorded its number yet.
describe('pull-request commands from comment webhooks', { timeout: SETTLE_MS * 2 }, () => {
  let h: ReleaseHarness;
  const as = { authorization: `Personal ${ALICE}` };
  beforeAll(async () => {
    h = await startReleaseHarness('pr_commands', { webhooks: true, workerEnv: { PULL_REQUESTS: 'on', SCHEDULER_INTERVAL_MS: '300' } });
    await h.configure({ id: 801, repoId: 3201, packageManager: 'pip' });
  });
  afterAll(() => h?.close());

  const github = async <T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<T> => {
    const res = await fetch(`${h.codeHostUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `token ${init.token ?? BOT}`, accept: 'application/vnd.github+json', 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    expect(res.status, `${init.method ?? 'GET'} ${path}`).toBeLessThan(300);
    return (await res.json()) as T;
  };
  const botAnswers = async (number: number) =>
    (await github<Array<{ user: { login: string }; body: string }>>(`/repos/globex/analytics/issues/${number}/comments?per_page=100`))
      .filter((c) => c.user.login === 'switchyard-bot')
      // What GitHub shows: without the answer's HTML comment.
      .map((c) => c.body.replace(/\s*<!--[\s\S]*?-->\s*$/, ''));
  const comment = (number: number, text: string) =>
    github(`/repos/globex/analytics/issues/${number}/comments`, { method: 'POST', body: { body: text }, token: ALICE });

  let number = 0;
  let jobId = 0;

  it('answers a command on a pull request of a job', async () => {
    await h.notifyAndWait('SQLAlchemy', '1.3.24', 'pip');
    const job = await waitFor(async () => {
      const jobs = (await request(h.releaseUrl, 'GET', '/pull_request_jobs?repo-id=3201&dependency-name=sqlalchemy', { headers: as })).body
        .data;
      return jobs.find((j: { attributes: { status: string } }) => j.attributes.status === 'open');
    }, SETTLE_MS);
    number = job.attributes['pull-request-number'];
    jobId = Number(job.id);
    await comment(number, '@dependabot cancel merge');
    await waitFor(
      async () => ((await botAnswers(number)).includes("OK, I won't merge this PR automatically.") ? true : undefined),
      SETTLE_MS,
    );
  });

  it('a command taken up again after its answer went out (its worker stopped before recording it) is not answered twice', async () => {
    // The answer is commented before the command is marked handled: wait for that.
    const cancel = await waitFor(async () => {
      const row = await h.db.selectFrom('pull_request_command').selectAll().where('command', '=', 'cancel merge').executeTakeFirstOrThrow();
      return row.outcome === null ? undefined : row;
    }, SETTLE_MS);
    expect(cancel.outcome).toBe('done');
    // As a worker leaves it when stopped between its answer and its record: claimed once, no outcome, its lease over.
    await h.db
      .updateTable('pull_request_command')
      .set({ outcome: null, answer: null, due_at: new Date(), attempts: 1 })
      .where('delivery_id', '=', cancel.delivery_id)
      .execute();
    await waitFor(async () => {
      const row = await h.db
        .selectFrom('pull_request_command')
        .select('outcome')
        .where('delivery_id', '=', cancel.delivery_id)
        .executeTakeFirst();
      return row?.outcome ? row : undefined;
    }, SETTLE_MS);
    expect((await botAnswers(number)).filter((a) => a === "OK, I won't merge this PR automatically.")).toHaveLength(1);
  });

  it('a merge command given while the worker merges the pull request is told so, and the merge under way decides', async () => {
    // As a worker leaves the job the moment before it asks the code host to merge: marked, under the request it read.
    expect(await claimMerge(h.db, jobId, null, 'squash')).toBe(false); // `cancel merge` came since: it decides again
    expect(await claimMerge(h.db, jobId, 'blocked', 'squash')).toBe(true);
    await comment(number, '@dependabot merge');
    const underWay = 'This pull request is being merged already, as one squashed commit: it is too late to change that.';
    await waitFor(async () => ((await botAnswers(number)).includes(underWay) ? true : undefined), SETTLE_MS);
    // The answer is commented before the command is marked handled: wait for that too.
    const command = await waitFor(async () => {
      const row = await h.db.selectFrom('pull_request_command').selectAll().where('command', '=', 'merge').executeTakeFirstOrThrow();
      return row.outcome === null ? undefined : row;
    }, SETTLE_MS);
    expect(command).toMatchObject({ outcome: 'refused' });
    expect(
      (await h.db.selectFrom('pull_request_job').select('merge_request').where('id', '=', jobId).executeTakeFirstOrThrow()).merge_request,
    ).toBe('blocked');
    // A mark older than its lease is a worker that stopped half-way: a command decides again.
    await h.db
      .updateTable('pull_request_job')
      .set({ merging_at: new Date(Date.now() - MERGE_CLAIM_LEASE_MS - 1_000) })
      .where('id', '=', jobId)
      .execute();
    expect(await setMergeRequest(h.db, jobId, 'blocked')).toEqual({ set: true });
    await releaseMerge(h.db, jobId);
    await h.db.deleteFrom('pull_request_command').where('delivery_id', '=', command.delivery_id).execute();
  });

  it('carries out a command given before the job recorded its pull request, once the job has it', async () => {
    // The window between the pull request's opening on the code host and its number on the job, held open.
    await h.db.updateTable('pull_request_job').set({ pull_request_number: null }).where('id', '=', jobId).execute();
    await comment(number, '@dependabot merge');
    const waiting = await waitFor(async () => {
      const rows = await h.db.selectFrom('pull_request_command').selectAll().where('command', '=', 'merge').execute();
      return rows[0];
    }, SETTLE_MS);
    expect(waiting).toMatchObject({ job_id: null, repo_id: 3201, pull_request_number: number, outcome: null });
    // The worker looks again every few seconds: it must not give up meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(
      (await h.db.selectFrom('pull_request_command').select('outcome').where('command', '=', 'merge').executeTakeFirst())?.outcome,
    ).toBeNull();

    await h.db.updateTable('pull_request_job').set({ pull_request_number: number }).where('id', '=', jobId).execute();
    await waitFor(
      async () => ((await botAnswers(number)).includes("OK, I'll merge this PR once its checks pass.") ? true : undefined),
      SETTLE_MS,
    );
    // The answer is commented before the command is marked handled: wait for that too.
    const handled = await waitFor(async () => {
      const row = await h.db.selectFrom('pull_request_command').selectAll().where('command', '=', 'merge').executeTakeFirstOrThrow();
      return row.outcome === null ? undefined : row;
    }, SETTLE_MS);
    expect(handled).toMatchObject({ job_id: jobId, outcome: 'done' });
  });
});
