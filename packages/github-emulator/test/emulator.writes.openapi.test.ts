import type { Listening } from '@switchyard/service-kit';
import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoSeed } from '../src/index.ts';
import { ALICE, startEmulator } from './fixtures.ts';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { type Api, apiAs, commitThroughApi, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';

/**
 * Every answer of the git data, branches, pull request, label, comment and status endpoints validates against GitHub's
 * published OpenAPI description (`@octokit/openapi`), errors included (404 `basic-error`, 422 `validation-error`,
 * 405/409 of a merge).
 */
describe('GitHub emulator write endpoints against GitHub OpenAPI description', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let api: Api;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server } = await startEmulator(loadDemoSeed()));
    api = apiAs(server.url, ALICE);
  }, 60_000);
  afterAll(() => server.close());

  function expectValid(res: TestResponse, openapiPath: string, status: number, method: HttpMethod): void {
    expect(res.status, res.text).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(schemaErrors(openapi.validator(openapiPath, String(status), method), res.body)).toEqual([]);
  }

  it('git refs, blobs, trees and commits', async () => {
    const main = await api.get(`/repos/${REPO}/git/ref/heads/main`);
    expectValid(main, '/repos/{owner}/{repo}/git/ref/{ref}', 200, 'get');
    expect(main.body).toMatchObject({ ref: 'refs/heads/main', object: { type: 'commit', sha: expect.stringMatching(/^[0-9a-f]{40}$/) } });
    const commit = await api.get(`/repos/${REPO}/git/commits/${main.body.object.sha}`);
    expectValid(commit, '/repos/{owner}/{repo}/git/commits/{commit_sha}', 200, 'get');
    const blob = await api.post(`/repos/${REPO}/git/blobs`, { content: 'aGVsbG8K', encoding: 'base64' });
    expectValid(blob, '/repos/{owner}/{repo}/git/blobs', 201, 'post');
    expect(blob.body.sha).toBe('ce013625030ba8dba906f756967f9e9ca394464a'); // git hash-object of "hello\n"
    const tree = await api.post(`/repos/${REPO}/git/trees`, {
      base_tree: commit.body.tree.sha,
      tree: [
        { path: 'hello.txt', mode: '100644', type: 'blob', sha: blob.body.sha },
        { path: 'docs/a.md', mode: '100644', type: 'blob', content: '# A\n' },
      ],
    });
    expectValid(tree, '/repos/{owner}/{repo}/git/trees', 201, 'post');
    const created = await api.post(`/repos/${REPO}/git/commits`, {
      message: 'Add hello',
      tree: tree.body.sha,
      parents: [main.body.object.sha],
    });
    expectValid(created, '/repos/{owner}/{repo}/git/commits', 201, 'post');
    const ref = await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/schema-check', sha: created.body.sha });
    expectValid(ref, '/repos/{owner}/{repo}/git/refs', 201, 'post');
    const moved = await api.patch(`/repos/${REPO}/git/refs/heads/schema-check`, { sha: main.body.object.sha, force: true });
    expectValid(moved, '/repos/{owner}/{repo}/git/refs/{ref}', 200, 'patch');
    const notACommit = await api.patch(`/repos/${REPO}/git/refs/heads/schema-check`, { sha: blob.body.sha });
    expectValid(notACommit, '/repos/{owner}/{repo}/git/refs/{ref}', 422, 'patch');
    const fastForward = await api.patch(`/repos/${REPO}/git/refs/heads/schema-check`, { sha: created.body.sha });
    expectValid(fastForward, '/repos/{owner}/{repo}/git/refs/{ref}', 200, 'patch');
    const exists = await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/schema-check', sha: created.body.sha });
    expectValid(exists, '/repos/{owner}/{repo}/git/refs', 422, 'post');
    expect(exists.body.message).toBe('Reference already exists');
    expectValid(await api.get(`/repos/${REPO}/git/ref/heads/nope`), '/repos/{owner}/{repo}/git/ref/{ref}', 404, 'get');
    expect((await api.del(`/repos/${REPO}/git/refs/heads/schema-check`)).status).toBe(204);
  });

  it('branches', async () => {
    const branch = await api.get(`/repos/${REPO}/branches/main`);
    expectValid(branch, '/repos/{owner}/{repo}/branches/{branch}', 200, 'get');
    expect(branch.body).toMatchObject({ name: 'main', protected: false });
    const list = await api.get(`/repos/${REPO}/branches`);
    expectValid(list, '/repos/{owner}/{repo}/branches', 200, 'get');
    expect(list.body.map((b: { name: string }) => b.name)).toEqual(['develop', 'main']);
  });

  it('pull requests: open, list, get, update, merge and its refusals', async () => {
    const main = await headOf(api, REPO, 'main');
    const feature = await commitThroughApi(api, REPO, main, { 'feature.txt': 'x\n' });
    expect((await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/schema-pr', sha: feature })).status).toBe(201);
    const opened = await api.post(`/repos/${REPO}/pulls`, { title: 'Schema PR', head: 'schema-pr', base: 'main', body: 'Body' });
    expectValid(opened, '/repos/{owner}/{repo}/pulls', 201, 'post');
    expect(opened.body).toMatchObject({
      state: 'open',
      merged: false,
      mergeable: true,
      mergeable_state: 'clean',
      commits: 1,
      changed_files: 1,
    });
    const invalid = await api.post(`/repos/${REPO}/pulls`, { title: 'Again', head: 'schema-pr', base: 'main' });
    expectValid(invalid, '/repos/{owner}/{repo}/pulls', 422, 'post');
    const listed = await api.get(`/repos/${REPO}/pulls?state=all&head=acme:schema-pr`);
    expectValid(listed, '/repos/{owner}/{repo}/pulls', 200, 'get');
    expect(listed.body).toHaveLength(1);
    const path = `/repos/${REPO}/pulls/${opened.body.number}`;
    expectValid(await api.get(path), '/repos/{owner}/{repo}/pulls/{pull_number}', 200, 'get');
    const edited = await api.patch(path, { title: 'Schema PR, edited', body: null });
    expectValid(edited, '/repos/{owner}/{repo}/pulls/{pull_number}', 200, 'patch');
    expect(edited.body).toMatchObject({ title: 'Schema PR, edited', body: null });
    const stale = await api.put(`${path}/merge`, { sha: main, merge_method: 'squash' });
    expectValid(stale, '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 409, 'put');
    const merged = await api.put(`${path}/merge`, { sha: feature, merge_method: 'squash' });
    expectValid(merged, '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 200, 'put');
    const again = await api.put(`${path}/merge`, {});
    expectValid(again, '/repos/{owner}/{repo}/pulls/{pull_number}/merge', 405, 'put');
    expect(again.body.message).toBe('Pull Request is not mergeable');
  });

  it('labels, issue comments, commit statuses and check runs', async () => {
    const main = await headOf(api, REPO, 'main');
    const feature = await commitThroughApi(api, REPO, main, { 'labels.txt': 'l\n' });
    await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/schema-labels', sha: feature });
    const pr = await api.post(`/repos/${REPO}/pulls`, { title: 'Labels', head: 'schema-labels', base: 'main' });
    const label = await api.post(`/repos/${REPO}/labels`, { name: 'dependencies', color: '0366d6', description: 'Dependency updates' });
    expectValid(label, '/repos/{owner}/{repo}/labels', 201, 'post');
    expectValid(await api.post(`/repos/${REPO}/labels`, { name: 'Dependencies' }), '/repos/{owner}/{repo}/labels', 422, 'post');
    expectValid(await api.get(`/repos/${REPO}/labels`), '/repos/{owner}/{repo}/labels', 200, 'get');
    const added = await api.post(`/repos/${REPO}/issues/${pr.body.number}/labels`, { labels: ['dependencies', 'automerge'] });
    expectValid(added, '/repos/{owner}/{repo}/issues/{issue_number}/labels', 200, 'post');
    expect(added.body.map((l: { name: string }) => l.name)).toEqual(['dependencies', 'automerge']);
    const comment = await api.post(`/repos/${REPO}/issues/${pr.body.number}/comments`, { body: 'Looks good' });
    expectValid(comment, '/repos/{owner}/{repo}/issues/{issue_number}/comments', 201, 'post');
    const status = await api.post(`/repos/${REPO}/statuses/${feature}`, {
      state: 'success',
      context: 'ci/test',
      target_url: 'https://ci.example.com/1',
    });
    expectValid(status, '/repos/{owner}/{repo}/statuses/{sha}', 201, 'post');
    const combined = await api.get(`/repos/${REPO}/commits/schema-labels/status`);
    expectValid(combined, '/repos/{owner}/{repo}/commits/{ref}/status', 200, 'get');
    expect(combined.body).toMatchObject({ state: 'success', sha: feature, total_count: 1 });
    const runs = await api.get(`/repos/${REPO}/commits/${feature}/check-runs`);
    expectValid(runs, '/repos/{owner}/{repo}/commits/{ref}/check-runs', 200, 'get');
    expect(runs.body).toEqual({ total_count: 0, check_runs: [] });
    const withPr = await api.get(`/repos/${REPO}/pulls/${pr.body.number}`);
    expectValid(withPr, '/repos/{owner}/{repo}/pulls/{pull_number}', 200, 'get');
    expect(withPr.body).toMatchObject({
      comments: 1,
      labels: [
        { name: 'dependencies', color: '0366d6' },
        { name: 'automerge', color: 'ededed' },
      ],
    });
  });
});
