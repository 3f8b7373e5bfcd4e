import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { startTracker, type TrackerWorld } from './tracker.ts';
import { APP } from './tracker-seed.ts';
import { openPullThroughApi } from './writes.ts';

/**
 * Issue comments on pull requests and plain issues (https://docs.github.com/rest/issues/comments): creating, reading,
 * editing and deleting them, who may, and the `issue_comment` webhooks (`created`, `edited`, `deleted`) in GitHub's
 * payload shape.
 */
describe('GitHub emulator: issue comments and issue_comment webhooks', () => {
  let openapi: GitHubOpenApi;
  let world: TrackerWorld;
  let issueNumber: number;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    world = await startTracker();
    await openPullThroughApi(world.as.wes, APP, 'bump-react', { 'package.json': '{ "name": "app", "react": "19" }\n' });
    issueNumber = (await world.as.rita.post(`/repos/${APP}/issues`, { title: 'Dependency dashboard' })).body.number;
  }, 60_000);
  afterAll(() => world.close());

  function expectValid(res: TestResponse, path: string, status: number, method: HttpMethod = 'get'): void {
    expect(res.status, res.text).toBe(status);
    expect(schemaErrors(openapi.validator(path, String(status), method), res.body)).toEqual([]);
  }

  it('a comment on a pull request delivers issue_comment created, with the issue’s pull_request key and the commenter as sender', async () => {
    const { as, webhooks, receiver } = world;
    const created = await as.tess.post(`/repos/${APP}/issues/1/comments`, { body: '@dependabot rebase' });
    expectValid(created, '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201, 'post');
    const id = created.body.id;
    expect(created.body).toMatchObject({
      node_id: expect.stringMatching(/^IC_/),
      body: '@dependabot rebase',
      user: { login: 'tess' },
      author_association: 'COLLABORATOR',
      html_url: `https://github.com/octo-org/app/pull/1#issuecomment-${id}`,
      issue_url: `${world.server.url}/repos/${APP}/issues/1`,
      url: `${world.server.url}/repos/${APP}/issues/comments/${id}`,
    });
    expect(created.body.updated_at).toBe(created.body.created_at);
    expect(created.headers.get('location')).toBe(`${world.server.url}/repos/${APP}/issues/comments/${id}`);
    const read = await as.rita.get(`/repos/${APP}/issues/comments/${id}`);
    expectValid(read, '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200);
    expect(read.body).toEqual(created.body);
    expect((await as.rita.get(`/repos/${APP}/pulls/1`)).body.comments).toBe(1);

    await webhooks.settled();
    const [payload, ...others] = receiver.of('issue_comment', 'created');
    expect(others).toEqual([]);
    expect(Object.keys(payload).sort()).toEqual(['action', 'comment', 'issue', 'repository', 'sender']);
    expect(payload).toMatchObject({
      action: 'created',
      issue: {
        number: 1,
        state: 'open',
        user: { login: 'wes' },
        comments: 1,
        pull_request: {
          url: `${world.server.url}/repos/${APP}/pulls/1`,
          html_url: 'https://github.com/octo-org/app/pull/1',
          diff_url: 'https://github.com/octo-org/app/pull/1.diff',
          patch_url: 'https://github.com/octo-org/app/pull/1.patch',
        },
      },
      comment: {
        id,
        node_id: created.body.node_id,
        body: '@dependabot rebase',
        user: { login: 'tess' },
        author_association: 'COLLABORATOR',
        created_at: created.body.created_at,
        updated_at: created.body.updated_at,
        html_url: created.body.html_url,
      },
      repository: { full_name: APP, private: true },
      sender: { login: 'tess' },
    });
    expect(schemaErrors(openapi.webhookValidator('issue-comment-created'), payload)).toEqual([]);
  });

  it('comments on a plain issue work the same, on the issue’s page and without a pull_request key', async () => {
    const { as, webhooks, receiver } = world;
    const created = await as.rita.post(`/repos/${APP}/issues/${issueNumber}/comments`, { body: 'Thanks!' });
    expectValid(created, '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201, 'post');
    expect(created.body.html_url).toBe(`https://github.com/octo-org/app/issues/${issueNumber}#issuecomment-${created.body.id}`);
    const list = await as.wes.get(`/repos/${APP}/issues/${issueNumber}/comments`);
    expectValid(list, '/repos/{owner}/{repo}/issues/{issue_number}/comments', 200);
    expect(list.body).toEqual([created.body]);
    expect((await as.wes.get(`/repos/${APP}/issues/${issueNumber}`)).body.comments).toBe(1);
    await webhooks.settled();
    const payload = receiver.of('issue_comment', 'created').find((p) => p.issue.number === issueNumber);
    expect(payload).toMatchObject({ issue: { number: issueNumber, comments: 1 }, comment: { body: 'Thanks!' }, sender: { login: 'rita' } });
    expect(payload).not.toHaveProperty('issue.pull_request');
    expect(schemaErrors(openapi.webhookValidator('issue-comment-created'), payload)).toEqual([]);
    const blank = await as.rita.post(`/repos/${APP}/issues/${issueNumber}/comments`, { body: ' ' });
    expect(blank.status).toBe(422);
    expect((await as.rita.post(`/repos/${APP}/issues/99/comments`, { body: 'x' })).status).toBe(404);
    expect((await as.otto.post(`/repos/${APP}/issues/${issueNumber}/comments`, { body: 'x' })).status).toBe(404);
  });

  it('edits (author or write access) with an edited webhook carrying the old body, and deletes with a deleted one', async () => {
    const { as, webhooks, receiver } = world;
    const comment = (await as.rita.post(`/repos/${APP}/issues/1/comments`, { body: '@dependabot ignore this major version' })).body;
    const path = `/repos/${APP}/issues/comments/${comment.id}`;

    const edited = await as.rita.patch(path, { body: '@dependabot ignore this minor version' });
    expectValid(edited, '/repos/{owner}/{repo}/issues/comments/{comment_id}', 200, 'patch');
    expect(edited.body).toMatchObject({ id: comment.id, body: '@dependabot ignore this minor version', created_at: comment.created_at });
    expect((await as.rita.get(path)).body.body).toBe('@dependabot ignore this minor version');
    // Someone else's comment: a triager may not edit it, a writer may.
    const refused = await as.tess.patch(path, { body: 'hijacked' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Must have push access to repository');
    expect((await as.wes.patch(path, { body: '@dependabot ignore this dependency' })).status).toBe(200);
    expect((await as.rita.patch(path, {})).status).toBe(422);
    expect((await as.rita.patch(`/repos/${APP}/issues/comments/999999`, { body: 'x' })).status).toBe(404);

    expect((await as.tess.del(path)).status).toBe(403);
    const deleted = await as.rita.del(path);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await as.rita.get(path)).status).toBe(404);
    expect((await as.rita.del(path)).status).toBe(404);
    expect((await as.rita.get(`/repos/${APP}/issues/1`)).body.comments).toBe(1);

    await webhooks.settled();
    const edits = receiver.of('issue_comment', 'edited').filter((p) => p.comment.id === comment.id);
    expect(edits.map((p) => [p.sender.login, p.changes.body.from, p.comment.body]).sort()).toEqual([
      ['rita', '@dependabot ignore this major version', '@dependabot ignore this minor version'],
      ['wes', '@dependabot ignore this minor version', '@dependabot ignore this dependency'],
    ]);
    for (const payload of edits) expect(schemaErrors(openapi.webhookValidator('issue-comment-edited'), payload)).toEqual([]);
    const [removal] = receiver.of('issue_comment', 'deleted');
    expect(removal).toMatchObject({
      action: 'deleted',
      issue: { number: 1, comments: 1, pull_request: { url: `${world.server.url}/repos/${APP}/pulls/1` } },
      comment: { id: comment.id, body: '@dependabot ignore this dependency', user: { login: 'rita' } },
      sender: { login: 'rita' },
    });
    expect(schemaErrors(openapi.webhookValidator('issue-comment-deleted'), removal)).toEqual([]);
  });
});
