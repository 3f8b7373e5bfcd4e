import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { startTracker, type TrackerWorld } from './tracker.ts';
import { APP, SITE, type TOKENS } from './tracker-seed.ts';
import { openPullThroughApi } from './writes.ts';

const logins = (users: { login: string }[]) => users.map((user) => user.login);

/**
 * People on pull requests and issues: review requests (https://docs.github.com/rest/pulls/review-requests), assignees
 * (https://docs.github.com/rest/issues/assignees), milestones (https://docs.github.com/rest/issues/milestones), and
 * what a user may do on a repository (https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user),
 * for an admin, a maintainer, a writer, a triager, a reader and an outsider.
 */
describe('GitHub emulator: review requests, assignees, milestones and permissions', () => {
  let openapi: GitHubOpenApi;
  let world: TrackerWorld;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    world = await startTracker();
    await openPullThroughApi(world.as.wes, APP, 'bump-axios', { 'package.json': '{ "name": "app", "axios": "1" }\n' });
  }, 60_000);
  afterAll(() => world.close());

  function expectValid(res: TestResponse, path: string, status: number, method: HttpMethod = 'get'): void {
    expect(res.status, res.text).toBe(status);
    expect(schemaErrors(openapi.validator(path, String(status), method), res.body)).toEqual([]);
  }

  it('requests reviews from collaborators only, never the author, and removes them, with pull_request webhooks', async () => {
    const { as, webhooks, receiver } = world;
    const path = `/repos/${APP}/pulls/1/requested_reviewers`;
    const requested = await as.tess.post(path, { reviewers: ['mona', 'RITA'] });
    expectValid(requested, '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 201, 'post');
    expect(logins(requested.body.requested_reviewers)).toEqual(['mona', 'rita']);
    expect(requested.body.requested_teams).toEqual([]);
    // Asking again changes nothing.
    expect(logins((await as.tess.post(path, { reviewers: ['mona'] })).body.requested_reviewers)).toEqual(['mona', 'rita']);
    expect(logins((await as.rita.get(`/repos/${APP}/pulls/1`)).body.requested_reviewers)).toEqual(['mona', 'rita']);

    const author = await as.tess.post(path, { reviewers: ['wes'] });
    expect(author.status).toBe(422);
    expect(author.body.message).toBe('Review cannot be requested from pull request author.');
    const notCollaborator =
      'Reviews may only be requested from collaborators. One or more of the users or teams you specified is not a collaborator of the octo-org/app repository.';
    for (const body of [{ reviewers: ['otto'] }, { reviewers: ['mona', 'ghost'] }, { team_reviewers: ['core'] }]) {
      const refused = await as.tess.post(path, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(refused.body.message).toBe(notCollaborator);
    }
    expect((await as.tess.post(path, { reviewers: 'mona' })).status).toBe(422);
    const reader = await as.rita.post(path, { reviewers: ['mona'] });
    expect(reader.status).toBe(403);
    expect((await as.tess.post(`/repos/${APP}/pulls/99/requested_reviewers`, { reviewers: ['mona'] })).status).toBe(404);

    const removed = await as.tess.del(path, { reviewers: ['rita', 'wes'] });
    expectValid(removed, '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 200, 'delete');
    expect(logins(removed.body.requested_reviewers)).toEqual(['mona']);
    const noList = await as.tess.del(path, {});
    expectValid(noList, '/repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers', 422, 'delete');
    expect(noList.body.message).toBe('Invalid request.\n\n"reviewers" wasn\'t supplied.');

    // On a public repository, reading it does not make one a collaborator.
    const sitePull = await openPullThroughApi(as.wes, SITE, 'site-change', { 'index.html': '<h1>New</h1>\n' });
    const publicReader = await as.wes.post(`/repos/${SITE}/pulls/${sitePull.number}/requested_reviewers`, { reviewers: ['otto'] });
    expect(publicReader.status).toBe(422);
    expect(publicReader.body.message).toContain('not a collaborator of the octo-org/site repository.');

    await webhooks.settled();
    const asked = receiver.of('pull_request', 'review_requested').filter((p) => p.repository.full_name === APP);
    expect(asked.map((p) => p.requested_reviewer.login).sort()).toEqual(['mona', 'rita']);
    expect(asked[0]).toMatchObject({ number: 1, sender: { login: 'tess' }, pull_request: { number: 1 } });
    const dropped = receiver.of('pull_request', 'review_request_removed');
    expect(dropped.map((p) => p.requested_reviewer.login)).toEqual(['rita']);
    expect(dropped[0].pull_request.requested_reviewers.map((u: { login: string }) => u.login)).toEqual(['mona']);
    expect(schemaErrors(openapi.webhookValidator('pull-request-review-requested'), asked[0])).toEqual([]);
    expect(schemaErrors(openapi.webhookValidator('pull-request-review-request-removed'), dropped[0])).toEqual([]);
  });

  it('adds and removes assignees, silently dropping those who cannot be assigned and the requests of a reader', async () => {
    const { as, webhooks, receiver } = world;
    const path = `/repos/${APP}/issues/1/assignees`;
    const added = await as.tess.post(path, { assignees: ['mona', 'otto', 'ghost', 'rita'] });
    expectValid(added, '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 201, 'post');
    expect(logins(added.body.assignees)).toEqual(['mona']);
    expect(added.body).toMatchObject({
      number: 1,
      assignee: { login: 'mona' },
      pull_request: { url: `${world.server.url}/repos/${APP}/pulls/1` },
    });
    // A reader's request changes nothing; once the reader comments, they can be assigned.
    expect(logins((await as.rita.post(path, { assignees: ['rita'] })).body.assignees)).toEqual(['mona']);
    expect((await as.rita.post(`/repos/${APP}/issues/1/comments`, { body: 'I can take this.' })).status).toBe(201);
    expect(logins((await as.tess.post(path, { assignees: ['rita', 'mona'] })).body.assignees)).toEqual(['mona', 'rita']);
    expect(logins((await as.rita.get(`/repos/${APP}/pulls/1`)).body.assignees)).toEqual(['mona', 'rita']);
    expect((await as.rita.get(`/repos/${APP}/pulls/1`)).body.assignee.login).toBe('mona');

    const removed = await as.tess.del(path, { assignees: ['mona'] });
    expectValid(removed, '/repos/{owner}/{repo}/issues/{issue_number}/assignees', 200, 'delete');
    expect(logins(removed.body.assignees)).toEqual(['rita']);
    expect(logins((await as.rita.del(path, { assignees: ['rita'] })).body.assignees)).toEqual(['rita']);
    expect((await as.tess.post(`/repos/${APP}/issues/77/assignees`, { assignees: ['mona'] })).status).toBe(404);

    // Who could be assigned to any issue: writers and organisation members, not a triager, a reader or an outsider.
    for (const [login, status] of [
      ['wes', 204],
      ['olivia', 204],
      ['mona', 204],
      ['tess', 404],
      ['rita', 404],
      ['otto', 404],
      ['ghost', 404],
    ] as const) {
      expect((await as.rita.get(`/repos/${APP}/assignees/${login}`)).status, login).toBe(status);
    }

    await webhooks.settled();
    const assigned = receiver.of('pull_request', 'assigned').filter((p) => p.number === 1);
    expect(assigned.map((p) => p.assignee.login).sort()).toEqual(['mona', 'rita']);
    const unassigned = receiver.of('pull_request', 'unassigned').filter((p) => p.number === 1);
    expect(unassigned.map((p) => p.assignee.login)).toEqual(['mona']);
    expect(schemaErrors(openapi.webhookValidator('pull-request-assigned'), assigned[0])).toEqual([]);
  });

  it('creates, lists and reads milestones; issues and pull requests count towards them', async () => {
    const { as } = world;
    const first = await as.olivia.post(`/repos/${APP}/milestones`, {
      title: 'v2.0',
      description: 'Next major',
      due_on: '2030-06-01T00:00:00Z',
    });
    expectValid(first, '/repos/{owner}/{repo}/milestones', 201, 'post');
    expect(first.body).toMatchObject({
      number: 1,
      node_id: expect.stringMatching(/^MI_/),
      title: 'v2.0',
      description: 'Next major',
      state: 'open',
      due_on: '2030-06-01T00:00:00Z',
      creator: { login: 'olivia' },
      open_issues: 0,
      closed_issues: 0,
      closed_at: null,
      html_url: 'https://github.com/octo-org/app/milestone/1',
    });
    expect(first.headers.get('location')).toBe(`${world.server.url}/repos/${APP}/milestones/1`);
    const second = await as.wes.post(`/repos/${APP}/milestones`, { title: 'Backlog' });
    expect(second.body).toMatchObject({ number: 2, due_on: null, description: null });
    const closed = await as.wes.post(`/repos/${APP}/milestones`, { title: 'v1.0', state: 'closed', due_on: '2020-01-01T00:00:00Z' });
    expect(closed.body).toMatchObject({ number: 3, state: 'closed', closed_at: expect.any(String) });

    const duplicate = await as.wes.post(`/repos/${APP}/milestones`, { title: 'V2.0' });
    expectValid(duplicate, '/repos/{owner}/{repo}/milestones', 422, 'post');
    expect(duplicate.body.errors).toEqual([{ resource: 'Milestone', field: 'title', code: 'already_exists' }]);
    expect((await as.wes.post(`/repos/${APP}/milestones`, {})).body.message).toBe('Invalid request.\n\n"title" wasn\'t supplied.');
    expect((await as.wes.post(`/repos/${APP}/milestones`, { title: 'x', due_on: 'soon' })).status).toBe(422);
    expect((await as.tess.post(`/repos/${APP}/milestones`, { title: 'Triage' })).status).toBe(403);

    const list = await as.rita.get(`/repos/${APP}/milestones`);
    expectValid(list, '/repos/{owner}/{repo}/milestones', 200);
    expect(list.body.map((m: { title: string }) => m.title)).toEqual(['v2.0', 'Backlog']);
    expect((await as.rita.get(`/repos/${APP}/milestones?state=all`)).body.map((m: { number: number }) => m.number)).toEqual([3, 1, 2]);
    expect((await as.rita.get(`/repos/${APP}/milestones?state=closed`)).body.map((m: { number: number }) => m.number)).toEqual([3]);
    expect((await as.rita.get(`/repos/${APP}/milestones?direction=desc`)).body.map((m: { number: number }) => m.number)).toEqual([2, 1]);

    const onPull = await as.wes.patch(`/repos/${APP}/issues/1`, { milestone: 1 });
    expect(onPull.body.milestone).toMatchObject({ number: 1, open_issues: 1 });
    expect((await as.rita.get(`/repos/${APP}/pulls/1`)).body.milestone).toMatchObject({ number: 1, title: 'v2.0' });
    await as.wes.post(`/repos/${APP}/issues`, { title: 'Plan', milestone: '1' });
    const one = await as.rita.get(`/repos/${APP}/milestones/1`);
    expectValid(one, '/repos/{owner}/{repo}/milestones/{milestone_number}', 200);
    expect(one.body).toMatchObject({ number: 1, open_issues: 2, closed_issues: 0 });
    expectValid(await as.rita.get(`/repos/${APP}/milestones/9`), '/repos/{owner}/{repo}/milestones/{milestone_number}', 404);
    const unknown = await as.wes.patch(`/repos/${APP}/issues/1`, { milestone: 9 });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ resource: 'Issue', field: 'milestone', code: 'invalid', value: 9 }]);
    expect((await as.otto.get(`/repos/${APP}/milestones`)).status).toBe(404);
  });

  it('answers each user’s permission to callers with push access: admin, write, read or none, with the role', async () => {
    const { as } = world;
    const expected: [keyof typeof TOKENS & string, string, string][] = [
      ['olivia', 'admin', 'admin'],
      ['mona', 'write', 'maintain'],
      ['wes', 'write', 'write'],
      ['tess', 'read', 'triage'],
      ['rita', 'read', 'read'],
      ['otto', 'none', 'none'],
    ];
    for (const [login, permission, role] of expected) {
      const res = await as.wes.get(`/repos/${APP}/collaborators/${login}/permission`);
      expectValid(res, '/repos/{owner}/{repo}/collaborators/{username}/permission', 200);
      expect(res.body, login).toMatchObject({ permission, role_name: role, user: { login, role_name: role } });
    }
    expect((await as.wes.get(`/repos/${APP}/collaborators/mona/permission`)).body.user.permissions).toEqual({
      admin: false,
      maintain: true,
      push: true,
      triage: true,
      pull: true,
    });
    expect((await as.wes.get(`/repos/${APP}/collaborators/otto/permission`)).body.user.permissions).toMatchObject({ pull: false });
    // Callers: admin, maintainer and writer may ask; a triager, a reader and a read-only token may not; an outsider sees nothing.
    for (const caller of ['olivia', 'mona', 'wes'] as const) {
      expect((await as[caller].get(`/repos/${APP}/collaborators/rita/permission`)).status, caller).toBe(200);
    }
    for (const caller of ['tess', 'rita'] as const) {
      const refused = await as[caller].get(`/repos/${APP}/collaborators/wes/permission`);
      expect(refused.status, caller).toBe(403);
      expect(refused.body).toMatchObject({
        message: 'Must have push access to view collaborator permission.',
        documentation_url: 'https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user',
      });
    }
    const readOnly = await as.wesReadOnly.get(`/repos/${APP}/collaborators/wes/permission`);
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.message).toBe('Resource not accessible by personal access token');
    expect((await as.otto.get(`/repos/${APP}/collaborators/wes/permission`)).status).toBe(404);
    expectValid(
      await as.wes.get(`/repos/${APP}/collaborators/ghost/permission`),
      '/repos/{owner}/{repo}/collaborators/{username}/permission',
      404,
    );
    expect((await as.wes.get(`/repos/${APP}/collaborators/octo-org/permission`)).status).toBe(404);
    // On a public repository everyone reads: an outsider's permission is read, and an outsider may not ask.
    expect((await as.wes.get(`/repos/${SITE}/collaborators/otto/permission`)).body).toMatchObject({
      permission: 'read',
      role_name: 'read',
    });
    expect((await as.otto.get(`/repos/${SITE}/collaborators/wes/permission`)).status).toBe(403);
  });
});
