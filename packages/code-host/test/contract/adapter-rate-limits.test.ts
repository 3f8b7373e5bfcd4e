import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { GitHubCodeHost } from '../../src/index.ts';
import { codeHostError } from '../code-host-error.ts';
import { type RecordedAnswer, rateLimits, recorded } from './fixtures/index.ts';
import { adapterOn, type RecordedGitHub, startRecordedGitHub, TOKEN } from './recorded-github.ts';

const HELLO = { owner: 'octocat', name: 'Hello-World' };

/**
 * GitHub's rate-limit answers (primary and secondary, 403 and 429, REST and GraphQL) played to the adapter with its
 * default pacing (the throttling plugin on): a wait GitHub says is short is waited out once, anything else rejects at
 * once with `rate_limited` and the seconds GitHub gave (60 when it gave none).
 */
describe('GitHub adapter against recorded rate-limit answers', () => {
  let github: RecordedGitHub;
  let host: GitHubCodeHost;
  const { getContent, getAuthenticatedUser, graphqlReadFiles, createComment } = recorded;

  beforeAll(async () => {
    github = await startRecordedGitHub();
    host = adapterOn(github, { throttle: true });
  }, 60_000);
  afterEach(() => github.reset());
  afterAll(() => github.close());

  const cases: [string, RecordedAnswer, number, (seconds: number | undefined) => void][] = [
    ['primary, 403 with x-ratelimit-remaining 0', rateLimits.primary, 403, (s) => expect(s).toBeGreaterThan(1_790)],
    ['primary, 429', rateLimits.primaryTooManyRequests, 429, (s) => expect(s).toBeGreaterThan(1_790)],
    ['secondary, 403 with retry-after 60', rateLimits.secondary, 403, (s) => expect(s).toBe(60)],
    ['secondary, 403 without retry-after', rateLimits.secondaryWithoutRetryAfter, 403, (s) => expect(s).toBe(60)],
    ['secondary, 429 with retry-after 120', rateLimits.secondaryTooManyRequests, 429, (s) => expect(s).toBe(120)],
  ];

  for (const [situation, answer, status, expectSeconds] of cases) {
    it(`a ${situation} → rate_limited at once, not retried`, async () => {
      github.serve(getContent.operation, answer, getContent.answers.fileWithText);
      const error = await codeHostError(host.readFile(TOKEN, HELLO, 'package.json'));
      expect([error.kind, error.status]).toEqual(['rate_limited', status]);
      expectSeconds(error.retryAfterSeconds);
      expect(github.received).toHaveLength(1);
    });
  }

  it('a secondary limit with a short retry-after is waited out once, then the call succeeds', async () => {
    github.serve(getAuthenticatedUser.operation, rateLimits.secondaryShort, getAuthenticatedUser.answers.classicToken);
    const started = Date.now();
    expect((await host.currentUser(TOKEN)).account.login).toBe('octocat');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(github.received.map((request) => request.path)).toEqual(['/user', '/user']);
  });

  it('a second limit right after the waited one rejects', async () => {
    github.serve(
      getAuthenticatedUser.operation,
      rateLimits.secondaryShort,
      rateLimits.secondaryShort,
      getAuthenticatedUser.answers.classicToken,
    );
    const error = await codeHostError(host.currentUser(TOKEN));
    expect([error.kind, error.status, error.retryAfterSeconds]).toEqual(['rate_limited', 403, 1]);
    expect(github.received).toHaveLength(2);
  });

  it("GraphQL: GitHub's RATE_LIMITED answer (HTTP 200) and a 403 secondary limit → rate_limited", async () => {
    github.serve(graphqlReadFiles.operation, graphqlReadFiles.answers.rateLimited);
    const primary = await codeHostError(host.readFiles(TOKEN, HELLO, ['a', 'b']));
    expect([primary.kind, primary.status]).toEqual(['rate_limited', 200]);
    expect(primary.retryAfterSeconds).toBeGreaterThan(1_790);

    github.serve(graphqlReadFiles.operation, graphqlReadFiles.answers.secondaryRateLimit);
    const secondary = await codeHostError(host.readFiles(TOKEN, HELLO, ['a', 'b']));
    expect([secondary.kind, secondary.status, secondary.retryAfterSeconds]).toEqual(['rate_limited', 403, 60]);
    expect(github.received.map((request) => request.path)).toEqual(['/graphql', '/graphql']);
  });

  it('a write (a comment, content creation) hit by a secondary limit → rate_limited, not retried', async () => {
    github.serve(createComment.operation, createComment.answers.secondaryRateLimit, createComment.answers.created);
    const error = await codeHostError(host.comment(TOKEN, HELLO, 1347, 'x'));
    expect([error.kind, error.status, error.retryAfterSeconds]).toEqual(['rate_limited', 403, 60]);
    expect(github.received).toHaveLength(1);
  });
});
