import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadDemoSeed,
  REQUEST_COUNTER_PATH,
  type RequestCounts,
  type SeedInput,
  type SeedRepoInput,
  startGitHubEmulator,
} from '../src/index.ts';
import { ALICE, auth, BOB, silentLogger } from './fixtures.ts';
import { apiAs, openPullThroughApi } from './writes.ts';

/** How many repositories of `bulkco` the bulk seed has, and what their three files say. */
const BULK = 50;
const bulkFiles = (n: number) => ({
  'package.json': `{"name":"svc-${n}","version":"1.0.${n}"}\n`,
  'README.md': `# svc-${n}\n`,
  '.github/dependabot.yml': `version: 2\n# svc-${n}\n`,
});

/** The demo seed with an organisation `bulkco` (alice a member, read) of {@link BULK} repositories, every other private. */
function bulkSeed(): SeedInput {
  const demo = loadDemoSeed();
  const repos: SeedRepoInput[] = Array.from({ length: BULK }, (_, index) => ({
    id: 800_000 + index,
    owner: 'bulkco',
    name: `svc-${index + 1}`,
    private: index % 2 === 0,
    fork: false,
    defaultBranch: 'main',
    language: null,
    files: { main: bulkFiles(index + 1) },
  }));
  return {
    ...demo,
    organizations: [
      ...demo.organizations,
      { id: 2201, login: 'bulkco', members: [{ login: 'alice', role: 'member' }], defaultRepoPermission: 'read' },
    ],
    repos: [...demo.repos, ...repos],
  };
}

const graphqlAt =
  (url: string) =>
  (token: string, query: string, variables: Record<string, unknown> = {}) =>
    request(url, 'POST', '/graphql', { headers: auth(token), body: { query, variables } });

/** The `x-ratelimit-used` of an answer. */
const used = (res: TestResponse) => Number(res.headers.get('x-ratelimit-used'));

/** refs → each ref's history → each commit's parents: 1 + 100 + 100 × 100 requests, cost 101, 110,100 nodes (parents: 10). */
const COSTLY = (parents: number, dryRun = false) => `query {
  repository(owner: "acme", name: "web-storefront") {
    refs(refPrefix: "refs/heads/", first: 100) {
      nodes { target { ... on Commit { history(first: 100) { nodes { parents(first: ${parents}) { totalCount } } } } } }
    }
  }
  rateLimit${dryRun ? '(dryRun: true)' : ''} { cost nodeCount limit remaining used resetAt }
}`;

