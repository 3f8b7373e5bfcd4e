import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFilesRequest } from '../../../code-host/src/github/read-files.ts';
import { recorded } from '../../../code-host/test/contract/fixtures/index.ts';
import { startGitHubEmulator } from '../../src/index.ts';
import { silentLogger } from '../fixtures.ts';
import { expectAsRecorded, expectKnownDrift } from './as-recorded.ts';
import { CONTRACT_SEED, HUBOT, OCTOCAT, OCTOCAT_READ_ONLY, QUNIT_COMMIT, REPO_IDS } from './contract-seed.ts';

const HELLO = '/repos/octocat/Hello-World';
const EMPTY = '/repos/octocat/empty';

/**
 * The emulator held to GitHub's recorded answers for every read the GitHub adapter makes: for the same situation
 * (octocat's repository, a private repository octocat cannot see, a repository without commits, …) the same status and
 * a body of the same schema, the requests being the adapter's (paths percent-encoded as Octokit sends them).
 */
describe('GitHub emulator reads held to the recorded GitHub answers', () => {
  let server: Listening;

  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: CONTRACT_SEED, logger: silentLogger });
  }, 60_000);
  afterAll(() => server.close());

  const get = (path: string, token = OCTOCAT, headers: Record<string, string> = {}) =>
    request(server.url, 'GET', path, { headers: { authorization: `token ${token}`, ...headers } });
  const graphql = (body: unknown, token = OCTOCAT) =>
    request(server.url, 'POST', '/graphql', { headers: { authorization: `token ${token}` }, body });

  it('GET /user: scopes of a classic token in X-OAuth-Scopes, none for a fine-grained one; 401 Bad credentials', async () => {
    const { getAuthenticatedUser } = recorded;
    const classic = await get('/user');
    expect(expectAsRecorded(classic, getAuthenticatedUser, 'classicToken')).toMatchObject({ login: 'octocat', id: 1, type: 'User' });
    expect(classic.headers.get('x-oauth-scopes')).toBe('repo, read:org');
    const fineGrained = await get('/user', OCTOCAT_READ_ONLY);
    expectAsRecorded(fineGrained, getAuthenticatedUser, 'perRepoToken');
    expect(fineGrained.headers.get('x-oauth-scopes')).toBeNull();
    expectAsRecorded(await get('/user', 'not-a-token'), getAuthenticatedUser, 'badCredentials', { sameMessage: true });
  });

  it('GET /user/orgs, /user/memberships/orgs/{org} (404 for a non-member), /user/repos, /orgs/{org}/repos', async () => {
    const { listUserOrgs, getOrgMembership, listUserRepos, listOrgRepos } = recorded;
    expectAsRecorded(await get('/user/orgs?per_page=100'), listUserOrgs, 'ok');
    const membership = expectAsRecorded(await get('/user/memberships/orgs/github'), getOrgMembership, 'activeAdmin');
    expect(membership).toMatchObject({ state: 'active', role: 'admin' });
    expectAsRecorded(await get('/user/memberships/orgs/github', HUBOT), getOrgMembership, 'notMember', { sameMessage: true });
    const repos = expectAsRecorded(await get('/user/repos?affiliation=owner&per_page=100'), listUserRepos, 'ok');
    expect((repos as { full_name: string }[]).map((repo) => repo.full_name)).toEqual(['octocat/empty', 'octocat/Hello-World']);
    expectAsRecorded(await get('/orgs/github/repos?type=all&per_page=100'), listOrgRepos, 'ok');
    expectAsRecorded(await get('/orgs/no-such-org/repos?type=all&per_page=100'), listOrgRepos, 'noSuchOrg', { sameMessage: true });
  });

  it('GET /repositories/{id}: the repository (schema of GET /repos/{owner}/{repo}); 404, not 403, for a private one octocat cannot see', async () => {
    const { getRepository } = recorded;
    expect(expectAsRecorded(await get(`/repositories/${REPO_IDS.helloWorld}`), getRepository, 'ok')).toMatchObject({
      id: REPO_IDS.helloWorld,
      full_name: 'octocat/Hello-World',
    });
    expectAsRecorded(await get(`/repositories/${REPO_IDS.secret}`), getRepository, 'privateNotVisible', { sameMessage: true });
  });

  describe('GET /repos/{owner}/{repo}/contents/{path}', () => {
    const { getContent } = recorded;

    it('a file (Base64 content), a directory, a submodule; a file over 1 MB without content, then raw', async () => {
      const file = expectAsRecorded(await get(`${HELLO}/contents/package.json?ref=master`), getContent, 'fileWithText') as {
        content: string;
      };
      expect(Buffer.from(file.content, 'base64').toString('utf8')).toBe('{"name":"hello-world"}\n');
      const directory = expectAsRecorded(await get(`${HELLO}/contents/lib`), getContent, 'directory');
      expect((directory as { name: string; type: string }[]).map((entry) => [entry.name, entry.type])).toEqual([
        ['octokit', 'dir'],
        ['octokit.rb', 'file'],
      ]);
      const submodule = expectAsRecorded(await get(`${HELLO}/contents/vendor%2Fqunit`), getContent, 'submodule');
      expect(submodule).toMatchObject({ type: 'submodule', sha: QUNIT_COMMIT, submodule_git_url: 'git://github.com/jquery/qunit.git' });
      const large = expectAsRecorded(await get(`${HELLO}/contents/big%2Fhuge.txt`), getContent, 'largeFile');
      expect(large).toMatchObject({ encoding: 'none', content: '', size: 1_100_000 });
      const raw = await get(`${HELLO}/contents/big%2Fhuge.txt`, OCTOCAT, { accept: 'application/vnd.github.v3.raw' });
      expectAsRecorded(raw, getContent, 'rawFile');
      expect(raw.text).toBe('x'.repeat(1_100_000));
    });

    it('404 Not Found for a missing path and for a private repository octocat cannot see; 404 "This repository is empty."', async () => {
      expectAsRecorded(await get(`${HELLO}/contents/missing.txt`), getContent, 'notFound', { sameMessage: true });
      expectAsRecorded(await get('/repos/hubot/secret/contents/a.txt'), getContent, 'notFound', { sameMessage: true });
      expectAsRecorded(await get(`${EMPTY}/contents/README`), getContent, 'emptyRepository', { sameMessage: true });
      expectAsRecorded(await get(`${EMPTY}/contents/`), getContent, 'emptyRepository', { sameMessage: true });
    });
  });

  describe('GET /repos/{owner}/{repo}/git/trees/{tree_sha}?recursive=1', () => {
    const { getTree } = recorded;

    it("every entry of a branch's tree, gitlinks as commits; 404 for a missing ref", async () => {
      const tree = expectAsRecorded(await get(`${HELLO}/git/trees/master?recursive=1`), getTree, 'recursive') as {
        tree: { path: string; type: string }[];
        truncated: boolean;
      };
      expect(tree.truncated).toBe(false);
      expect(tree.tree.find((entry) => entry.path === 'lib/octokit/client.rb')?.type).toBe('blob');
      expect(tree.tree.find((entry) => entry.path === 'vendor/qunit')?.type).toBe('commit');
      expectAsRecorded(await get(`${HELLO}/git/trees/no-such-ref?recursive=1`), getTree, 'notFound', { sameMessage: true });
    });

    it('409 "Git Repository is empty." on a repository without commits', async () => {
      const body = expectAsRecorded(await get(`${EMPTY}/git/trees/main?recursive=1`), getTree, 'emptyRepository', { sameMessage: true });
      expect(body).toEqual(getTree.answers.emptyRepository.body);
    });
  });

  describe('POST /graphql: the ReadFiles query of the adapter', () => {
    const { graphqlReadFiles } = recorded;
    const owner = { owner: 'octocat', name: 'Hello-World' };

    it('blobs with byteSize, isBinary, isTruncated and text; null for an expression naming nothing; {} for a directory', async () => {
      const res = await graphql(readFilesRequest(owner, ['package.json', 'missing.json', 'lib', 'README'], 'master'));
      const body = expectAsRecorded(res, graphqlReadFiles, 'blobs') as { data: { repository: Record<string, unknown> } };
      const recordedRepository = (graphqlReadFiles.answers.blobs.body as typeof body).data.repository;
      const shape = (value: unknown) =>
        value === null ? null : Object.fromEntries(Object.entries(value as object).map(([key, field]) => [key, typeof field]));
      expect(Object.keys(body.data.repository)).toEqual(Object.keys(recordedRepository));
      for (const key of Object.keys(recordedRepository))
        expect(shape(body.data.repository[key]), key).toEqual(shape(recordedRepository[key]));
      expect(body.data.repository.f0).toEqual({ byteSize: 23, isBinary: false, isTruncated: false, text: '{"name":"hello-world"}\n' });
      expect(res.headers.get('x-ratelimit-resource')).toBe('graphql');
    });

    it('a blob over 1 MB is cut (isTruncated) and a binary one has no text', async () => {
      const res = await graphql(readFilesRequest(owner, ['big/huge.txt', 'bin/blob.bin'], 'master'));
      const body = expectAsRecorded(res, graphqlReadFiles, 'truncatedAndBinary') as { data: { repository: Record<string, unknown> } };
      expect(body.data.repository.f0).toMatchObject({ byteSize: 1_100_000, isBinary: false, isTruncated: true, text: expect.any(String) });
      expect(body.data.repository.f1).toEqual({ byteSize: 3, isBinary: true, isTruncated: false, text: null });
    });

    it('a repository octocat cannot see: repository null and a NOT_FOUND error on the path ["repository"]', async () => {
      const body = expectAsRecorded(
        await graphql(readFilesRequest({ owner: 'hubot', name: 'secret' }, ['a.txt', 'b.txt'])),
        graphqlReadFiles,
        'repositoryNotFound',
      ) as {
        data: unknown;
        errors: Record<string, unknown>[];
      };
      const [error] = (graphqlReadFiles.answers.repositoryNotFound.body as typeof body).errors;
      expect(body.data).toEqual({ repository: null });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]).toMatchObject({
        type: error?.type,
        path: error?.path,
        message: "Could not resolve to a Repository with the name 'hubot/secret'.",
      });
    });

    it('the NOT_FOUND error has the `locations` GitHub gives every GraphQL error: where the `repository` field starts', async () => {
      const body = (await graphql(readFilesRequest({ owner: 'hubot', name: 'secret' }, ['a.txt', 'b.txt']))).body;
      const [error] = (graphqlReadFiles.answers.repositoryNotFound.body as { errors: Record<string, unknown>[] }).errors;
      expect(Object.keys(body.errors[0]).sort()).toEqual(Object.keys(error ?? {}).sort());
      expect(body.errors[0].locations).toEqual(error?.locations);
    });
  });

  it('GET /advisories?type=reviewed&ecosystem=&affects=', async () => {
    const { listAdvisories } = recorded;
    const advisories = expectAsRecorded(
      await get('/advisories?type=reviewed&ecosystem=npm&affects=a-package%401.0.2&per_page=100'),
      listAdvisories,
      'ok',
    );
    expect((advisories as { ghsa_id: string }[]).map((advisory) => advisory.ghsa_id)).toEqual(['GHSA-cfgh-2345-jmpq']);
  });

  it('known drift: GET /user/installations with a personal access token: GitHub refuses it (403), the emulator lists', async () => {
    const { listUserInstallations } = recorded;
    const res = await get('/user/installations?per_page=100');
    expectKnownDrift(res, listUserInstallations, 'notAnAppUserToken', { status: 200 });
    expect(expectAsRecorded(res, listUserInstallations, 'ok')).toEqual({ total_count: 0, installations: [] });
  });
});
