import { request, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      .map((c) => c.body);
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
