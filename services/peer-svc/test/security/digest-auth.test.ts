import type { AddressInfo } from 'node:net';
import express from 'express';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DigestAlgorithm, digestResponse, parseAuthHeader } from '../../src/security/digest.policy.ts';
import { createDigestAuthenticator } from '../../src/security/digest-auth.middleware.ts';

const realm = 'EmissaryRealm';
let clock = Date.now();
const auth = createDigestAuthenticator({
  realm,
  users: new Map([['emissary', 'emissary123']]),
  algorithms: ['SHA-256', 'MD5'],
  nonceTtlMs: 60_000,
  now: () => clock,
});
const app = express();
app.post('/emissary/RegisterPeer.action', auth.middleware, (_req, res) => {
  res.type('text/plain').send(`hello ${res.locals.digestUser}`);
});
let base = '';
let server: ReturnType<typeof app.listen>;

beforeAll(async () => {
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const path = '/emissary/RegisterPeer.action';

async function post(headers: Record<string, string> = {}, target = path) {
  const res = await request(`${base}${target}`, { method: 'POST', headers: { 'x-requested-by': 't', ...headers }, body: 'a=b' });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

async function challenge(algorithm: DigestAlgorithm) {
  const res = await post();
  const items = parseAuthHeader(res.headers['www-authenticate']) ?? [];
  const item = items.find((i) => i.params.get('algorithm') === algorithm);
  if (item === undefined) throw new Error(`no ${algorithm} challenge`);
  return { nonce: item.params.get('nonce') ?? '', opaque: item.params.get('opaque') ?? '', params: item.params };
}

function authorization(
  algorithm: DigestAlgorithm,
  c: { nonce: string; opaque: string },
  over: { password?: string; nc?: string; uri?: string; username?: string; realm?: string } = {},
) {
  const uri = over.uri ?? path;
  const nc = over.nc ?? '00000001';
  const username = over.username ?? 'emissary';
  const r = over.realm ?? realm;
  const cnonce = 'abcdef0123456789';
  const response = digestResponse({
    algorithm,
    username,
    realm: r,
    password: over.password ?? 'emissary123',
    method: 'POST',
    uri,
    nonce: c.nonce,
    nc,
    cnonce,
  });
  return `Digest username="${username}", realm="${r}", nonce="${c.nonce}", uri="${uri}", algorithm=${algorithm}, qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}", opaque="${c.opaque}"`;
}

describe('digest server', () => {
  it('challenges with SHA-256 then MD5, text/plain, nosniff', async () => {
    const res = await post();
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const lines = res.headers['www-authenticate'];
    expect(Array.isArray(lines) && lines.length).toBe(2);
    const [sha, md5] = parseAuthHeader(lines) ?? [];
    expect(sha?.params.get('algorithm')).toBe('SHA-256');
    expect(md5?.params.get('algorithm')).toBe('MD5');
    expect(sha?.params.get('realm')).toBe(realm);
    expect(sha?.params.get('qop')).toBe('auth');
    expect(sha?.params.get('opaque')).toBeTruthy();
    expect(sha?.params.has('stale')).toBe(false);
  });

  it('accepts a correct SHA-256 answer and a correct MD5 answer', async () => {
    for (const algorithm of ['SHA-256', 'MD5'] as const) {
      const res = await post({ authorization: authorization(algorithm, await challenge(algorithm)) });
      expect(res).toMatchObject({ status: 200, body: 'hello emissary' });
    }
  });

  it('refuses a wrong password and an unknown user', async () => {
    expect((await post({ authorization: authorization('SHA-256', await challenge('SHA-256'), { password: 'nope' }) })).status).toBe(401);
    expect((await post({ authorization: authorization('MD5', await challenge('MD5'), { username: 'ghost' }) })).status).toBe(401);
  });

  it('refuses a forged nonce without stale, and an expired one with stale=true', async () => {
    const c = await challenge('SHA-256');
    const forged = { ...c, nonce: `${c.nonce.slice(0, -2)}AA` };
    const res = await post({ authorization: authorization('SHA-256', forged) });
    expect(res.status).toBe(401);
    expect(String(res.headers['www-authenticate'])).not.toMatch(/stale/);
    const invented = { ...c, nonce: `${Date.now().toString(36)}.x.y` };
    expect((await post({ authorization: authorization('SHA-256', invented) })).status).toBe(401);

    const old = await challenge('SHA-256');
    clock += 61_000;
    try {
      const stale = await post({ authorization: authorization('SHA-256', old) });
      expect(stale.status).toBe(401);
      const items = parseAuthHeader(stale.headers['www-authenticate']) ?? [];
      expect(items.every((i) => i.params.get('stale') === 'true')).toBe(true);
      // a stale nonce with a wrong password is not told it is merely stale
      const wrong = await post({ authorization: authorization('SHA-256', old, { password: 'nope' }) });
      expect(String(wrong.headers['www-authenticate'])).not.toMatch(/stale/);
    } finally {
      clock -= 61_000;
    }
  });

  it('refuses a replayed nc and accepts the next one', async () => {
    const c = await challenge('SHA-256');
    const header = authorization('SHA-256', c);
    expect((await post({ authorization: header })).status).toBe(200);
    expect((await post({ authorization: header })).status).toBe(401);
    expect((await post({ authorization: authorization('SHA-256', c, { nc: '00000001' }) })).status).toBe(401);
    expect((await post({ authorization: authorization('SHA-256', c, { nc: '00000002' }) })).status).toBe(200);
  });

  it('refuses a uri other than the request target, another realm, a changed opaque, and non-Digest schemes', async () => {
    const c = await challenge('SHA-256');
    expect((await post({ authorization: authorization('SHA-256', c, { uri: '/emissary/Heartbeat.action' }) })).status).toBe(401);
    expect((await post({ authorization: authorization('SHA-256', c, { uri: `${path}?x=1` }) }, path)).status).toBe(401);
    expect((await post({ authorization: authorization('SHA-256', c, { realm: 'Other' }) })).status).toBe(401);
    expect((await post({ authorization: authorization('SHA-256', { ...c, opaque: 'x' }) })).status).toBe(401);
    expect((await post({ authorization: 'Basic ZW1pc3Nhcnk6ZW1pc3NhcnkxMjM=' })).status).toBe(401);
    expect((await post({ authorization: 'Digest username="emissary", realm="' })).status).toBe(401);
  });

  it('reports reasons to the caller of authenticate()', () => {
    const [line] = auth.challenge();
    const params = parseAuthHeader(line)?.[0]?.params;
    const c = { nonce: params?.get('nonce') ?? '', opaque: params?.get('opaque') ?? '' };
    const req = (authorizationHeader?: string) => ({ method: 'POST', url: path, headers: { authorization: authorizationHeader } });
    expect(auth.authenticate(req())).toMatchObject({ ok: false, reason: 'missing' });
    expect(auth.authenticate(req(authorization('SHA-256', c, { password: 'x' })))).toMatchObject({ ok: false, reason: 'credentials' });
    expect(auth.authenticate(req(authorization('SHA-256', c, { uri: '/x' })))).toMatchObject({ ok: false, reason: 'uri' });
    expect(auth.authenticate(req(authorization('SHA-256', c)))).toEqual({ ok: true, user: 'emissary' });
    expect(auth.authenticate(req(authorization('SHA-256', c)))).toMatchObject({ ok: false, reason: 'replay' });
  });

  it('bounds the replay map without re-opening replays of evicted nonces', () => {
    let t = Date.now();
    const small = createDigestAuthenticator({
      realm,
      users: (u) => (u === 'emissary' ? 'emissary123' : undefined),
      maxTrackedNonces: 2,
      now: () => t,
    });
    const fresh = () => {
      t += 10; // nonces issued in the same millisecond as an evicted one count as stale too (conservative)
      const params = parseAuthHeader(small.challenge()[0])?.[0]?.params;
      return { nonce: params?.get('nonce') ?? '', opaque: params?.get('opaque') ?? '' };
    };
    const req = (h: string) => ({ method: 'POST', url: path, headers: { authorization: h } });
    const first = authorization('SHA-256', fresh());
    expect(small.authenticate(req(first)).ok).toBe(true);
    for (let i = 0; i < 3; i++) expect(small.authenticate(req(authorization('SHA-256', fresh()))).ok).toBe(true);
    expect(small.authenticate(req(first))).toMatchObject({ ok: false, reason: 'stale' });
  });
});
