import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeBlob, makeCommit, makeTree } from '../src/git/objects.ts';
import { DEMO_TOKEN_ALICE, DEMO_TOKENS_ALICE, loadDemoSeed, startGitHubEmulator, webhookSignature } from '../src/index.ts';
import { createWebhookSender } from '../src/webhooks.ts';
import { ALICE, BOB, silentLogger, startEmulator } from './fixtures.ts';
import { type Api, apiAs, commitThroughApi, decoded, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';

describe('git object ids', () => {
  it('are the ids git itself gives blobs, trees and commits', () => {
    // Checked with `git hash-object`, `git write-tree` and `git commit-tree` on the same content.
    const hello = makeBlob('hello\n');
    expect(hello.sha).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(makeBlob('').sha).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(makeTree([]).sha).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    const index = makeBlob('export {};\n');
    expect(index.sha).toBe('cb0ff5c3b541f646105198ee23ac0fc3d805023e');
    const src = makeTree([{ name: 'index.ts', mode: '100644', type: 'blob', sha: index.sha }]);
    const root = makeTree([
      { name: 'src', mode: '040000', type: 'tree', sha: src.sha },
      { name: 'hello.txt', mode: '100644', type: 'blob', sha: hello.sha },
    ]);
    expect(root.sha).toBe('ca58d89873612731cee35d49e0c5151ded8bd710');
    expect(root.entries.map((e) => e.name)).toEqual(['hello.txt', 'src']);
    const who = { name: 'alice', email: 'alice@users.noreply.github.com', date: '2015-01-01T00:50:01Z' };
    const commit = makeCommit({ tree: root.sha, parents: [], author: who, committer: who, message: 'Initial commit\n' });
    expect(commit.sha).toBe('7bd33943c774cff553be0a38734e65450ceb2cf9');
  });

  it('are the same on every start of the emulator, and contents reads give blob ids', async () => {
    const heads: string[] = [];
    for (let start = 0; start < 2; start += 1) {
      const { server } = await startEmulator(loadDemoSeed());
      try {
        const api = apiAs(server.url, ALICE);
        heads.push(await headOf(api, REPO, 'main'), await headOf(api, REPO, 'develop'));
        const file = await api.get(`/repos/${REPO}/contents/src/index.ts`);
        expect(file.body.sha).toBe('cb0ff5c3b541f646105198ee23ac0fc3d805023e');
      } finally {
        await server.close();
      }
    }
    expect(heads[0]).toMatch(/^[0-9a-f]{40}$/);
    expect(heads.slice(2)).toEqual(heads.slice(0, 2));
    expect(heads[0]).not.toBe(heads[1]);
  });
});

describe('GitHub emulator: git data through the API', () => {
  let server: Listening;
  let api: Api;
  beforeAll(async () => {
    ({ server } = await startEmulator(loadDemoSeed()));
    api = apiAs(server.url, ALICE);
  });
  afterAll(() => server.close());

  it('a commit pushed through the API is what contents reads see, by branch, commit id and default branch', async () => {
    const main = await headOf(api, REPO, 'main');
    const commit = await commitThroughApi(
      api,
      REPO,
      main,
      { 'docs/guide.md': '# Guide\n', 'package-lock.json': null, 'src/index.ts': 'export const a = 1;\n' },
      'Docs',
    );
    const created = await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/docs', sha: commit });
    expect(created.status).toBe(201);
    expect(decoded(await api.get(`/repos/${REPO}/contents/docs/guide.md?ref=docs`))).toBe('# Guide\n');
    expect(decoded(await api.get(`/repos/${REPO}/contents/src/index.ts?ref=${commit}`))).toBe('export const a = 1;\n');
    expect((await api.get(`/repos/${REPO}/contents/package-lock.json?ref=docs`)).status).toBe(404);
    expect((await api.get(`/repos/${REPO}/contents/package-lock.json`)).status).toBe(200);
    expect((await api.get(`/repos/${REPO}/contents/docs/guide.md?ref=heads/main`)).status).toBe(404);
    const root = await api.get(`/repos/${REPO}/contents?ref=docs`);
    expect(root.body.map((e: { type: string; name: string }) => `${e.type}:${e.name}`)).toEqual([
      'dir:docs',
      'file:package.json',
      'dir:src',
    ]);
    const commitBody = (await api.get(`/repos/${REPO}/git/commits/${commit}`)).body;
    expect(commitBody).toMatchObject({ message: 'Docs', parents: [{ sha: main }], author: { name: 'Alice Example' } });
    // Moving the default branch makes the default reads see the commit.
    expect((await api.patch(`/repos/${REPO}/git/refs/heads/main`, { sha: commit })).status).toBe(200);
    expect(decoded(await api.get(`/repos/${REPO}/contents/docs/guide.md`))).toBe('# Guide\n');
    expect((await api.get(`/repos/${REPO}/branches`)).body.map((b: { name: string }) => b.name)).toEqual(['develop', 'docs', 'main']);
  });

  it('refs: fast forwards only unless forced, 422 for what does not exist, and deletion', async () => {
    const main = await headOf(api, REPO, 'main');
    const develop = await headOf(api, REPO, 'develop');
    const refuse = await api.patch(`/repos/${REPO}/git/refs/heads/main`, { sha: develop });
    expect([refuse.status, refuse.body.message]).toEqual([422, 'Update is not a fast forward']);
    expect((await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/old', sha: main })).status).toBe(201);
    expect((await api.patch(`/repos/${REPO}/git/refs/heads/old`, { sha: develop, force: true })).body.object.sha).toBe(develop);
    const bad = await api.post(`/repos/${REPO}/git/refs`, { ref: 'heads/x', sha: main });
    expect(bad.status).toBe(422);
    expect((await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/y', sha: '0'.repeat(40) })).body.message).toBe(
      'Object does not exist',
    );
    expect((await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/z' })).status).toBe(422);
    expect((await api.post(`/repos/${REPO}/git/commits`, { message: 'x', tree: '1'.repeat(40) })).body.message).toBe(
      'Tree SHA does not exist',
    );
    expect((await api.del(`/repos/${REPO}/git/refs/heads/old`)).status).toBe(204);
    expect((await api.del(`/repos/${REPO}/git/refs/heads/old`)).status).toBe(422);
    expect((await api.get(`/repos/${REPO}/git/ref/heads/old`)).status).toBe(404);
    expect((await api.get(`/repos/${REPO}/branches/old`)).status).toBe(404);
    const slashed = await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/deps/lodash-4.17.21', sha: main });
    expect(slashed.status).toBe(201);
    expect((await api.get(`/repos/${REPO}/git/ref/heads%2Fdeps%2Flodash-4.17.21`)).body.object.sha).toBe(main);
    expect((await api.get(`/repos/${REPO}/branches/deps/lodash-4.17.21`)).body.name).toBe('deps/lodash-4.17.21');
  });

  it('pull requests: mergeable clean, behind, dirty; merge, squash and rebase update the base; sha mismatch 409', async () => {
    const start = await headOf(api, REPO, 'main');
    const branch = async (name: string, files: Record<string, string | null>) => {
      const sha = await commitThroughApi(api, REPO, start, files, `Change ${name}`);
      expect((await api.post(`/repos/${REPO}/git/refs`, { ref: `refs/heads/${name}`, sha })).status).toBe(201);
      return sha;
    };
    const a = await branch('pr-a', { 'a.txt': 'a\n' });
    await branch('pr-b', { 'b.txt': 'b\n' });
    await branch('pr-c', { 'a.txt': 'c\n' });
    const open = async (head: string) =>
      (await api.post(`/repos/${REPO}/pulls`, { title: `PR ${head}`, head: `acme:${head}`, base: 'main' })).body;
    const prA = await open('pr-a');
    const prB = await open('pr-b');
    const prC = await open('pr-c');
    expect([prA.mergeable_state, prB.mergeable_state, prC.mergeable_state]).toEqual(['clean', 'clean', 'clean']);
    expect((await api.put(`/repos/${REPO}/pulls/${prA.number}/merge`, { sha: start })).status).toBe(409);
    const merged = await api.put(`/repos/${REPO}/pulls/${prA.number}/merge`, { sha: a, merge_method: 'merge' });
    expect(merged.body).toMatchObject({ merged: true, message: 'Pull Request successfully merged' });
    const mergeCommit = (await api.get(`/repos/${REPO}/git/commits/${merged.body.sha}`)).body;
    expect(mergeCommit.parents.map((p: { sha: string }) => p.sha)).toEqual([start, a]);
    expect(await headOf(api, REPO, 'main')).toBe(merged.body.sha);
    expect(decoded(await api.get(`/repos/${REPO}/contents/a.txt`))).toBe('a\n');
    const afterA = (await api.get(`/repos/${REPO}/pulls/${prA.number}`)).body;
    expect(afterA).toMatchObject({ state: 'closed', merged: true, merge_commit_sha: merged.body.sha, merged_by: { login: 'alice' } });
    expect((await api.get(`/repos/${REPO}/pulls/${prA.number}/merge`)).status).toBe(204);
    expect((await api.get(`/repos/${REPO}/pulls/${prB.number}/merge`)).status).toBe(404);
    // b.txt is untouched on main: behind but mergeable; a.txt changed on both sides: dirty, 405.
    expect((await api.get(`/repos/${REPO}/pulls/${prB.number}`)).body).toMatchObject({ mergeable: true, mergeable_state: 'behind' });
    expect((await api.get(`/repos/${REPO}/pulls/${prC.number}`)).body).toMatchObject({ mergeable: false, mergeable_state: 'dirty' });
    expect((await api.put(`/repos/${REPO}/pulls/${prC.number}/merge`, {})).status).toBe(405);
    const squashed = await api.put(`/repos/${REPO}/pulls/${prB.number}/merge`, { merge_method: 'squash', commit_title: 'Add b' });
    const squashCommit = (await api.get(`/repos/${REPO}/git/commits/${squashed.body.sha}`)).body;
    expect(squashCommit).toMatchObject({ message: 'Add b', parents: [{ sha: merged.body.sha }] });
    expect(decoded(await api.get(`/repos/${REPO}/contents/b.txt`))).toBe('b\n');
    expect(decoded(await api.get(`/repos/${REPO}/contents/a.txt`))).toBe('a\n');
    // Closing and reopening; a merged one cannot be reopened.
    expect((await api.patch(`/repos/${REPO}/pulls/${prC.number}`, { state: 'closed' })).body).toMatchObject({
      state: 'closed',
      merged: false,
    });
    expect((await api.patch(`/repos/${REPO}/pulls/${prC.number}`, { state: 'open' })).body.state).toBe('open');
    expect((await api.patch(`/repos/${REPO}/pulls/${prA.number}`, { state: 'open' })).status).toBe(422);
    // A rebase replays the head's commits on the base.
    const d1 = await commitThroughApi(api, REPO, await headOf(api, REPO, 'main'), { 'd.txt': '1\n' }, 'd one');
    const d2 = await commitThroughApi(api, REPO, d1, { 'd.txt': '2\n', 'e.txt': 'e\n' }, 'd two');
    await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/pr-d', sha: d2 });
    const prD = await open('pr-d');
    expect(prD).toMatchObject({ commits: 2, changed_files: 2 });
    const rebased = await api.put(`/repos/${REPO}/pulls/${prD.number}/merge`, { merge_method: 'rebase' });
    expect(rebased.status).toBe(200);
    const top = (await api.get(`/repos/${REPO}/git/commits/${rebased.body.sha}`)).body;
    expect(top.message).toBe('d two');
    expect(decoded(await api.get(`/repos/${REPO}/contents/d.txt`))).toBe('2\n');
  });

  it('pull requests: validation, listing filters and pagination, update-branch', async () => {
    const main = await headOf(api, REPO, 'main');
    const missing = await api.post(`/repos/${REPO}/pulls`, { title: 'x', head: 'no-such-branch', base: 'main' });
    expect([missing.status, missing.body.errors[0]]).toEqual([422, { resource: 'PullRequest', field: 'head', code: 'invalid' }]);
    expect((await api.post(`/repos/${REPO}/pulls`, { head: 'main', base: 'main' })).status).toBe(422);
    await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/same', sha: main });
    const nothing = await api.post(`/repos/${REPO}/pulls`, { title: 'x', head: 'same', base: 'main' });
    expect(nothing.body.errors[0].message).toBe('No commits between main and same');
    for (let i = 0; i < 3; i += 1) {
      const sha = await commitThroughApi(api, REPO, main, { [`many-${i}.txt`]: `${i}\n` });
      await api.post(`/repos/${REPO}/git/refs`, { ref: `refs/heads/many-${i}`, sha });
      expect((await api.post(`/repos/${REPO}/pulls`, { title: `many ${i}`, head: `many-${i}`, base: 'main' })).status).toBe(201);
    }
    const page = await api.get(`/repos/${REPO}/pulls?per_page=2`);
    expect(page.body).toHaveLength(2);
    expect(page.headers.get('link')).toMatch(/rel="next"/);
    expect(page.body[0].title).toBe('many 2');
    expect((await api.get(`/repos/${REPO}/pulls?head=acme:many-1`)).body.map((p: { title: string }) => p.title)).toEqual(['many 1']);
    expect((await api.get(`/repos/${REPO}/pulls?head=someone-else:many-1`)).body).toEqual([]);
    expect((await api.get(`/repos/${REPO}/pulls?base=develop`)).body).toEqual([]);
    expect((await api.get(`/repos/${REPO}/pulls?state=merged`)).status).toBe(422);
    // main moves on: many-0 is behind; update-branch merges main into it.
    const moved = await commitThroughApi(api, REPO, main, { 'other.txt': 'o\n' });
    await api.patch(`/repos/${REPO}/git/refs/heads/main`, { sha: moved });
    const number = (await api.get(`/repos/${REPO}/pulls?head=acme:many-0`)).body[0].number;
    expect((await api.get(`/repos/${REPO}/pulls/${number}`)).body.mergeable_state).toBe('behind');
    expect((await api.put(`/repos/${REPO}/pulls/${number}/update-branch`, {})).status).toBe(202);
    expect((await api.get(`/repos/${REPO}/pulls/${number}`)).body.mergeable_state).toBe('clean');
    expect(decoded(await api.get(`/repos/${REPO}/contents/other.txt?ref=many-0`))).toBe('o\n');
  });

  it('labels (created when missing), comments and combined statuses', async () => {
    const main = await headOf(api, REPO, 'main');
    const sha = await commitThroughApi(api, REPO, main, { 'status.txt': 's\n' });
    await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/status', sha });
    const pr = (await api.post(`/repos/${REPO}/pulls`, { title: 'Status', head: 'status', base: 'main' })).body;
    expect((await api.post(`/repos/${REPO}/issues/${pr.number}/labels`, ['security'])).body.map((l: { name: string }) => l.name)).toEqual([
      'security',
    ]);
    expect((await api.post(`/repos/${REPO}/issues/${pr.number}/labels`, { labels: [{ name: 'SECURITY' }, 'deps'] })).body).toHaveLength(2);
    expect((await api.get(`/repos/${REPO}/labels`)).body.map((l: { name: string }) => l.name)).toContain('deps');
    expect((await api.post(`/repos/${REPO}/issues/999/labels`, ['x'])).status).toBe(404);
    expect((await api.post(`/repos/${REPO}/issues/${pr.number}/comments`, { body: '' })).status).toBe(422);
    expect((await api.post(`/repos/${REPO}/labels`, { name: 'bad', color: 'red' })).status).toBe(422);
    const combined = async () => (await api.get(`/repos/${REPO}/commits/${sha}/status`)).body;
    expect(await combined()).toMatchObject({ state: 'pending', total_count: 0 });
    await api.post(`/repos/${REPO}/statuses/${sha}`, { state: 'pending', context: 'ci/build' });
    await api.post(`/repos/${REPO}/statuses/${sha}`, { state: 'success', context: 'ci/lint' });
    expect((await combined()).state).toBe('pending');
    await api.post(`/repos/${REPO}/statuses/${sha}`, { state: 'success', context: 'ci/build' });
    expect(await combined()).toMatchObject({ state: 'success', total_count: 2 });
    await api.post(`/repos/${REPO}/statuses/${sha}`, { state: 'error', context: 'ci/lint' });
    expect((await combined()).state).toBe('failure');
    expect((await api.post(`/repos/${REPO}/statuses/${sha}`, { state: 'great' })).status).toBe(422);
    expect((await api.post(`/repos/${REPO}/statuses/${'0'.repeat(40)}`, { state: 'success' })).status).toBe(422);
  });

  it('refuses writes as GitHub does: 404 for invisible repos, 403 without write, archived or read-only tokens', async () => {
    const main = await headOf(api, REPO, 'main');
    const createRef = (token: string, repo: string) =>
      apiAs(server.url, token).post(`/repos/${repo}/git/refs`, { ref: 'refs/heads/nope', sha: main });
    expect((await createRef(ALICE, 'initech/tps-reports')).status).toBe(404); // bob's org, private
    expect((await createRef(BOB, REPO)).status).toBe(404);
    expect((await createRef(DEMO_TOKENS_ALICE.publicRepo, REPO)).status).toBe(404); // classic token without `repo`
    const readOnly = await createRef(DEMO_TOKENS_ALICE.contentsRead, REPO);
    expect([readOnly.status, readOnly.body.message]).toEqual([403, 'Resource not accessible by personal access token']);
    expect((await createRef(ALICE, 'globex/hr-tools')).status).toBe(403); // org base permission read
    expect((await createRef(ALICE, 'initech/office-space')).status).toBe(403); // public, read
    const archived = await createRef(ALICE, 'acme/legacy-portal');
    expect([archived.status, archived.body.message]).toEqual([403, 'Repository was archived so is read-only.']);
    const asWriter = apiAs(server.url, DEMO_TOKENS_ALICE.contentsWrite);
    expect((await asWriter.post(`/repos/${REPO}/git/blobs`, { content: 'ok' })).status).toBe(201);
    expect((await apiAs(server.url, DEMO_TOKENS_ALICE.contentsRead).get(`/repos/${REPO}/git/ref/heads/main`)).status).toBe(200);
    expect((await apiAs(server.url, ALICE).post(`/repos/${REPO}/pulls`, 'not json')).status).toBe(400);
    const noAuth = await fetch(`${server.url}/repos/${REPO}/git/blobs`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(noAuth.status).toBe(401);
  });
});

describe('GitHub emulator: webhooks', () => {
  let receiver: Server;
  let receiverUrl: string;
  const deliveries: { headers: IncomingMessage['headers']; body: string }[] = [];
  let failuresLeft = 0;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (failuresLeft > 0) {
          failuresLeft -= 1;
          res.writeHead(503).end();
          return;
        }
        deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('sends signed push and pull_request deliveries, retrying a failed one, without holding up the request', async () => {
    const webhooks = createWebhookSender({ url: receiverUrl, secret: 's3cret', retryDelayMs: 10 }, silentLogger);
    const server = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, webhooks });
    try {
      const api = apiAs(server.url, DEMO_TOKEN_ALICE);
      failuresLeft = 1;
      const main = await headOf(api, REPO, 'main');
      const sha = await commitThroughApi(api, REPO, main, { 'hook.txt': 'h\n' });
      await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/heads/hook', sha });
      const pr = (await api.post(`/repos/${REPO}/pulls`, { title: 'Hook', head: 'hook', base: 'main' })).body;
      const next = await commitThroughApi(api, REPO, sha, { 'hook.txt': 'h2\n' });
      await api.patch(`/repos/${REPO}/git/refs/heads/hook`, { sha: next });
      await api.put(`/repos/${REPO}/pulls/${pr.number}/merge`, { merge_method: 'squash' });
      await webhooks.settled();
      const events = deliveries.map((d) => {
        const body = JSON.parse(d.body);
        return `${d.headers['x-github-event']}:${body.action ?? body.ref}${body.pull_request ? `:merged=${body.pull_request.merged}` : ''}`;
      });
      // Each delivery goes on its own: the retried first one may arrive after the others.
      expect(events.sort()).toEqual([
        'pull_request:closed:merged=true',
        'pull_request:opened:merged=false',
        'pull_request:synchronize:merged=false',
        'push:refs/heads/hook',
        'push:refs/heads/hook',
        'push:refs/heads/main',
      ]);
      expect(failuresLeft).toBe(0);
      for (const delivery of deliveries) {
        expect(delivery.headers['x-hub-signature-256']).toBe(webhookSignature('s3cret', delivery.body));
        expect(delivery.headers['x-github-delivery']).toMatch(/^[0-9a-f-]{36}$/);
        expect(delivery.headers['content-type']).toBe('application/json');
      }
      const push = JSON.parse(
        deliveries.find((d) => d.body.includes('"ref":"refs/heads/hook"') && d.body.includes('"created":true'))?.body ?? '{}',
      );
      expect(push).toMatchObject({ ref: 'refs/heads/hook', after: sha, created: true, deleted: false, repository: { full_name: REPO } });
    } finally {
      await server.close();
    }
  });
});
