import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestResponse, parseAuthHeader } from '../../src/security/digest.policy.ts';
import { PeerAuthError } from '../../src/security/peer.client.ts';
import { digestPost, form, rawPost, reservePeerUrl, startTestPeer, TEST_REALM, TEST_USER, type TestPeer } from '../start-peer.ts';

let sha256Only: TestPeer;
let md5Only: TestPeer;
let both: TestPeer;

beforeAll(async () => {
  const [a, b, c] = [await reservePeerUrl(), await reservePeerUrl(), await reservePeerUrl()];
  const allow = [a, b, c].map((url) => url.selfUrl).join(',');
  sha256Only = await startTestPeer('peer_alg_sha', { PEER_ALLOW_LIST: allow }, a);
  md5Only = await startTestPeer('peer_alg_md5', { PEER_ALLOW_LIST: allow, DIGEST_ALGORITHMS: 'MD5' }, b);
  both = await startTestPeer('peer_alg_both', { PEER_ALLOW_LIST: allow, DIGEST_ALGORITHMS: 'SHA-256,MD5' }, c);
});

afterAll(async () => {
  await sha256Only?.stop();
  await md5Only?.stop();
  await both?.stop();
});

const enqueue = (peer: TestPeer) => `${peer.url}/WorkSpaceClientEnqueue.action`;
/** Passes authentication, then fails the endpoint's own check: 400 `No 'place' specified`. */
const authenticated = { status: 400, body: "No 'place' specified" };
const algorithmsOffered = async (peer: TestPeer) =>
  (parseAuthHeader((await rawPost(enqueue(peer), form({}))).headers['www-authenticate']) ?? []).map((item) => item.params.get('algorithm'));

describe('DIGEST_ALGORITHMS', () => {
  it('offers SHA-256 only by default, and refuses an MD5 answer', async () => {
    expect(await algorithmsOffered(sha256Only)).toEqual(['SHA-256']);
    expect(await digestPost(enqueue(sha256Only), form({}))).toMatchObject(authenticated);
    // An MD5 answer computed on the SHA-256 challenge's nonce.
    const first = await rawPost(enqueue(sha256Only), form({}));
    const params = parseAuthHeader(first.headers['www-authenticate'])?.[0]?.params;
    const nonce = params?.get('nonce') ?? '';
    const opaque = params?.get('opaque') ?? '';
    const uri = '/WorkSpaceClientEnqueue.action';
    const cnonce = randomBytes(8).toString('hex');
    const response = digestResponse({
      algorithm: 'MD5',
      ...TEST_USER,
      realm: TEST_REALM,
      method: 'POST',
      uri,
      nonce,
      nc: '00000001',
      cnonce,
    });
    const md5 = await rawPost(enqueue(sha256Only), form({}), {
      authorization: `Digest username="${TEST_USER.username}", realm="${TEST_REALM}", nonce="${nonce}", uri="${uri}", algorithm=MD5, qop=auth, nc=00000001, cnonce="${cnonce}", response="${response}", opaque="${opaque}"`,
    });
    expect(md5.status).toBe(401);
  });

  it('offers the configured algorithms in order, and accepts each', async () => {
    expect(await algorithmsOffered(md5Only)).toEqual(['MD5']);
    expect(await digestPost(enqueue(md5Only), form({}), TEST_USER, {}, 'MD5')).toMatchObject(authenticated);
    expect(await algorithmsOffered(both)).toEqual(['SHA-256', 'MD5']);
    expect(await digestPost(enqueue(both), form({}), TEST_USER, {}, 'MD5')).toMatchObject(authenticated);
    expect(await digestPost(enqueue(both), form({}), TEST_USER, {}, 'SHA-256')).toMatchObject(authenticated);
  });

  it('outbound: a peer offering only MD5 gets no answer unless MD5 is configured', async () => {
    await expect(sha256Only.registrar.registerWith(md5Only.selfUrl)).rejects.toThrow(PeerAuthError);
    await expect(both.registrar.registerWith(md5Only.selfUrl)).resolves.toBeUndefined();
  });
});
