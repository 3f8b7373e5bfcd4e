import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CodeHostPullRequest, GitHubCodeHost } from '../../src/index.ts';
import { codeHostError } from '../code-host-error.ts';
import { recorded } from './fixtures/index.ts';
import { adapterOn, expectDocumentedRequest, type RecordedGitHub, startRecordedGitHub, TOKEN } from './recorded-github.ts';

const HELLO = { owner: 'octocat', name: 'Hello-World' };
const SHA = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

/** The pull request of the description's examples, as the port sees it. */
const PULL_1347: CodeHostPullRequest = {
  number: 1347,
  nodeId: 'MDExOlB1bGxSZXF1ZXN0MQ==',
  htmlUrl: 'https://github.com/octocat/Hello-World/pull/1347',
  state: 'open',
  merged: false,
  draft: false,
  title: 'Amazing new feature',
  body: 'Please pull these awesome changes in!',
  head: { ref: 'new-topic', sha: SHA },
  base: { ref: 'master', sha: SHA },
  mergeable: true,
  mergeableState: 'clean',
  labels: ['bug'],
  mergeCommitSha: 'e5bd3914e2e596debea16f433f57875b5b90bcd6',
};

/** The issue of the description's examples, as the port sees it. */
const ISSUE_1347 = {
  number: 1347,
  htmlUrl: 'https://github.com/octocat/Hello-World/issues/1347',
  state: 'open',
  title: 'Found a bug',
  body: "I'm having a problem with this.",
};

/**
 * The adapter's pull request, label, comment, status, check run, issue, review request, assignee and permission calls
 * against GitHub's recorded answers: what they return, which `CodeHostError` GitHub's refusals become, and that every
 * request (path, query, body) is one the description documents.
 */
