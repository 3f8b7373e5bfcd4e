import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservePeerUrl, startTestPeer, type TestPeer } from '../start-peer.ts';

let a: TestPeer;
let b: TestPeer | undefined;
let urlB: { port: number; selfUrl: string };
let allow = '';

const keyOf = (selfUrl: string) => `*.*.*.${selfUrl.replace(/DirectoryPlace$/, '')}DirectoryPlace`;

beforeAll(async () => {
  const urlA = await reservePeerUrl();
  urlB = await reservePeerUrl();
  allow = `${urlA.selfUrl},${urlB.selfUrl}`;
  // Heartbeats are driven by the test (beatOnce); the interval is long enough not to interfere.
  const env = { PEER_ALLOW_LIST: allow, HEARTBEAT_INTERVAL_MS: '3600000', HEARTBEAT_UNHEALTHY_AFTER: '2', HEARTBEAT_FAILED_AFTER: '3' };
  a = await startTestPeer('peer_hb_a', { ...env, PEER_RENDEZVOUS: urlB.selfUrl }, urlA);
  b = await startTestPeer('peer_hb_b', env, urlB);
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
});

describe('heartbeat manager', () => {
  it('sees a stopped peer unhealthy then failed, and re-registers it when it answers again', async () => {
    await a.registrar.registerWith(urlB.selfUrl);
    const keyB = keyOf(urlB.selfUrl);
    await a.heartbeats.beatOnce();
    expect(await a.store.getPeer(keyB)).toMatchObject({ state: 'up', missed: 0 });
    const studyB = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${urlB.selfUrl}`;
    const holdsB = async () => (await a.entries.listEntries()).some((row) => row.key === studyB && row.source === keyB);
    expect(await holdsB()).toBe(true);

    // B forgets A first, so its stop tells no one it leaves: to A, B just stops answering (as after a crash).
    await b?.store.deletePeer(keyOf(a.selfUrl));
    await b?.stop();
    b = undefined;
    await a.heartbeats.beatOnce();
    expect(await a.store.getPeer(keyB)).toMatchObject({ state: 'up', missed: 1 });
    await a.heartbeats.beatOnce();
    expect(await a.store.getPeer(keyB)).toMatchObject({ state: 'unhealthy', missed: 2 });
    expect(await holdsB()).toBe(true);
    await a.heartbeats.beatOnce();
    // Configured (PEER_RENDEZVOUS) peers are kept when they fail, and still heartbeated.
    expect(await a.store.getPeer(keyB)).toMatchObject({ state: 'failed', missed: 3 });
    // Failed: B's entries are gone (they were kept while it was only unhealthy).
    expect(await holdsB()).toBe(false);

    b = await startTestPeer('peer_hb_b2', { PEER_ALLOW_LIST: allow, HEARTBEAT_INTERVAL_MS: '3600000' }, urlB);
    // B comes back with its peer table (a fresh database here): it knows A, so it answers A's heartbeats.
    await b.store.savePeer({ key: keyOf(a.selfUrl), url: a.selfUrl, origin: new URL(a.selfUrl).origin, state: 'failed', missed: 3 });
    await a.heartbeats.beatOnce();
    expect(await a.store.getPeer(keyB)).toMatchObject({ state: 'up', missed: 0 });
    // The re-registration's zone transfer brought B's entries back.
    expect(await holdsB()).toBe(true);
    // The re-registration reached B: it knows A again, up.
    expect(await b.store.getPeer(keyOf(a.selfUrl))).toMatchObject({ state: 'up' });
  });
});
