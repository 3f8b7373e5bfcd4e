import {
  DEMO_TOKEN_ALICE as ALICE,
  DEMO_TOKENS_ALICE as ALICE_TOKENS,
  DEMO_TOKEN_BOB as BOB,
  loadDemoSeed,
  REQUEST_COUNTER_PATH,
  type RequestCounts,
  startGitHubEmulator,
} from '@switchyard/github-emulator';
import type { Listening } from '@switchyard/service-kit';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubCodeHost, type GitHubCodeHost, overallChecks, type RepoRef } from '../src/index.ts';
import { codeHostError } from './code-host-error.ts';

const WEB: RepoRef = { owner: 'acme', name: 'web-storefront' };

describe('GitHub adapter writes against the emulator', () => {
  const logger = pino({ level: 'silent' });
  let server: Listening;
  let host: GitHubCodeHost;

  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: loadDemoSeed(), logger });
    // Without the throttling plugin's queue: it paces writes one a second (GitHub's advice), too slow for a test of ~30 writes.
    host = createGitHubCodeHost({ baseUrl: server.url, timeoutMs: 5_000, retryBaseDelayMs: 1, throttle: false, logger });
  });
  afterAll(() => server.close(100));

  /** A request straight to the emulator as alice (what the port does not do itself, e.g. posting a commit status). */
  const github = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `token ${ALICE}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> };
  };

  it('lists the whole tree of a ref in one request, and commits a gitlink (a submodule moved) beside a file', async () => {
    const main = (await host.getBranchCommit(ALICE, WEB, 'main')) as { sha: string; treeSha: string };
    const tree = await host.listTree(ALICE, WEB, 'main');
    expect(tree?.truncated).toBe(false);
    expect(tree?.entries.map((entry) => [entry.path, entry.type])).toEqual([
      ['package-lock.json', 'blob'],
      ['package.json', 'blob'],
      ['src', 'tree'],
      ['src/index.ts', 'blob'],
    ]);
    expect(tree?.entries.find((entry) => entry.path === 'package.json')?.size).toBeGreaterThan(0);
    expect(await host.listTree(ALICE, WEB, main.sha)).toEqual(tree);
    expect(await host.listTree(ALICE, WEB, 'no-such-branch')).toBeUndefined();

    const sha = '5'.repeat(40);
    const head = await host.commitFiles(ALICE, WEB, {
      branch: 'deps/submodule',
      parentSha: main.sha,
      message: 'Move a submodule',
      files: {
        'vendor/lib': { gitlink: sha },
        '.gitmodules': '[submodule "vendor/lib"]\n\tpath = vendor/lib\n\turl = https://github.com/acme-oss/errors.git\n',
      },
      createBranch: true,
    });
    const moved = await host.listTree(ALICE, WEB, head);
    expect(moved?.entries.find((entry) => entry.path === 'vendor/lib')).toEqual({ path: 'vendor/lib', type: 'commit', sha });
    expect(moved?.entries.find((entry) => entry.path === '.gitmodules')?.type).toBe('blob');
    await expect(
      host.commitFiles(ALICE, WEB, {
        branch: 'deps/submodule',
        parentSha: head,
        message: 'x',
        files: { 'vendor/lib': { gitlink: 'HEAD' } },
      }),
    ).rejects.toThrow(RangeError);
    expect(await host.deleteBranch(ALICE, WEB, 'deps/submodule')).toBe(true);
  });

  it('lists a directory, reads a branch with its tree, and makes a branch at a new commit in one go (the tree known)', async () => {
    const root = await host.listDirectory(ALICE, WEB, '', 'main');
    expect(root?.map((entry) => [entry.name, entry.type])).toEqual([
      ['package-lock.json', 'file'],
      ['package.json', 'file'],
      ['src', 'dir'],
    ]);
    expect(root?.find((entry) => entry.name === 'package.json')?.size).toBeGreaterThan(0);
    expect((await host.listDirectory(ALICE, WEB, 'src', 'main'))?.map((entry) => entry.name)).toEqual(['index.ts']);
    expect(await host.listDirectory(ALICE, WEB, 'no/such/dir', 'main')).toBeUndefined();
    expect(await host.listDirectory(ALICE, WEB, 'package.json', 'main')).toBeUndefined();

    const main = await host.getBranchCommit(ALICE, WEB, 'main');
    expect(main).toEqual({ sha: await host.getBranchHead(ALICE, WEB, 'main'), treeSha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(await host.getBranchCommit(ALICE, WEB, 'no-such-branch')).toBeUndefined();
    const change = {
      branch: 'deps/made-at-once',
      parentSha: main?.sha as string,
      parentTreeSha: main?.treeSha as string,
      message: 'One request fewer',
      files: { 'src/index.ts': 'export const x = 1;\n' },
      createBranch: true,
    };
    const commit = await host.commitFiles(ALICE, WEB, change);
    expect(await host.getBranchHead(ALICE, WEB, 'deps/made-at-once')).toBe(commit);
    expect(await host.readFile(ALICE, WEB, 'src/index.ts', 'deps/made-at-once')).toBe('export const x = 1;\n');
    expect(await host.readFile(ALICE, WEB, 'package.json', 'deps/made-at-once')).toBe(
      await host.readFile(ALICE, WEB, 'package.json', 'main'),
    );
    // The branch exists now: making it again is a conflict.
    expect((await codeHostError(host.commitFiles(ALICE, WEB, change))).kind).toBe('conflict');
  });

  it('branch → one commit of 2 files → pull request → labels → comment → status → merge', async () => {
    const main = await host.getBranchHead(ALICE, WEB, 'main');
    expect(main).toMatch(/^[0-9a-f]{40}$/);
    expect(await host.getBranchHead(ALICE, WEB, 'no-such-branch')).toBeUndefined();

    await host.createBranch(ALICE, WEB, 'deps/lodash-4.17.21', main as string);
    expect(await host.getBranchHead(ALICE, WEB, 'deps/lodash-4.17.21')).toBe(main);

    const manifest = '{"dependencies":{"lodash":"^4.17.21"}}\n';
    const lock = '{"lockfileVersion":3,"packages":{"node_modules/lodash":{"version":"4.17.21"}}}\n';
    const commit = await host.commitFiles(ALICE, WEB, {
      branch: 'deps/lodash-4.17.21',
      parentSha: main as string,
      message: 'Bump lodash to 4.17.21',
      files: { 'package.json': manifest, 'package-lock.json': lock, 'src/index.ts': null },
    });
    expect(await host.getBranchHead(ALICE, WEB, 'deps/lodash-4.17.21')).toBe(commit);
    const written = (await github('GET', `/repos/acme/web-storefront/git/commits/${commit}`)).body;
    expect(written).toMatchObject({ message: 'Bump lodash to 4.17.21', parents: [{ sha: main }] });
    expect(await host.readFile(ALICE, WEB, 'package.json', 'deps/lodash-4.17.21')).toBe(manifest);
    expect(await host.readFile(ALICE, WEB, 'package-lock.json', commit)).toBe(lock);
    expect(await host.readFile(ALICE, WEB, 'src/index.ts', 'deps/lodash-4.17.21')).toBeUndefined();
    expect(await host.readFile(ALICE, WEB, 'src/index.ts')).toBe('export {};\n');

    const pr = await host.openPullRequest(ALICE, WEB, {
      head: 'deps/lodash-4.17.21',
      base: 'main',
      title: 'Bump lodash',
      body: 'Fixes CVE-2021-23337',
    });
    expect(pr).toMatchObject({
      state: 'open',
      merged: false,
      draft: false,
      title: 'Bump lodash',
      body: 'Fixes CVE-2021-23337',
      head: { ref: 'deps/lodash-4.17.21', sha: commit },
      base: { ref: 'main', sha: main },
      mergeable: true,
      mergeableState: 'clean',
      labels: [],
      mergeCommitSha: null,
    });
    expect(pr.htmlUrl).toBe(`https://github.com/acme/web-storefront/pull/${pr.number}`);
    expect((await host.findPullRequest(ALICE, WEB, { head: 'deps/lodash-4.17.21', base: 'main' }))?.number).toBe(pr.number);
    expect(await host.findPullRequest(ALICE, WEB, { head: 'deps/lodash-4.17.21', state: 'closed' })).toBeUndefined();
    expect((await host.updatePullRequest(ALICE, WEB, pr.number, { title: 'Bump lodash from 4.17.15 to 4.17.21' })).title).toBe(
      'Bump lodash from 4.17.15 to 4.17.21',
    );

    expect(
      await host.addLabels(ALICE, WEB, pr.number, ['dependencies', { name: 'security', color: 'b60205', description: 'Security fix' }]),
    ).toEqual(['dependencies', 'security']);
    const labels = (await github('GET', '/repos/acme/web-storefront/labels')).body as unknown as { name: string; color: string }[];
    expect(labels.map((l) => `${l.name}:${l.color}`)).toEqual(['dependencies:ededed', 'security:b60205']);
    expect(await host.addLabels(ALICE, WEB, pr.number, ['Security'])).toEqual(['dependencies', 'security']);

    const comment = await host.comment(ALICE, WEB, pr.number, 'Compatibility score: 98%');
    expect(comment.id).toBeGreaterThan(0);
    expect(comment.htmlUrl).toContain(`/pull/${pr.number}#issuecomment-${comment.id}`);

    const pending = await host.combinedStatus(ALICE, WEB, 'deps/lodash-4.17.21');
    expect(pending).toEqual({ sha: commit, state: 'pending', statuses: [] });
    const runs = await host.checkRuns(ALICE, WEB, commit);
    expect(runs).toEqual({ state: 'success', runs: [] });
    expect(overallChecks(pending, runs)).toBe('success');
    await github('POST', `/repos/acme/web-storefront/statuses/${commit}`, { state: 'pending', context: 'ci/test' });
    const running = await host.combinedStatus(ALICE, WEB, commit);
    expect(overallChecks(running, runs)).toBe('pending');
    await github('POST', `/repos/acme/web-storefront/statuses/${commit}`, {
      state: 'success',
      context: 'ci/test',
      target_url: 'https://ci.example.com/7',
    });
    const green = await host.combinedStatus(ALICE, WEB, commit);
    expect(green).toEqual({
      sha: commit,
      state: 'success',
      statuses: [{ context: 'ci/test', state: 'success', description: null, targetUrl: 'https://ci.example.com/7' }],
    });
    expect(overallChecks(green, runs)).toBe('success');

    const moved = await codeHostError(host.mergePullRequest(ALICE, WEB, { number: pr.number, method: 'squash', sha: main as string }));
    expect([moved.kind, moved.status]).toEqual(['conflict', 409]);
    const merged = await host.mergePullRequest(ALICE, WEB, { number: pr.number, method: 'squash', sha: commit });
    expect(await host.getBranchHead(ALICE, WEB, 'main')).toBe(merged.sha);
    expect(await host.readFile(ALICE, WEB, 'package.json')).toBe(manifest);
    expect(await host.readFile(ALICE, WEB, 'src/index.ts')).toBeUndefined();
    const after = await host.getPullRequest(ALICE, WEB, pr.number);
    expect(after).toMatchObject({ state: 'closed', merged: true, mergeCommitSha: merged.sha, labels: ['dependencies', 'security'] });
    const again = await codeHostError(host.mergePullRequest(ALICE, WEB, { number: pr.number, method: 'merge' }));
    expect([again.kind, again.status]).toEqual(['conflict', 405]);
    expect(await host.getPullRequest(ALICE, WEB, 9_999)).toBeUndefined();

    expect(await host.deleteBranch(ALICE, WEB, 'deps/lodash-4.17.21')).toBe(true);
    expect(await host.deleteBranch(ALICE, WEB, 'deps/lodash-4.17.21')).toBe(false);
  });

  it("asks beforeContentCreation before each request GitHub's content limits count, and only those", async () => {
    const asked: string[] = [];
    let refuse = false;
    const paced = createGitHubCodeHost({
      baseUrl: server.url,
      throttle: false,
      logger,
      beforeContentCreation: async (token) => {
        asked.push(token);
        if (refuse) throw new Error('no budget');
      },
    });
    const count = async (work: () => Promise<unknown>) => {
      const before = asked.length;
      await work();
      return asked.length - before;
    };
    const main = (await paced.getBranchHead(ALICE, WEB, 'main')) as string;
    expect(asked).toEqual([]);
    const files = { 'paced.txt': 'paced\n' };
    // The branch with its commit: one GraphQL request (createRef and createCommitOnBranch in one document), asked once;
    // the repository's id read before it is not counted.
    expect(
      await count(() =>
        paced.commitFiles(ALICE, WEB, { branch: 'deps/paced', parentSha: main, message: 'Paced', files, createBranch: true }),
      ),
    ).toBe(1);
    // Through REST (a gitlink): a commit (its blobs and tree are not counted) and the branch made at it.
    expect(
      await count(() =>
        paced.commitFiles(ALICE, WEB, {
          branch: 'deps/paced-rest',
          parentSha: main,
          message: 'Paced',
          files: { 'vendor/lib': { gitlink: '6'.repeat(40) } },
          createBranch: true,
        }),
      ),
    ).toBe(2);
    const pr = await paced.openPullRequest(ALICE, WEB, { head: 'deps/paced', base: 'main', title: 'Paced', body: '' });
    expect(asked).toHaveLength(4);
    expect(await count(() => paced.comment(ALICE, WEB, pr.number, 'a comment'))).toBe(1);
    // Edits, reads through REST and GraphQL: not counted.
    expect(await count(() => paced.updatePullRequest(ALICE, WEB, pr.number, { title: 'Paced, renamed' }))).toBe(0);
    expect(await count(() => paced.readFiles(ALICE, WEB, ['package.json'], { ref: 'main' }))).toBe(0);
    expect(asked.every((token) => token === ALICE)).toBe(true);
    // Refused by the hook: never sent.
    refuse = true;
    await expect(paced.createBranch(ALICE, WEB, 'deps/never', main)).rejects.toThrow('no budget');
    expect(await host.getBranchHead(ALICE, WEB, 'deps/never')).toBeUndefined();
  });

  it('moves a branch by force only while its head is still the expected commit (a person pushed meanwhile: conflict)', async () => {
    const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
    const ours = await host.commitFiles(ALICE, WEB, {
      branch: 'deps/expected',
      parentSha: main,
      message: 'Ours',
      files: { 'ours.txt': 'ours\n' },
      createBranch: true,
    });
    const theirs = await host.commitFiles(ALICE, WEB, {
      branch: 'deps/expected',
      parentSha: ours,
      message: 'Theirs',
      files: { 'theirs.txt': 'theirs\n' },
    });
    const refused = await codeHostError(
      host.commitFiles(ALICE, WEB, {
        branch: 'deps/expected',
        parentSha: main,
        message: 'Rebased',
        files: { 'ours.txt': 'again\n' },
        force: true,
        expectedHead: ours,
      }),
    );
    expect(refused.kind).toBe('conflict');
    expect(await host.getBranchHead(ALICE, WEB, 'deps/expected')).toBe(theirs);
    const moved = await host.commitFiles(ALICE, WEB, {
      branch: 'deps/expected',
      parentSha: main,
      message: 'Rebased',
      files: { 'ours.txt': 'again\n' },
      force: true,
      expectedHead: theirs,
    });
    expect(await host.getBranchHead(ALICE, WEB, 'deps/expected')).toBe(moved);
  });

  it('refuses what the repository state does not allow: existing branch, stale parent, non-fast-forward, duplicate or empty pull request', async () => {
    const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
    const develop = (await host.getBranchHead(ALICE, WEB, 'develop')) as string;
    await host.createBranch(ALICE, WEB, 'refusals', main);
    const exists = await codeHostError(host.createBranch(ALICE, WEB, 'refusals', main));
    expect([exists.kind, exists.status]).toEqual(['conflict', 422]);
    const noCommit = await codeHostError(host.createBranch(ALICE, WEB, 'other', '0'.repeat(40)));
    expect(noCommit.kind).toBe('invalid');
    const empty = await codeHostError(host.openPullRequest(ALICE, WEB, { head: 'refusals', base: 'main', title: 'Nothing' }));
    expect([empty.kind, empty.status]).toEqual(['invalid', 422]);
    const first = await host.commitFiles(ALICE, WEB, { branch: 'refusals', parentSha: main, message: 'one', files: { 'one.txt': '1\n' } });
    const stale = await codeHostError(
      host.commitFiles(ALICE, WEB, { branch: 'refusals', parentSha: main, message: 'two', files: { 'two.txt': '2\n' } }),
    );
    // GraphQL's createCommitOnBranch refuses an expectedHeadOid that is not the head (STALE_DATA, answered with 200).
    expect([stale.kind, stale.status]).toEqual(['conflict', 200]);
    expect(stale.message).toContain('Expected branch to point to');
    expect(await host.getBranchHead(ALICE, WEB, 'refusals')).toBe(first);
    const pr = await host.openPullRequest(ALICE, WEB, { head: 'refusals', base: 'main', title: 'Refusals', draft: true });
    expect(pr.draft).toBe(true);
    const duplicate = await codeHostError(host.openPullRequest(ALICE, WEB, { head: 'refusals', base: 'main', title: 'Again' }));
    expect([duplicate.kind, duplicate.status]).toEqual(['conflict', 422]);
    expect(duplicate.message).toContain('A pull request already exists for acme:refusals');
    const draft = await codeHostError(host.mergePullRequest(ALICE, WEB, { number: pr.number, method: 'merge' }));
    expect([draft.kind, draft.status]).toEqual(['conflict', 405]);
    const notForward = await codeHostError(host.moveBranch(ALICE, WEB, 'refusals', develop));
    expect([notForward.kind, notForward.status]).toEqual(['conflict', 422]);
    await host.moveBranch(ALICE, WEB, 'refusals', develop, { force: true });
    expect(await host.getBranchHead(ALICE, WEB, 'refusals')).toBe(develop);
    expect((await host.closePullRequest(ALICE, WEB, pr.number)).state).toBe('closed');
    expect((await host.findPullRequest(ALICE, WEB, { head: 'refusals', state: 'closed' }))?.number).toBe(pr.number);
    await expect(
      host.commitFiles(ALICE, WEB, { branch: 'refusals', parentSha: main, message: 'x', files: { '/abs.txt': 'x' } }),
    ).rejects.toThrow(RangeError);
    await expect(host.commitFiles(ALICE, WEB, { branch: 'refusals', parentSha: main, message: 'x', files: {} })).rejects.toThrow(
      RangeError,
    );
    await expect(host.getPullRequest(ALICE, WEB, 0)).rejects.toThrow(RangeError);
  });

  it('refuses tokens without write access: not_found for repositories they cannot see, forbidden without write', async () => {
    const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
    const invisible = await codeHostError(host.createBranch(BOB, WEB, 'bob', main));
    expect([invisible.kind, invisible.status]).toEqual(['not_found', 404]);
    expect(await host.getBranchHead(BOB, WEB, 'main')).toBeUndefined();
    const readOnly = await codeHostError(host.createBranch(ALICE_TOKENS.contentsRead, WEB, 'read-only', main));
    expect([readOnly.kind, readOnly.status]).toEqual(['forbidden', 403]);
    const readRole = await codeHostError(
      host.openPullRequest(ALICE, { owner: 'initech', name: 'office-space' }, { head: 'main', base: 'main', title: 'x' }),
    );
    expect([readRole.kind, readRole.status]).toEqual(['forbidden', 403]);
    const archived = await codeHostError(host.createBranch(ALICE, { owner: 'acme', name: 'legacy-portal' }, 'x', main));
    expect(archived.kind).toBe('forbidden');
    const unauthorized = await codeHostError(host.getBranchHead('not-a-token', WEB, 'main'));
    expect(unauthorized.kind).toBe('unauthorized');
  });

  describe('commits through GraphQL (createRef and createCommitOnBranch in one request)', () => {
    /** The requests the emulator answered while `work` ran, by route (`POST /graphql`, …). */
    const requestsOf = async (work: () => Promise<unknown>) => {
      await fetch(`${server.url}${REQUEST_COUNTER_PATH}`, { method: 'DELETE' });
      await work();
      const counts = (await (await fetch(`${server.url}${REQUEST_COUNTER_PATH}`)).json()) as RequestCounts;
      return Object.fromEntries(
        Object.entries(counts.routes).map(([route, byStatus]) => [route, Object.values(byStatus).reduce((a, b) => a + b, 0)]),
      );
    };

    it('makes a branch with its commit in one POST /graphql once the repository id is known: authored by the token user, verified', async () => {
      const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
      const fresh = createGitHubCodeHost({ baseUrl: server.url, throttle: false, logger });
      let sha = '';
      // The first branch made in the repository by this adapter reads its node id first (one query more).
      expect(
        await requestsOf(async () => {
          sha = await fresh.commitFiles(ALICE, WEB, {
            branch: 'deps/graphql-1',
            parentSha: main,
            message: 'Bump lodash\n\nBumps lodash from 1 to 2.',
            files: { 'package.json': '{"name":"é"}\n', 'package-lock.json': null },
            createBranch: true,
          });
        }),
      ).toEqual({ 'POST /graphql': 2 });
      expect(await host.getBranchHead(ALICE, WEB, 'deps/graphql-1')).toBe(sha);
      expect(await host.readFile(ALICE, WEB, 'package.json', 'deps/graphql-1')).toBe('{"name":"é"}\n');
      expect(await host.readFile(ALICE, WEB, 'package-lock.json', 'deps/graphql-1')).toBeUndefined();
      const commit = await github('GET', `/repos/acme/web-storefront/commits/${sha}`);
      const detail = commit.body.commit as {
        message: string;
        author: { email: string };
        committer: { name: string };
        verification: { verified: boolean };
      };
      expect(detail.message).toBe('Bump lodash\n\nBumps lodash from 1 to 2.');
      // Authored by the token's user, committed and signed by GitHub.
      expect(detail.verification.verified).toBe(true);
      expect(detail.author.email).toContain('alice');
      expect(detail.committer.name).toBe('GitHub');
      expect((commit.body.parents as Array<{ sha: string }>).map((parent) => parent.sha)).toEqual([main]);
      // The next: one request.
      expect(
        await requestsOf(() =>
          fresh.commitFiles(ALICE, WEB, {
            branch: 'deps/graphql-2',
            parentSha: main,
            message: 'x',
            files: { 'x.txt': 'x\n' },
            createBranch: true,
          }),
        ),
      ).toEqual({ 'POST /graphql': 1 });
    });

    it('a branch that exists → conflict, nothing changed; one exactly at the base gets the commit (the end a new branch has)', async () => {
      const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
      const theirs = await host.commitFiles(ALICE, WEB, {
        branch: 'deps/graphql-exists',
        parentSha: main,
        message: 'theirs',
        files: { 'theirs.txt': '1\n' },
        createBranch: true,
      });
      const exists = await codeHostError(
        host.commitFiles(ALICE, WEB, {
          branch: 'deps/graphql-exists',
          parentSha: main,
          message: 'ours',
          files: { 'a.txt': 'a\n' },
          createBranch: true,
        }),
      );
      expect([exists.kind, exists.status]).toEqual(['conflict', 200]);
      expect(exists.message).toContain('already exists');
      expect(await host.getBranchHead(ALICE, WEB, 'deps/graphql-exists')).toBe(theirs);

      await host.createBranch(ALICE, WEB, 'deps/graphql-at-base', main);
      const ours = await host.commitFiles(ALICE, WEB, {
        branch: 'deps/graphql-at-base',
        parentSha: main,
        message: 'ours',
        files: { 'a.txt': 'a\n' },
        createBranch: true,
      });
      expect(await host.getBranchHead(ALICE, WEB, 'deps/graphql-at-base')).toBe(ours);
    });

    it('moves a branch only while its head is expectedHead (compare-and-swap: createCommitOnBranch expectedHeadOid)', async () => {
      const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
      const first = await host.commitFiles(ALICE, WEB, {
        branch: 'deps/graphql-cas',
        parentSha: main,
        message: 'one',
        files: { 'one.txt': '1\n' },
        createBranch: true,
      });
      const second = await host.commitFiles(ALICE, WEB, {
        branch: 'deps/graphql-cas',
        parentSha: first,
        expectedHead: first,
        message: 'two',
        files: { 'two.txt': '2\n' },
      });
      const stale = await codeHostError(
        host.commitFiles(ALICE, WEB, {
          branch: 'deps/graphql-cas',
          parentSha: first,
          expectedHead: first,
          message: 'late',
          files: { 'late.txt': 'l\n' },
        }),
      );
      expect([stale.kind, stale.status]).toEqual(['conflict', 200]);
      expect(stale.message).toContain(`Expected branch to point to "${first}"`);
      expect(await host.getBranchHead(ALICE, WEB, 'deps/graphql-cas')).toBe(second);
    });

    it('maps refusals as REST does: a repository the token cannot see → not_found, read-only → forbidden, a missing file deleted → invalid', async () => {
      const main = (await host.getBranchHead(ALICE, WEB, 'main')) as string;
      const change = { branch: 'deps/graphql-refused', parentSha: main, message: 'x', files: { 'x.txt': 'x\n' }, createBranch: true };
      expect((await codeHostError(host.commitFiles(BOB, WEB, change))).kind).toBe('not_found');
      expect((await codeHostError(host.commitFiles(ALICE_TOKENS.contentsRead, WEB, change))).kind).toBe('forbidden');
      const missing = await codeHostError(host.commitFiles(ALICE, WEB, { ...change, files: { 'no-such-file.txt': null } }));
      expect(missing.kind).toBe('invalid');
    });
  });
});
