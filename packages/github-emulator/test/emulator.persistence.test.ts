import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Listening } from '@switchyard/service-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDemoSeed, loadEmulatorConfig, SavedStateError, type SeedInput, scaleTestSeed, startGitHubEmulator } from '../src/index.ts';
import { ALICE, silentLogger } from './fixtures.ts';
import { APP, TOKENS, trackerSeed } from './tracker-seed.ts';
import { type Api, apiAs, commitThroughApi, decoded, headOf, openPullThroughApi } from './writes.ts';

const REPO = 'acme/web-storefront';
const folders: string[] = [];

async function newFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'github-emulator-world-'));
  folders.push(folder);
  return folder;
}

const start = (dataDir: string, seed: SeedInput = loadDemoSeed()): Promise<Listening> =>
  startGitHubEmulator({ seed, logger: silentLogger, dataDir });

/** Opens a pull request from a new branch `branch` with `files` changed on main; returns its JSON. */
async function openPull(api: Api, branch: string, files: Record<string, string | null>) {
  const sha = await commitThroughApi(api, REPO, await headOf(api, REPO, 'main'), files, `Change for ${branch}`);
  expect((await api.post(`/repos/${REPO}/git/refs`, { ref: `refs/heads/${branch}`, sha })).status).toBe(201);
  const res = await api.post(`/repos/${REPO}/pulls`, { title: `Pull ${branch}`, body: 'Body', head: branch, base: 'main' });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/**
 * Everything a client could tell apart about the repository's pull requests, labels, comments, branches and tags, with
 * the emulator's own URL (`baseUrl`, a new port on each start) written as `API`.
 */
async function observe(api: Api, baseUrl: string) {
  const pulls = (await api.get(`/repos/${REPO}/pulls?state=all&direction=asc`)).body;
  const numbers = pulls.map((pr: { number: number }) => pr.number);
  const seen = {
    pulls: await Promise.all(numbers.map(async (n: number) => (await api.get(`/repos/${REPO}/pulls/${n}`)).body)),
    files: await Promise.all(numbers.map(async (n: number) => (await api.get(`/repos/${REPO}/pulls/${n}/files`)).body)),
    labels: (await api.get(`/repos/${REPO}/labels`)).body,
    issueLabels: (await api.get(`/repos/${REPO}/issues/1/labels`)).body,
    comments: (await api.get(`/repos/${REPO}/issues/1/comments`)).body,
    branches: (await api.get(`/repos/${REPO}/branches`)).body,
    tags: (await api.get(`/repos/${REPO}/tags`)).body,
    readme: decoded(await api.get(`/repos/${REPO}/contents/docs/saved.md?ref=saved`)),
    main: decoded(await api.get(`/repos/${REPO}/contents/merged.txt`)),
  };
  return JSON.parse(JSON.stringify(seen).replaceAll(baseUrl, 'API')) as typeof seen;
}

describe('GitHub emulator: the world kept in a data folder', () => {
  afterAll(async () => {
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  it('a folder without a saved world starts a fresh world from the seed and saves it at once', async () => {
    const folder = join(await newFolder(), 'code-host');
    const server = await start(folder);
    try {
      const saved = JSON.parse(await readFile(join(folder, 'world.json'), 'utf8'));
      expect(saved).toMatchObject({
        format: 'switchyard-github-emulator-world',
        version: 2,
        worldId: expect.stringMatching(/^[A-Za-z0-9_-]{16}$/),
        nextId: 1,
        repos: [],
      });
      expect(saved.seed.repos.map((r: { name: string }) => r.name)).toContain('web-storefront');
      expect((await apiAs(server.url, ALICE).get(`/repos/${REPO}/pulls?state=all`)).body).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('pull requests, git data, labels, comments, statuses, ids and node ids survive a restart on the same folder', async () => {
    const folder = await newFolder();
    let before: Awaited<ReturnType<typeof observe>>;
    let status: Record<string, unknown>;
    const first = await start(folder);
    try {
      const api = apiAs(first.url, ALICE);
      const open = await openPull(api, 'saved', { 'docs/saved.md': '# Saved\n', 'src/index.ts': 'export const saved = true;\n' });
      const merged = await openPull(api, 'to-merge', { 'merged.txt': 'merged\n' });
      expect((await api.put(`/repos/${REPO}/pulls/${merged.number}/merge`, { merge_method: 'squash' })).status).toBe(200);
      expect((await api.post(`/repos/${REPO}/issues/${open.number}/labels`, { labels: ['dependencies'] })).status).toBe(200);
      expect((await api.post(`/repos/${REPO}/issues/${open.number}/comments`, { body: 'Looks good' })).status).toBe(201);
      status = (await api.post(`/repos/${REPO}/statuses/${open.head.sha}`, { state: 'success', context: 'ci' })).body;
      expect((await api.post(`/repos/${REPO}/git/refs`, { ref: 'refs/tags/v9.9.9', sha: open.head.sha })).status).toBe(201);
      before = await observe(api, first.url);
      expect(before.pulls.map((pr: { number: number; merged: boolean }) => [pr.number, pr.merged])).toEqual([
        [1, false],
        [2, true],
      ]);
    } finally {
      await first.close();
    }

    const second = await start(folder);
    try {
      const api = apiAs(second.url, ALICE);
      const after = await observe(api, second.url);
      expect(after).toEqual(before);
      expect((await api.get(`/repos/${REPO}/commits/${before.pulls[0].head.sha}/status`)).body.statuses).toEqual([
        expect.objectContaining({ id: status.id, node_id: status.node_id, state: 'success', context: 'ci' }),
      ]);
      // Counters go on from where they were: the next pull request is #3, with an id and node id of the same world.
      const next = await openPull(api, 'after-restart', { 'later.txt': 'later\n' });
      expect(next.number).toBe(3);
      expect(next.id).toBeGreaterThan(status.id as number);
      expect(next.node_id.slice(0, 19)).toBe(before.pulls[0].node_id.slice(0, 19));
      expect(next.node_id).not.toBe(before.pulls[0].node_id);
    } finally {
      await second.close();
    }

    // A fresh folder is a fresh world: nothing of the saved one, and another node id for its pull request #1.
    const fresh = await start(await newFolder());
    try {
      const api = apiAs(fresh.url, ALICE);
      expect((await api.get(`/repos/${REPO}/pulls?state=all`)).body).toEqual([]);
      expect((await api.get(`/repos/${REPO}/labels`)).body).toEqual([]);
      expect((await api.get(`/repos/${REPO}/contents/merged.txt`)).status).toBe(404);
      const pr = await openPull(api, 'saved', { 'docs/saved.md': '# Saved\n' });
      expect(pr.number).toBe(1);
      expect(pr.node_id).not.toBe(before.pulls[0].node_id);
    } finally {
      await fresh.close();
    }
  });

  it('answers a write once it is saved, through a new file renamed over the old', async () => {
    const folder = await newFolder();
    const server = await start(folder);
    try {
      const api = apiAs(server.url, ALICE);
      const label = (await api.post(`/repos/${REPO}/labels`, { name: 'saved-soon', color: 'abcdef' })).body;
      // On disk by the time the answer came: nothing waits for a save.
      const saved = JSON.parse(await readFile(join(folder, 'world.json'), 'utf8')).repos[0]?.labels[0];
      expect(saved).toEqual({
        id: label.id,
        nodeId: label.node_id,
        name: 'saved-soon',
        color: 'abcdef',
        description: null,
        default: false,
      });
      // Objects made through the API are files of their own (the seed's are made again from the saved seed).
      const main = await headOf(api, REPO, 'main');
      const commit = await commitThroughApi(api, REPO, main, { 'object.txt': 'object\n' });
      expect(existsSync(join(folder, 'objects', commit.slice(0, 2), commit.slice(2)))).toBe(true);
      expect(existsSync(join(folder, 'objects', main.slice(0, 2), main.slice(2)))).toBe(false);
      // Each save's new file was renamed over world.json before the answer: none stays behind.
      expect(await readdir(join(folder, 'tmp'))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a saved world keeps its own seed and world; a damaged one stops the start', async () => {
    const folder = await newFolder();
    const first = await start(folder);
    const pr = await openPull(apiAs(first.url, ALICE), 'kept', { 'kept.txt': 'kept\n' });
    await first.close();
    // Started with another seed, the saved world is served (the new seed would only make a fresh world).
    const other = await start(folder, scaleTestSeed());
    try {
      expect((await apiAs(other.url, ALICE).get(`/repos/${REPO}/pulls/1`)).body.node_id).toBe(pr.node_id);
    } finally {
      await other.close();
    }
    const objectFile = join(folder, 'objects', pr.head.sha.slice(0, 2), pr.head.sha.slice(2));
    const object = await readFile(objectFile);
    await writeFile(objectFile, Buffer.from('not an object'));
    await expect(start(folder)).rejects.toThrow(SavedStateError);
    await writeFile(objectFile, object);
    await writeFile(join(folder, 'world.json'), '{"format":"switchyard-github-emulator-world","version":99}');
    await expect(start(folder)).rejects.toThrow(/another version/);
    await writeFile(join(folder, 'world.json'), '{ half written');
    await expect(start(folder)).rejects.toThrow(SavedStateError);
  });

  it('issues, milestones, assignees, review requests and comment edits survive a restart; a version 1 world still loads', async () => {
    const folder = await newFolder();
    let clock = Date.parse('2030-01-01T00:00:00Z');
    const startAt = () => startGitHubEmulator({ seed: trackerSeed(), logger: silentLogger, dataDir: folder, now: () => clock });
    /** What a client sees of the issues, pull request, comments and milestones, with the emulator's URL as `API`. */
    const seen = async (url: string) => {
      const api = apiAs(url, TOKENS.wes);
      const read = async (path: string) => {
        const res = await api.get(`/repos/${APP}${path}`);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
        return res.body;
      };
      const view = {
        issues: await read('/issues?state=all&direction=asc'),
        issue: await read('/issues/2'),
        pull: await read('/pulls/1'),
        pullComments: await read('/issues/1/comments'),
        issueComments: await read('/issues/2/comments'),
        milestones: await read('/milestones?state=all'),
      };
      return JSON.parse(JSON.stringify(view).replaceAll(url, 'API')) as typeof view;
    };

    const first = await startAt();
    let before: Awaited<ReturnType<typeof seen>>;
    let editedComment: { id: number; created_at: string };
    try {
      const wes = apiAs(first.url, TOKENS.wes);
      const tess = apiAs(first.url, TOKENS.tess);
      await openPullThroughApi(wes, APP, 'kept', { 'kept.txt': 'kept\n' });
      expect((await wes.post(`/repos/${APP}/milestones`, { title: 'v1', due_on: '2030-02-01T00:00:00Z' })).status).toBe(201);
      const issue = await wes.post(`/repos/${APP}/issues`, { title: 'Kept issue', labels: ['deps'], assignees: ['mona'], milestone: 1 });
      expect(issue.body.number).toBe(2);
      expect((await tess.post(`/repos/${APP}/pulls/1/requested_reviewers`, { reviewers: ['mona', 'rita'] })).status).toBe(201);
      expect((await tess.post(`/repos/${APP}/issues/1/assignees`, { assignees: ['wes'] })).status).toBe(201);
      expect((await wes.patch(`/repos/${APP}/issues/1`, { milestone: 1 })).status).toBe(200);
      editedComment = (await tess.post(`/repos/${APP}/issues/1/comments`, { body: 'First words' })).body;
      expect((await tess.post(`/repos/${APP}/issues/2/comments`, { body: 'On the issue' })).status).toBe(201);
      clock += 60_000;
      expect((await tess.patch(`/repos/${APP}/issues/comments/${editedComment.id}`, { body: 'Second thoughts' })).status).toBe(200);
      expect((await wes.patch(`/repos/${APP}/issues/2`, { state: 'closed', state_reason: 'not_planned' })).status).toBe(200);
      before = await seen(first.url);
      expect(before.pull).toMatchObject({
        assignees: [{ login: 'wes' }],
        requested_reviewers: [{ login: 'mona' }, { login: 'rita' }],
        milestone: { number: 1, open_issues: 1, closed_issues: 1 },
      });
      expect(before.pullComments).toEqual([
        expect.objectContaining({ body: 'Second thoughts', created_at: '2030-01-01T00:00:00Z', updated_at: '2030-01-01T00:01:00Z' }),
      ]);
      expect(before.issue).toMatchObject({
        state: 'closed',
        state_reason: 'not_planned',
        closed_by: { login: 'wes' },
        labels: [{ name: 'deps' }],
      });
    } finally {
      await first.close();
    }

    const second = await startAt();
    try {
      expect(await seen(second.url)).toEqual(before);
      const next = await apiAs(second.url, TOKENS.wes).post(`/repos/${APP}/issues`, { title: 'After the restart' });
      expect(next.body.number).toBe(3);
      expect(next.body.id).toBeGreaterThan(before.issue.id);
    } finally {
      await second.close();
    }

    // The same world as version 1 wrote it: no issues, milestones, assignees, review requests or comment edit times.
    const saved = JSON.parse(await readFile(join(folder, 'world.json'), 'utf8'));
    saved.version = 1;
    for (const repo of saved.repos) {
      const pullNumbers = new Set(repo.pulls.map((pr: { number: number }) => pr.number));
      delete repo.issues;
      delete repo.milestones;
      for (const pr of repo.pulls) for (const key of ['closedBy', 'assignees', 'requestedReviewers', 'milestone']) delete pr[key];
      repo.comments = repo.comments.filter((comment: { issue: number }) => pullNumbers.has(comment.issue));
      for (const comment of repo.comments) delete comment.updatedAt;
      repo.issueLabels = repo.issueLabels.filter(([number]: [number]) => pullNumbers.has(number));
    }
    await writeFile(join(folder, 'world.json'), JSON.stringify(saved));
    const third = await startAt();
    try {
      const api = apiAs(third.url, TOKENS.wes);
      expect((await api.get(`/repos/${APP}/pulls/1`)).body).toMatchObject({
        number: 1,
        title: 'Update kept',
        assignees: [],
        assignee: null,
        requested_reviewers: [],
        milestone: null,
      });
      expect((await api.get(`/repos/${APP}/issues/1/comments`)).body).toEqual([
        expect.objectContaining({ id: editedComment.id, body: 'Second thoughts', updated_at: editedComment.created_at }),
      ]);
      expect((await api.get(`/repos/${APP}/issues?state=all`)).body.map((item: { number: number }) => item.number)).toEqual([1]);
      expect((await api.get(`/repos/${APP}/milestones?state=all`)).body).toEqual([]);
      expect((await api.post(`/repos/${APP}/issues`, { title: 'New' })).body.number).toBe(2);
    } finally {
      await third.close();
    }
    expect(JSON.parse(await readFile(join(folder, 'world.json'), 'utf8')).version).toBe(2);
  });

  it('main.ts reads the folder from DATA_DIR', () => {
    expect(loadEmulatorConfig({ DATA_DIR: '/var/lib/code-host' }).DATA_DIR).toBe('/var/lib/code-host');
    expect(loadEmulatorConfig({ DATA_DIR: '' }).DATA_DIR).toBeUndefined();
  });
  it('a SIGKILL right after an answer loses nothing the emulator answered', async () => {
    const dataDir = await newFolder();
    const first = await start(dataDir);
    const api = apiAs(first.url, ALICE);
    const pull = await openPull(api, 'saved-now', { 'now.txt': 'now\n' });
    // Concurrent writes share saves and each is on disk when answered.
    const labels = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.post(`/repos/${REPO}/labels`, { name: `burst-${i}`, color: 'abcdef' })),
    );
    expect(labels.map((res) => res.status)).toEqual(Array(8).fill(201));
    // What a killed process leaves: the folder as it is now, without the close's own save.
    const copy = await newFolder();
    for (const entry of await readdir(dataDir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const from = join(entry.parentPath, entry.name);
      const to = join(copy, from.slice(dataDir.length));
      await mkdir(dirname(to), { recursive: true });
      await writeFile(to, await readFile(from));
    }
    await first.close();
    const again = await start(copy);
    try {
      const found = await apiAs(again.url, ALICE).get(`/repos/${REPO}/pulls/${pull.number}`);
      expect(found.status).toBe(200);
      expect(found.body.head.ref).toBe('saved-now');
      const names = (await apiAs(again.url, ALICE).get(`/repos/${REPO}/labels?per_page=100`)).body.map((l: { name: string }) => l.name);
      expect(names).toEqual(expect.arrayContaining(Array.from({ length: 8 }, (_, i) => `burst-${i}`)));
    } finally {
      await again.close();
    }
  });
});
