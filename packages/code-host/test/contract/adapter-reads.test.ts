import { ADVISORY_ECOSYSTEMS } from '@switchyard/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { gitHubDescription } from '../../../github-emulator/test/contract/github-description.ts';
import { type GitHubCodeHost, readFilesQuery } from '../../src/index.ts';
import { codeHostError } from '../code-host-error.ts';
import { BLOB_TEXTS, LARGE_TEXT, PACKAGE_JSON, recorded } from './fixtures/index.ts';
import { adapterOn, expectDocumentedRequest, type RecordedGitHub, startRecordedGitHub, TOKEN } from './recorded-github.ts';

const HELLO = { owner: 'octocat', name: 'Hello-World' };

/**
 * The adapter's reads against GitHub's recorded answers (`fixtures/`), played by a local HTTP server: what each call
 * returns or which `CodeHostError` it rejects with, and that each request it sends is one GitHub's description documents.
 */
describe('GitHub adapter reads against recorded GitHub answers', () => {
  let github: RecordedGitHub;
  let host: GitHubCodeHost;

  beforeAll(async () => {
    github = await startRecordedGitHub();
    host = adapterOn(github);
  }, 60_000);
  afterEach(() => github.reset());
  afterAll(() => github.close());

  const { getAuthenticatedUser, listUserOrgs, getOrgMembership, listUserRepos, listOrgRepos, getRepository } = recorded;

  it('currentUser: GET /user, the scopes of a classic token from X-OAuth-Scopes, none for a per-repository token; 401 → unauthorized', async () => {
    github.serve(getAuthenticatedUser.operation, getAuthenticatedUser.answers.classicToken);
    expect(await host.currentUser(TOKEN)).toEqual({
      account: { id: 1, login: 'octocat', type: 'user' },
      capability: { kind: 'scopes', scopes: ['repo', 'read:org'] },
    });
    expectDocumentedRequest(github.received[0], getAuthenticatedUser.operation);

    github.serve(getAuthenticatedUser.operation, getAuthenticatedUser.answers.perRepoToken);
    expect((await host.currentUser(TOKEN)).capability).toEqual({ kind: 'per-repo' });

    github.serve(getAuthenticatedUser.operation, getAuthenticatedUser.answers.badCredentials);
    const error = await codeHostError(host.currentUser(TOKEN));
    expect([error.kind, error.status]).toEqual(['unauthorized', 401]);
    expect(error.message).toContain('Bad credentials');
  });

  it('organisations: GET /user/orgs at per_page=100, following the Link header to the last page', async () => {
    github.serve(listUserOrgs.operation, listUserOrgs.answers.firstOfTwoPages, listUserOrgs.answers.secondOfTwoPages);
    expect(await host.organisations(TOKEN)).toEqual([
      { id: 1, login: 'github', type: 'org' },
      { id: 1_001, login: 'github-2', type: 'org' },
    ]);
    expect(github.received.map((request) => request.query)).toEqual([{ per_page: '100' }, { per_page: '100', page: '2' }]);
    for (const request of github.received) expectDocumentedRequest(request, listUserOrgs.operation);
  });

  it('organisationRole: an active membership gives its role; a pending one (the example) and a 404 give undefined', async () => {
    const org = { id: 1, login: 'github', type: 'org' } as const;
    const cases = [
      [getOrgMembership.answers.activeAdmin, 'admin'],
      [getOrgMembership.answers.activeMember, 'member'],
      [getOrgMembership.answers.pendingAdmin, undefined],
      [getOrgMembership.answers.notMember, undefined],
    ] as const;
    for (const [answer, role] of cases) {
      github.serve(getOrgMembership.operation, answer);
      expect(await host.organisationRole(TOKEN, org)).toBe(role);
    }
    expect(github.received.map((request) => request.path)).toEqual(Array(4).fill('/user/memberships/orgs/github'));
    expectDocumentedRequest(github.received[0], getOrgMembership.operation);
  });

  it("listRepos: a user's own repositories (GET /user/repos?affiliation=owner), an organisation's (GET /orgs/{org}/repos?type=all)", async () => {
    const helloWorld = {
      id: 1296269,
      name: 'Hello-World',
      fullName: 'octocat/Hello-World',
      owner: { id: 1, login: 'octocat', type: 'user' },
      private: false,
      fork: false,
      archived: false,
      htmlUrl: 'https://github.com/octocat/Hello-World',
      language: null,
      defaultBranch: 'master',
      permission: 'read',
    };
    github.serve(listUserRepos.operation, listUserRepos.answers.ok);
    expect(await host.listRepos(TOKEN, { id: 1, login: 'octocat', type: 'user' })).toEqual([helloWorld]);
    expect(expectDocumentedRequest(github.received[0], listUserRepos.operation).query).toEqual({ affiliation: 'owner', per_page: '100' });
    // Another user's account: GitHub's answer holds only the token owner's repositories, none of them that user's.
    expect(await host.listRepos(TOKEN, { id: 2, login: 'hubot', type: 'user' })).toEqual([]);

    github.serve(listOrgRepos.operation, listOrgRepos.answers.ok);
    expect(await host.listRepos(TOKEN, { id: 1, login: 'github', type: 'org' })).toEqual([helloWorld]);
    const orgRequest = expectDocumentedRequest(github.received[2], listOrgRepos.operation);
    expect([orgRequest.path, orgRequest.query]).toEqual(['/orgs/github/repos', { type: 'all', per_page: '100' }]);

    github.serve(listOrgRepos.operation, listOrgRepos.answers.noSuchOrg);
    expect((await codeHostError(host.listRepos(TOKEN, { id: 9, login: 'nope', type: 'org' }))).kind).toBe('not_found');
  });

  it('getRepo: GET /repositories/{id}, a route GitHub answers but its description does not document; 404 (private, not visible) → undefined', async () => {
    github.serve(getRepository.operation, getRepository.answers.ok);
    expect(await host.getRepo(TOKEN, 1296269)).toMatchObject({
      id: 1296269,
      fullName: 'octocat/Hello-World',
      language: null,
      permission: 'read',
    });
    const sent = github.received[0];
    expect([sent?.method, sent?.path, sent?.query, sent?.body]).toEqual(['GET', '/repositories/1296269', {}, undefined]);
    expect(gitHubDescription().documents(getRepository.operation)).toBe(false);

    github.serve(getRepository.operation, getRepository.answers.privateNotVisible);
    expect(await host.getRepo(TOKEN, 1296269)).toBeUndefined();
    expect(await host.getRepo(TOKEN, 0)).toBeUndefined();
    expect(github.received).toHaveLength(2);
  });

  describe('readFile and listDirectory: GET /repos/{owner}/{repo}/contents/{path}', () => {
    const { getContent } = recorded;

    it("a file's Base64 content decoded, asked at the ref", async () => {
      github.serve(getContent.operation, getContent.answers.fileWithText);
      expect(await host.readFile(TOKEN, HELLO, '/package.json', 'main')).toBe(PACKAGE_JSON);
      const sent = expectDocumentedRequest(github.received[0], getContent.operation);
      expect([sent.path, sent.query]).toEqual(['/repos/octocat/Hello-World/contents/package.json', { ref: 'main' }]);

      // The description's own example, decoded as GitHub's Base64 is (its `content` is not a real file's).
      github.serve(getContent.operation, getContent.answers.file);
      const example = getContent.answers.file.body as { content: string };
      expect(await host.readFile(TOKEN, HELLO, 'README.md')).toBe(Buffer.from(example.content, 'base64').toString('utf8'));
      expect(github.received[1]?.query).toEqual({});
    });

    it('a file over 1 MB (encoding "none") is fetched again raw; one over the size limit is too_large without fetching it', async () => {
      github.serve(getContent.operation, getContent.answers.largeFile, getContent.answers.rawFile);
      expect(await host.readFile(TOKEN, HELLO, 'big.txt')).toBe(LARGE_TEXT);
      expect(github.received.map((request) => request.headers.accept)).toEqual([
        'application/vnd.github.v3+json',
        'application/vnd.github.v3.raw',
      ]);
      expectDocumentedRequest(github.received[1], getContent.operation);

      github.serve(getContent.operation, getContent.answers.hugeFile);
      const error = await codeHostError(host.readFile(TOKEN, HELLO, 'huge.bin'));
      expect([error.kind, error.sizeBytes, error.limitBytes]).toEqual(['too_large', 50 * 1024 * 1024, 5 * 1024 * 1024]);
      expect(github.received).toHaveLength(3);
    });

    it('a directory, symlink, submodule, missing path or empty repository (404 "This repository is empty.") reads as undefined', async () => {
      for (const answer of ['directory', 'symlink', 'submodule', 'notFound', 'emptyRepository'] as const) {
        github.serve(getContent.operation, getContent.answers[answer]);
        expect(await host.readFile(TOKEN, HELLO, 'lib'), answer).toBeUndefined();
      }
      expect(github.received).toHaveLength(5);
    });

    it("listDirectory: a directory's entries with type and size; a file or a 404 → undefined", async () => {
      github.serve(getContent.operation, getContent.answers.directory);
      expect(await host.listDirectory(TOKEN, HELLO, '/lib/', 'main')).toEqual([
        { name: 'octokit.rb', type: 'file', size: 625 },
        { name: 'octokit', type: 'dir', size: 0 },
      ]);
      const sent = expectDocumentedRequest(github.received[0], getContent.operation);
      expect([sent.path, sent.query]).toEqual(['/repos/octocat/Hello-World/contents/lib', { ref: 'main' }]);
      for (const answer of ['fileWithText', 'notFound', 'emptyRepository'] as const) {
        github.serve(getContent.operation, getContent.answers[answer]);
        expect(await host.listDirectory(TOKEN, HELLO, 'package.json'), answer).toBeUndefined();
      }
    });

    it('the path keeps its slashes as one percent-encoded path parameter', async () => {
      github.serve(getContent.operation, getContent.answers.fileWithText);
      await host.readFile(TOKEN, HELLO, 'packages/app/package.json');
      const sent = expectDocumentedRequest(github.received[0], getContent.operation);
      expect(sent.path).toBe('/repos/octocat/Hello-World/contents/packages%2Fapp%2Fpackage.json');
    });
  });

  describe('listTree: GET /repos/{owner}/{repo}/git/trees/{tree_sha}?recursive=1', () => {
    const { getTree } = recorded;

    it("every entry of the recursive answer, and GitHub's truncated flag", async () => {
      github.serve(getTree.operation, getTree.answers.recursive);
      expect(await host.listTree(TOKEN, HELLO, 'main')).toEqual({
        entries: [{ path: 'subdir/file.txt', type: 'blob', sha: '7c258a9869f33c1e1e1f74fbb32f07c86cb5a75b', size: 132 }],
        truncated: false,
      });
      const sent = expectDocumentedRequest(github.received[0], getTree.operation);
      expect([sent.path, sent.query]).toEqual(['/repos/octocat/Hello-World/git/trees/main', { recursive: '1' }]);
      github.serve(getTree.operation, getTree.answers.truncated);
      expect((await host.listTree(TOKEN, HELLO, 'main'))?.truncated).toBe(true);
    });

    it('a missing ref (404) and an empty repository (409 "Git Repository is empty.": no ref at all) → undefined', async () => {
      github.serve(getTree.operation, getTree.answers.notFound);
      expect(await host.listTree(TOKEN, HELLO, 'nope')).toBeUndefined();
      github.serve(getTree.operation, getTree.answers.emptyRepository);
      expect(await host.listTree(TOKEN, HELLO, 'main')).toBeUndefined();
      expect(github.received).toHaveLength(2);
    });
  });

  describe('readFiles: one POST /graphql query for several files', () => {
    const { graphqlReadFiles, getContent } = recorded;

    /** The shape of a GraphQL request (https://docs.github.com/graphql/guides/forming-calls-with-graphql): `query` and `variables`. */
    function expectGraphQLRequest(index: number, paths: string[], ref: string) {
      const sent = github.received[index];
      expect([sent?.method, sent?.path, sent?.headers.authorization]).toEqual(['POST', '/graphql', `token ${TOKEN}`]);
      expect(sent?.headers['content-type']).toMatch(/^application\/json/);
      const body = sent?.body as { query: string; variables: Record<string, string> };
      expect(Object.keys(body).sort()).toEqual(['query', 'variables']);
      expect(body.query).toBe(readFilesQuery(paths.length));
      expect(body.variables).toEqual({
        owner: 'octocat',
        name: 'Hello-World',
        ...Object.fromEntries(paths.map((path, i) => [`f${i}`, `${ref}:${path}`])),
      });
    }

    it("a blob's text; an expression naming nothing (null) or a directory ({}) is left out", async () => {
      github.serve(graphqlReadFiles.operation, graphqlReadFiles.answers.blobs);
      const paths = ['package.json', 'missing.json', 'src', 'pnpm-lock.yaml'];
      expect(await host.readFiles(TOKEN, HELLO, paths)).toEqual({
        files: { 'package.json': BLOB_TEXTS.f0, 'pnpm-lock.yaml': BLOB_TEXTS.f3 },
        tooLarge: {},
      });
      expect(github.received).toHaveLength(1);
      expectGraphQLRequest(0, paths, 'HEAD');
    });

    it('a blob GitHub cut short or calls binary is read through the contents API instead', async () => {
      github.serve(graphqlReadFiles.operation, graphqlReadFiles.answers.truncatedAndBinary);
      github.serve(getContent.operation, getContent.answers.fileWithText);
      expect(await host.readFiles(TOKEN, HELLO, ['a.json', 'b.bin'], { ref: 'v1' })).toEqual({
        files: { 'a.json': PACKAGE_JSON, 'b.bin': PACKAGE_JSON },
        tooLarge: {},
      });
      expectGraphQLRequest(0, ['a.json', 'b.bin'], 'v1');
      const reads = github.received.slice(1);
      expect(reads.map((request) => [request.path, request.query])).toEqual([
        ['/repos/octocat/Hello-World/contents/a.json', { ref: 'v1' }],
        ['/repos/octocat/Hello-World/contents/b.bin', { ref: 'v1' }],
      ]);
      for (const request of reads) expectDocumentedRequest(request, getContent.operation);
    });

    it("a repository GraphQL cannot resolve (NOT_FOUND) reads as no files; GitHub's RATE_LIMITED answer (a 200) → rate_limited", async () => {
      github.serve(graphqlReadFiles.operation, graphqlReadFiles.answers.repositoryNotFound);
      expect(await host.readFiles(TOKEN, HELLO, ['a', 'b'])).toEqual({ files: {}, tooLarge: {} });

      github.serve(graphqlReadFiles.operation, graphqlReadFiles.answers.rateLimited);
      const error = await codeHostError(host.readFiles(TOKEN, HELLO, ['a', 'b']));
      expect([error.kind, error.status]).toEqual(['rate_limited', 200]);
      expect(error.retryAfterSeconds).toBeGreaterThan(1_790);
      expect(error.retryAfterSeconds).toBeLessThanOrEqual(1_800);
    });

    it('a lone file goes through the contents API (one request either way)', async () => {
      github.serve(getContent.operation, getContent.answers.fileWithText);
      expect(await host.readFiles(TOKEN, HELLO, ['package.json'])).toEqual({ files: { 'package.json': PACKAGE_JSON }, tooLarge: {} });
      expect(github.received.map((request) => request.path)).toEqual(['/repos/octocat/Hello-World/contents/package.json']);
    });
  });

  it('listAdvisories: GET /advisories?type=reviewed&ecosystem=&affects= mapped; every ecosystem the port names is one GitHub takes', async () => {
    const { listAdvisories } = recorded;
    github.serve(listAdvisories.operation, listAdvisories.answers.ok);
    expect(await host.listAdvisories(TOKEN, { ecosystem: 'npm', packageName: 'a-package@1.0.2' })).toEqual([
      {
        ghsaId: 'GHSA-abcd-1234-efgh',
        cveId: 'CVE-2050-00000',
        summary: 'Heartbleed security advisory',
        severity: 'high',
        publishedAt: '2023-03-23T02:30:56Z',
        updatedAt: '2023-03-24T02:30:56Z',
        withdrawnAt: null,
        vulnerabilities: [{ ecosystem: 'npm', packageName: 'a-package', vulnerableVersionRange: '<=1.0.2', firstPatchedVersion: '1.0.3' }],
        htmlUrl: 'https://github.com/advisories/GHSA-abcd-1234-efgh',
      },
    ]);
    const sent = expectDocumentedRequest(github.received[0], listAdvisories.operation);
    expect(sent.query).toEqual({ type: 'reviewed', ecosystem: 'npm', affects: 'a-package@1.0.2', per_page: '100' });

    for (const ecosystem of ADVISORY_ECOSYSTEMS) await host.listAdvisories(TOKEN, { ecosystem, packageName: 'x' });
    for (const request of github.received.slice(1)) expectDocumentedRequest(request, listAdvisories.operation);
    expect(github.received.slice(1).map((request) => request.query.ecosystem)).toEqual([...ADVISORY_ECOSYSTEMS]);

    github.serve(listAdvisories.operation, listAdvisories.answers.tooManyRequests);
    const error = await codeHostError(host.listAdvisories(TOKEN, { ecosystem: 'npm', packageName: 'x' }));
    expect([error.kind, error.status]).toEqual(['rate_limited', 429]);
  });

  it('listInstallations: GET /user/installations mapped; the 403 GitHub gives any token but a GitHub App user token → forbidden', async () => {
    const { listUserInstallations } = recorded;
    github.serve(listUserInstallations.operation, listUserInstallations.answers.ok);
    expect(await host.listInstallations(TOKEN)).toEqual([
      { id: 1, accountLogin: 'octocat', accountId: 1, repositorySelection: 'all' },
      { id: 3, accountLogin: 'octocat', accountId: 2, repositorySelection: 'all' },
    ]);
    expect(expectDocumentedRequest(github.received[0], listUserInstallations.operation).query).toEqual({ per_page: '100' });

    github.serve(listUserInstallations.operation, listUserInstallations.answers.notAnAppUserToken);
    const error = await codeHostError(host.listInstallations(TOKEN));
    expect([error.kind, error.status]).toEqual(['forbidden', 403]);
  });
});
