import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubCodeHost } from '../../src/index.ts';
import { codeHostError } from '../code-host-error.ts';
import { recorded } from './fixtures/index.ts';
import { adapterOn, expectDocumentedRequest, type RecordedGitHub, startRecordedGitHub, TOKEN } from './recorded-github.ts';

const HELLO = { owner: 'octocat', name: 'Hello-World' };
const PARENT = '6dcb09b5b57875f334f61aebed695e2e4193db5e';

/**
 * The adapter's branch and commit calls (the Git Database API) against GitHub's recorded answers: what they return,
 * which `CodeHostError` GitHub's refusals become (422 `Reference already exists`, 409 `Git Repository is empty.` on a
 * write, 422 `Update is not a fast forward`, 404 for a repository the token cannot see), that a read of a branch of a
 * repository without any commit (409 `Git Repository is empty.`) finds none, and that every request is documented.
 */
describe('GitHub adapter branches and commits against recorded GitHub answers', () => {
  let github: RecordedGitHub;
  let host: GitHubCodeHost;
  const { getRef, getBranch, createRef, getCommit, createTree, createCommit, updateRef, deleteRef } = recorded;

  beforeAll(async () => {
    github = await startRecordedGitHub();
    host = adapterOn(github);
  }, 60_000);
  afterEach(() => github.reset());
  afterAll(() => github.close());

  it('getBranchHead: GET /git/ref/heads/{branch} → the commit; 404 → undefined', async () => {
    github.serve(getRef.operation, getRef.answers.ok);
    expect(await host.getBranchHead(TOKEN, HELLO, 'feature/a')).toBe('aa218f56b14c9653891f9e74264a383fa43fefbd');
    const sent = expectDocumentedRequest(github.received[0], getRef.operation);
    expect(sent.path).toBe('/repos/octocat/Hello-World/git/ref/heads%2Ffeature%2Fa');
    github.serve(getRef.operation, getRef.answers.notFound);
    expect(await host.getBranchHead(TOKEN, HELLO, 'gone')).toBeUndefined();
  });

  it('getBranchHead on an empty repository (409 "Git Repository is empty.") → undefined: it has no branch at all', async () => {
    github.serve(getRef.operation, getRef.answers.emptyRepository);
    expect(await host.getBranchHead(TOKEN, HELLO, 'main')).toBeUndefined();
    expect(github.received).toHaveLength(1);
    // Another 409 is not taken for an empty repository.
    github.serve(getRef.operation, { ...getRef.answers.emptyRepository, body: { message: 'Conflict', status: '409' } });
    const error = await codeHostError(host.getBranchHead(TOKEN, HELLO, 'main'));
    expect([error.kind, error.status]).toEqual(['conflict', 409]);
  });

  it('getBranchCommit: GET /branches/{branch} → the head and its tree; 404 "Branch not found" → undefined', async () => {
    github.serve(getBranch.operation, getBranch.answers.ok);
    expect(await host.getBranchCommit(TOKEN, HELLO, 'master')).toEqual({
      sha: '7fd1a60b01f91b314f59955a4e4d4e80d8edf11d',
      treeSha: 'b4eecafa9be2f2006ce1b709d6857b07069b4608',
    });
    expectDocumentedRequest(github.received[0], getBranch.operation);
    github.serve(getBranch.operation, getBranch.answers.notFound);
    expect(await host.getBranchCommit(TOKEN, HELLO, 'gone')).toBeUndefined();
  });

  it('createBranch: POST /git/refs with refs/heads/<name>; 422 "Reference already exists" and 409 empty → conflict; 404 → not_found', async () => {
    github.serve(createRef.operation, createRef.answers.created);
    await expect(host.createBranch(TOKEN, HELLO, 'featureA', PARENT)).resolves.toBeUndefined();
    const sent = expectDocumentedRequest(github.received[0], createRef.operation);
    expect(sent.body).toEqual({ ref: 'refs/heads/featureA', sha: PARENT });

    const cases = [
      ['alreadyExists', 'conflict', 422],
      ['emptyRepository', 'conflict', 409],
      ['privateNotVisible', 'not_found', 404],
    ] as const;
    for (const [answer, kind, status] of cases) {
      github.serve(createRef.operation, createRef.answers[answer]);
      const error = await codeHostError(host.createBranch(TOKEN, HELLO, 'featureA', PARENT));
      expect([answer, error.kind, error.status]).toEqual([answer, kind, status]);
    }
  });

  it('commitFiles: the parent commit, POST /git/trees (inline content, deletions, a gitlink), POST /git/commits, PATCH the branch', async () => {
    github.serve(getCommit.operation, getCommit.answers.ok);
    github.serve(createTree.operation, createTree.answers.created);
    github.serve(createCommit.operation, createCommit.answers.created);
    github.serve(updateRef.operation, updateRef.answers.ok);
    const gitlink = 'b'.repeat(40);
    const sha = await host.commitFiles(TOKEN, HELLO, {
      branch: 'deps/update',
      parentSha: PARENT,
      message: 'Update dependencies',
      files: { 'package.json': '{}\n', 'old.txt': null, 'vendor/lib': { gitlink } },
      author: { name: 'Mona', email: 'mona@example.com' },
    });
    expect(sha).toBe('7638417db6d59f3c431d3e1f261cc637155684cd');
    const [parent, tree, commit, ref] = github.received;
    expect(expectDocumentedRequest(parent, getCommit.operation).path).toBe(`/repos/octocat/Hello-World/git/commits/${PARENT}`);
    expect(expectDocumentedRequest(tree, createTree.operation).body).toEqual({
      base_tree: '691272480426f78a0138979dd3ce63b77f706feb',
      tree: [
        { path: 'package.json', mode: '100644', type: 'blob', content: '{}\n' },
        { path: 'old.txt', mode: '100644', type: 'blob', sha: null },
        { path: 'vendor/lib', mode: '160000', type: 'commit', sha: gitlink },
      ],
    });
    expect(expectDocumentedRequest(commit, createCommit.operation).body).toEqual({
      message: 'Update dependencies',
      tree: 'cd8274d15fa3ae2ab983129fb037999f264ba9a7',
      parents: [PARENT],
      author: { name: 'Mona', email: 'mona@example.com' },
    });
    const moved = expectDocumentedRequest(ref, updateRef.operation);
    expect([moved.path, moved.body]).toEqual([
      '/repos/octocat/Hello-World/git/refs/heads%2Fdeps%2Fupdate',
      { sha: '7638417db6d59f3c431d3e1f261cc637155684cd', force: false },
    ]);
  });

  it('commitFiles (REST: an author of its own) with the parent tree known and a new branch: no parent read, POST /git/refs at the end', async () => {
    github.serve(createTree.operation, createTree.answers.created);
    github.serve(createCommit.operation, createCommit.answers.created);
    github.serve(createRef.operation, createRef.answers.created);
    await host.commitFiles(TOKEN, HELLO, {
      branch: 'deps/new',
      parentSha: PARENT,
      parentTreeSha: 'a'.repeat(40),
      message: 'x',
      files: { 'a.txt': 'a' },
      author: { name: 'Mona', email: 'mona@example.com' },
      createBranch: true,
    });
    expect(github.received.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /repos/octocat/Hello-World/git/trees',
      'POST /repos/octocat/Hello-World/git/commits',
      'POST /repos/octocat/Hello-World/git/refs',
    ]);
    expect(expectDocumentedRequest(github.received[2], createRef.operation).body).toEqual({
      ref: 'refs/heads/deps/new',
      sha: '7638417db6d59f3c431d3e1f261cc637155684cd',
    });
  });

  it('commitFiles (REST: an author of its own): a branch moved meanwhile (422 "Update is not a fast forward") and an empty repository (409 on the parent or the tree) → conflict', async () => {
    github.serve(createTree.operation, createTree.answers.created);
    github.serve(createCommit.operation, createCommit.answers.created);
    github.serve(updateRef.operation, updateRef.answers.notFastForward);
    const change = {
      branch: 'main',
      parentSha: PARENT,
      parentTreeSha: 'a'.repeat(40),
      message: 'x',
      files: { 'a.txt': 'a' },
      author: { name: 'Mona', email: 'mona@example.com' },
    };
    const moved = await codeHostError(host.commitFiles(TOKEN, HELLO, change));
    expect([moved.kind, moved.status]).toEqual(['conflict', 422]);
    expect(moved.message).toContain('Update is not a fast forward');

    github.serve(createTree.operation, createTree.answers.emptyRepository);
    const empty = await codeHostError(host.commitFiles(TOKEN, HELLO, change));
    expect([empty.kind, empty.status]).toEqual(['conflict', 409]);
    github.serve(getCommit.operation, getCommit.answers.emptyRepository);
    const { parentTreeSha: _known, ...unknownTree } = change;
    const emptyParent = await codeHostError(host.commitFiles(TOKEN, HELLO, unknownTree));
    expect([emptyParent.kind, emptyParent.status]).toEqual(['conflict', 409]);
  });

  it('moveBranch: PATCH /git/refs/heads/{branch} with force; a missing branch (422 "Reference does not exist") → invalid; 409 empty → conflict', async () => {
    github.serve(updateRef.operation, updateRef.answers.ok);
    await host.moveBranch(TOKEN, HELLO, 'main', PARENT, { force: true });
    expect(expectDocumentedRequest(github.received[0], updateRef.operation).body).toEqual({ sha: PARENT, force: true });
    github.serve(updateRef.operation, updateRef.answers.referenceMissing);
    const error = await codeHostError(host.moveBranch(TOKEN, HELLO, 'gone', PARENT));
    expect([error.kind, error.status]).toEqual(['invalid', 422]);
    github.serve(updateRef.operation, updateRef.answers.emptyRepository);
    const empty = await codeHostError(host.moveBranch(TOKEN, HELLO, 'main', PARENT));
    expect([empty.kind, empty.status]).toEqual(['conflict', 409]);
  });

  it('deleteBranch: DELETE /git/refs/heads/{branch} 204 → true; 422 "Reference does not exist" and 409 empty → false', async () => {
    github.serve(deleteRef.operation, deleteRef.answers.deleted);
    expect(await host.deleteBranch(TOKEN, HELLO, 'featureA')).toBe(true);
    const sent = expectDocumentedRequest(github.received[0], deleteRef.operation);
    expect([sent.path, sent.body]).toEqual(['/repos/octocat/Hello-World/git/refs/heads%2FfeatureA', undefined]);
    github.serve(deleteRef.operation, deleteRef.answers.referenceMissing);
    expect(await host.deleteBranch(TOKEN, HELLO, 'featureA')).toBe(false);
    github.serve(deleteRef.operation, deleteRef.answers.emptyRepository);
    expect(await host.deleteBranch(TOKEN, HELLO, 'featureA')).toBe(false);
  });
});
