import type { Listening } from '@switchyard/service-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recorded } from '../../../code-host/test/contract/fixtures/index.ts';
import { startGitHubEmulator } from '../../src/index.ts';
import { silentLogger } from '../fixtures.ts';
import { type Api, apiAs, commitThroughApi, headOf } from '../writes.ts';
import { expectAsRecorded } from './as-recorded.ts';
import { CONTRACT_SEED, OCTOCAT, OCTOCAT_READ_ONLY } from './contract-seed.ts';

const HELLO = '/repos/octocat/Hello-World';
const EMPTY = '/repos/octocat/empty';
const ZEROS = '0'.repeat(40);

/**
 * The emulator held to GitHub's recorded answers for every write the GitHub adapter makes (the Git Database API, pull
 * requests, labels, comments, issues, review requests, assignees) and the reads around them: the same status for the
 * same situation — an existing branch is 422 `Reference already exists`, a private repository octocat cannot see 404, a
 * token without write access 403, a repository without any commit 409 `Git Repository is empty.` — and bodies of the
 * same schema.
 */
describe('GitHub emulator writes held to the recorded GitHub answers', () => {
  let server: Listening;
  let octocat: Api;
  let readOnly: Api;
  let master: string;

  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: CONTRACT_SEED, logger: silentLogger });
    octocat = apiAs(server.url, OCTOCAT);
    readOnly = apiAs(server.url, OCTOCAT_READ_ONLY);
    master = await headOf(octocat, 'octocat/Hello-World', 'master');
  }, 60_000);
  afterAll(() => server.close());

  describe('refs, branches, trees and commits', () => {
    const { getRef, getBranch, createRef, getCommit, createTree, createCommit, updateRef, deleteRef } = recorded;

    it('GET /git/ref/heads/{branch} and GET /branches/{branch}; 404 (Branch not found) for a missing branch, also of an empty repository', async () => {
      expect(expectAsRecorded(await octocat.get(`${HELLO}/git/ref/heads%2Fmaster`), getRef, 'ok')).toMatchObject({
        object: { sha: master },
      });
      expectAsRecorded(await octocat.get(`${HELLO}/git/ref/heads%2Fnope`), getRef, 'notFound', { sameMessage: true });
      const branch = expectAsRecorded(await octocat.get(`${HELLO}/branches/master`), getBranch, 'ok');
      expect(branch).toMatchObject({ name: 'master', commit: { sha: master } });
      expectAsRecorded(await octocat.get(`${HELLO}/branches/nope`), getBranch, 'notFound', { sameMessage: true });
      expectAsRecorded(await octocat.get(`${EMPTY}/branches/main`), getBranch, 'notFound', { sameMessage: true });
    });

    it('the Git Database API on a repository without commits: 409 "Git Repository is empty." to each call, whatever the body', async () => {
      // GitHub's very body: the message, the operation's documentation_url and the status as a string.
      const empty = (res: Parameters<typeof expectAsRecorded>[0], entry: Parameters<typeof expectAsRecorded>[1]) =>
        expect(expectAsRecorded(res, entry, 'emptyRepository', { sameMessage: true })).toEqual(entry.answers.emptyRepository?.body);
      empty(await octocat.get(`${EMPTY}/git/ref/heads%2Fmain`), getRef);
      empty(await octocat.post(`${EMPTY}/git/refs`, { ref: 'refs/heads/main', sha: master }), createRef);
      empty(await octocat.get(`${EMPTY}/git/commits/${master}`), getCommit);
      empty(
        await octocat.post(`${EMPTY}/git/trees`, { tree: [{ path: 'a.txt', mode: '100644', type: 'blob', content: 'a' }] }),
        createTree,
      );
      empty(await octocat.post(`${EMPTY}/git/commits`, { message: 'First', tree: ZEROS, parents: [] }), createCommit);
      empty(await octocat.patch(`${EMPTY}/git/refs/heads%2Fmain`, { sha: master, force: true }), updateRef);
      empty(await octocat.del(`${EMPTY}/git/refs/heads%2Fmain`), deleteRef);
      // Access comes first: a token without write access is refused (403) before the repository's state is looked at.
      expect((await readOnly.post(`${EMPTY}/git/refs`, { ref: 'refs/heads/main', sha: master })).status).toBe(403);
    });

    it('POST /git/refs: 201; 422 "Reference already exists" for an existing branch; 404 (not 403) in a private repository octocat cannot see', async () => {
      const created = expectAsRecorded(
        await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/featureA', sha: master }),
        createRef,
        'created',
      );
      expect(created).toMatchObject({ ref: 'refs/heads/featureA', object: { type: 'commit', sha: master } });
      const again = await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/featureA', sha: master });
      expectAsRecorded(again, createRef, 'alreadyExists', { sameMessage: true });
      const hidden = await octocat.post('/repos/hubot/secret/git/refs', { ref: 'refs/heads/x', sha: master });
      expectAsRecorded(hidden, createRef, 'privateNotVisible', { sameMessage: true });
      expect((await octocat.del(`${HELLO}/git/refs/heads%2FfeatureA`)).status).toBe(204);
    });

    it('a commit as the adapter makes it: GET /git/commits/{parent}, POST /git/trees, POST /git/commits, PATCH the branch; 404 for a missing commit', async () => {
      const parent = expectAsRecorded(await octocat.get(`${HELLO}/git/commits/${master}`), getCommit, 'ok') as { tree: { sha: string } };
      expectAsRecorded(await octocat.get(`${HELLO}/git/commits/${ZEROS}`), getCommit, 'notFound', { sameMessage: true });
      const tree = expectAsRecorded(
        await octocat.post(`${HELLO}/git/trees`, {
          base_tree: parent.tree.sha,
          tree: [
            { path: 'package.json', mode: '100644', type: 'blob', content: '{}\n' },
            { path: 'README', mode: '100644', type: 'blob', sha: null },
            { path: 'vendor/other', mode: '160000', type: 'commit', sha: 'b'.repeat(40) },
          ],
        }),
        createTree,
        'created',
      ) as { sha: string };
      const commit = expectAsRecorded(
        await octocat.post(`${HELLO}/git/commits`, {
          message: 'Update dependencies',
          tree: tree.sha,
          parents: [master],
          author: { name: 'Mona', email: 'mona@example.com' },
        }),
        createCommit,
        'created',
      ) as { sha: string };
      expectAsRecorded(await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/deps', sha: master }), createRef, 'created');
      const moved = await octocat.patch(`${HELLO}/git/refs/heads%2Fdeps`, { sha: commit.sha, force: false });
      expect(expectAsRecorded(moved, updateRef, 'ok')).toMatchObject({ object: { sha: commit.sha } });
    });

    it('PATCH /git/refs: 422 "Update is not a fast forward" and "Reference does not exist"; DELETE: 204, then 422 "Reference does not exist"', async () => {
      const ahead = await commitThroughApi(octocat, 'octocat/Hello-World', master, { 'ahead.txt': 'a\n' });
      const aside = await commitThroughApi(octocat, 'octocat/Hello-World', master, { 'aside.txt': 'b\n' });
      expectAsRecorded(await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/moving', sha: ahead }), createRef, 'created');
      const refused = await octocat.patch(`${HELLO}/git/refs/heads%2Fmoving`, { sha: aside, force: false });
      expectAsRecorded(refused, updateRef, 'notFastForward', { sameMessage: true });
      expectAsRecorded(await octocat.patch(`${HELLO}/git/refs/heads%2Fmoving`, { sha: aside, force: true }), updateRef, 'ok');
      const missing = await octocat.patch(`${HELLO}/git/refs/heads%2Fnope`, { sha: aside, force: false });
      expectAsRecorded(missing, updateRef, 'referenceMissing', { sameMessage: true });
      expectAsRecorded(await octocat.del(`${HELLO}/git/refs/heads%2Fmoving`), deleteRef, 'deleted');
      expectAsRecorded(await octocat.del(`${HELLO}/git/refs/heads%2Fmoving`), deleteRef, 'referenceMissing', { sameMessage: true });
    });
  });

  describe('pull requests', () => {
    const { createPull, listPulls, getPull, updatePull, mergePull } = recorded;
    let number: number;

    beforeAll(async () => {
      const sha = await commitThroughApi(octocat, 'octocat/Hello-World', master, { 'feature.txt': 'new\n' });
      const ref = await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/new-topic', sha });
      if (ref.status !== 201) throw new Error(`new-topic: ${ref.status} ${ref.text}`);
      await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/same', sha: master });
    });

    it('POST /pulls: 201; 422 a pull request already exists, 422 no commits between; 403 for a token without write access', async () => {
      const created = expectAsRecorded(
        await octocat.post(`${HELLO}/pulls`, { head: 'new-topic', base: 'master', title: 'Amazing new feature', body: 'b', draft: false }),
        createPull,
        'created',
      ) as { number: number };
      number = created.number;
      const errorsOf = (answer: 'alreadyExists' | 'noCommits') => (createPull.answers[answer].body as { errors: object[] }).errors;
      const twice = expectAsRecorded(
        await octocat.post(`${HELLO}/pulls`, { head: 'new-topic', base: 'master', title: 't' }),
        createPull,
        'alreadyExists',
        {
          sameMessage: true,
        },
      );
      expect(twice).toMatchObject({
        errors: [{ ...errorsOf('alreadyExists')[0], message: 'A pull request already exists for octocat:new-topic.' }],
      });
      const nothing = expectAsRecorded(
        await octocat.post(`${HELLO}/pulls`, { head: 'same', base: 'master', title: 't' }),
        createPull,
        'noCommits',
        {
          sameMessage: true,
        },
      );
      expect(nothing).toMatchObject({ errors: [{ ...errorsOf('noCommits')[0], message: 'No commits between master and same' }] });
      const refused = expectAsRecorded(
        await readOnly.post(`${HELLO}/pulls`, { head: 'new-topic', base: 'master', title: 't' }),
        createPull,
        'forbidden',
      );
      // GitHub words it by token kind: "…by integration" for an app's token, "…by personal access token" for this one.
      expect(refused).toMatchObject({ message: 'Resource not accessible by personal access token' });
    });

    it('GET /pulls?head=owner:branch (the newest first), GET /pulls/{n}; [] and 404 when there is none', async () => {
      const query = 'state=open&sort=created&direction=desc&per_page=100';
      const found = expectAsRecorded(await octocat.get(`${HELLO}/pulls?head=octocat%3Anew-topic&base=master&${query}`), listPulls, 'ok');
      expect((found as { number: number }[]).map((pull) => pull.number)).toEqual([number]);
      expect(expectAsRecorded(await octocat.get(`${HELLO}/pulls?head=octocat%3Anothing&${query}`), listPulls, 'none')).toEqual([]);
      expect(expectAsRecorded(await octocat.get(`${HELLO}/pulls/${number}`), getPull, 'ok')).toMatchObject({ number, mergeable: true });
      expectAsRecorded(await octocat.get(`${HELLO}/pulls/9999`), getPull, 'notFound', { sameMessage: true });
    });

    it('PATCH /pulls/{n}: 200 (title, then closed and opened again); 403 for a token without write access', async () => {
      expect(expectAsRecorded(await octocat.patch(`${HELLO}/pulls/${number}`, { title: 'Renamed' }), updatePull, 'ok')).toMatchObject({
        title: 'Renamed',
      });
      const closed = expectAsRecorded(await octocat.patch(`${HELLO}/pulls/${number}`, { state: 'closed' }), updatePull, 'closed');
      expect(closed).toMatchObject({ state: 'closed', merged: false });
      expectAsRecorded(await octocat.patch(`${HELLO}/pulls/${number}`, { state: 'open' }), updatePull, 'ok');
      expectAsRecorded(await readOnly.patch(`${HELLO}/pulls/${number}`, { state: 'closed' }), updatePull, 'forbidden');
    });

    it('PUT /pulls/{n}/merge: 409 when the head moved, 200 merged, then 405 not mergeable', async () => {
      const head = await headOf(octocat, 'octocat/Hello-World', 'new-topic');
      expectAsRecorded(
        await octocat.put(`${HELLO}/pulls/${number}/merge`, { merge_method: 'merge', sha: master }),
        mergePull,
        'headMoved',
        {
          sameMessage: true,
        },
      );
      const merged = expectAsRecorded(
        await octocat.put(`${HELLO}/pulls/${number}/merge`, { merge_method: 'squash', sha: head }),
        mergePull,
        'merged',
      );
      expect(merged).toMatchObject({ merged: true, sha: await headOf(octocat, 'octocat/Hello-World', 'master') });
      expectAsRecorded(await octocat.put(`${HELLO}/pulls/${number}/merge`, { merge_method: 'merge' }), mergePull, 'notMergeable', {
        sameMessage: true,
      });
    });
  });

  describe('labels, comments, statuses, issues, reviewers, assignees, permissions', () => {
    const { listLabels, createLabel, addLabels, createComment, combinedStatus, checkRuns, createIssue, getIssue, updateIssue } = recorded;
    let issue: number;

    beforeAll(async () => {
      const created = await octocat.post(`${HELLO}/issues`, { title: 'Found a bug', body: "I'm having a problem with this." });
      if (created.status !== 201) throw new Error(`issue: ${created.status} ${created.text}`);
      issue = created.body.number;
    });

    it('GET /labels, POST /labels (422 already_exists the second time), POST /issues/{n}/labels', async () => {
      expectAsRecorded(await octocat.get(`${HELLO}/labels?per_page=100`), listLabels, 'ok');
      const label = { name: 'dependencies', color: '0366d6', description: 'Pull requests that update a dependency file' };
      expect(expectAsRecorded(await octocat.post(`${HELLO}/labels`, label), createLabel, 'created')).toMatchObject(label);
      const twice = expectAsRecorded(await octocat.post(`${HELLO}/labels`, label), createLabel, 'alreadyExists', { sameMessage: true });
      expect((twice as { errors: unknown }).errors).toEqual((createLabel.answers.alreadyExists.body as { errors: unknown }).errors);
      const labels = expectAsRecorded(
        await octocat.post(`${HELLO}/issues/${issue}/labels`, { labels: ['dependencies', 'bug'] }),
        addLabels,
        'ok',
      );
      expect((labels as { name: string }[]).map((l) => l.name).sort()).toEqual(['bug', 'dependencies']);
    });

    it('POST /issues/{n}/comments 201; GET /commits/{ref}/status and /check-runs', async () => {
      const comment = expectAsRecorded(
        await octocat.post(`${HELLO}/issues/${issue}/comments`, { body: 'Me too' }),
        createComment,
        'created',
      );
      expect(comment).toMatchObject({ body: 'Me too', html_url: expect.stringContaining(`/issues/${issue}#issuecomment-`) });
      expectAsRecorded(await octocat.get(`${HELLO}/commits/master/status?per_page=100`), combinedStatus, 'ok');
      expectAsRecorded(await octocat.get(`${HELLO}/commits/master/check-runs?per_page=100`), checkRuns, 'ok');
    });

    it('POST /issues, GET /issues/{n} (a pull request number carries pull_request; 404 for none), PATCH /issues/{n}', async () => {
      const opened = expectAsRecorded(
        await octocat.post(`${HELLO}/issues`, { title: 'Found a bug', body: 'b', labels: ['bug'] }),
        createIssue,
        'created',
      );
      const { number } = opened as { number: number };
      const read = expectAsRecorded(await octocat.get(`${HELLO}/issues/${number}`), getIssue, 'issue');
      expect(read).not.toHaveProperty('pull_request');
      const sha = await commitThroughApi(octocat, 'octocat/Hello-World', master, { 'pr.txt': 'x\n' });
      await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/for-issue', sha });
      const pull = await octocat.post(`${HELLO}/pulls`, { head: 'for-issue', base: 'master', title: 'PR' });
      expect(expectAsRecorded(await octocat.get(`${HELLO}/issues/${pull.body.number}`), getIssue, 'pullRequest')).toHaveProperty(
        'pull_request',
      );
      expectAsRecorded(await octocat.get(`${HELLO}/issues/9999`), getIssue, 'notFound', { sameMessage: true });
      const closed = await octocat.patch(`${HELLO}/issues/${number}`, { state: 'closed', state_reason: 'not_planned', milestone: null });
      expect(expectAsRecorded(closed, updateIssue, 'closed')).toMatchObject({ state: 'closed', state_reason: 'not_planned' });
    });

    it('POST /pulls/{n}/requested_reviewers (422 for a non-collaborator, in GitHub words), POST /issues/{n}/assignees', async () => {
      const { requestReviewers, addAssignees } = recorded;
      const sha = await commitThroughApi(octocat, 'octocat/Hello-World', master, { 'review.txt': 'x\n' });
      await octocat.post(`${HELLO}/git/refs`, { ref: 'refs/heads/for-review', sha });
      const pull = (await octocat.post(`${HELLO}/pulls`, { head: 'for-review', base: 'master', title: 'Review me' })).body.number;
      const requested = await octocat.post(`${HELLO}/pulls/${pull}/requested_reviewers`, { reviewers: ['hubot'], team_reviewers: [] });
      expect(expectAsRecorded(requested, requestReviewers, 'requested')).toMatchObject({ requested_reviewers: [{ login: 'hubot' }] });
      const stranger = await octocat.post(`${HELLO}/pulls/${pull}/requested_reviewers`, { reviewers: ['nobody'], team_reviewers: [] });
      expectAsRecorded(stranger, requestReviewers, 'notCollaborator', { sameMessage: true });
      const assigned = expectAsRecorded(
        await octocat.post(`${HELLO}/issues/${pull}/assignees`, { assignees: ['hubot'] }),
        addAssignees,
        'ok',
      );
      expect(assigned).toMatchObject({ assignees: [{ login: 'hubot' }] });
    });

    it('GET /collaborators/{username}/permission: admin, maintain as write, triage as read; 404 for a user who is none', async () => {
      const { collaboratorPermission } = recorded;
      for (const [login, answer] of [
        ['octocat', 'admin'],
        ['hubot', 'maintainer'],
        ['monalisa', 'triager'],
      ] as const) {
        const body = expectAsRecorded(await octocat.get(`${HELLO}/collaborators/${login}/permission`), collaboratorPermission, answer);
        const expected = collaboratorPermission.answers[answer].body as { permission: string; role_name: string };
        expect(body, login).toMatchObject({ permission: expected.permission, role_name: expected.role_name, user: { login } });
      }
      expectAsRecorded(await octocat.get(`${HELLO}/collaborators/nobody/permission`), collaboratorPermission, 'unknownUser', {
        sameMessage: true,
      });
      // A private repository octocat cannot see: 404 as well.
      expectAsRecorded(await octocat.get('/repos/hubot/secret/collaborators/hubot/permission'), collaboratorPermission, 'unknownUser', {
        sameMessage: true,
      });
    });
  });
});
