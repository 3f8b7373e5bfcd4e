import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { APPS_ADMIN_PATH, loadDemoSeed } from '../src/index.ts';
import type { WebhookSender } from '../src/webhooks.ts';
import { startEmulatorWithWebhooks } from './emulator-with-webhooks.ts';
import { ALICE, BOB } from './fixtures.ts';
import { type GitHubOpenApi, loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';
import { apiAs, headOf, openPullThroughApi } from './writes.ts';

/** GitHub's `installation` key of installation `id`: its id and legacy node id (`023:IntegrationInstallation<id>`). */
const simpleInstallation = (id: number) => ({ id, node_id: Buffer.from(`023:IntegrationInstallation${id}`).toString('base64') });

/**
 * The `installation` key of the repository webhooks (https://docs.github.com/webhooks/webhook-events-and-payloads;
 * `simple-installation`): present when an installation of the App covers the repository, absent otherwise, and no
 * delivery at all while that installation is suspended. Payloads are checked against GitHub's webhook schemas.
 */
describe('GitHub emulator: the installation key of repository webhooks', () => {
  let openapi: GitHubOpenApi;
  let server: Listening;
  let receiver: WebhookReceiver;
  let webhooks: WebhookSender;

  beforeAll(async () => {
    openapi = loadGitHubOpenApi();
    ({ server, receiver, webhooks } = await startEmulatorWithWebhooks(loadDemoSeed()));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });
  beforeEach(async () => {
    await webhooks.settled();
    receiver.deliveries.length = 0;
  });

  /** The payloads of `event` delivered so far (all settled), each checked against GitHub's webhook schema `schema` when given. */
  async function delivered(event: string, schema?: string) {
    await webhooks.settled();
    const payloads = receiver.of(event);
    if (schema !== undefined) for (const payload of payloads) expect(schemaErrors(openapi.webhookValidator(schema), payload)).toEqual([]);
    return payloads;
  }

  it('push, pull_request, issues, issue_comment and status (valid against their schemas) of a repository an installation covers carry { id, node_id }', async () => {
    const alice = apiAs(server.url, ALICE);
    const repo = 'acme/acme-cli'; // installation 5001: all of acme's repositories
    const put = await alice.put(`/repos/${repo}/contents/notes/hello.md`, {
      message: 'Add hello',
      content: Buffer.from('hello\n').toString('base64'),
    });
    expect(put.status, put.text).toBe(201);
    const [push] = await delivered('push', 'push');
    expect(push.installation).toEqual(simpleInstallation(5001));
    expect(push.installation.node_id).toBe('MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNTAwMQ==');

    const pr = await openPullThroughApi(alice, repo, 'installation-key', { 'a.txt': 'a\n' });
    const [opened] = (await delivered('pull_request', 'pull-request-opened')).filter((p) => p.action === 'opened');
    expect(opened).toMatchObject({ number: pr.number, installation: simpleInstallation(5001) });

    expect((await alice.post(`/repos/${repo}/issues`, { title: 'Keyed' })).status).toBe(201);
    const [issue] = await delivered('issues', 'issues-opened');
    expect(issue.installation).toEqual(simpleInstallation(5001));

    expect((await alice.post(`/repos/${repo}/issues/${issue.issue.number}/comments`, { body: 'Hi' })).status).toBe(201);
    const [comment] = await delivered('issue_comment', 'issue-comment-created');
    expect(comment.installation).toEqual(simpleInstallation(5001));

    const sha = await headOf(alice, repo, 'main');
    expect((await alice.post(`/repos/${repo}/statuses/${sha}`, { state: 'success', context: 'ci' })).status).toBe(201);
    const [status] = await delivered('status', 'status');
    expect(status.installation).toEqual(simpleInstallation(5001));
    // The commit (the commits API's `commit`) and each branch whose head it is, with its commit's API address.
    expect(status).toMatchObject({
      sha,
      state: 'success',
      context: 'ci',
      commit: { sha, url: `${server.url}/repos/${repo}/commits/${sha}` },
    });
    expect(status.branches).toEqual([
      { name: 'main', commit: { sha, url: `${server.url}/repos/${repo}/commits/${sha}` }, protected: false },
    ]);
  });

  it('names the installation that covers the repository, and none where no installation covers it', async () => {
    const alice = apiAs(server.url, ALICE);
    // alice's own installation (5003) selects notes-app only; bob has none.
    expect((await alice.post('/repos/alice/notes-app/issues', { title: 'Selected' })).status).toBe(201);
    expect((await alice.post('/repos/alice/dotfiles/issues', { title: 'Not selected' })).status).toBe(201);
    expect((await apiAs(server.url, BOB).post('/repos/bob/blog/issues', { title: 'No installation' })).status).toBe(201);
    const payloads = await delivered('issues', 'issues-opened');
    const byRepo = Object.fromEntries(payloads.map((p) => [p.repository.full_name, p]));
    expect(Object.keys(byRepo).sort()).toEqual(['alice/dotfiles', 'alice/notes-app', 'bob/blog']);
    expect(byRepo['alice/notes-app'].installation).toEqual(simpleInstallation(5003));
    expect(byRepo['alice/dotfiles']).not.toHaveProperty('installation');
    expect(byRepo['bob/blog']).not.toHaveProperty('installation');
  });

  it('delivers nothing for a repository of a suspended installation, and again once it is unsuspended', async () => {
    const alice = apiAs(server.url, ALICE);
    expect((await request(server.url, 'PUT', `${APPS_ADMIN_PATH}/installations/5001/suspended`)).status).toBe(200);
    expect((await alice.post('/repos/acme/acme-cli/issues', { title: 'While suspended' })).status).toBe(201);
    expect((await alice.post('/repos/alice/notes-app/issues', { title: 'Another installation' })).status).toBe(201);
    const during = await delivered('issues', 'issues-opened');
    expect(during.map((p) => p.repository.full_name)).toEqual(['alice/notes-app']);
    expect(receiver.of('installation', 'suspend')).toHaveLength(1);

    expect((await request(server.url, 'DELETE', `${APPS_ADMIN_PATH}/installations/5001/suspended`)).status).toBe(200);
    expect((await alice.post('/repos/acme/acme-cli/issues', { title: 'Unsuspended' })).status).toBe(201);
    const after = (await delivered('issues', 'issues-opened')).filter((p) => p.repository.full_name === 'acme/acme-cli');
    expect(after.map((p) => [p.issue.title, p.installation])).toEqual([['Unsuspended', simpleInstallation(5001)]]);
  });
});
