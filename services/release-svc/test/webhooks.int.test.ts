import { randomUUID } from 'node:crypto';
import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBotLogin } from '../src/bot-account/bot-account.repository.ts';
import { type ReleaseHarness, startReleaseHarness, TEST_WEBHOOK_SECRET } from './harness.ts';

describe('POST /webhooks/github: signed code-host deliveries move jobs', () => {
  let h: ReleaseHarness;
  let jobId = 0;
  beforeAll(async () => {
    h = await startReleaseHarness('webhooks');
    // A job with an open pull request #41 on acme/web-storefront (3101), as the job executor leaves it.
    const row = await h.db
      .insertInto('pull_request_job')
      .values({
        notification_id: null,
        update_run_id: null,
        update_config_id: 1,
        repo_id: 3101,
        account_id: 2001,
        package_manager: 'npm_and_yarn',
        dependency_name: 'lodash',
        dependency_type: 'runtime',
        version_in_use: '4.17.15',
        target_version: '4.17.21',
        update_kind: 'patch',
        automerge: false,
        security_fix: false,
        target_branch: 'main',
        directory: '/',
        status: 'open',
        branch: 'dependabot/npm_and_yarn/lodash-4.17.21',
        pull_request_number: 41,
        pull_request_url: 'http://github.example/acme/web-storefront/pull/41',
        status_reason: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    jobId = row.id;
  });
  afterAll(() => h?.close());

  const pullRequestEvent = (action: string, merged: boolean, updatedAt = new Date().toISOString()) => ({
    action,
    number: 41,
    pull_request: { number: 41, merged, updated_at: updatedAt },
    repository: { id: 3101, full_name: 'acme/web-storefront' },
    sender: { login: 'alice' },
  });
  async function deliver(payload: unknown, options: { event?: string; id?: string; secret?: string; signature?: string | null } = {}) {
    const body = JSON.stringify(payload);
    const signature = options.signature === undefined ? await sign(options.secret ?? TEST_WEBHOOK_SECRET, body) : options.signature;
    const res = await fetch(`${h.releaseUrl}/webhooks/github`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': options.event ?? 'pull_request',
        'x-github-delivery': options.id ?? randomUUID(),
        ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const job = () =>
    h.db.selectFrom('pull_request_job').select(['status', 'status_reason']).where('id', '=', jobId).executeTakeFirstOrThrow();

  it('refuses unsigned deliveries, wrong signatures and deliveries signed with another secret, with 401', async () => {
    for (const options of [{ signature: null }, { signature: 'sha256=00' }, { secret: 'another-secret-entirely' }]) {
      const res = await deliver(pullRequestEvent('closed', true), options);
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).toMatch(/signature|signed/i);
    }
    expect((await job()).status).toBe('open');
  });

  it('refuses a stale delivery and one without its headers, with 400', async () => {
    const stale = await deliver(pullRequestEvent('closed', true, '2020-01-01T00:00:00Z'));
    expect(stale.status).toBe(400);
    expect(JSON.stringify(stale.body)).toContain('stale');
    const res = await fetch(`${h.releaseUrl}/webhooks/github`, {
      method: 'POST',
      headers: { 'x-hub-signature-256': await sign(TEST_WEBHOOK_SECRET, '{}') },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect((await job()).status).toBe('open');
  });

  it('refuses a body over the limit with 413', async () => {
    const res = await deliver({ padding: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
  });

  it('moves nothing for a delivery about another pull request under the number of the job (another head branch or global id)', async () => {
    const other = (head: string, nodeId?: string) => {
      const event = pullRequestEvent('closed', true);
      return { ...event, pull_request: { ...event.pull_request, head: { ref: head }, ...(nodeId ? { node_id: nodeId } : {}) } };
    };
    expect((await deliver(other('someone/notes'))).body).toEqual({ outcome: 'ignored' });
    await h.db.updateTable('pull_request_job').set({ pull_request_node_id: 'PR_kwDOjob41' }).where('id', '=', jobId).execute();
    expect((await deliver(other('dependabot/npm_and_yarn/lodash-4.17.21', 'PR_kwDOanother'))).body).toEqual({ outcome: 'ignored' });
    expect((await job()).status).toBe('open');
  });

  it('a pull request closed unmerged by a person: the job is closed and its version ignored; reopened, open again', async () => {
    expect((await deliver(pullRequestEvent('closed', false))).body).toEqual({ outcome: 'applied' });
    const closed = await h.db
      .selectFrom('pull_request_job')
      .select(['status', 'ignored'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(closed).toEqual({ status: 'closed', ignored: true });
    expect((await job()).status_reason).toBe(
      'closed unmerged on the code host by alice: this version is not proposed again for the config until the pull request is reopened',
    );
    expect((await deliver(pullRequestEvent('reopened', false))).body).toEqual({ outcome: 'applied' });
    const reopened = await h.db
      .selectFrom('pull_request_job')
      .select(['status', 'ignored'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(reopened).toEqual({ status: 'open', ignored: false });
  });

  it("the echoes of the workers' own close and reopen move nothing, in whatever order GitHub delivers them", async () => {
    await recordBotLogin(h.db, 'switchyard[bot]');
    const asBot = (action: string) => ({ ...pullRequestEvent(action, false), sender: { login: 'Switchyard[bot]', type: 'Bot' } });
    const ignoresOfJob = async () => (await h.db.selectFrom('config_ignore').select('id').where('job_id', '=', jobId).execute()).length;
    expect(await job()).toMatchObject({ status: 'open' });
    // A worker closed the pull request (its job marked first), then reopened it (open again): the reopen's echo comes
    // first and the close's last. Taken as a person's close, it would close the job and ignore its version.
    expect((await deliver(asBot('reopened'))).body).toEqual({ outcome: 'ignored' });
    expect((await deliver(asBot('closed'))).body).toEqual({ outcome: 'ignored' });
    expect(await job()).toMatchObject({ status: 'open' });
    expect(await ignoresOfJob()).toBe(0);
    // A merge's echo may come before the worker records the merge itself, with its reason (automerge, a command).
    const mergedByBot = { ...asBot('closed'), pull_request: { ...pullRequestEvent('closed', true).pull_request } };
    expect((await deliver(mergedByBot)).body).toEqual({ outcome: 'ignored' });
    expect(await job()).toMatchObject({ status: 'open' });
    // Someone else's close is a person's decision, as before.
    expect((await deliver(pullRequestEvent('closed', false))).body).toEqual({ outcome: 'applied' });
    expect(await ignoresOfJob()).toBe(1);
    expect((await deliver(pullRequestEvent('reopened', false))).body).toEqual({ outcome: 'applied' });
    expect(await ignoresOfJob()).toBe(0);
  });

  it('moves the job to merged on a merged pull request, once per delivery id', async () => {
    const id = randomUUID();
    expect(await deliver(pullRequestEvent('closed', true), { id })).toEqual({ status: 202, body: { outcome: 'applied' } });
    expect(await job()).toEqual({ status: 'merged', status_reason: 'merged on the code host by alice' });
    expect(await deliver(pullRequestEvent('closed', true), { id })).toEqual({ status: 202, body: { outcome: 'duplicate' } });
    // A merged job is not closed or reopened by later deliveries.
    expect((await deliver(pullRequestEvent('closed', false))).body).toEqual({ outcome: 'ignored' });
    expect((await deliver(pullRequestEvent('reopened', false))).body).toEqual({ outcome: 'ignored' });
    expect((await job()).status).toBe('merged');
  });

  it('takes a burst of concurrent pushes to a branch with many open pull requests: every delivery answered, none deadlocked', async () => {
    const base = await h.db.selectFrom('pull_request_job').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
    const { id: _id, created_at: _created, status_changed_at: _changed, ...row } = base;
    const later = new Date(Date.now() + 3_600_000);
    const inserted = await h.db
      .insertInto('pull_request_job')
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          ...row,
          status: 'open' as const,
          target_branch: 'burst',
          dependency_name: `burst-${i}`,
          branch: `dependabot/npm_and_yarn/burst-${i}`,
          pull_request_number: 1_000 + i,
          maintain_at: later,
        })),
      )
      .returning('id')
      .execute();
    const pushes = await Promise.all(
      Array.from({ length: 40 }, () => deliver({ ref: 'refs/heads/burst', repository: { id: 3101 }, deleted: false }, { event: 'push' })),
    );
    expect(pushes.map((push) => push.status)).toEqual(Array(40).fill(202));
    const due = await h.db
      .selectFrom('pull_request_job')
      .select('id')
      .where(
        'id',
        'in',
        inserted.map((r) => r.id),
      )
      .where('maintain_at', '<=', new Date())
      .execute();
    expect(due).toHaveLength(40);
    await h.db
      .deleteFrom('pull_request_job')
      .where(
        'id',
        'in',
        inserted.map((r) => r.id),
      )
      .execute();
  });

  it('records other events as ignored, and a ping is fine', async () => {
    expect(await deliver({ zen: 'Keep it logically awesome.', hook_id: 1 }, { event: 'ping' })).toEqual({
      status: 202,
      body: { outcome: 'ignored' },
    });
    const push = await deliver(
      { ref: 'refs/heads/main', repository: { id: 3101 }, head_commit: { timestamp: new Date().toISOString() } },
      { event: 'push' },
    );
    expect(push.body).toEqual({ outcome: 'ignored' });
    const rows = await h.db.selectFrom('webhook_delivery').select(['event', 'outcome']).execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { event: 'ping', outcome: 'ignored' },
        { event: 'pull_request', outcome: 'applied' },
      ]),
    );
  });

  it('makes open pull requests due: a push to their target branch, a status of their head commit; a stale push is refused', async () => {
    const head = 'a'.repeat(40);
    await h.db
      .updateTable('pull_request_job')
      .set({ status: 'open', head_sha: head, base_sha: 'b'.repeat(40), maintain_at: new Date(Date.now() + 3_600_000) })
      .where('id', '=', jobId)
      .execute();
    const maintainAt = async () =>
      (await h.db.selectFrom('pull_request_job').select('maintain_at').where('id', '=', jobId).executeTakeFirstOrThrow()).maintain_at;
    const push = await deliver({ ref: 'refs/heads/main', repository: { id: 3101 }, deleted: false }, { event: 'push' });
    expect(push.body).toEqual({ outcome: 'applied' });
    expect((await maintainAt())?.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await deliver({ ref: 'refs/heads/develop', repository: { id: 3101 } }, { event: 'push' })).body).toEqual({
      outcome: 'ignored',
    });

    await h.db
      .updateTable('pull_request_job')
      .set({ maintain_at: new Date(Date.now() + 3_600_000) })
      .where('id', '=', jobId)
      .execute();
    expect((await deliver({ sha: 'c'.repeat(40), state: 'success', repository: { id: 3101 } }, { event: 'status' })).body).toEqual({
      outcome: 'ignored',
    });
    expect((await deliver({ sha: head, state: 'success', repository: { id: 3101 } }, { event: 'status' })).body).toEqual({
      outcome: 'applied',
    });
    expect((await maintainAt())?.getTime()).toBeLessThanOrEqual(Date.now());

    const stale = await deliver(
      { ref: 'refs/heads/main', repository: { id: 3101, pushed_at: Math.floor(Date.now() / 1000) - 2 * 3600 } },
      { event: 'push' },
    );
    expect(stale.status).toBe(400);
  });
});
