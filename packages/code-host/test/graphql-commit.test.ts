import { graphqlCreatesContent } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import {
  CREATE_BRANCH_WITH_COMMIT_MUTATION,
  commitMessageOf,
  commitRequest,
  committedOid,
  fileChangesOf,
  isUnknownNodeId,
  repositoryIdOf,
} from '../src/github/graphql-commit.ts';
import { codeHostError } from './code-host-error.ts';

const OID = 'a'.repeat(40);
const what = 'POST /graphql (test)';
const refused = (type: string | undefined, message: string, path = 'createCommitOnBranch') => ({
  data: { createRef: null, createCommitOnBranch: null },
  errors: [{ ...(type ? { type } : {}), path: [path], message }],
});
const kindOf = async (body: unknown, headers: Record<string, string> = {}) =>
  codeHostError(Promise.resolve().then(() => committedOid(body, headers, what)));

describe('the GraphQL commit (createRef and createCommitOnBranch in one document)', () => {
  it('builds one document making the branch at the base and the commit on it (expectedHeadOid the base), base64 additions', () => {
    const body = commitRequest({
      repo: { owner: 'acme', name: 'web' },
      branch: 'deps/x',
      expectedHeadOid: OID,
      message: 'Bump x\n\nBody line',
      changes: fileChangesOf([
        ['a.txt', 'é\n'],
        ['gone.txt', null],
      ]),
      create: { repositoryId: 'R_1' },
    });
    expect(body.query).toBe(CREATE_BRANCH_WITH_COMMIT_MUTATION);
    expect(body.variables).toEqual({
      ref: { repositoryId: 'R_1', name: 'refs/heads/deps/x', oid: OID },
      commit: {
        branch: { repositoryNameWithOwner: 'acme/web', branchName: 'deps/x' },
        expectedHeadOid: OID,
        message: { headline: 'Bump x', body: 'Body line' },
        fileChanges: { additions: [{ path: 'a.txt', contents: Buffer.from('é\n').toString('base64') }], deletions: [{ path: 'gone.txt' }] },
      },
    });
    // GitHub's content-creation limit counts it (once: one request).
    expect(graphqlCreatesContent(body.query)).toBe(true);
    expect(commitMessageOf('one line')).toEqual({ headline: 'one line' });
  });

  it('maps answers: the oid; branch exists and STALE_DATA → conflict; NOT_FOUND, FORBIDDEN, RATE_LIMITED, others', async () => {
    expect(committedOid({ data: { createRef: { ref: { name: 'x' } }, createCommitOnBranch: { commit: { oid: OID } } } }, {}, what)).toBe(
      OID,
    );
    const exists = await kindOf(refused('UNPROCESSABLE', 'A ref named "refs/heads/x" already exists in the repository.', 'createRef'));
    expect([exists.kind, exists.status]).toEqual(['conflict', 200]);
    expect((await kindOf(refused('STALE_DATA', `Expected branch to point to "${OID}" but it did not.  Pull and try again.`))).kind).toBe(
      'conflict',
    );
    const gone = await kindOf(refused('NOT_FOUND', "Could not resolve to a node with the global id of 'R_1'.", 'createRef'));
    expect(gone.kind).toBe('not_found');
    expect(isUnknownNodeId(gone)).toBe(true);
    expect((await kindOf(refused('FORBIDDEN', 'Resource not accessible by integration'))).kind).toBe('forbidden');
    const limited = await kindOf(refused('RATE_LIMITED', 'API rate limit exceeded'), { 'retry-after': '7' });
    expect([limited.kind, limited.retryAfterSeconds]).toEqual(['rate_limited', 7]);
    expect((await kindOf(refused(undefined, 'Variable $commit of type CreateCommitOnBranchInput! was provided invalid value'))).kind).toBe(
      'invalid',
    );
    expect((await kindOf('not json')).kind).toBe('unavailable');
    expect((await kindOf({ data: { createCommitOnBranch: null } })).kind).toBe('unavailable');
  });

  it("reads the repository's node id, NOT_FOUND → not_found", async () => {
    expect(repositoryIdOf({ data: { repository: { id: 'R_1' } } }, {}, what)).toBe('R_1');
    const error = await codeHostError(
      Promise.resolve().then(() =>
        repositoryIdOf({ data: { repository: null }, errors: [{ type: 'NOT_FOUND', message: 'Could not resolve' }] }, {}, what),
      ),
    );
    expect(error.kind).toBe('not_found');
  });
});