describe('GitHub adapter pull requests and issues against recorded GitHub answers', () => {
  let github: RecordedGitHub;
  let host: GitHubCodeHost;

  beforeAll(async () => {
    github = await startRecordedGitHub();
    host = adapterOn(github);
  }, 60_000);
  afterEach(() => github.reset());
  afterAll(() => github.close());

  describe('pull requests', () => {
    const { createPull, listPulls, getPull, updatePull, mergePull } = recorded;

    it('openPullRequest: POST /pulls → the pull request; 422 "already exists" → conflict, "No commits between" → invalid, 403 → forbidden', async () => {
      github.serve(createPull.operation, createPull.answers.created);
      expect(
        await host.openPullRequest(TOKEN, HELLO, { head: 'new-topic', base: 'master', title: 'Amazing', body: 'b', draft: true }),
      ).toEqual(PULL_1347);
      expect(expectDocumentedRequest(github.received[0], createPull.operation).body).toEqual({
        head: 'new-topic',
        base: 'master',
        title: 'Amazing',
        body: 'b',
        draft: true,
      });
      const cases = [
        ['alreadyExists', 'conflict', 422, 'A pull request already exists for octocat:new-feature.'],
        ['noCommits', 'invalid', 422, 'No commits between master and new-feature'],
        ['forbidden', 'forbidden', 403, 'Resource not accessible by integration'],
      ] as const;
      for (const [answer, kind, status, said] of cases) {
        github.serve(createPull.operation, createPull.answers[answer]);
        const error = await codeHostError(host.openPullRequest(TOKEN, HELLO, { head: 'new-feature', base: 'master', title: 't' }));
        expect([answer, error.kind, error.status]).toEqual([answer, kind, status]);
        expect(error.message).toContain(said);
      }
    });

    it('findPullRequest: GET /pulls?head=<owner>:<branch>&state&sort=created&direction=desc → the first; an empty list → undefined', async () => {
      github.serve(listPulls.operation, listPulls.answers.ok);
      const found = await host.findPullRequest(TOKEN, HELLO, { head: 'new-topic', base: 'master', state: 'all' });
      // A listing (`pull-request-simple`) has no `merged` nor `mergeable`: merged comes from `merged_at` (set in the example).
      expect(found).toEqual({ ...PULL_1347, merged: true, mergeable: null, mergeableState: null });
      expect(expectDocumentedRequest(github.received[0], listPulls.operation).query).toEqual({
        head: 'octocat:new-topic',
        base: 'master',
        state: 'all',
        sort: 'created',
        direction: 'desc',
        per_page: '100',
      });
      github.serve(listPulls.operation, listPulls.answers.none);
      expect(await host.findPullRequest(TOKEN, HELLO, { head: 'other' })).toBeUndefined();
      expect(github.received[1]?.query.state).toBe('open');
    });

    it('getPullRequest: GET /pulls/{n}; 404 → undefined', async () => {
      github.serve(getPull.operation, getPull.answers.ok);
      expect(await host.getPullRequest(TOKEN, HELLO, 1347)).toEqual(PULL_1347);
      expect(expectDocumentedRequest(github.received[0], getPull.operation).path).toBe('/repos/octocat/Hello-World/pulls/1347');
      github.serve(getPull.operation, getPull.answers.notFound);
      expect(await host.getPullRequest(TOKEN, HELLO, 1)).toBeUndefined();
    });

    it('updatePullRequest and closePullRequest: PATCH /pulls/{n}; 403 "Resource not accessible by integration" → forbidden', async () => {
      github.serve(updatePull.operation, updatePull.answers.ok);
      expect(await host.updatePullRequest(TOKEN, HELLO, 1347, { title: 'New title', base: 'main' })).toEqual(PULL_1347);
      expect(expectDocumentedRequest(github.received[0], updatePull.operation).body).toEqual({ title: 'New title', base: 'main' });
      github.serve(updatePull.operation, updatePull.answers.closed);
      expect(await host.closePullRequest(TOKEN, HELLO, 1347)).toMatchObject({ state: 'closed', merged: false, mergeable: null });
      expect(expectDocumentedRequest(github.received[1], updatePull.operation).body).toEqual({ state: 'closed' });
      github.serve(updatePull.operation, updatePull.answers.forbidden);
      const error = await codeHostError(host.closePullRequest(TOKEN, HELLO, 1347));
      expect([error.kind, error.status]).toEqual(['forbidden', 403]);
    });

    it('mergePullRequest: PUT /pulls/{n}/merge → the new head; 405 not mergeable and 409 head moved → conflict', async () => {
      github.serve(mergePull.operation, mergePull.answers.merged);
      expect(await host.mergePullRequest(TOKEN, HELLO, { number: 1347, method: 'squash', sha: SHA, commitTitle: 'Squashed' })).toEqual({
        sha: SHA,
      });
      expect(expectDocumentedRequest(github.received[0], mergePull.operation).body).toEqual({
        merge_method: 'squash',
        sha: SHA,
        commit_title: 'Squashed',
      });
      for (const [answer, status, said] of [
        ['notMergeable', 405, 'Pull Request is not mergeable'],
        ['headMoved', 409, 'Head branch was modified. Review and try the merge again.'],
      ] as const) {
        github.serve(mergePull.operation, mergePull.answers[answer]);
        const error = await codeHostError(host.mergePullRequest(TOKEN, HELLO, { number: 1347, method: 'merge', sha: SHA }));
        expect([error.kind, error.status]).toEqual(['conflict', status]);
        expect(error.message).toContain(said);
      }
    });
  });

  it('addLabels: GET /labels, POST /labels for a missing one (a 422 already_exists is fine), POST /issues/{n}/labels', async () => {
    const { listLabels, createLabel, addLabels } = recorded;
    const fresh = adapterOn(github);
    github.serve(listLabels.operation, listLabels.answers.ok);
    github.serve(createLabel.operation, createLabel.answers.created, createLabel.answers.alreadyExists);
    github.serve(addLabels.operation, addLabels.answers.ok);
    const labels = ['bug', { name: 'dependencies', color: '#0366d6', description: 'Pull requests that update a dependency file' }, 'raced'];
    expect(await fresh.addLabels(TOKEN, HELLO, 1347, labels)).toEqual(['bug', 'enhancement']);
    const [list, create, raced, add] = github.received;
    expect(expectDocumentedRequest(list, listLabels.operation).query).toEqual({ per_page: '100' });
    expect(expectDocumentedRequest(create, createLabel.operation).body).toEqual({
      name: 'dependencies',
      color: '0366d6',
      description: 'Pull requests that update a dependency file',
    });
    expect(expectDocumentedRequest(raced, createLabel.operation).body).toEqual({ name: 'raced', color: 'ededed' });
    expect(expectDocumentedRequest(add, addLabels.operation).body).toEqual({ labels: ['bug', 'dependencies', 'raced'] });
    // The repository's labels are known now: labelling again is one request.
    await fresh.addLabels(TOKEN, HELLO, 1347, ['dependencies']);
    expect(github.received.slice(4).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /repos/octocat/Hello-World/issues/1347/labels',
    ]);
  });

  it('comment: POST /issues/{n}/comments → id and address; 403 → forbidden, 410 → not_found, a secondary limit → rate_limited', async () => {
    const { createComment } = recorded;
    github.serve(createComment.operation, createComment.answers.created);
    expect(await host.comment(TOKEN, HELLO, 1347, 'Me too')).toEqual({
      id: 1,
      htmlUrl: 'https://github.com/octocat/Hello-World/issues/1347#issuecomment-1',
    });
    expect(expectDocumentedRequest(github.received[0], createComment.operation).body).toEqual({ body: 'Me too' });
    const cases = [
      ['forbidden', 'forbidden', 403, undefined],
      ['issuesDisabled', 'not_found', 410, undefined],
      ['secondaryRateLimit', 'rate_limited', 403, 60],
    ] as const;
    for (const [answer, kind, status, retryAfterSeconds] of cases) {
      github.serve(createComment.operation, createComment.answers[answer]);
      const error = await codeHostError(host.comment(TOKEN, HELLO, 1347, 'x'));
      expect([answer, error.kind, error.status, error.retryAfterSeconds]).toEqual([answer, kind, status, retryAfterSeconds]);
    }
  });

  it('combinedStatus: GET /commits/{ref}/status; checkRuns: GET /commits/{ref}/check-runs (a neutral run passes)', async () => {
    const { combinedStatus, checkRuns } = recorded;
    github.serve(combinedStatus.operation, combinedStatus.answers.ok);
    expect(await host.combinedStatus(TOKEN, HELLO, 'main')).toEqual({
      sha: SHA,
      state: 'success',
      statuses: [
        {
          context: 'continuous-integration/jenkins',
          state: 'success',
          description: 'Build has completed successfully',
          targetUrl: 'https://ci.example.com/1000/output',
        },
        {
          context: 'security/brakeman',
          state: 'success',
          description: 'Testing has completed successfully',
          targetUrl: 'https://ci.example.com/2000/output',
        },
      ],
    });
    const status = expectDocumentedRequest(github.received[0], combinedStatus.operation);
    expect([status.path, status.query]).toEqual(['/repos/octocat/Hello-World/commits/main/status', { per_page: '100' }]);

    github.serve(checkRuns.operation, checkRuns.answers.ok);
    expect(await host.checkRuns(TOKEN, HELLO, SHA)).toEqual({
      state: 'success',
      runs: [{ name: 'mighty_readme', status: 'completed', conclusion: 'neutral' }],
    });
    expect(expectDocumentedRequest(github.received[1], checkRuns.operation).query).toEqual({ per_page: '100' });
  });

  describe('issues', () => {
    const { createIssue, getIssue, updateIssue } = recorded;

    it('openIssue: POST /issues → the issue; 410 "Issues are disabled for this repo" → not_found with status 410', async () => {
      github.serve(createIssue.operation, createIssue.answers.created);
      expect(await host.openIssue(TOKEN, HELLO, { title: 'Found a bug', body: 'b', labels: ['bug'] })).toEqual(ISSUE_1347);
      expect(expectDocumentedRequest(github.received[0], createIssue.operation).body).toEqual({
        title: 'Found a bug',
        body: 'b',
        labels: ['bug'],
      });
      github.serve(createIssue.operation, createIssue.answers.issuesDisabled);
      const error = await codeHostError(host.openIssue(TOKEN, HELLO, { title: 't', body: 'b' }));
      expect([error.kind, error.status]).toEqual(['not_found', 410]);
    });

    it("getIssue: GET /issues/{n}; a pull request's number (the answer has pull_request), 404 and 410 → undefined", async () => {
      github.serve(getIssue.operation, getIssue.answers.issue);
      expect(await host.getIssue(TOKEN, HELLO, 1347)).toEqual(ISSUE_1347);
      expectDocumentedRequest(github.received[0], getIssue.operation);
      for (const answer of ['pullRequest', 'notFound', 'gone'] as const) {
        github.serve(getIssue.operation, getIssue.answers[answer]);
        expect(await host.getIssue(TOKEN, HELLO, 1347), answer).toBeUndefined();
      }
    });

    it('updateIssue: PATCH /issues/{n} with state, state_reason and milestone', async () => {
      github.serve(updateIssue.operation, updateIssue.answers.closed);
      expect(await host.updateIssue(TOKEN, HELLO, 1347, { state: 'closed', stateReason: 'not_planned', milestone: null })).toEqual({
        ...ISSUE_1347,
        state: 'closed',
      });
      expect(expectDocumentedRequest(github.received[0], updateIssue.operation).body).toEqual({
        state: 'closed',
        state_reason: 'not_planned',
        milestone: null,
      });
    });
  });

  it('requestReviewers: users and org/team slugs; 422 not a collaborator → invalid. addAssignees: POST /issues/{n}/assignees', async () => {
    const { requestReviewers, addAssignees } = recorded;
    github.serve(requestReviewers.operation, requestReviewers.answers.requested);
    await host.requestReviewers(TOKEN, HELLO, 1347, ['octocat', 'github/justice-league']);
    expect(expectDocumentedRequest(github.received[0], requestReviewers.operation).body).toEqual({
      reviewers: ['octocat'],
      team_reviewers: ['justice-league'],
    });
    github.serve(requestReviewers.operation, requestReviewers.answers.notCollaborator);
    const error = await codeHostError(host.requestReviewers(TOKEN, HELLO, 1347, ['stranger']));
    expect([error.kind, error.status]).toEqual(['invalid', 422]);
    expect(error.message).toContain('Reviews may only be requested from collaborators');

    github.serve(addAssignees.operation, addAssignees.answers.ok);
    await host.addAssignees(TOKEN, HELLO, 1347, ['hubot', 'other_user']);
    expect(expectDocumentedRequest(github.received[2], addAssignees.operation).body).toEqual({ assignees: ['hubot', 'other_user'] });
  });

  it('collaboratorPermission: admin; maintain counts as write and triage as read (role_name); an unknown user (404) → none', async () => {
    const { collaboratorPermission } = recorded;
    const cases = [
      ['admin', 'admin'],
      ['maintainer', 'write'],
      ['triager', 'read'],
      ['unknownUser', 'none'],
    ] as const;
    for (const [answer, permission] of cases) {
      github.serve(collaboratorPermission.operation, collaboratorPermission.answers[answer]);
      expect(await host.collaboratorPermission(TOKEN, HELLO, 'hubot'), answer).toBe(permission);
    }
    const sent = expectDocumentedRequest(github.received[0], collaboratorPermission.operation);
    expect(sent.path).toBe('/repos/octocat/Hello-World/collaborators/hubot/permission');
  });
});
