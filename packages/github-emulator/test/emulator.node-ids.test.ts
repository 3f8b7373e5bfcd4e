import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoSeed, startGitHubEmulator } from '../src/index.ts';
import { createWebhookSender, type WebhookSender } from '../src/webhooks.ts';
import { ALICE, silentLogger, startEmulator } from './fixtures.ts';
import { type Api, apiAs, commitThroughApi, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';
const NODE_ID = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9_-]{24}$`);

/** Opens a pull request from a new branch `branch` changing one file; returns its JSON. */
async function openPull(api: Api, branch: string, title = branch) {
  const sha = await commitThroughApi(api, REPO, await headOf(api, REPO, 'main'), { [`${branch}.txt`]: `${branch}\n` });
  await api.post(`/repos/${REPO}/git/refs`, { ref: `refs/heads/${branch}`, sha });
  const res = await api.post(`/repos/${REPO}/pulls`, { title, head: branch, base: 'main' });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('GitHub emulator: node ids are unique across worlds', () => {
  it('two fresh emulators give their pull request #1 (and labels, comments, statuses) different node ids', async () => {
    const seen: Record<string, string>[] = [];
    for (let world = 0; world < 2; world += 1) {
      const { server } = await startEmulator(loadDemoSeed());
      try {
        const api = apiAs(server.url, ALICE);
        const pr = await openPull(api, 'node-id');
        expect(pr).toMatchObject({ number: 1, id: 1, node_id: expect.stringMatching(NODE_ID('PR')) });
        // Every representation of the pull request carries the same node id.
        expect((await api.get(`/repos/${REPO}/pulls/1`)).body.node_id).toBe(pr.node_id);
        expect((await api.get(`/repos/${REPO}/pulls`)).body[0].node_id).toBe(pr.node_id);
        expect((await api.patch(`/repos/${REPO}/pulls/1`, { title: 'Renamed' })).body.node_id).toBe(pr.node_id);
        const label = (await api.post(`/repos/${REPO}/labels`, { name: 'deps' })).body;
        const comment = (await api.post(`/repos/${REPO}/issues/1/comments`, { body: 'hi' })).body;
        const status = (await api.post(`/repos/${REPO}/statuses/${pr.head.sha}`, { state: 'success' })).body;
        expect([label.node_id, comment.node_id, status.node_id]).toEqual([
          expect.stringMatching(NODE_ID('LA')),
          expect.stringMatching(NODE_ID('IC')),
          expect.stringMatching(NODE_ID('SC')),
        ]);
        seen.push({ pr: pr.node_id, label: label.node_id, comment: comment.node_id, status: status.node_id });
      } finally {
        await server.close();
      }
    }
    const [one, two] = seen as [Record<string, string>, Record<string, string>];
    for (const kind of ['pr', 'label', 'comment', 'status']) expect(one[kind]).not.toBe(two[kind]);
    // Within a world, objects differ by their ids; across worlds, by the world's id.
    expect(new Set(Object.values(one)).size).toBe(4);
  });
});

describe('GitHub emulator: pull_request webhook payloads', () => {
  let receiver: Server;
  let receiverUrl: string;
  const payloads: { event: string; body: { action?: string; pull_request?: Record<string, unknown> } }[] = [];
  let server: Listening;
  let api: Api;
  let webhooks: WebhookSender;

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        payloads.push({ event: String(req.headers['x-github-event']), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    webhooks = createWebhookSender({ url: receiverUrl, retryDelayMs: 10 }, silentLogger);
    server = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, webhooks });
    api = apiAs(server.url, ALICE);
  });
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  it('carry pull_request.node_id, head.ref and merged_by, as the API answers them', async () => {
    const pr = await openPull(api, 'hooked', 'Hooked');
    const merged = await api.put(`/repos/${REPO}/pulls/${pr.number}/merge`, { merge_method: 'merge' });
    expect(merged.status).toBe(200);
    await webhooks.settled();
    const events = payloads.filter((p) => p.event === 'pull_request');
    const opened = events.find((p) => p.body.action === 'opened')?.body;
    const closed = events.find((p) => p.body.action === 'closed')?.body;
    expect(opened?.pull_request).toMatchObject({ node_id: pr.node_id, number: pr.number, head: { ref: 'hooked' }, merged_by: null });
    expect(closed?.pull_request).toMatchObject({
      node_id: pr.node_id,
      head: { ref: 'hooked', sha: pr.head.sha },
      merged: true,
      merged_by: { login: 'alice' },
      additions: 1,
      changed_files: 1,
    });
    const read = (await api.get(`/repos/${REPO}/pulls/${pr.number}`)).body;
    expect(closed?.pull_request?.merged_by).toEqual(read.merged_by);
  });
});
