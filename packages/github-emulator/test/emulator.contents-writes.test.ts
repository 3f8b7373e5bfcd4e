import { createHash } from 'node:crypto';
import type { TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GitHubOpenApi, type HttpMethod, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import { startTracker, type TrackerWorld } from './tracker.ts';
import { APP, ARCHIVED, EMPTY } from './tracker-seed.ts';
import { commitThroughApi, decoded, headOf } from './writes.ts';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
/** `git hash-object` of a text. */
const blobSha = (text: string) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0`)
    .update(text)
    .digest('hex');

/**
 * File writes through the contents API (https://docs.github.com/rest/repos/contents#create-or-update-file-contents,
 * #delete-a-file): one commit per write on the branch, GitHub's `file-commit` answer and its 404/409/422 refusals, and
 * the `push` webhook naming the paths each pushed commit added, modified and removed.
 */
describe('GitHub emulator: creating, updating and deleting files', () => {
  let openapi: GitHubOpenApi;
  let world: TrackerWorld;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    world = await startTracker();
  }, 60_000);
  afterAll(() => world.close());

  function expectValid(res: TestResponse, status: number, method: HttpMethod): void {
    expect(res.status, res.text).toBe(status);
    expect(schemaErrors(openapi.validator('/repos/{owner}/{repo}/contents/{path}', String(status), method), res.body)).toEqual([]);
  }

  it('creates a file (201), updates it with its sha (200) and deletes it (200), each a commit with a push webhook', async () => {
    const { as, webhooks, receiver } = world;
    const path = `/repos/${APP}/contents/.github/dependabot.yml`;
    const before = await headOf(as.wes, APP, 'main');
    const created = await as.wes.put(path, { message: 'Add dependabot.yml', content: b64('version: 2\n') });
    expectValid(created, 201, 'put');
    expect(created.body.content).toMatchObject({
      type: 'file',
      name: 'dependabot.yml',
      path: '.github/dependabot.yml',
      sha: blobSha('version: 2\n'),
      size: 11,
      html_url: 'https://github.com/octo-org/app/blob/main/.github/dependabot.yml',
      git_url: `${world.server.url}/repos/${APP}/git/blobs/${blobSha('version: 2\n')}`,
    });
    expect(created.body.commit).toMatchObject({
      message: 'Add dependabot.yml',
      parents: [{ sha: before }],
      author: { name: 'Wes Writer', email: 'wes@example.com' },
      committer: { name: 'Wes Writer', email: 'wes@example.com' },
    });
    expect(await headOf(as.wes, APP, 'main')).toBe(created.body.commit.sha);
    expect(decoded(await as.rita.get(path))).toBe('version: 2\n');

    const author = { name: 'Bot', email: 'bot@example.com', date: '2030-01-02T03:04:05Z' };
    const updated = await as.wes.put(path, {
      message: 'Weekly updates',
      content: b64('version: 2\nupdates: []\n'),
      sha: created.body.content.sha,
      author,
    });
    expectValid(updated, 200, 'put');
    expect(updated.body.commit).toMatchObject({
      parents: [{ sha: created.body.commit.sha }],
      author,
      committer: { name: 'Wes Writer', email: 'wes@example.com' },
    });
    expect(decoded(await as.rita.get(path))).toBe('version: 2\nupdates: []\n');

    const removed = await as.wes.del(path, { message: 'Remove dependabot.yml', sha: updated.body.content.sha });
    expectValid(removed, 200, 'delete');
    expect(removed.body.content).toBeNull();
    expect(removed.body.commit).toMatchObject({ message: 'Remove dependabot.yml', parents: [{ sha: updated.body.commit.sha }] });
    expect((await as.rita.get(path)).status).toBe(404);

    await webhooks.settled();
    const pushes = receiver.of('push').filter((p) => p.ref === 'refs/heads/main');
    const byAfter = (sha: string) => pushes.find((p) => p.after === sha);
    expect(byAfter(created.body.commit.sha)).toMatchObject({
      before,
      created: false,
      deleted: false,
      forced: false,
      commits: [
        {
          id: created.body.commit.sha,
          message: 'Add dependabot.yml',
          distinct: true,
          added: ['.github/dependabot.yml'],
          modified: [],
          removed: [],
        },
      ],
      head_commit: { id: created.body.commit.sha, added: ['.github/dependabot.yml'] },
      pusher: { name: 'wes', email: 'wes@example.com' },
      sender: { login: 'wes' },
      repository: { full_name: APP },
    });
    expect(byAfter(updated.body.commit.sha)?.commits).toEqual([
      expect.objectContaining({
        added: [],
        modified: ['.github/dependabot.yml'],
        removed: [],
        author: { name: 'Bot', email: 'bot@example.com' },
      }),
    ]);
    expect(byAfter(removed.body.commit.sha)?.commits).toEqual([
      expect.objectContaining({ added: [], modified: [], removed: ['.github/dependabot.yml'] }),
    ]);
    for (const payload of pushes) expect(schemaErrors(openapi.webhookValidator('push'), payload)).toEqual([]);
  });

  it('answers as GitHub does: 422 without sha, 409 for a stale sha, 404 for a missing branch or file, 403 and 404 by role', async () => {
    const { as } = world;
    const path = `/repos/${APP}/contents/README.md`;
    const current = (await as.wes.get(path)).body.sha;
    const noSha = await as.wes.put(path, { message: 'Edit', content: b64('# New\n') });
    expectValid(noSha, 422, 'put');
    expect(noSha.body.message).toBe('Invalid request.\n\n"sha" wasn\'t supplied.');
    // (GitHub's description of the 409 is a `oneOf` of two schemas that both take a basic error: not checked against it.)
    const stale = await as.wes.put(path, { message: 'Edit', content: b64('# New\n'), sha: blobSha('# Old\n') });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(`README.md does not match ${blobSha('# Old\n')}`);
    const noBranch = await as.wes.put(path, { message: 'Edit', content: b64('# New\n'), sha: current, branch: 'nope' });
    expectValid(noBranch, 404, 'put');
    expect(noBranch.body.message).toBe('Branch nope not found');
    expect((await as.wes.put(path, { content: b64('x') })).body.message).toBe('Invalid request.\n\n"message" wasn\'t supplied.');
    expect((await as.wes.put(path, { message: 'x', content: 'not base64!' })).status).toBe(422);
    // A path that is not there takes no sha: any given is ignored, as GitHub does.
    expect((await as.wes.put(`/repos/${APP}/contents/NEW.md`, { message: 'New', content: b64('new\n'), sha: current })).status).toBe(201);

    const reader = await as.rita.put(path, { message: 'Edit', content: b64('# New\n'), sha: current });
    expect(reader.status).toBe(403);
    expect(reader.body.message).toBe('Must have push access to repository');
    const readOnlyToken = await as.wesReadOnly.put(path, { message: 'Edit', content: b64('# New\n'), sha: current });
    expect(readOnlyToken.status).toBe(403);
    expect(readOnlyToken.body.message).toBe('Resource not accessible by personal access token');
    expect((await as.otto.put(path, { message: 'Edit', content: b64('# New\n'), sha: current })).status).toBe(404);
    const archived = await as.wes.put(`/repos/${ARCHIVED}/contents/README.md`, { message: 'Edit', content: b64('# New\n') });
    expect(archived.status).toBe(403);
    expect(archived.body.message).toBe('Repository was archived so is read-only.');

    const missingSha = await as.wes.del(path, { message: 'Remove' });
    expectValid(missingSha, 422, 'delete');
    expect(missingSha.body.message).toBe('Invalid request.\n\n"sha" wasn\'t supplied.');
    const staleDelete = await as.wes.del(path, { message: 'Remove', sha: blobSha('# Old\n') });
    expect(staleDelete.status).toBe(409);
    expect(staleDelete.body.message).toBe(`README.md does not match ${blobSha('# Old\n')}`);
    expectValid(await as.wes.del(`/repos/${APP}/contents/nope.md`, { message: 'Remove', sha: current }), 404, 'delete');
    expect((await as.wes.del(`/repos/${APP}/contents/docs`, { message: 'Remove', sha: current })).status).toBe(404);
    expect((await as.rita.del(path, { message: 'Remove', sha: current })).status).toBe(403);
    expect(decoded(await as.rita.get(path))).toBe('# App\n');
  });

  it('writes to another branch, moving only it and synchronizing its open pull request; an empty repository gets its first commit', async () => {
    const { as, webhooks, receiver } = world;
    const main = await headOf(as.wes, APP, 'main');
    const sha = await commitThroughApi(as.wes, APP, main, { 'feature.txt': 'feature\n' });
    expect((await as.wes.post(`/repos/${APP}/git/refs`, { ref: 'refs/heads/feature', sha })).status).toBe(201);
    const pr = (await as.wes.post(`/repos/${APP}/pulls`, { title: 'Feature', head: 'feature', base: 'main' })).body;
    const file = (await as.wes.get(`/repos/${APP}/contents/feature.txt?ref=feature`)).body;
    const written = await as.wes.put(`/repos/${APP}/contents/feature.txt`, {
      message: 'More feature',
      content: b64('feature 2\n'),
      sha: file.sha,
      branch: 'feature',
      committer: { name: 'Ci', email: 'ci@example.com' },
    });
    expectValid(written, 200, 'put');
    expect(written.body.commit).toMatchObject({ author: { name: 'Ci', email: 'ci@example.com' }, committer: { name: 'Ci' } });
    expect(written.body.content.html_url).toBe('https://github.com/octo-org/app/blob/feature/feature.txt');
    expect(await headOf(as.wes, APP, 'main')).toBe(main);
    expect((await as.wes.get(`/repos/${APP}/pulls/${pr.number}`)).body.head.sha).toBe(written.body.commit.sha);

    // Without a commit the Git Database API answers 409 (GitHub's "Git Repository is empty."); the contents API makes the first one.
    const beforeFirst = await as.wes.get(`/repos/${EMPTY}/git/ref/heads%2Fmain`);
    expect([beforeFirst.status, beforeFirst.body.message]).toEqual([409, 'Git Repository is empty.']);
    const first = await as.wes.put(`/repos/${EMPTY}/contents/README.md`, { message: 'Initial commit', content: b64('# Empty no more\n') });
    expectValid(first, 201, 'put');
    expect(first.body.commit.parents).toEqual([]);
    expect(await headOf(as.wes, EMPTY, 'main')).toBe(first.body.commit.sha);
    expect((await as.wes.put(`/repos/${EMPTY}/contents/a.md`, { message: 'x', content: b64('a'), branch: 'other' })).status).toBe(404);

    await webhooks.settled();
    expect(receiver.of('pull_request', 'synchronize').map((p) => p.pull_request.head.sha)).toEqual([written.body.commit.sha]);
    expect(receiver.of('push').find((p) => p.repository.full_name === EMPTY)).toMatchObject({
      ref: 'refs/heads/main',
      created: true,
      commits: [{ id: first.body.commit.sha, added: ['README.md'], removed: [], modified: [] }],
    });
  });

  it('a push lists every commit it brings, oldest first, with their paths; a branch made at a known commit brings none', async () => {
    const { as, webhooks, receiver } = world;
    const main = await headOf(as.wes, APP, 'main');
    const one = await commitThroughApi(as.wes, APP, main, { 'one.txt': '1\n', 'docs/guide.md': 'Guide 2\n' }, 'One');
    const two = await commitThroughApi(as.wes, APP, one, { 'one.txt': null, 'two.txt': '2\n' }, 'Two');
    expect((await as.wes.patch(`/repos/${APP}/git/refs/heads/main`, { sha: two })).status).toBe(200);
    expect((await as.wes.post(`/repos/${APP}/git/refs`, { ref: 'refs/heads/same', sha: two })).status).toBe(201);
    await webhooks.settled();
    const moved = receiver.of('push').find((p) => p.after === two && p.ref === 'refs/heads/main');
    expect(moved.commits.map((c: { id: string; message: string; added: string[]; removed: string[]; modified: string[] }) => c)).toEqual([
      expect.objectContaining({ id: one, message: 'One', added: ['one.txt'], removed: [], modified: ['docs/guide.md'] }),
      expect.objectContaining({ id: two, message: 'Two', added: ['two.txt'], removed: ['one.txt'], modified: [] }),
    ]);
    expect(moved.head_commit).toMatchObject({ id: two, distinct: true });
    const same = receiver.of('push').find((p) => p.ref === 'refs/heads/same');
    expect(same).toMatchObject({ created: true, commits: [], head_commit: { id: two, distinct: false } });
    expect(schemaErrors(openapi.webhookValidator('push'), same)).toEqual([]);
  });
});
