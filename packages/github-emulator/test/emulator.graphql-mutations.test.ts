import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP, DEMO_TOKENS_ALICE, loadDemoSeed, startGitHubEmulator } from '../src/index.ts';
import type { WebhookSender } from '../src/webhooks.ts';
import { mintToken } from './apps.ts';
import { startEmulatorWithWebhooks } from './emulator-with-webhooks.ts';
import { ALICE, auth, BOB, silentLogger } from './fixtures.ts';
import { loadGitHubOpenApi, schemaErrors } from './openapi.ts';
import type { WebhookReceiver } from './webhook-receiver.ts';
import { apiAs, decoded, headOf } from './writes.ts';

const REPO = 'acme/web-storefront';
const base64 = (text: string) => Buffer.from(text).toString('base64');

const CREATE_REF = `mutation CreateRef($input: CreateRefInput!) {
  createRef(input: $input) { clientMutationId ref { id name prefix target { oid } } }
}`;
const COMMIT = `mutation Commit($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) {
    clientMutationId
    commit { oid message messageHeadline messageBody author { name email } committer { name email } signature { isValid wasSignedByGitHub state } }
    ref { name target { oid } }
  }
}`;
const OPEN_PULL = `mutation Open($input: CreatePullRequestInput!) {
  createPullRequest(input: $input) { clientMutationId pullRequest { id number url title isDraft state headRefName baseRefName author { login } } }
}`;

/** The repository node id and default branch head of `owner/name`, read through GraphQL. */
async function repositoryOf(url: string, token: string, owner: string, name: string): Promise<{ id: string; head: string }> {
  const res = await request(url, 'POST', '/graphql', {
    headers: auth(token),
    body: { query: `query { repository(owner: "${owner}", name: "${name}") { id defaultBranchRef { target { oid } } } }` },
  });
  const repository = res.body.data.repository;
  return { id: repository.id, head: repository.defaultBranchRef?.target.oid };
}

