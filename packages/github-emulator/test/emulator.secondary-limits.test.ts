import { createsContent, graphqlCreatesContent } from '@switchyard/contracts';
import type { Listening } from '@switchyard/service-kit';
import { request, type TestResponse, waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type EmulatorFault,
  GITHUB_SECONDARY_LIMITS,
  loadDemoSeed,
  parseReadFilesQuery,
  REQUEST_COUNTER_PATH,
  type RequestCounts,
  SECONDARY_LIMIT_DOCS,
  type SecondaryLimits,
  secondaryLimitMessage,
  startGitHubEmulator,
} from '../src/index.ts';
import { mintToken } from './apps.ts';
import { ALICE, BOB, silentLogger } from './fixtures.ts';
import { apiAs } from './writes.ts';

/** 2026-03-02 09:00:00 UTC: the emulator's clock in these tests, stepped by hand. */
const START = Date.UTC(2026, 2, 2, 9, 0, 0);
const SECOND = 1_000;
const MINUTE = 60 * SECOND;

const READ_FILES =
  'query ReadFiles($owner: String!, $name: String!, $f0: String!) { repository(owner: $owner, name: $name) { f0: object(expression: $f0) { ... on Blob { text } } } }';

/** Starts the demo world on a stepped clock with `secondaryLimits` (none: off) and a fault queue. */
async function start(clock: { now: number }, secondaryLimits?: SecondaryLimits, seed = loadDemoSeed()) {
  const faults: EmulatorFault[] = [];
  const server = await startGitHubEmulator({
    seed,
    logger: silentLogger,
    faults,
    now: () => clock.now,
    ...(secondaryLimits === undefined ? {} : { secondaryLimits }),
  });
  return { server, faults };
}

/** Checks `res` is GitHub's secondary-limit answer: 403, its body naming the request id, `retry-after`, no `x-ratelimit-*`. */
function expectSecondaryLimited(res: TestResponse, retryAfter: number): void {
  expect(res.status, res.text).toBe(403);
  const requestId = res.headers.get('x-github-request-id') ?? '';
  expect(requestId).toMatch(/^[0-9A-F]{4}(:[0-9A-F]{4}){3}$/);
  expect(res.body).toEqual({ message: secondaryLimitMessage(requestId), documentation_url: SECONDARY_LIMIT_DOCS, status: '403' });
  // What octokit's throttling plugin tells a secondary limit by.
  expect(res.body.message).toMatch(/\bsecondary rate\b/i);
  expect(res.body.message).toContain(`please include the request ID ${requestId}.`);
  expect(res.headers.get('retry-after')).toBe(String(retryAfter));
  expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
  expect(res.headers.get('x-ratelimit-used')).toBeNull();
}

const counts = async (url: string) => (await request(url, 'GET', REQUEST_COUNTER_PATH)).body as RequestCounts;

const graphql = (url: string, token: string, query: string, variables: Record<string, unknown> = {}) =>
  request(url, 'POST', '/graphql', { headers: { authorization: `bearer ${token}` }, body: { query, variables } });

