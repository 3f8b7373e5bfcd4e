import { request, type TestResponse } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, type ConfigHarness, startConfigHarness } from './harness.ts';

/** The demo seed's bot: a valid token no other test of this file presents before the one that needs it unknown. */
const BOT = 'demo-token-bot';

const JSON_UTF8 = 'application/json; charset=utf-8';

/** Headers of a request from `address` (through a proxy that sets `X-Forwarded-For`), with `authorization` when given. */
function from(address: string, authorization?: string): Record<string, string> {
  return { 'x-forwarded-for': address, ...(authorization === undefined ? {} : { authorization }) };
}

/** Checks a 429 of the failed-authentication limit: `Retry-After` within the window, the API's envelope. */
function expectTooManyFailures(res: TestResponse, windowSeconds = 60) {
  expect(res.status, res.text).toBe(429);
  expect(res.headers.get('content-type')).toBe(JSON_UTF8);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds, `Retry-After ${retryAfter}`).toBe(true);
  expect(res.body).toEqual({
    errors: [{ status: 429, title: 'Too Many Requests', detail: expect.stringMatching(/failed authentications/) }],
  });
}

/**
 * Twenty failed authentications from `address`, each answered as it always was: without a header 403, with another
 * scheme 401, and tokens the code host rejects (each a new one) 401.
 */
async function failTwentyTimes(h: ConfigHarness, address: string, label: string) {
  for (let i = 0; i < 20; i++) {
    const authorization = i % 4 === 0 ? undefined : i % 4 === 1 ? 'Basic YWxpY2U6cHc=' : `Personal ${label}-bad-${i}`;
    const res = await request(h.url, 'GET', '/accounts', { headers: from(address, authorization) });
    expect(res.status, `failure ${i + 1}: ${res.text}`).toBe(authorization === undefined ? 403 : 401);
  }
}

const callsWith = (h: ConfigHarness, token: string) => h.codeHostCalls.filter((call) => call.token === token).length;

describe('config-svc against brute force, behind a proxy it trusts (TRUST_PROXY=1)', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    h = await startConfigHarness('config_auth_limits', { env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => h?.close());

  it('answers the second presentation of a rejected token from memory: the same 401, no code-host call', async () => {
    const token = 'rejected-twice';
    const first = await request(h.url, 'GET', '/accounts', { headers: from('198.51.100.1', `Personal ${token}`) });
    expect(first.status).toBe(401);
    expect(first.body).toEqual({
      errors: [{ status: 401, title: 'Unauthorized', detail: 'Bad credentials: the code host rejected the access token' }],
    });
    const callsAfterFirst = callsWith(h, token);
    expect(callsAfterFirst).toBeGreaterThan(0);
    const second = await request(h.url, 'GET', '/repos?account-id=2001&account-type=org&installation-state=active', {
      headers: from('198.51.100.2', `Bearer ${token}`),
    });
    expect(second.status).toBe(401);
    expect(second.text).toBe(first.text);
    expect(callsWith(h, token)).toBe(callsAfterFirst);
  });

  it('answers the 21st failed authentication from one address 429 with Retry-After in the envelope, without calling the code host', async () => {
    const address = '198.51.100.21';
    await failTwentyTimes(h, address, 'limit');
    const calls = h.codeHostCalls.length;
    for (const authorization of [`Personal limit-bad-21`, undefined, 'Basic YWxpY2U6cHc=']) {
      expectTooManyFailures(await request(h.url, 'GET', '/accounts', { headers: from(address, authorization) }));
    }
    expect(h.codeHostCalls.length).toBe(calls);
    // Another address is not affected.
    const elsewhere = await request(h.url, 'GET', '/accounts', { headers: from('198.51.100.22', 'Personal limit-bad-22') });
    expect(elsewhere.status).toBe(401);
  });

  it('still serves a token that authenticated before from an address over the limit, but not a token it cannot vouch for', async () => {
    const address = '198.51.100.31';
    expect((await request(h.url, 'GET', '/accounts', { headers: from(address, `Personal ${ALICE}`) })).status).toBe(200);
    await failTwentyTimes(h, address, 'known');
    const calls = h.codeHostCalls.length;
    const alice = await request(h.url, 'GET', '/accounts', { headers: from(address, `Personal ${ALICE}`) });
    expect(alice.status, alice.text).toBe(200);
    // A valid token the service has not seen lately is not checked with the code host from this address: that would
    // tell a guesser which of its guesses are right.
    expectTooManyFailures(await request(h.url, 'GET', '/accounts', { headers: from(address, `Personal ${BOT}`) }));
    expect(h.codeHostCalls.length).toBe(calls);
    // From an address without failures the same token works.
    expect((await request(h.url, 'GET', '/accounts', { headers: from('198.51.100.32', `Personal ${BOT}`) })).status).toBe(200);
  });

  it('never counts successful authentications', async () => {
    const address = '198.51.100.41';
    for (let i = 0; i < 30; i++) {
      expect((await request(h.url, 'GET', '/accounts', { headers: from(address, `Personal ${BOB}`) })).status).toBe(200);
    }
    expect((await request(h.url, 'GET', '/accounts', { headers: from(address, 'Personal success-then-bad') })).status).toBe(401);
  });

  it('counts IPv6 clients by their /64 prefix', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await request(h.url, 'GET', '/accounts', { headers: from(`2001:db8:0:1::${(i + 1).toString(16)}`) });
      expect(res.status).toBe(403);
    }
    expectTooManyFailures(await request(h.url, 'GET', '/accounts', { headers: from('2001:db8:0:1:ffff::1') }));
    expect((await request(h.url, 'GET', '/accounts', { headers: from('2001:db8:0:2::1') })).status).toBe(403);
  });
});

