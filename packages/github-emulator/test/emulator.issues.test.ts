import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { startTracker, type TrackerWorld } from './tracker.ts';
import { APP, ARCHIVED } from './tracker-seed.ts';
import { openPullThroughApi } from './writes.ts';

/**
 * Issues that are not pull requests (https://docs.github.com/rest/issues/issues): opening, reading, listing and
 * editing them, numbers shared with pull requests, what callers of each role may set, and the `issues` webhooks; a
 * pull request closed and reopened through `PATCH /issues/{n}`.
 */
describe('GitHub emulator: issues', () => {
  let openapi: GitHubOpenApi;
  let world: TrackerWorld;
  let pull: { number: number; node_id: string };

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    world = await startTracker();
    pull = await openPullThroughApi(world.as.wes, APP, 'bump-lodash', { 'package.json': '{ "name": "app", "lodash": "4" }\n' });
    const milestone = await world.as.olivia.post(`/repos/${APP}/milestones`, { title: 'v1.0' });
    expect(milestone.status, milestone.text).toBe(201);
  }, 60_000);
  afterAll(() => world.close());

  function expectValid(res: TestResponse, path: string, status: number, method: HttpMethod = 'get'): void {
    expect(res.status, res.text).toBe(status);
    expect(schemaErrors(openapi.validator(path, String(status), method), res.body)).toEqual([]);
  }

  it('opens an issue numbered after the pull request, with labels, assignees and a milestone, as GitHub answers it', async () => {
    const created = await world.as.wes.post(`/repos/${APP}/issues`, {
      title: 'Upgrade lodash',
      body: 'lodash 3 is out of support.',
      labels: ['dependencies', { name: 'security' }],
      assignees: ['mona'],
      milestone: 1,
    });
    expectValid(created, '/repos/{owner}/{repo}/issues', 201, 'post');
    expect(pull.number).toBe(1);
    expect(created.body).toMatchObject({
      number: 2,
      node_id: expect.stringMatching(/^I_[A-Za-z0-9_-]{24}$/),
      title: 'Upgrade lodash',
      body: 'lodash 3 is out of support.',
      state: 'open',
      state_reason: null,
      user: { login: 'wes' },
      labels: [
        { name: 'dependencies', color: 'ededed' },
        { name: 'security', color: 'ededed' },
      ],
      assignee: { login: 'mona' },
      assignees: [{ login: 'mona' }],
      milestone: { number: 1, title: 'v1.0', open_issues: 1, closed_issues: 0 },
      comments: 0,
      closed_at: null,
      closed_by: null,
      locked: false,
      author_association: 'COLLABORATOR',
      html_url: 'https://github.com/octo-org/app/issues/2',
      url: `${world.server.url}/repos/${APP}/issues/2`,
      comments_url: `${world.server.url}/repos/${APP}/issues/2/comments`,
    });
    expect(created.body).not.toHaveProperty('pull_request');
    expect(created.headers.get('location')).toBe(`${world.server.url}/repos/${APP}/issues/2`);

    const read = await world.as.rita.get(`/repos/${APP}/issues/2`);
    expectValid(read, '/repos/{owner}/{repo}/issues/{issue_number}', 200);
    expect(read.body).toEqual(created.body);

    // The pull request is issue 1, with its `pull_request` key.
    const asIssue = await world.as.rita.get(`/repos/${APP}/issues/1`);
    expectValid(asIssue, '/repos/{owner}/{repo}/issues/{issue_number}', 200);
    expect(asIssue.body).toMatchObject({
      number: 1,
      node_id: pull.node_id,
      title: 'Update bump-lodash',
      html_url: 'https://github.com/octo-org/app/pull/1',
      draft: false,
      pull_request: {
        url: `${world.server.url}/repos/${APP}/pulls/1`,
        html_url: 'https://github.com/octo-org/app/pull/1',
        diff_url: 'https://github.com/octo-org/app/pull/1.diff',
        patch_url: 'https://github.com/octo-org/app/pull/1.patch',
        merged_at: null,
      },
    });
    expect((await world.as.rita.get(`/repos/${APP}/issues/99`)).status).toBe(404);
    expect((await world.as.otto.get(`/repos/${APP}/issues/2`)).status).toBe(404);

    // The next pull request takes the number after the issue.
    const next = await openPullThroughApi(world.as.wes, APP, 'after-issue', { 'after.txt': 'after\n' });
    expect(next.number).toBe(3);
  });

  it('drops labels, assignees and the milestone of a reader, and refuses what GitHub refuses', async () => {
    const reader = await world.as.rita.post(`/repos/${APP}/issues`, {
      title: 42,
      labels: ['wontfix'],
      assignees: ['wes'],
      milestone: 1,
    });
    expectValid(reader, '/repos/{owner}/{repo}/issues', 201, 'post');
    expect(reader.body).toMatchObject({ title: '42', labels: [], assignees: [], assignee: null, milestone: null, user: { login: 'rita' } });
    expect((await world.as.rita.get(`/repos/${APP}/labels`)).body.map((l: { name: string }) => l.name)).not.toContain('wontfix');

    const noTitle = await world.as.wes.post(`/repos/${APP}/issues`, { body: 'no title' });
    expectValid(noTitle, '/repos/{owner}/{repo}/issues', 422, 'post');
    expect(noTitle.body.message).toBe('Invalid request.\n\n"title" wasn\'t supplied.');
    const blank = await world.as.wes.post(`/repos/${APP}/issues`, { title: '  ' });
    expect(blank.status).toBe(422);
    expect(blank.body.errors).toEqual([{ resource: 'Issue', field: 'title', code: 'missing_field' }]);
    const milestone = await world.as.wes.post(`/repos/${APP}/issues`, { title: 'x', milestone: 99 });
    expectValid(milestone, '/repos/{owner}/{repo}/issues', 422, 'post');
    expect(milestone.body).toMatchObject({
      message: 'Validation Failed',
      errors: [{ resource: 'Issue', field: 'milestone', code: 'invalid', value: 99 }],
    });
    // Neither an outsider nor a triager (no write access, not an organisation member, no comment) can be assigned.
    for (const login of ['otto', 'tess', 'ghost']) {
      const refused = await world.as.wes.post(`/repos/${APP}/issues`, { title: 'x', assignees: [login] });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ resource: 'Issue', field: 'assignees', code: 'invalid', value: login }]);
    }
    expect((await world.as.otto.post(`/repos/${APP}/issues`, { title: 'x' })).status).toBe(404);
    expect((await world.as.wes.post(`/repos/${APP}/issues`, [])).status).toBe(400);
    const archived = await world.as.wes.post(`/repos/${ARCHIVED}/issues`, { title: 'x' });
    expect(archived.status).toBe(403);
    expect(archived.body.message).toBe('Repository was archived so is read-only.');
    expect((await world.as.wes.get(`/repos/${ARCHIVED}/issues`)).body).toEqual([]);
  });

  it('lists issues and pull requests with GitHub’s filters, sorts and pages', async () => {
    const list = async (query: string) => {
      const res = await world.as.rita.get(`/repos/${APP}/issues${query}`);
      expectValid(res, '/repos/{owner}/{repo}/issues', 200);
      return res.body.map((item: { number: number }) => item.number);
    };
    expect(await list('')).toEqual([4, 3, 2, 1]);
    expect(await list('?direction=asc')).toEqual([1, 2, 3, 4]);
    expect(await list('?creator=RITA')).toEqual([4]);
    expect(await list('?labels=dependencies,security')).toEqual([2]);
    expect(await list('?labels=dependencies,nope')).toEqual([]);
    expect(await list('?assignee=MONA')).toEqual([2]);
    expect(await list('?assignee=tess')).toEqual([]);
    expect(await list('?assignee=*')).toEqual([2]);
    expect(await list('?assignee=none')).toEqual([4, 3, 1]);
    expect(await list('?milestone=1')).toEqual([2]);
    expect(await list('?milestone=none')).toEqual([4, 3, 1]);
    expect(await list('?state=closed')).toEqual([]);
    const pulls = (await world.as.rita.get(`/repos/${APP}/issues?direction=asc`)).body.filter(
      (item: Record<string, unknown>) => 'pull_request' in item,
    );
    expect(pulls.map((item: { number: number }) => item.number)).toEqual([1, 3]);
    const page = await world.as.rita.get(`/repos/${APP}/issues?per_page=1&page=2`);
    expect(page.body.map((item: { number: number }) => item.number)).toEqual([3]);
    expect(page.headers.get('link')).toContain('rel="next"');
    const bad = await world.as.rita.get(`/repos/${APP}/issues?state=bogus`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { resource: 'Issue', field: 'state', code: 'invalid', message: 'state must be one of open, closed, all' },
    ]);
  });

  it('edits, closes and reopens an issue with issues webhooks; closing by the number of a pull request closes it', async () => {
    const { as, webhooks, receiver } = world;
    const path = `/repos/${APP}/issues/2`;
    const renamed = await as.wes.patch(path, { title: 'Upgrade lodash to 4.17.21', body: 'Now.' });
    expectValid(renamed, '/repos/{owner}/{repo}/issues/{issue_number}', 200, 'patch');
    expect(renamed.body).toMatchObject({ title: 'Upgrade lodash to 4.17.21', body: 'Now.', state: 'open' });

    const closed = await as.tess.patch(path, { state: 'closed', state_reason: 'not_planned' });
    expectValid(closed, '/repos/{owner}/{repo}/issues/{issue_number}', 200, 'patch');
    expect(closed.body).toMatchObject({
      state: 'closed',
      state_reason: 'not_planned',
      closed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      closed_by: { login: 'tess' },
      milestone: { number: 1, open_issues: 0, closed_issues: 1 },
    });
    const reopened = await as.wes.patch(path, { state: 'open' });
    expect(reopened.body).toMatchObject({ state: 'open', state_reason: 'reopened', closed_at: null, closed_by: null });

    // A triager may assign themself.
    const relabelled = await as.tess.patch(path, { labels: ['triaged'], assignees: ['mona', 'tess'], milestone: null });
    expect(relabelled.body).toMatchObject({
      labels: [{ name: 'triaged' }],
      assignees: [{ login: 'mona' }, { login: 'tess' }],
      milestone: null,
    });
    const cleared = await as.tess.patch(path, { labels: [], assignees: [] });
    expect(cleared.body).toMatchObject({ labels: [], assignees: [], assignee: null });

    // The author with read access edits their own issue; setting labels is dropped, as GitHub drops it.
    const own = await as.rita.patch(`/repos/${APP}/issues/4`, { title: 'Reader’s issue', labels: ['mine'] });
    expect(own.status, own.text).toBe(200);
    expect(own.body).toMatchObject({ title: 'Reader’s issue', labels: [] });
    const notOwn = await as.rita.patch(path, { title: 'Not mine' });
    expectValid(notOwn, '/repos/{owner}/{repo}/issues/{issue_number}', 403, 'patch');
    expect(notOwn.body.message).toBe('Must have push access to repository');
    expect((await as.wes.patch(path, { state: 'done' })).status).toBe(422);
    const unknownMilestone = await as.wes.patch(path, { milestone: 7 });
    expectValid(unknownMilestone, '/repos/{owner}/{repo}/issues/{issue_number}', 422, 'patch');

    // A pull request closed and reopened through the issues API, with the pull request webhooks.
    const closedPull = await as.wes.patch(`/repos/${APP}/issues/1`, { state: 'closed' });
    expectValid(closedPull, '/repos/{owner}/{repo}/issues/{issue_number}', 200, 'patch');
    expect(closedPull.body).toMatchObject({
      state: 'closed',
      state_reason: null,
      closed_by: { login: 'wes' },
      pull_request: { merged_at: null },
    });
    expect((await as.wes.get(`/repos/${APP}/pulls/1`)).body).toMatchObject({ state: 'closed', merged: false });
    const reopenedPull = await as.wes.patch(`/repos/${APP}/issues/1`, { state: 'open', title: 'Bump lodash' });
    expect(reopenedPull.body).toMatchObject({ state: 'open', title: 'Bump lodash', closed_at: null });
    expect((await as.wes.get(`/repos/${APP}/pulls/1`)).body).toMatchObject({ state: 'open', title: 'Bump lodash' });

    await webhooks.settled();
    // Each delivery goes on its own (as GitHub's do), so they are compared in any order.
    const issues = receiver.of('issues');
    expect(
      issues
        .filter((p) => p.issue.number === 2)
        .map((p) => p.action)
        .sort(),
    ).toEqual(['assigned', 'closed', 'edited', 'opened', 'reopened', 'unassigned', 'unassigned']);
    expect(issues.some((p) => p.issue.number === 1)).toBe(false);
    const edited = receiver.of('issues', 'edited').find((p) => p.issue.number === 2);
    expect(edited).toMatchObject({
      changes: { title: { from: 'Upgrade lodash' }, body: { from: 'lodash 3 is out of support.' } },
      issue: { number: 2, title: 'Upgrade lodash to 4.17.21' },
      repository: { full_name: APP },
      sender: { login: 'wes' },
    });
    const closedHook = receiver.of('issues', 'closed')[0];
    expect(closedHook).toMatchObject({ issue: { number: 2, state: 'closed', state_reason: 'not_planned' }, sender: { login: 'tess' } });
    expect(receiver.of('issues', 'assigned').map((p) => p.assignee.login)).toEqual(['tess']);
    expect(
      receiver
        .of('issues', 'unassigned')
        .map((p) => p.assignee.login)
        .sort(),
    ).toEqual(['mona', 'tess']);
    for (const action of ['opened', 'edited', 'closed', 'reopened', 'assigned', 'unassigned']) {
      const payload = receiver.of('issues', action)[0];
      expect(schemaErrors(openapi.webhookValidator(`issues-${action}`), payload), action).toEqual([]);
    }
    const pullHooks = receiver.of('pull_request').filter((p) => p.number === 1);
    expect(pullHooks.map((p) => p.action).sort()).toEqual(['closed', 'edited', 'opened', 'reopened']);
    const pullClosed = pullHooks.find((p) => p.action === 'closed');
    expect(pullClosed).toMatchObject({ pull_request: { number: 1, state: 'closed', merged: false }, sender: { login: 'wes' } });
    expect(pullHooks.find((p) => p.action === 'edited')).toMatchObject({ changes: { title: { from: 'Update bump-lodash' } } });
    expect(schemaErrors(openapi.webhookValidator('pull-request-closed'), pullClosed)).toEqual([]);
  });
});
