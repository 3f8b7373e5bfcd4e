import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservePeerUrl, startTestPeer, type TestPeer } from '../start-peer.ts';

let a: TestPeer;
let b: TestPeer;

beforeAll(async () => {
  const [urlA, urlB] = [await reservePeerUrl(), await reservePeerUrl()];
  const allow = `${urlA.selfUrl},${urlB.selfUrl}`;
  a = await startTestPeer('peer_reg_a', { PEER_ALLOW_LIST: allow }, urlA);
  b = await startTestPeer('peer_reg_b', { PEER_ALLOW_LIST: allow }, urlB);
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

const keyOf = (selfUrl: string) => `*.*.*.${selfUrl.replace(/DirectoryPlace$/, '')}DirectoryPlace`;

describe('two peers registering with each other', () => {
  it('terminates, and each sees the other up', async () => {
    const started = Date.now();
    await a.registrar.registerWith(b.selfUrl);
    expect(Date.now() - started).toBeLessThan(3_000);
    const bOnA = await a.store.getPeer(keyOf(b.selfUrl));
    const aOnB = await b.store.getPeer(keyOf(a.selfUrl));
    expect(bOnA).toMatchObject({ state: 'up', missed: 0, url: b.selfUrl });
    expect(aOnB).toMatchObject({ state: 'up', missed: 0, url: a.selfUrl });
    expect(bOnA?.registered_at).toBeInstanceOf(Date);
    // Registering again (both already up) does not loop either.
    await b.registrar.registerWith(a.selfUrl);
    expect((await a.store.listPeers()).map((p) => p.state)).toEqual(['up']);
  });
});