describe('config-svc against brute force, without a trusted proxy (the default)', () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    h = await startConfigHarness('config_auth_direct');
  });
  afterAll(() => h?.close());

  it('ignores X-Forwarded-For: a client cannot escape the limit by naming other addresses', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await request(h.url, 'GET', '/accounts', { headers: from(`203.0.113.${i + 1}`, `Personal direct-bad-${i}`) });
      expect(res.status, res.text).toBe(401);
    }
    expectTooManyFailures(await request(h.url, 'GET', '/accounts', { headers: from('203.0.113.99', 'Personal direct-bad-21') }));
  });
});

describe("config-svc's budget of code-host calls per token", () => {
  let h: ConfigHarness;
  beforeAll(async () => {
    // Nothing cached, so every request asks the code host (three calls: the user, the organisations and the app
    // installations); six calls a minute.
    h = await startConfigHarness('config_token_budget', {
      env: { CODE_HOST_TOKEN_BUDGET: '6', CODE_HOST_TOKEN_BUDGET_WINDOW_MS: '60000', CODE_HOST_CACHE_TTL_MS: '0' },
    });
  });
  afterAll(() => h?.close());

  it('answers a token over its budget 429 with Retry-After, without the call, while another token still works', async () => {
    for (let i = 0; i < 2; i++)
      expect((await request(h.url, 'GET', '/accounts', { headers: { authorization: `Personal ${ALICE}` } })).status).toBe(200);
    const spent = callsWith(h, ALICE);
    expect(spent).toBe(6);
    const over = await request(h.url, 'GET', '/accounts', { headers: { authorization: `Personal ${ALICE}` } });
    expect(over.status, over.text).toBe(429);
    expect(over.headers.get('content-type')).toBe(JSON_UTF8);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(true);
    expect(over.body).toEqual({
      errors: [{ status: 429, title: 'Too Many Requests', detail: expect.stringMatching(/code host/) }],
    });
    expect(callsWith(h, ALICE)).toBe(spent);
    expect((await request(h.url, 'GET', '/accounts', { headers: { authorization: `Personal ${BOB}` } })).status).toBe(200);
  });
});
