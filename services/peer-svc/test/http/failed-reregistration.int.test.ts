import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDirectoryServer, startFakeDirectoryServer } from '../fake-directory-server.ts';
import { digestPost, form, startTestPeer, type TestPeer } from '../start-peer.ts';

const PREFIX = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.';
let fake: FakeDirectoryServer;
let peer: TestPeer;

beforeAll(async () => {
  fake = await startFakeDirectoryServer();
  peer = await startTestPeer('failed_reregistration', {
    PEER_ALLOW_LIST: [fake.directoryUrl('/p/'), fake.directoryUrl('/child/')].join(','),
    HEARTBEAT_INTERVAL_MS: '3600000',
    HEARTBEAT_UNHEALTHY_AFTER: '1',
    HEARTBEAT_FAILED_AFTER: '2',
  });
});

afterAll(async () => {
  await peer?.stop();
  await fake?.close();
});

/**
 * A directory that answered before is never put back to `not-contacted` by a failed registration or transfer: that
 * state is never failed by heartbeats, so it would keep its entries (or a child its proxies) for ever.
 */
describe('a registration or transfer that fails with a directory that answered before', () => {
  it('a peer: its registration failing leaves it unhealthy; its heartbeats fail it and its entries go', async () => {
    const url = fake.directoryUrl('/p/');
    const key = `*.*.*.${url}`;
    await peer.registrar.registerWith(url);
    const learned = async () => (await peer.entries.listEntries()).filter((row) => row.source === key).length;
    expect(await learned()).toBeGreaterThan(0);
    fake.failing.add('/p/');
    await peer.heartbeats.beatOnce();
    expect(await peer.store.getPeer(key)).toMatchObject({ state: 'unhealthy', missed: 1 });
    // It registers with us; our call-back heartbeat fails: 502, and it stays as it was.
    const res = await digestPost(
      `${peer.url}/emissary/RegisterPeer.action`,
      form({ directoryName: `${PREFIX}${url}`, targetDir: peer.selfUrl }),
    );
    expect(res.status).toBe(502);
    expect(await peer.store.getPeer(key)).toMatchObject({ state: 'unhealthy', missed: 1 });
    await peer.heartbeats.beatOnce();
    expect(await learned()).toBe(0);
    expect(await peer.store.getPeer(key)).toBeUndefined();
  });

  it('a child: a second AddChildDirectory whose transfer fails leaves it up; its heartbeats fail it and forget it', async () => {
    const url = fake.directoryUrl('/child/');
    const key = `*.*.*.${url}`;
    const add = () =>
      digestPost(`${peer.url}/emissary/AddChildDirectory.action`, form({ directoryName: `${PREFIX}${url}`, targetDir: peer.selfUrl }));
    expect((await add()).status).toBe(200);
    expect(await peer.store.getPeer(key)).toMatchObject({ role: 'child', state: 'up' });
    fake.failing.add('/child/');
    expect((await add()).status).toBe(200);
    expect(await peer.store.getPeer(key)).toMatchObject({ role: 'child', state: 'up' });
    await peer.heartbeats.beatOnce();
    await peer.heartbeats.beatOnce();
    expect(await peer.store.getPeer(key)).toBeUndefined();
  });
});