describe('GitHub emulator: secondary rate limits (content creation, concurrency) per user and per installation', () => {
  const clock = { now: START };
  let server: Listening;
  let faults: EmulatorFault[];

  beforeAll(async () => {
    ({ server, faults } = await start(clock, { concurrent: 3, contentPerMinute: 3, contentPerHour: 5 }));
  }, 60_000);
  afterAll(() => server.close());

  it('lets 3 content-generating requests a minute through, then answers 403 with retry-after; the refused ones are not performed', async () => {
    await request(server.url, 'DELETE', REQUEST_COUNTER_PATH);
    const alice = apiAs(server.url, ALICE);
    const issues = async () => (await alice.get('/repos/acme/acme-cli/issues?state=all&per_page=100')).body.length as number;
    const before = await issues();
    for (const at of [0, 10, 20]) {
      clock.now = START + at * SECOND;
      expect((await alice.post('/repos/acme/acme-cli/issues', { title: `Issue at ${at}s` })).status).toBe(201);
    }
    clock.now = START + 30 * SECOND;
    const used = Number((await alice.get('/repos/acme/acme-cli')).headers.get('x-ratelimit-used'));
    const refused = await alice.post('/repos/acme/acme-cli/issues', { title: 'One too many' });
    // The first of the minute's three leaves the window at 60 s.
    expectSecondaryLimited(refused, 30);
    expect(await issues()).toBe(before + 3);
    // Reads go on, and the refused request was not counted against the primary limit.
    const read = await alice.get('/repos/acme/acme-cli');
    expect(read.status).toBe(200);
    expect(Number(read.headers.get('x-ratelimit-used'))).toBe(used + 2);
    // Other kinds of writes are not content creation.
    expect((await alice.patch('/repos/acme/acme-cli/issues/1', { title: 'Renamed' })).status).toBe(200);
    // Another user has a budget of their own.
    expect((await apiAs(server.url, BOB).post('/repos/initech/office-space/issues', { title: 'Bob’s' })).status).toBe(201);

    clock.now = START + 60 * SECOND;
    expect((await alice.post('/repos/acme/acme-cli/issues', { title: 'Next minute' })).status).toBe(201);
    expectSecondaryLimited(await alice.post('/repos/acme/acme-cli/issues/1/comments', { body: 'too soon' }), 10);

    // Five in the hour: the fifth passes, the sixth waits for the first to be an hour old.
    clock.now = START + 5 * MINUTE;
    expect((await alice.post('/repos/acme/acme-cli/labels', { name: 'hourly', color: 'ededed' })).status).toBe(201);
    expectSecondaryLimited(await alice.post('/repos/acme/acme-cli/labels', { name: 'too-many', color: 'ededed' }), 3_600 - 300);
    expect((await alice.get('/repos/acme/acme-cli/labels/too-many')).status).toBe(404);

    const counted = await counts(server.url);
    expect(counted.limited).toEqual({ primary: 0, secondaryConcurrent: 0, secondaryContent: 3 });
    expect(counted.routes['POST /repos/:owner/:repo/issues']).toEqual({ 201: 5, 403: 1 });
    expect(counted.routes['POST /repos/:owner/:repo/labels']).toEqual({ 201: 1, 403: 1 });
  });

  it('counts the tokens of one installation together (GitHub’s key), apart from users; GraphQL mutations count too', async () => {
    clock.now = START + 10 * MINUTE;
    const first = apiAs(server.url, (await mintToken(server.url, clock.now, 5001)).token);
    const secondToken = (await mintToken(server.url, clock.now, 5001)).token;
    const second = apiAs(server.url, secondToken);
    expect((await first.post('/repos/acme/acme-cli/issues', { title: 'From the App' })).status).toBe(201);
    expect((await first.post('/repos/acme/acme-cli/issues/1/comments', { body: 'From the App' })).status).toBe(201);
    expect((await second.post('/repos/acme/billing-api/labels', { name: 'bot', color: '000000' })).status).toBe(201);
    expectSecondaryLimited(await second.post('/repos/acme/billing-api/issues', { title: 'Over' }), 60);
    // Another installation of the App is another caller.
    const initech = apiAs(server.url, (await mintToken(server.url, clock.now, 5004)).token);
    expect((await initech.post('/repos/initech/office-space/issues', { title: 'From the App' })).status).toBe(201);

    // GraphQL shares the budget: a mutation creating content is refused, a query answered.
    const mutation = await graphql(
      server.url,
      secondToken,
      'mutation { createIssue(input: {repositoryId: "R_1", title: "x"}) { issue { id } } }',
    );
    expectSecondaryLimited(mutation, 60);
    const query = await graphql(server.url, secondToken, READ_FILES, { owner: 'acme', name: 'acme-cli', f0: 'HEAD:README.md' });
    expect(query.status).toBe(200);
    expect(query.body.data.repository).toBeDefined();
  });

  it('refuses a caller’s request beyond 3 in flight (REST and GraphQL together) until one ends; other callers go on', async () => {
    await request(server.url, 'DELETE', REQUEST_COUNTER_PATH);
    const bob = apiAs(server.url, BOB);
    faults.push({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const aborts = [0, 1, 2].map(() => new AbortController());
    const hanging = aborts.map((abort) =>
      fetch(new URL('/user', server.url), { headers: { authorization: `token ${BOB}` }, signal: abort.signal }).catch(() => undefined),
    );
    // Each has passed the in-flight count once it took its fault.
    await waitFor(async () => faults.length === 0);
    expectSecondaryLimited(await bob.get('/user'), 1);
    expectSecondaryLimited(await graphql(server.url, BOB, READ_FILES, { owner: 'initech', name: 'office-space', f0: 'HEAD:README.md' }), 1);
    expect((await apiAs(server.url, ALICE).get('/user')).status).toBe(200);

    for (const abort of aborts) abort.abort();
    await Promise.all(hanging);
    await waitFor(async () => (await bob.get('/user')).status === 200);
    const counted = await counts(server.url);
    expect(counted.limited.secondaryConcurrent).toBeGreaterThanOrEqual(2);
    expect(counted.limited.secondaryContent).toBe(0);
    expect(counted.routes['GET /user']?.[403]).toBe(counted.limited.secondaryConcurrent - 1);
    expect(counted.routes['POST /graphql']).toEqual({ 403: 1 });
  });
});

describe('GitHub emulator: secondary limits are off unless configured; GitHub’s own numbers', () => {
  it('GITHUB_SECONDARY_LIMITS are GitHub’s documented 100 in flight, 80 a minute, 500 an hour', () => {
    expect(GITHUB_SECONDARY_LIMITS).toEqual({ concurrent: 100, contentPerMinute: 80, contentPerHour: 500 });
  });

  it('without secondaryLimits, 81 issues in the same second are all created; with GitHub’s, the 81st waits a minute', async () => {
    const clock = { now: START };
    const off = await start(clock);
    const on = await start(clock, GITHUB_SECONDARY_LIMITS);
    try {
      for (const { server } of [off, on]) {
        const alice = apiAs(server.url, ALICE);
        const statuses: number[] = [];
        for (let i = 1; i <= 80; i += 1) statuses.push((await alice.post('/repos/acme/acme-cli/issues', { title: `Issue ${i}` })).status);
        expect(statuses.every((status) => status === 201)).toBe(true);
      }
      expect((await apiAs(off.server.url, ALICE).post('/repos/acme/acme-cli/issues', { title: 'Issue 81' })).status).toBe(201);
      expectSecondaryLimited(await apiAs(on.server.url, ALICE).post('/repos/acme/acme-cli/issues', { title: 'Issue 81' }), 60);
      expect((await counts(off.server.url)).limited).toEqual({ primary: 0, secondaryConcurrent: 0, secondaryContent: 0 });
      expect((await counts(on.server.url)).limited).toEqual({ primary: 0, secondaryConcurrent: 0, secondaryContent: 1 });
    } finally {
      await off.server.close();
      await on.server.close();
    }
  });
});

describe('GitHub emulator: the primary limit of installation access tokens', () => {
  it('is one budget per installation, shared by all of its tokens, apart from users’ and other installations’', async () => {
    const clock = { now: START };
    const seed = { ...loadDemoSeed(), rateLimit: { limit: 4, windowSeconds: 3_600 } };
    const { server } = await start(clock, undefined, seed);
    try {
      const first = apiAs(server.url, (await mintToken(server.url, clock.now, 5001)).token);
      const second = apiAs(server.url, (await mintToken(server.url, clock.now, 5001)).token);
      const used: string[] = [];
      for (const token of [first, second, first, second])
        used.push((await token.get('/repos/acme/acme-cli')).headers.get('x-ratelimit-used') ?? '');
      expect(used).toEqual(['1', '2', '3', '4']);
      const over = await second.get('/repos/acme/acme-cli');
      expect(over.status).toBe(403);
      expect(over.body.message).toBe('API rate limit exceeded for installation ID 5001.');
      expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
      const other = await apiAs(server.url, (await mintToken(server.url, clock.now, 5004)).token).get('/repos/initech/office-space');
      expect([other.status, other.headers.get('x-ratelimit-used')]).toEqual([200, '1']);
      const alice = await apiAs(server.url, ALICE).get('/repos/acme/acme-cli');
      expect([alice.status, alice.headers.get('x-ratelimit-used')]).toEqual([200, '1']);
      expect((await counts(server.url)).limited).toEqual({ primary: 1, secondaryConcurrent: 0, secondaryContent: 0 });
    } finally {
      await server.close();
    }
  });
});

describe('what counts as content creation', () => {
  it('creating pull requests, commits, refs, comments, issues and labels; not blobs, trees, edits, statuses or reads', () => {
    for (const [method, path] of [
      ['POST', '/repos/acme/cli/pulls'],
      ['POST', '/repos/acme/cli/git/commits'],
      ['PUT', '/repos/acme/cli/contents/src/deep/file.ts'],
      ['DELETE', '/repos/acme/cli/contents/README.md'],
      ['PUT', '/repos/acme/cli/pulls/7/merge'],
      ['POST', '/repos/acme/cli/git/refs'],
      ['POST', '/repos/acme/cli/issues/3/comments'],
      ['POST', '/repos/acme/cli/pulls/3/reviews'],
      ['POST', '/repos/acme/cli/issues'],
      ['POST', '/repos/acme/cli/labels'],
    ] as const) {
      expect(createsContent(method, path), `${method} ${path}`).toBe(true);
    }
    for (const [method, path] of [
      ['POST', '/repos/acme/cli/git/blobs'],
      ['POST', '/repos/acme/cli/git/trees'],
      ['PATCH', '/repos/acme/cli/git/refs/heads/main'],
      ['PATCH', '/repos/acme/cli/issues/3'],
      ['POST', '/repos/acme/cli/statuses/abc'],
      ['POST', '/repos/acme/cli/issues/3/labels'],
      ['GET', '/repos/acme/cli/issues'],
      ['PUT', '/repos/acme/cli/contents'],
    ] as const) {
      expect(createsContent(method, path), `${method} ${path}`).toBe(false);
    }
  });

  it('GraphQL mutations that create commits, pull requests, issues or comments; not queries', () => {
    expect(
      graphqlCreatesContent(
        'mutation Commit($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }',
      ),
    ).toBe(true);
    expect(graphqlCreatesContent('mutation {\n  createPullRequest (input: {}) { pullRequest { id } }\n}')).toBe(true);
    expect(graphqlCreatesContent('mutation { updatePullRequest(input: {}) { pullRequest { id } } }')).toBe(false);
    expect(graphqlCreatesContent(READ_FILES)).toBe(false);
    expect(graphqlCreatesContent('query { repository(owner: "mutation", name: "createIssue(") { id } }')).toBe(false);
    expect(graphqlCreatesContent(undefined)).toBe(false);
    // The emulator's one query shape still parses (it is not a mutation).
    expect(parseReadFilesQuery(READ_FILES, { owner: 'a', name: 'b', f0: 'HEAD:x' }).objects).toHaveLength(1);
  });
});
