import type { Listening } from '@switchyard/service-kit';
import { request } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFilesRequest } from '../../../code-host/src/github/read-files.ts';
import { rateLimits, recorded } from '../../../code-host/test/contract/fixtures/index.ts';
import { type EmulatorFault, startGitHubEmulator } from '../../src/index.ts';
import { silentLogger } from '../fixtures.ts';
import { expectAsRecorded, type RecordedEntry } from './as-recorded.ts';
import { CONTRACT_SEED, OCTOCAT } from './contract-seed.ts';

/**
 * The emulator's rate-limit answers held to GitHub's recorded ones: its own primary limit (a seed allowing one request
 * an hour, REST and GraphQL each) and the limits its fault queue plays. The secondary limits the emulator enforces by
 * itself (an option of `startGitHubEmulator`) are not covered here.
 */
describe('GitHub emulator rate limits held to the recorded GitHub answers', () => {
  let server: Listening;
  const faults: EmulatorFault[] = [];

  beforeAll(async () => {
    server = await startGitHubEmulator({
      seed: { ...CONTRACT_SEED, rateLimit: { limit: 1, windowSeconds: 3_600 } },
      logger: silentLogger,
      faults,
    });
  }, 60_000);
  afterAll(() => server.close());

  const send = (method: string, path: string, body?: unknown) =>
    request(server.url, method, path, { headers: { authorization: `token ${OCTOCAT}` }, ...(body === undefined ? {} : { body }) });
  /** A rate-limit answer of `call`'s operation (every REST operation may answer one; GitHub's description lists 403 for most). */
  const limitOf = (call: RecordedEntry): RecordedEntry => ({ operation: call.operation, answers: rateLimits });

  it("the primary limit used up: 403, GitHub's message, x-ratelimit-remaining 0 and a reset to come", async () => {
    const { getAuthenticatedUser } = recorded;
    expect((await send('GET', '/user')).status).toBe(200);
    const limited = await send('GET', '/user');
    expectAsRecorded(limited, limitOf(getAuthenticatedUser), 'primary', { sameMessage: true });
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it("GraphQL's primary limit used up: HTTP 200, a RATE_LIMITED error in GitHub's words, x-ratelimit-remaining 0", async () => {
    const { graphqlReadFiles } = recorded;
    const query = readFilesRequest({ owner: 'octocat', name: 'Hello-World' }, ['README', 'package.json']);
    expect((await send('POST', '/graphql', query)).body.data.repository.f0.text).toBe('Hello World!\n');
    const limited = await send('POST', '/graphql', query);
    const body = expectAsRecorded(limited, graphqlReadFiles, 'rateLimited');
    expect(body).toEqual(graphqlReadFiles.answers.rateLimited.body);
    expect([limited.headers.get('x-ratelimit-remaining'), limited.headers.get('x-ratelimit-resource')]).toEqual(['0', 'graphql']);
  });

  it('a secondary limit (played by the fault queue) on a write and on GraphQL: 403, the message, retry-after', async () => {
    const { createComment, graphqlReadFiles } = recorded;
    faults.push({ kind: 'secondary-rate-limit', retryAfterSeconds: 60 });
    const comment = await send('POST', '/repos/octocat/Hello-World/issues/1/comments', { body: 'x' });
    expectAsRecorded(comment, createComment, 'secondaryRateLimit', { sameMessage: true });
    expect(comment.headers.get('retry-after')).toBe('60');
    faults.push({ kind: 'secondary-rate-limit', retryAfterSeconds: 60 });
    const graphql = await send('POST', '/graphql', readFilesRequest({ owner: 'octocat', name: 'Hello-World' }, ['a', 'b']));
    expectAsRecorded(graphql, graphqlReadFiles, 'secondaryRateLimit', { sameMessage: true });
  });

  it('a primary limit as a 429 (played by the fault queue): status, message naming the user, and remaining 0 as GitHub', async () => {
    const { listAdvisories } = recorded;
    faults.push({ kind: 'rate-limit', resetInSeconds: 1_800, status: 429 });
    const limited = await send('GET', '/advisories?type=reviewed&ecosystem=npm&affects=a-package&per_page=100');
    // GitHub names the user ("… for user ID 1."), as the emulator's own limit does.
    expectAsRecorded(limited, listAdvisories, 'tooManyRequests', { sameMessage: true });
    expect(limited.body.message).toBe('API rate limit exceeded for user ID 1.');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