describe('GitHub emulator: GraphQL reads on graphql-js (many repositories at once, git objects, pull requests, cost)', () => {
  let server: Listening;
  let graphql: ReturnType<typeof graphqlAt>;

  beforeAll(async () => {
    server = await startGitHubEmulator({ seed: bulkSeed(), logger: silentLogger });
    graphql = graphqlAt(server.url);
  }, 60_000);
  afterAll(() => server.close());

  it(`reads 3 files of each of ${BULK} repositories in one query (aliases per repository and per file), for one point`, async () => {
    const aliases = Array.from(
      { length: BULK },
      (_, index) => `  r${index + 1}: repository(owner: "bulkco", name: "svc-${index + 1}") {
    nameWithOwner
    pkg: object(expression: "main:package.json") { ...File }
    readme: object(expression: "HEAD:README.md") { ...File }
    config: object(expression: "main:.github/dependabot.yml") { ...File }
  }`,
    );
    const query = `query Manifests {\n${aliases.join('\n')}\n  gone: repository(owner: "bulkco", name: "svc-99") { nameWithOwner }\n  rateLimit { cost nodeCount limit remaining used resetAt }\n}\nfragment File on Blob { text byteSize isTruncated }`;
    const before = used(await graphql(ALICE, 'query { rateLimit { used } }'));
    const res = await graphql(ALICE, query);
    expect(res.status).toBe(200);
    const { data, errors } = res.body;
    for (let n = 1; n <= BULK; n += 1) {
      const files = bulkFiles(n);
      const repository = data[`r${n}`];
      expect(repository.nameWithOwner).toBe(`bulkco/svc-${n}`);
      expect(repository.pkg).toEqual({ text: files['package.json'], byteSize: files['package.json'].length, isTruncated: false });
      expect(repository.readme.text).toBe(files['README.md']);
      expect(repository.config.text).toBe(files['.github/dependabot.yml']);
    }
    // The repository that does not exist is null with GitHub's NOT_FOUND on its alias; the others are unaffected.
    expect(data.gone).toBeNull();
    const goneLine = query.split('\n').findIndex((line) => line.includes('gone:')) + 1;
    expect(errors).toEqual([
      {
        type: 'NOT_FOUND',
        path: ['gone'],
        locations: [{ line: goneLine, column: 3 }],
        message: "Could not resolve to a Repository with the name 'bulkco/svc-99'.",
      },
    ]);
    // No connection is asked: the query costs 1 point, as GitHub's rule gives.
    expect(data.rateLimit).toMatchObject({ cost: 1, nodeCount: 0, limit: 5_000, used: before + 1, remaining: 5_000 - before - 1 });
    expect(used(res)).toBe(before + 1);
    expect(res.headers.get('x-ratelimit-resource')).toBe('graphql');
    expect(data.rateLimit.resetAt).toBe(new Date(Number(res.headers.get('x-ratelimit-reset')) * 1_000).toISOString().replace('.000Z', 'Z'));
    // bob is no member of bulkco: its private repositories are NOT_FOUND to him, the public ones read.
    const bob = await graphql(BOB, query);
    expect(bob.body.data.r1).toBeNull();
    expect(bob.body.data.r2.pkg.text).toBe(bulkFiles(2)['package.json']);
    expect(bob.body.errors.filter((error: { type: string }) => error.type === 'NOT_FOUND')).toHaveLength(BULK / 2 + 1);
  });

  it('reads refs, commits, trees and blobs as GitHub names them; paginates refs by cursor', async () => {
    const api = apiAs(server.url, ALICE);
    const rest = (await api.get('/repos/acme/web-storefront')).body;
    const mainHead = (await api.get('/repos/acme/web-storefront/git/ref/heads/main')).body.object.sha;
    const packageJson = (await api.get('/repos/acme/web-storefront/contents/package.json')).body;
    const src = (await api.get('/repos/acme/web-storefront/contents/src')).body as { name: string; path: string; sha: string }[];
    const res = await graphql(
      ALICE,
      `query($blob: GitObjectID!) {
        repository(owner: "acme", name: "web-storefront") {
          id databaseId nameWithOwner isPrivate isArchived isEmpty visibility url owner { __typename login }
          defaultBranchRef {
            name prefix
            target { __typename oid ... on Commit { messageHeadline author { name email } signature { isValid } history(first: 10) { totalCount } } }
          }
          develop: ref(qualifiedName: "refs/heads/develop") { name prefix target { oid } }
          short: ref(qualifiedName: "develop") { name }
          none: ref(qualifiedName: "no-such-branch") { name }
          src: object(expression: "main:src") { __typename ... on Tree { entries { name path type mode oid size object { __typename } } } }
          root: object(expression: "main:") { __typename }
          head: object(expression: "HEAD") { __typename ... on Commit { oid tree { oid } file(path: "package.json") { oid size extension } } }
          byOid: object(oid: $blob) { ... on Blob { byteSize text } }
        }
      }`,
      { blob: packageJson.sha },
    );
    expect(res.body.errors).toBeUndefined();
    const repository = res.body.data.repository;
    expect(repository).toMatchObject({
      id: rest.node_id,
      databaseId: rest.id,
      nameWithOwner: 'acme/web-storefront',
      isPrivate: true,
      isArchived: false,
      isEmpty: false,
      visibility: 'PRIVATE',
      url: 'https://github.com/acme/web-storefront',
      owner: { __typename: 'Organization', login: 'acme' },
      develop: { name: 'develop', prefix: 'refs/heads/' },
      short: { name: 'develop' },
      none: null,
      root: { __typename: 'Tree' },
    });
    expect(repository.defaultBranchRef).toMatchObject({
      name: 'main',
      prefix: 'refs/heads/',
      target: { __typename: 'Commit', oid: mainHead, messageHeadline: 'Initial commit', signature: null, history: { totalCount: 1 } },
    });
    expect(repository.src.entries).toEqual(
      src.map((entry) =>
        expect.objectContaining({
          name: entry.name,
          path: entry.path,
          type: 'blob',
          mode: 0o100644,
          oid: entry.sha,
          object: { __typename: 'Blob' },
        }),
      ),
    );
    expect(repository.head).toMatchObject({
      __typename: 'Commit',
      oid: mainHead,
      file: { oid: packageJson.sha, size: packageJson.size, extension: '.json' },
    });
    expect(repository.byOid).toEqual({ byteSize: packageJson.size, text: Buffer.from(packageJson.content, 'base64').toString('utf8') });

    // refs by pages of one: develop, then main (alphabetical), then nothing more.
    const page = (after?: string) =>
      graphql(
        ALICE,
        'query($after: String) { repository(owner: "acme", name: "web-storefront") { refs(refPrefix: "refs/heads/", first: 1, after: $after) { totalCount nodes { name } pageInfo { hasNextPage endCursor } } } }',
        after === undefined ? {} : { after },
      );
    const first = (await page()).body.data.repository.refs;
    expect(first).toMatchObject({ totalCount: 2, nodes: [{ name: 'develop' }], pageInfo: { hasNextPage: true } });
    const second = (await page(first.pageInfo.endCursor)).body.data.repository.refs;
    expect(second).toMatchObject({ nodes: [{ name: 'main' }], pageInfo: { hasNextPage: false } });
  });

  it('reads pull requests as the REST routes keep them; an unknown number is NOT_FOUND', async () => {
    const api = apiAs(server.url, ALICE);
    const pr = await openPullThroughApi(api, 'acme/data-pipeline', 'graphql-reads', { 'notes.txt': 'hello\n' });
    const query = `query($number: Int!) {
        repository(owner: "acme", name: "data-pipeline") {
          open: pullRequests(first: 10, states: [OPEN]) { totalCount nodes { number } }
          merged: pullRequests(first: 10, states: [MERGED]) { totalCount }
          one: pullRequest(number: $number) {
            id databaseId number title state isDraft closed merged mergeable headRefName baseRefName headRefOid baseRefOid url
            author { __typename login } headRef { name target { oid } }
          }
          missing: pullRequest(number: 999) { id }
        }
      }`;
    const res = await graphql(ALICE, query, { number: pr.number });
    const repository = res.body.data.repository;
    expect(repository.open).toEqual({ totalCount: 1, nodes: [{ number: pr.number }] });
    expect(repository.merged).toEqual({ totalCount: 0 });
    expect(repository.one).toEqual({
      id: pr.node_id,
      databaseId: pr.id,
      number: pr.number,
      title: pr.title,
      state: 'OPEN',
      isDraft: false,
      closed: false,
      merged: false,
      mergeable: 'MERGEABLE',
      headRefName: 'graphql-reads',
      baseRefName: 'main',
      headRefOid: pr.head.sha,
      baseRefOid: pr.base.sha,
      url: pr.html_url,
      author: { __typename: 'User', login: 'alice' },
      headRef: { name: 'graphql-reads', target: { oid: pr.head.sha } },
    });
    expect(repository.missing).toBeNull();
    expect(res.body.errors).toEqual([
      {
        type: 'NOT_FOUND',
        path: ['repository', 'missing'],
        locations: [{ line: query.split('\n').findIndex((line) => line.includes('missing:')) + 1, column: 11 }],
        message: 'Could not resolve to a PullRequest with the number of 999.',
      },
    ]);
  });

  it("costs a query by GitHub's rule (connections' requests / 100) and charges it; a dry run costs without charging", async () => {
    const before = used(await graphql(ALICE, 'query { rateLimit { used } }'));
    const res = await graphql(ALICE, COSTLY(10));
    expect(res.body.errors).toBeUndefined();
    // 1 request for the refs, 100 for their histories, 100 × 100 for the commits' parents: 10,101 / 100 → 101.
    expect(res.body.data.rateLimit).toMatchObject({ cost: 101, nodeCount: 100 + 100 * 100 + 100 * 100 * 10, used: before + 101 });
    expect(used(res)).toBe(before + 101);
    expect(res.body.data.repository.refs.nodes).toHaveLength(2);

    const dry = await graphql(ALICE, COSTLY(10, true));
    expect(dry.body.data).toEqual({
      repository: null,
      rateLimit: expect.objectContaining({ cost: 101, used: before + 101, remaining: 5_000 - before - 101 }),
    });
    expect(used(dry)).toBe(before + 101);
  });

  it('refuses a connection without first or last, one over 100, and more than 500,000 nodes, as GitHub words it', async () => {
    const refused = async (query: string) => {
      const res = await graphql(ALICE, query);
      expect(res.status).toBe(200);
      expect(res.body.data).toBeUndefined();
      return res.body.errors;
    };
    const noFirst = 'query { repository(owner: "acme", name: "web-storefront") { refs(refPrefix: "refs/heads/") { totalCount } } }';
    expect(await refused(noFirst)).toEqual([
      {
        type: 'MISSING_PAGINATION_BOUNDARIES',
        locations: [{ line: 1, column: noFirst.indexOf('refs(') + 1 }],
        message: 'You must provide a `first` or `last` value to properly paginate the `refs` connection.',
      },
    ]);
    expect(await refused('query { repository(owner: "acme", name: "web-storefront") { pullRequests(last: 101) { totalCount } } }')).toEqual(
      [
        expect.objectContaining({
          type: 'EXCESSIVE_PAGINATION',
          message: 'Requesting 101 records on the `pullRequests` connection exceeds the `last` limit of 100 records.',
        }),
      ],
    );
    expect(await refused(COSTLY(100))).toEqual([
      expect.objectContaining({
        type: 'MAX_NODE_LIMIT_EXCEEDED',
        message:
          'By the time this query traverses to the parents connection, it is requesting up to 1,010,100 possible nodes which exceeds the maximum limit of 500,000.',
      }),
    ]);
  });

  it('answers a query nested too deeply for graphql-js with an error, not a 500', async () => {
    const depth = 20_000;
    const query = `query { repository(owner: "acme", name: "web-storefront") { ${'defaultBranchRef { repository { '.repeat(depth)}id${' } }'.repeat(depth)} } }`;
    const res = await graphql(ALICE, query);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ errors: [{ message: 'The query is nested too deeply to be answered.' }] });
  });
});

