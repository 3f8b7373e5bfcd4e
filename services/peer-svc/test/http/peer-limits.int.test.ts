import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDirectoryServer, startFakeDirectoryServer } from '../fake-directory-server.ts';
import { digestPost, form, startTestPeer, type TestPeer } from '../start-peer.ts';

const PREFIX = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.';
const bases = ['/p1/', '/p2/', '/p3/', '/bad/', '/conf/'];
let fake: FakeDirectoryServer;
let peer: TestPeer;

beforeAll(async () => {
  fake = await startFakeDirectoryServer();
  fake.failing.add('/bad/');
  fake.failing.add('/conf/');
  peer = await startTestPeer('peer_limits', {
    PEER_ALLOW_LIST: bases.map((base) => fake.directoryUrl(base)).join(','),
    // A configured peer that never answers: kept however long it fails.
    PEER_RENDEZVOUS: fake.directoryUrl('/conf/'),
    PEER_MAX: '4',
    PEER_EXPIRE_AFTER: '2',
    HEARTBEAT_INTERVAL_MS: '3600000',
  });
});

afterAll(async () => {
  await peer?.stop();
  await fake?.close();
});

const register = (base: string) =>
  digestPost(
    `${peer.url}/emissary/RegisterPeer.action`,
    form({ directoryName: `${PREFIX}${fake.directoryUrl(base)}`, targetDir: peer.selfUrl }),
  );
const urls = async () => (await peer.store.listPeers()).map((row) => row.url).sort();

describe('peer limits', () => {
  it('expires a peer that is neither configured nor registered after PEER_EXPIRE_AFTER missed rounds, keeps a configured one', async () => {
    const conf = fake.directoryUrl('/conf/');
    // The rendezvous registration at start fails (500): the configured peer is recorded not-contacted.
    await expect.poll(async () => (await peer.store.getPeer(`*.*.*.${conf}`))?.state, { timeout: 5_000 }).toBe('not-contacted');
    // A registration whose call-back heartbeat fails: 502, the peer recorded not-contacted, never registered.
    expect((await register('/bad/')).status).toBe(502);
    expect(await urls()).toEqual([fake.directoryUrl('/bad/'), conf]);
    await peer.heartbeats.beatOnce();
    expect(await urls()).toEqual([fake.directoryUrl('/bad/'), conf]);
    await peer.heartbeats.beatOnce();
    expect(await urls()).toEqual([conf]);
    for (let i = 0; i < 3; i += 1) await peer.heartbeats.beatOnce();
    const kept = await peer.store.getPeer(`*.*.*.${conf}`);
    expect(kept?.state).toBe('not-contacted');
    // Past the expiry bound (the start-up registration's failure may have reset the count once, hence not exactly 5).
    expect(kept?.missed).toBeGreaterThanOrEqual(4);
  });

  it('refuses a registration beyond PEER_MAX with 403 before contacting the peer; known peers still register', async () => {
    expect((await register('/p1/')).status).toBe(200);
    expect((await register('/p2/')).status).toBe(200);
    expect((await register('/bad/')).status).toBe(502); // the fourth peer: recorded, not-contacted
    expect(await urls()).toHaveLength(4);
    fake.requests.length = 0;
    const refused = await register('/p3/');
    expect(refused).toMatchObject({
      status: 403,
      body: `Registration failed for peer: *.*.*.${fake.directoryUrl('/p3/')}: peer limit of 4 reached`,
    });
    expect(fake.requests).toEqual([]);
    expect(await urls()).not.toContain(fake.directoryUrl('/p3/'));
    // A peer already known is not a new one.
    expect((await register('/p1/')).status).toBe(200);
  });

  it('runs at most HEARTBEAT_CONCURRENCY heartbeats at once', async () => {
    const limited = await startTestPeer('peer_concurrency', {
      PEER_ALLOW_LIST: ['/c1/', '/c2/', '/c3/', '/c4/', '/c5/', '/c6/'].map((base) => fake.directoryUrl(base)).join(','),
      HEARTBEAT_CONCURRENCY: '2',
      HEARTBEAT_INTERVAL_MS: '3600000',
    });
    try {
      for (let i = 1; i <= 6; i += 1) {
        const url = fake.directoryUrl(`/c${i}/`);
        fake.slow.add(`/c${i}/`);
        await limited.store.savePeer({ key: `*.*.*.${url}`, url, origin: new URL(url).origin, state: 'up', missed: 0, registered: true });
      }
      fake.requests.length = 0;
      fake.maxInFlight = 0;
      await limited.heartbeats.beatOnce();
      expect(fake.requests.filter((path) => /^\/c\d\/emissary\/Heartbeat\.action$/.test(path))).toHaveLength(6);
      expect(fake.maxInFlight).toBe(2);
      expect((await limited.store.listPeers()).every((row) => row.state === 'up')).toBe(true);
    } finally {
      await limited.stop();
    }
  });
});
