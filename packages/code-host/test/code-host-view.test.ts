import { CodeHostUnavailable, RateLimited, Unauthenticated } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { type CodeHost, type CodeHostAccount, CodeHostError, type CodeHostRepo, CodeHostView } from '../src/index.ts';

const ALICE: CodeHostAccount = { id: 1, login: 'alice', type: 'user' };
const repo = (id: number): CodeHostRepo => ({
  id,
  name: `r${id}`,
  fullName: `alice/r${id}`,
  owner: ALICE,
  private: false,
  fork: false,
  archived: false,
  htmlUrl: `https://github.com/alice/r${id}`,
  language: null,
  defaultBranch: 'main',
  permission: 'admin',
});

/** A code host that knows one token, `good`, and records every call with the token it was made with. */
function fakeHost(failure: CodeHostError = new CodeHostError('unauthorized', 'GitHub GET /user: rejected', { status: 401 })) {
  const calls: string[] = [];
  /** Records the call; `answer` for `good`, `failure` for any other token. */
  const check = <T>(token: string, answer: T): T => {
    calls.push(token);
    if (token !== 'good') throw failure;
    return answer;
  };
  const host: CodeHost = {
    currentUser: async (token) => check(token, { account: ALICE, capability: { kind: 'scopes' as const, scopes: ['repo'] } }),
    organisations: async (token) => check(token, []),
    organisationRole: async (token) => check(token, undefined),
    listRepos: async (token) => check(token, [repo(1)]),
    getRepo: async (token, id) => check(token, repo(id)),
    readFile: async (token) => check(token, undefined),
  };
  return { host, calls };
}

function manualClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('CodeHostView: rejected tokens', () => {
  it('answers a token the code host rejected from memory for rejectedTokenTtlMs, with the same error, then asks again', async () => {
    const { host, calls } = fakeHost();
    const clock = manualClock();
    const view = new CodeHostView(host, { ttlMs: 60_000, rejectedTokenTtlMs: 10_000, now: clock.now });
    const first = await view.caller('bad').catch((e: unknown) => e);
    expect(first).toBeInstanceOf(Unauthenticated);
    const made = calls.length;
    expect(made).toBeGreaterThan(0);
    const second = await view.caller('bad').catch((e: unknown) => e);
    expect(second).toBeInstanceOf(Unauthenticated);
    expect((second as Error).message).toBe((first as Error).message);
    expect(calls.length).toBe(made);
    clock.advance(10_001);
    await expect(view.caller('bad')).rejects.toBeInstanceOf(Unauthenticated);
    expect(calls.length).toBe(2 * made);
  });

  it('remembers nothing when rejectedTokenTtlMs is 0, and never remembers other failures', async () => {
    const off = fakeHost();
    const view = new CodeHostView(off.host, { ttlMs: 60_000, rejectedTokenTtlMs: 0 });
    await expect(view.caller('bad')).rejects.toBeInstanceOf(Unauthenticated);
    await expect(view.caller('bad')).rejects.toBeInstanceOf(Unauthenticated);
    expect(off.calls.length).toBe(4);

    const down = fakeHost(new CodeHostError('unavailable', 'GitHub GET /user: 502', { status: 502 }));
    const view2 = new CodeHostView(down.host, { ttlMs: 60_000 });
    await expect(view2.caller('bad')).rejects.toThrow(/did not answer/);
    await expect(view2.caller('bad')).rejects.toThrow(/did not answer/);
    expect(down.calls.length).toBe(4);
  });

  it('knows a caller it has cached without asking the code host, and no other', async () => {
    const { host, calls } = fakeHost();
    const view = new CodeHostView(host, { ttlMs: 60_000 });
    expect(view.cachedCaller('good')).toBeUndefined();
    await view.caller('good');
    const made = calls.length;
    expect(view.cachedCaller('good')).toMatchObject({ token: 'good', user: ALICE });
    expect(view.cachedCaller('bad')).toBeUndefined();
    expect(calls.length).toBe(made);
  });
});