describe('GitHub emulator: the GraphQL limit charged by cost', () => {
  it('refuses a query costing more than remains (RATE_LIMITED, nothing spent); a cheaper one goes through', async () => {
    const server = await startGitHubEmulator({
      seed: { ...loadDemoSeed(), rateLimit: { limit: 150, windowSeconds: 3_600 } },
      logger: silentLogger,
    });
    try {
      const graphql = graphqlAt(server.url);
      const first = await graphql(ALICE, COSTLY(10));
      expect(first.body.data.rateLimit).toMatchObject({ cost: 101, remaining: 49, used: 101, limit: 150 });
      const second = await graphql(ALICE, COSTLY(10));
      expect(second.status).toBe(200);
      expect(second.body).toEqual({ errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for user ID 1001.' }] });
      expect([second.headers.get('x-ratelimit-remaining'), second.headers.get('x-ratelimit-used')]).toEqual(['49', '101']);
      const cheap = await graphql(ALICE, 'query { rateLimit { cost remaining } }');
      expect(cheap.body.data.rateLimit).toEqual({ cost: 1, remaining: 48 });
      const counts = (await request(server.url, 'GET', REQUEST_COUNTER_PATH)).body as RequestCounts;
      expect(counts.limited.primary).toBe(1);
      expect(counts.routes['POST /graphql']).toEqual({ 200: 3 });
    } finally {
      await server.close();
    }
  });
});
