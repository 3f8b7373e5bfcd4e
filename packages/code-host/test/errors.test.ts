import { describe, expect, it } from 'vitest';
import { retryAfterSecondsFrom, toCodeHostError } from '../src/github/errors.ts';
import { CodeHostError, isCodeHostError, permissionAtLeast, type RepoPermission, repoPermissionFrom } from '../src/index.ts';

/** The shape of an Octokit RequestError for a GitHub answer. */
function requestError(status: number, headers: Record<string, string> = {}, message = 'Error') {
  return Object.assign(new Error(message), { name: 'HttpError', status, response: { status, headers, data: { message } } });
}

const mapped = (error: unknown) => toCodeHostError(error, 'GET /x') as CodeHostError;

describe('repoPermissionFrom', () => {
  it("maps GitHub's permissions object: admin; maintain or push → write; triage or pull → read; else none", () => {
    const cases: Array<[Parameters<typeof repoPermissionFrom>[0], RepoPermission]> = [
      [{ admin: true, maintain: true, push: true, triage: true, pull: true }, 'admin'],
      [{ admin: false, maintain: true, push: true, triage: true, pull: true }, 'write'],
      [{ admin: false, push: true, pull: true }, 'write'],
      [{ maintain: true }, 'write'],
      [{ admin: false, push: false, triage: true, pull: true }, 'read'],
      [{ admin: false, push: false, pull: true }, 'read'],
      [{ admin: false, push: false, pull: false }, 'none'],
      [{}, 'none'],
      [undefined, 'none'],
      [null, 'none'],
    ];
    for (const [permissions, expected] of cases) expect(repoPermissionFrom(permissions), JSON.stringify(permissions)).toBe(expected);
  });

  it('orders permissions none < read < write < admin', () => {
    expect(permissionAtLeast('admin', 'write')).toBe(true);
    expect(permissionAtLeast('write', 'write')).toBe(true);
    expect(permissionAtLeast('read', 'write')).toBe(false);
    expect(permissionAtLeast('none', 'read')).toBe(false);
    expect(permissionAtLeast('none', 'none')).toBe(true);
  });
});

describe('toCodeHostError', () => {
  it('maps statuses to kinds', () => {
    const cases: Array<[number, Record<string, string>, string, CodeHostError['kind']]> = [
      [401, {}, 'Bad credentials', 'unauthorized'],
      [403, {}, 'Resource not accessible by personal access token', 'forbidden'],
      [451, {}, 'Repository access blocked', 'forbidden'],
      [404, {}, 'Not Found', 'not_found'],
      [410, {}, 'Gone', 'not_found'],
      [500, {}, 'Server Error', 'unavailable'],
      [502, {}, 'Bad Gateway', 'unavailable'],
      [422, {}, 'Validation Failed', 'invalid'],
      [400, {}, 'Problems parsing JSON', 'invalid'],
      [422, {}, 'Reference already exists', 'conflict'],
      [422, {}, 'Update is not a fast forward', 'conflict'],
      [409, {}, 'Head branch was modified. Review and try the merge again.', 'conflict'],
      [405, {}, 'Pull Request is not mergeable', 'conflict'],
      [418, {}, 'I am a teapot', 'unavailable'],
      [429, {}, 'Too many requests', 'rate_limited'],
      [403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '0' }, 'API rate limit exceeded', 'rate_limited'],
      [403, {}, 'You have exceeded a secondary rate limit', 'rate_limited'],
      [403, { 'retry-after': '5' }, 'Forbidden', 'rate_limited'],
    ];
    for (const [status, headers, message, kind] of cases) {
      const error = mapped(requestError(status, headers, message));
      expect(error, `${status} ${message}`).toBeInstanceOf(CodeHostError);
      expect([error.kind, error.status]).toEqual([kind, status]);
      expect(error.message).toContain(message);
    }
  });

  it('says when to retry a rate limit: retry-after, else the reset, else 60 s', () => {
    const now = Date.now();
    expect(mapped(requestError(403, { 'retry-after': '42' })).retryAfterSeconds).toBe(42);
    const reset = String(Math.floor(now / 1000) + 600);
    const primary = mapped(requestError(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, 'API rate limit exceeded'));
    expect(primary.retryAfterSeconds).toBeGreaterThanOrEqual(599);
    expect(primary.retryAfterSeconds).toBeLessThanOrEqual(601);
    expect(mapped(requestError(403, {}, 'You have exceeded a secondary rate limit')).retryAfterSeconds).toBe(60);
    expect(mapped(requestError(503, { 'retry-after': '9' })).retryAfterSeconds).toBe(9);
    expect(mapped(requestError(500)).retryAfterSeconds).toBeUndefined();
  });

  it('reads retry-after as seconds or an HTTP date, and the reset only when nothing remains', () => {
    const now = Date.UTC(2024, 0, 1, 12, 0, 0);
    expect(retryAfterSecondsFrom({ 'retry-after': 'Mon, 01 Jan 2024 12:01:30 GMT' }, now)).toBe(90);
    expect(retryAfterSecondsFrom({ 'retry-after': '0' }, now)).toBe(1);
    expect(retryAfterSecondsFrom({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 30) }, now)).toBe(30);
    expect(retryAfterSecondsFrom({ 'x-ratelimit-remaining': '10', 'x-ratelimit-reset': String(now / 1000 + 30) }, now)).toBeUndefined();
    expect(retryAfterSecondsFrom({}, now)).toBeUndefined();
  });

  it('maps a network error (no response) to unavailable with status 0, and passes other errors through', () => {
    const network = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { name: 'HttpError', status: 500 });
    expect([mapped(network).kind, mapped(network).status]).toEqual(['unavailable', 0]);
    const already = new CodeHostError('forbidden', 'no', { status: 403 });
    expect(toCodeHostError(already, 'GET /x')).toBe(already);
    const bug = new TypeError('x is not a function');
    expect(toCodeHostError(bug, 'GET /x')).toBe(bug);
  });

  it('isCodeHostError checks the class and, optionally, the kind', () => {
    const error = new CodeHostError('rate_limited', 'slow down', { status: 429, retryAfterSeconds: 3 });
    expect([error.name, error.kind, error.status, error.retryAfterSeconds]).toEqual(['CodeHostError', 'rate_limited', 429, 3]);
    expect(isCodeHostError(error)).toBe(true);
    expect(isCodeHostError(error, 'rate_limited')).toBe(true);
    expect(isCodeHostError(error, 'unavailable')).toBe(false);
    expect(isCodeHostError(new Error('x'))).toBe(false);
    expect(new CodeHostError('unavailable', 'down').status).toBe(0);
  });
});