describe('GitHub emulator: GraphQL mutations change what the REST routes change, with their webhooks', () => {
  let server: Listening;
  let receiver: WebhookReceiver;
  let webhooks: WebhookSender;
  const openApi = loadGitHubOpenApi();
  const graphql = (token: string, query: string, input: Record<string, unknown>) =>
    request(server.url, 'POST', '/graphql', { headers: auth(token), body: { query, variables: { input } } });

  beforeAll(async () => {
    ({ server, receiver, webhooks } = await startEmulatorWithWebhooks(loadDemoSeed()));
  }, 60_000);
  afterAll(async () => {
    await server.close();
    await receiver.close();
  });

  it('createRef, createCommitOnBranch (signed, verified), createPullRequest: branches, commits, pull requests and webhooks', async () => {
    const api = apiAs(server.url, ALICE);
    const repository = await repositoryOf(server.url, ALICE, 'acme', 'web-storefront');
    const mainHead = await headOf(api, REPO, 'main');
    expect(repository.head).toBe(mainHead);

    // createRef: a branch at main's head, as POST /git/refs makes it, with the push webhook of a created branch.
    const probe = await request(server.url, 'POST', '/graphql', { headers: auth(ALICE), body: { query: 'query { rateLimit { used } }' } });
    const created = await graphql(ALICE, CREATE_REF, {
      repositoryId: repository.id,
      name: 'refs/heads/graphql-bump',
      oid: mainHead,
      clientMutationId: 'ref-1',
    });
    expect(created.body).toEqual({
      data: {
        createRef: {
          clientMutationId: 'ref-1',
          ref: { id: expect.any(String), name: 'graphql-bump', prefix: 'refs/heads/', target: { oid: mainHead } },
        },
      },
    });
    // A mutation costs one point of the GraphQL limit.
    expect(created.headers.get('x-ratelimit-resource')).toBe('graphql');
    expect(Number(created.headers.get('x-ratelimit-used'))).toBe(probe.body.data.rateLimit.used + 1);
    expect(await headOf(api, REPO, 'graphql-bump')).toBe(mainHead);
    await webhooks.settled();
    expect(receiver.of('push').at(-1)).toMatchObject({ ref: 'refs/heads/graphql-bump', created: true, after: mainHead });

    const again = await graphql(ALICE, CREATE_REF, { repositoryId: repository.id, name: 'refs/heads/graphql-bump', oid: mainHead });
    expect(again.body).toEqual({
      data: { createRef: null },
      errors: [
        {
          type: 'UNPROCESSABLE',
          path: ['createRef'],
          locations: [{ line: 2, column: 3 }],
          message: 'A ref named "refs/heads/graphql-bump" already exists in the repository.',
        },
      ],
    });

    // createCommitOnBranch: package.json replaced, package-lock.json deleted, one signed commit on the branch.
    const pkg = `${decoded(await api.get(`/repos/${REPO}/contents/package.json`)).replace('^4.17.15', '^4.17.21')}`;
    const commitInput = {
      branch: { repositoryNameWithOwner: REPO, branchName: 'graphql-bump' },
      expectedHeadOid: mainHead,
      message: { headline: 'Bump lodash from 4.17.15 to 4.17.21', body: 'Bumps lodash.\n\nSigned by the bot.' },
      fileChanges: { additions: [{ path: 'package.json', contents: base64(pkg) }], deletions: [{ path: 'package-lock.json' }] },
      clientMutationId: 'commit-1',
    };
    const committed = await graphql(ALICE, COMMIT, commitInput);
    expect(committed.body.errors).toBeUndefined();
    const commit = committed.body.data.createCommitOnBranch.commit;
    expect(committed.body.data.createCommitOnBranch).toMatchObject({
      clientMutationId: 'commit-1',
      ref: { name: 'graphql-bump', target: { oid: commit.oid } },
    });
    expect(commit).toMatchObject({
      message: 'Bump lodash from 4.17.15 to 4.17.21\n\nBumps lodash.\n\nSigned by the bot.',
      messageHeadline: 'Bump lodash from 4.17.15 to 4.17.21',
      messageBody: 'Bumps lodash.\n\nSigned by the bot.',
      author: { name: 'Alice Example' },
      committer: { name: 'GitHub', email: 'noreply@github.com' },
      signature: { isValid: true, wasSignedByGitHub: true, state: 'VALID' },
    });
    expect(await headOf(api, REPO, 'graphql-bump')).toBe(commit.oid);
    expect(decoded(await api.get(`/repos/${REPO}/contents/package.json?ref=graphql-bump`))).toBe(pkg);
    expect((await api.get(`/repos/${REPO}/contents/package-lock.json?ref=graphql-bump`)).status).toBe(404);
    expect(await headOf(api, REPO, 'main')).toBe(mainHead);
    // REST reads the commit as GitHub shows a commit it signed: verified, with the signature and what it signs.
    const gitCommit = await api.get(`/repos/${REPO}/git/commits/${commit.oid}`);
    expect(gitCommit.body.verification).toMatchObject({ verified: true, reason: 'valid', verified_at: gitCommit.body.committer.date });
    expect(gitCommit.body.verification.signature).toMatch(/^-----BEGIN PGP SIGNATURE-----\n/);
    expect(gitCommit.body.verification.payload).toMatch(new RegExp(`^tree ${gitCommit.body.tree.sha}\nparent ${mainHead}\n`));
    expect(gitCommit.body.parents.map((parent: { sha: string }) => parent.sha)).toEqual([mainHead]);
    expect(schemaErrors(openApi.validator('/repos/{owner}/{repo}/git/commits/{commit_sha}', '200'), gitCommit.body)).toEqual([]);
    const repoCommit = await api.get(`/repos/${REPO}/commits/${commit.oid}`);
    expect(repoCommit.body.commit.verification.verified).toBe(true);
    expect(schemaErrors(openApi.validator('/repos/{owner}/{repo}/commits/{ref}', '200'), repoCommit.body)).toEqual([]);
    await webhooks.settled();
    const push = receiver.of('push').at(-1);
    expect(push).toMatchObject({ ref: 'refs/heads/graphql-bump', before: mainHead, after: commit.oid, created: false });
    expect(push.commits).toEqual([
      expect.objectContaining({ id: commit.oid, modified: ['package.json'], removed: ['package-lock.json'], added: [] }),
    ]);
    expect(schemaErrors(openApi.webhookValidator('push'), push)).toEqual([]);

    // The head moved: GitHub's STALE_DATA, and nothing changes.
    const stale = await graphql(ALICE, COMMIT, commitInput);
    expect(stale.body).toEqual({
      data: { createCommitOnBranch: null },
      errors: [
        {
          type: 'STALE_DATA',
          path: ['createCommitOnBranch'],
          locations: [{ line: 2, column: 3 }],
          message: `Expected branch to point to "${mainHead}" but it did not.  Pull and try again.`,
        },
      ],
    });
    expect(await headOf(api, REPO, 'graphql-bump')).toBe(commit.oid);
    // Deleting a path that is not there aborts the commit.
    const missing = await graphql(ALICE, COMMIT, {
      ...commitInput,
      expectedHeadOid: commit.oid,
      fileChanges: { deletions: [{ path: 'package-lock.json' }] },
    });
    expect(missing.body.errors).toEqual([
      expect.objectContaining({
        type: 'UNPROCESSABLE',
        message: `A path was requested for deletion which does not exist as of commit oid \`${commit.oid}\``,
      }),
    ]);

    // createPullRequest: the pull request REST lists, with the opened webhook.
    const opened = await graphql(ALICE, OPEN_PULL, {
      repositoryId: repository.id,
      baseRefName: 'main',
      headRefName: 'graphql-bump',
      title: 'Bump lodash from 4.17.15 to 4.17.21',
      body: 'Bumps lodash.',
      draft: true,
      clientMutationId: 'pull-1',
    });
    expect(opened.body.errors).toBeUndefined();
    const pullRequest = opened.body.data.createPullRequest.pullRequest;
    expect(opened.body.data.createPullRequest.clientMutationId).toBe('pull-1');
    const rest = (await api.get(`/repos/${REPO}/pulls/${pullRequest.number}`)).body;
    expect(pullRequest).toEqual({
      id: rest.node_id,
      number: rest.number,
      url: rest.html_url,
      title: 'Bump lodash from 4.17.15 to 4.17.21',
      isDraft: true,
      state: 'OPEN',
      headRefName: 'graphql-bump',
      baseRefName: 'main',
      author: { login: 'alice' },
    });
    expect(rest).toMatchObject({
      draft: true,
      body: 'Bumps lodash.',
      user: { login: 'alice' },
      head: { sha: commit.oid },
      base: { sha: mainHead },
    });
    await webhooks.settled();
    const openedHook = receiver.of('pull_request', 'opened').at(-1);
    expect(openedHook).toMatchObject({ number: pullRequest.number, pull_request: { node_id: pullRequest.id, draft: true } });
    expect(schemaErrors(openApi.webhookValidator('pull-request-opened'), openedHook)).toEqual([]);

    // A commit on the branch by its ref id: an empty commit, and the pull request's synchronize webhook.
    const empty = await graphql(ALICE, COMMIT, {
      branch: { id: created.body.data.createRef.ref.id },
      expectedHeadOid: commit.oid,
      message: { headline: 'Empty' },
    });
    const emptyCommit = empty.body.data.createCommitOnBranch.commit;
    expect(emptyCommit.message).toBe('Empty');
    const emptyTree = (await api.get(`/repos/${REPO}/git/commits/${emptyCommit.oid}`)).body.tree.sha;
    expect(emptyTree).toBe(gitCommit.body.tree.sha);
    await webhooks.settled();
    expect(receiver.of('pull_request', 'synchronize').at(-1)).toMatchObject({ number: pullRequest.number });

    // GitHub's refusals of createPullRequest, in its words.
    const refusal = async (input: Record<string, unknown>) =>
      (await graphql(ALICE, OPEN_PULL, { repositoryId: repository.id, baseRefName: 'main', title: 'x', ...input })).body.errors[0];
    expect(await refusal({ headRefName: 'graphql-bump' })).toMatchObject({
      type: 'UNPROCESSABLE',
      path: ['createPullRequest'],
      message: 'A pull request already exists for acme:graphql-bump.',
    });
    expect((await refusal({ headRefName: 'no-such-branch' })).message).toBe(
      "Head sha can't be blank, Base sha can't be blank, No commits between main and no-such-branch, Head ref must be a branch",
    );
    expect((await refusal({ headRefName: 'graphql-bump', baseRefName: 'nope' })).message).toBe(
      "Head sha can't be blank, Base sha can't be blank, No commits between nope and graphql-bump, Base ref must be a branch",
    );
    expect((await refusal({ headRefName: 'develop', baseRefName: 'develop' })).message).toBe('No commits between develop and develop');
    expect((await refusal({ headRefName: 'graphql-bump', title: ' ' })).message).toBe("Title can't be blank");
  });

  it('needs write access as the REST routes do: NOT_FOUND unseen, FORBIDDEN in GitHub’s words, installations by permission', async () => {
    const storefront = await repositoryOf(server.url, ALICE, 'acme', 'web-storefront');
    const refInput = (id: string, oid: string, name = 'refs/heads/not-made') => ({ repositoryId: id, name, oid });
    const errorOf = async (token: string, query: string, input: Record<string, unknown>) => {
      const res: TestResponse = await graphql(token, query, input);
      expect(res.status).toBe(200);
      expect(Object.values(res.body.data ?? {})).toEqual([null]);
      return res.body.errors[0] as { type: string; message: string };
    };
    // bob cannot see acme's private repository: its node id resolves to nothing for him.
    expect(await errorOf(BOB, CREATE_REF, refInput(storefront.id, storefront.head))).toMatchObject({
      type: 'NOT_FOUND',
      message: `Could not resolve to a node with the global id of '${storefront.id}'.`,
    });
    // alice reads globex/website (member, read): no write.
    const website = await repositoryOf(server.url, ALICE, 'globex', 'website');
    expect(await errorOf(ALICE, CREATE_REF, refInput(website.id, storefront.head))).toEqual(
      expect.objectContaining({ type: 'FORBIDDEN', message: 'alice does not have the correct permissions to execute `CreateRef`' }),
    );
    expect(await errorOf(DEMO_TOKENS_ALICE.contentsRead, CREATE_REF, refInput(storefront.id, storefront.head))).toMatchObject({
      type: 'FORBIDDEN',
      message: 'Resource not accessible by personal access token',
    });
    const legacy = await repositoryOf(server.url, ALICE, 'acme', 'legacy-portal');
    expect(await errorOf(ALICE, CREATE_REF, refInput(legacy.id, storefront.head))).toMatchObject({
      type: 'FORBIDDEN',
      message: 'Repository was archived so is read-only.',
    });
    expect(
      await errorOf(ALICE, COMMIT, {
        branch: { repositoryNameWithOwner: 'acme/no-such-repo', branchName: 'main' },
        expectedHeadOid: storefront.head,
        message: { headline: 'x' },
      }),
    ).toMatchObject({ type: 'NOT_FOUND', message: "Could not resolve to a Repository with the name 'acme/no-such-repo'." });

    // An installation access token: contents write commits as the App's bot; contents read, or a repository outside
    // the installation, is refused; a pull request needs pull_requests write.
    const now = Date.now();
    const billing = await repositoryOf(server.url, ALICE, 'acme', 'billing-api');
    const commitOnBilling = (headline: string) => ({
      branch: { repositoryNameWithOwner: 'acme/billing-api', branchName: 'main' },
      expectedHeadOid: billing.head,
      message: { headline },
      fileChanges: { additions: [{ path: 'BOT.md', contents: base64('made by the App\n') }] },
    });
    const readOnly = (await mintToken(server.url, now, 5001, { permissions: { contents: 'read' } })).token;
    expect(await errorOf(readOnly, COMMIT, commitOnBilling('read only'))).toMatchObject({
      type: 'FORBIDDEN',
      message: 'Resource not accessible by integration',
    });
    const full = (await mintToken(server.url, now, 5001)).token;
    const byApp = await graphql(full, COMMIT, commitOnBilling('From the App'));
    expect(byApp.body.data.createCommitOnBranch.commit).toMatchObject({
      author: { name: DEMO_APP.botLogin, email: `${DEMO_APP.botUserId}+${DEMO_APP.botLogin}@users.noreply.github.com` },
      committer: { name: 'GitHub' },
      signature: { isValid: true },
    });
    const contentsOnly = (await mintToken(server.url, now, 5001, { permissions: { contents: 'write' } })).token;
    expect(
      await errorOf(contentsOnly, OPEN_PULL, { repositoryId: billing.id, baseRefName: 'main', headRefName: 'main', title: 'x' }),
    ).toMatchObject({ type: 'FORBIDDEN', message: 'Resource not accessible by integration' });
    const alicesApp = (await mintToken(server.url, now, 5003)).token;
    const dotfiles = await repositoryOf(server.url, ALICE, 'alice', 'dotfiles');
    expect(await errorOf(alicesApp, CREATE_REF, refInput(dotfiles.id, storefront.head))).toMatchObject({
      type: 'FORBIDDEN',
      message: 'Resource not accessible by integration',
    });
  });
});

describe('GitHub emulator: a signed commit in a kept world', () => {
  it('stays signed and verified after a restart from the data folder', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'github-emulator-graphql-'));
    try {
      const first = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, dataDir });
      const repository = await repositoryOf(first.url, ALICE, 'acme', 'billing-api');
      const res = await request(first.url, 'POST', '/graphql', {
        headers: auth(ALICE),
        body: {
          query: COMMIT,
          variables: {
            input: {
              branch: { repositoryNameWithOwner: 'acme/billing-api', branchName: 'main' },
              expectedHeadOid: repository.head,
              message: { headline: 'Kept' },
              fileChanges: { additions: [{ path: 'KEPT.md', contents: base64('kept\n') }] },
            },
          },
        },
      });
      const oid = res.body.data.createCommitOnBranch.commit.oid;
      await first.close();
      const second = await startGitHubEmulator({ seed: loadDemoSeed(), logger: silentLogger, dataDir });
      try {
        const api = apiAs(second.url, ALICE);
        expect(await headOf(api, 'acme/billing-api', 'main')).toBe(oid);
        expect((await api.get(`/repos/acme/billing-api/git/commits/${oid}`)).body.verification).toMatchObject({
          verified: true,
          reason: 'valid',
        });
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
