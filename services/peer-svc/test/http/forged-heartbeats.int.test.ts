import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeDirectoryServer, startFakeDirectoryServer } from '../fake-directory-server.ts';
import { digestPost, form, rawPost, reservePeerUrl, startTestPeer, type TestPeer } from '../start-peer.ts';

const PREFIX = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.';
let fake: FakeDirectoryServer;
let peer: TestPeer;
/** Allow-listed and known (registered). */
let knownUrl = '';
/** Allow-listed, never registered. */
let unknownUrl = '';

beforeAll(async () => {
  fake = await startFakeDirectoryServer();
  knownUrl = fake.directoryUrl('/');
  unknownUrl = fake.directoryUrl('/other/');
  const self = await reservePeerUrl();
  // Our own directory place is on the list too, as in the standalone launcher and the fuzz stack.
  peer = await startTestPeer('peer_forged', { PEER_ALLOW_LIST: `${knownUrl},${unknownUrl},${self.selfUrl}` }, self);
  const registered = await digestPost(
    `${peer.url}/emissary/RegisterPeer.action`,
    form({ directoryName: `${PREFIX}${knownUrl}`, targetDir: peer.selfUrl }),
  );
  expect(registered.status).toBe(200);
});

afterAll(async () => {
  await peer?.stop();
  await fake?.close();
});

const heartbeat = (hbf: string) => rawPost(`${peer.url}/emissary/Heartbeat.action`, form({ hbf, hbt: peer.selfUrl }));

describe('heartbeats from senders that are not known', () => {
  it('a flood of forged heartbeats leaves the peer table unchanged and causes no outbound request to the forged places', async () => {
    const before = await peer.store.listPeers();
    expect(before.map((row) => row.url)).toEqual([knownUrl]);
    // 100 made-up directories on the allow-listed host and port, 100 heartbeats from an allow-listed directory we do not know.
    const senders = [
      ...Array.from({ length: 100 }, (_, i) => `${PREFIX}${fake.directoryUrl(`/forged${i}/`)}`),
      ...Array.from({ length: 100 }, () => `${PREFIX}${unknownUrl}`),
    ];
    for (let i = 0; i < senders.length; i += 20) {
      const answers = await Promise.all(senders.slice(i, i + 20).map((hbf) => heartbeat(hbf)));
      for (const [j, answer] of answers.entries()) {
        expect(answer).toMatchObject({ status: 403, body: `Heartbeat failed, directory not found for ${senders[i + j]}` });
      }
    }
    expect(await peer.store.listPeers()).toEqual(before);

    fake.requests.length = 0;
    await peer.heartbeats.beatOnce();
    await peer.heartbeats.beatOnce();
    expect(fake.requests).toEqual(['/emissary/Heartbeat.action', '/emissary/Heartbeat.action']);
  });

  it('a heartbeat from the known peer is answered and recorded', async () => {
    const res = await heartbeat(`${PREFIX}${knownUrl}$5050`);
    expect(res.status).toBe(200);
    expect((await peer.store.listPeers())[0]?.last_heartbeat_at).toBeInstanceOf(Date);
  });

  it('a heartbeat naming our own directory is answered, and records nothing', async () => {
    const before = await peer.store.listPeers();
    expect((await heartbeat(`${PREFIX}${peer.selfUrl}`)).status).toBe(200);
    expect(await peer.store.listPeers()).toEqual(before);
  });

  it('RegisterPeer naming our own host and port over https is refused 403, never contacted', async () => {
    const directoryName = `${PREFIX}${peer.selfUrl.replace('http://', 'https://')}`;
    const res = await digestPost(`${peer.url}/emissary/RegisterPeer.action`, form({ directoryName, targetDir: peer.selfUrl }));
    expect(res).toMatchObject({ status: 403, body: `Registration failed for peer: ${directoryName}` });
    expect((await peer.store.listPeers()).map((row) => row.url)).toEqual([knownUrl]);
  });
});