describe('CodeHostView: budget of code-host calls per token', () => {
  it('refuses a call over the budget with RateLimited and its Retry-After, without making it, until the window frees', async () => {
    const { host, calls } = fakeHost();
    const clock = manualClock();
    const view = new CodeHostView(host, { ttlMs: 60_000, tokenBudget: { limit: 4, windowMs: 60_000 }, now: clock.now });
    const caller = await view.caller('good'); // 2 calls: the user and the accounts
    await view.repo(caller, 1);
    await view.repo(caller, 1); // cached: free
    await view.repo(caller, 2);
    expect(calls.length).toBe(4);
    clock.advance(15_000);
    const refused = await view.repo(caller, 3).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).retryAfterSeconds).toBe(45);
    expect((refused as Error).message).toMatch(/code host/);
    await expect(view.listRepos(caller, ALICE)).rejects.toBeInstanceOf(RateLimited);
    expect(calls.length).toBe(4);
    // What is cached is still answered.
    expect(await view.repo(caller, 2)).toMatchObject({ id: 2 });
    clock.advance(45_000);
    expect(await view.repo(caller, 3)).toMatchObject({ id: 3 });
    expect(calls.length).toBe(5);
  });

  it('keeps each token to its own budget, and has none when its limit is 0', async () => {
    const { host, calls } = fakeHost();
    const clock = manualClock();
    // Nothing cached: ttlMs 0 keeps an answer for 1 ms.
    const view = new CodeHostView(host, { ttlMs: 0, tokenBudget: { limit: 2, windowMs: 60_000 }, now: clock.now });
    await view.caller('good');
    clock.advance(10);
    await expect(view.caller('good')).rejects.toBeInstanceOf(RateLimited);
    // Another token has its own budget (and is rejected by the code host, as it always was).
    await expect(view.caller('other')).rejects.toBeInstanceOf(Unauthenticated);
    expect(calls.filter((t) => t === 'other').length).toBe(2);

    const free = fakeHost();
    const unlimited = new CodeHostView(free.host, { ttlMs: 0, tokenBudget: { limit: 0, windowMs: 60_000 }, now: clock.now });
    for (let i = 0; i < 10; i++) {
      await unlimited.caller('good');
      clock.advance(10);
    }
    expect(free.calls.length).toBe(20);
  });
});

describe('CodeHostView: repos answered from a listing', () => {
  it('answers a repo a listing of this token showed within ttlMs without asking for it, and asks for any other', async () => {
    const { host, calls } = fakeHost();
    const clock = manualClock();
    const view = new CodeHostView(host, { ttlMs: 60_000, now: clock.now });
    const caller = await view.caller('good');
    const before = calls.length;
    expect((await view.listRepos(caller, ALICE)).repos.map((r) => r.id)).toEqual([1]);
    expect(await view.repo(caller, 1)).toEqual(repo(1));
    expect(calls.length).toBe(before + 1);
    // Not in the listing: asked for.
    expect(await view.repo(caller, 2)).toMatchObject({ id: 2 });
    expect(calls.length).toBe(before + 2);
    // Past ttlMs the listed repo is asked for again.
    clock.advance(60_001);
    await view.caller('good');
    const later = calls.length;
    await view.repo(caller, 1);
    expect(calls.length).toBe(later + 1);
  });
});

describe('CodeHostView: app installations of the caller', () => {
  const INSTALLATION = { id: 77, accountLogin: 'alice', accountId: 1, repositorySelection: 'all' as const };
  /** A code host that knows the token `good`, whose installations answer `installations` (or fail with it). */
  function hostWithInstallations(installations: CodeHostError | (typeof INSTALLATION)[]) {
    const calls: string[] = [];
    const host: CodeHost = {
      currentUser: async () => ({ account: ALICE, capability: { kind: 'per-repo' } }),
      organisations: async () => [],
      organisationRole: async () => undefined,
      listRepos: async () => [],
      getRepo: async () => undefined,
      readFile: async () => undefined,
      listInstallations: async (token) => {
        calls.push(token);
        if (installations instanceof CodeHostError) throw installations;
        return installations;
      },
    };
    return { host, calls };
  }

  it('asks for them with the user, once per ttlMs, and spends three calls of the budget on a caller', async () => {
    const { host, calls } = hostWithInstallations([INSTALLATION]);
    const view = new CodeHostView(host, { ttlMs: 60_000, tokenBudget: { limit: 3, windowMs: 60_000 } });
    expect((await view.caller('good')).installations).toEqual([INSTALLATION]);
    expect((await view.caller('good')).installations).toEqual([INSTALLATION]);
    expect(calls).toEqual(['good']);
    expect(view.cachedCaller('good')?.installations).toEqual([INSTALLATION]);
    const strict = new CodeHostView(hostWithInstallations([]).host, { ttlMs: 60_000, tokenBudget: { limit: 2, windowMs: 60_000 } });
    await expect(strict.caller('good')).rejects.toBeInstanceOf(RateLimited);
  });

  it('leaves them out when the code host refuses to list them to the token (403, as GitHub does for a PAT), or has none', async () => {
    const refused = hostWithInstallations(new CodeHostError('forbidden', 'GitHub GET /user/installations: 403', { status: 403 }));
    const caller = await new CodeHostView(refused.host, { ttlMs: 60_000 }).caller('good');
    expect(caller.user).toEqual(ALICE);
    expect('installations' in caller).toBe(false);
    const { listInstallations: _none, ...withoutInstallations } = hostWithInstallations([INSTALLATION]).host;
    expect('installations' in (await new CodeHostView(withoutInstallations, { ttlMs: 60_000 }).caller('good'))).toBe(false);
    const down = hostWithInstallations(new CodeHostError('unavailable', 'GitHub GET /user/installations: 502', { status: 502 }));
    // Any other failure fails the look-up, as a failure of the user or organisations would.
    await expect(new CodeHostView(down.host, { ttlMs: 60_000 }).caller('good')).rejects.toBeInstanceOf(CodeHostUnavailable);
  });
});
