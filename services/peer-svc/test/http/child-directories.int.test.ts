import { waitFor } from '@switchyard/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDirectoryEntry } from '../../src/directory/directory-entry.policy.ts';
import type { EntryRow } from '../../src/registry/directory-entry.table.ts';
import { digestGet, digestPost, form, reservePeerUrl, startTestPeer, type TestPeer } from '../start-peer.ts';

const studyKey = (selfUrl: string) => `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${selfUrl}`;
const peerKey = (selfUrl: string) => `*.*.*.${selfUrl}`;
const placeUrl = (selfUrl: string, place: string) => selfUrl.replace('DirectoryPlace', place);
const byKey = (rows: EntryRow[]) => new Map(rows.map((row) => [row.key, row]));
/** Heartbeats are driven by hand here (`beatOnce`): the timer never fires during a test. */
const QUIET = { HEARTBEAT_INTERVAL_MS: '3600000' };

describe('child directories: a child’s places are proxied by its parent and reach the parent’s peers', () => {
  let parent: TestPeer;
  let peer: TestPeer;
  let child: TestPeer | undefined;
  let reservedChild: { port: number; selfUrl: string };
  let childInput: string;
  let childTransform: string;
  let proxyInput: string;

  const startChild = async () =>
    startTestPeer(
      'child_c',
      {
        ...QUIET,
        PEER_ALLOW_LIST: parent.selfUrl,
        PEER_PARENT: parent.selfUrl,
        DIRECTORY_PLACES: `${childInput}|10|100|pick up;${childTransform}|20|90`,
      },
      reservedChild,
    );

  beforeAll(async () => {
    const [rParent, rPeer] = [await reservePeerUrl(), await reservePeerUrl()];
    reservedChild = await reservePeerUrl();
    childInput = `INITIAL.FILE_PICK_UP.INPUT.${placeUrl(reservedChild.selfUrl, 'FilePickUpPlace')}`;
    childTransform = `UNKNOWN.TO_UPPER.TRANSFORM.${placeUrl(reservedChild.selfUrl, 'ToUpperPlace')}`;
    proxyInput = `INITIAL.FILE_PICK_UP.INPUT.${rParent.selfUrl}`;
    peer = await startTestPeer('child_peer', { ...QUIET, PEER_ALLOW_LIST: rParent.selfUrl }, rPeer);
    parent = await startTestPeer('child_parent', { ...QUIET, PEER_ALLOW_LIST: [rPeer.selfUrl, reservedChild.selfUrl].join(',') }, rParent);
    await parent.registrar.registerWith(peer.selfUrl);
  });
  afterAll(async () => {
    await child?.stop();
    await peer?.stop();
    await parent?.stop();
  });

  it('a child registering with its parent is transferred and its INPUT place advertised as a proxy of the parent, at the parent and at its peer', async () => {
    child = await startChild();
    const atParent = await waitFor(async () => {
      const rows = byKey(await parent.entries.listEntries());
      return rows.has(proxyInput) && rows;
    });
    // The proxy: the child's data type, service name and type at the parent's directory place, the child's cost with the
    // remote overhead, its source the child.
    expect(atParent.get(proxyInput)).toMatchObject({
      source: peerKey(child.selfUrl),
      cost: 1010,
      quality: 100,
      expense: 101_000,
      description: 'pick up',
    });
    // The child's own keys are not in the parent's directory; its TRANSFORM place is not transferred (data ids); its
    // directory place's proxy would be the parent's own key, which stays local.
    expect(atParent.has(childInput)).toBe(false);
    expect([...atParent.keys()].some((key) => key.startsWith('UNKNOWN.TO_UPPER.'))).toBe(false);
    expect(atParent.get(studyKey(parent.selfUrl))?.source).toBe('local');
    // Recorded up once the transfer is applied (the proxies are written just before).
    const recorded = await waitFor(async () => {
      const row = await parent.store.getPeer(peerKey(reservedChild.selfUrl));
      return row?.state === 'up' && row;
    });
    expect(recorded).toMatchObject({ role: 'child' });
    expect(recorded.registered_at).not.toBeNull();
    // The child records its parent up once the parent answered its AddChildDirectory (after the transfer).
    const running = child;
    expect(
      await waitFor(
        async () =>
          (await running.store.getPeer(peerKey(parent.selfUrl)))?.state === 'up' && (await running.store.getPeer(peerKey(parent.selfUrl))),
      ),
    ).toMatchObject({ role: 'parent' });

    // The parent pushed it to its peer (RegisterPlace): there it is an entry of the parent, overhead added once more.
    await parent.advertiser.idle();
    const atPeer = byKey(await peer.entries.listEntries());
    expect(atPeer.get(proxyInput)).toMatchObject({ source: peerKey(parent.selfUrl), cost: 2010, expense: 201_000 });
    expect([...atPeer.keys()].some((key) => key.includes(`//127.0.0.1:${reservedChild.port}/`))).toBe(false);
  });

  it('the parent heartbeats its child, and a peer registering later gets the proxies in the parent’s directory', async () => {
    await parent.heartbeats.beatOnce();
    expect(await parent.store.getPeer(peerKey(reservedChild.selfUrl))).toMatchObject({ role: 'child', state: 'up', missed: 0 });
    const xml = await digestPost(
      `${parent.url}/emissary/RegisterPeer.action`,
      form({ directoryName: studyKey(peer.selfUrl), targetDir: parent.selfUrl }),
    );
    expect(xml.status).toBe(200);
    expect(xml.body).toContain(`<key>${proxyInput}</key>`);
  });

  it('a child that leaves takes its proxies with it, at the parent and at its peers; back, they come back', async () => {
    await child?.stop();
    child = undefined;
    const atParent = byKey(await parent.entries.listEntries());
    expect(atParent.has(proxyInput)).toBe(false);
    // Not a configured directory of the parent: forgotten with its record.
    expect(await parent.store.getPeer(peerKey(reservedChild.selfUrl))).toBeUndefined();
    await parent.advertiser.idle();
    expect(byKey(await peer.entries.listEntries()).has(proxyInput)).toBe(false);

    child = await startChild();
    await waitFor(async () => byKey(await parent.entries.listEntries()).has(proxyInput));
    await parent.advertiser.idle();
    expect(byKey(await peer.entries.listEntries()).get(proxyInput)).toMatchObject({ source: peerKey(parent.selfUrl), cost: 2010 });
  });

  it('a directory has one role: a peer cannot become a child (409), a child cannot register as a peer (403)', async () => {
    const asChild = await digestPost(
      `${parent.url}/emissary/AddChildDirectory.action`,
      form({ directoryName: studyKey(peer.selfUrl), targetDir: parent.selfUrl }),
    );
    expect(asChild.status).toBe(409);
    expect(asChild.body).toContain('Already a peer here');
    const asPeer = await digestPost(
      `${parent.url}/emissary/RegisterPeer.action`,
      form({ directoryName: studyKey(reservedChild.selfUrl), targetDir: parent.selfUrl }),
    );
    expect(asPeer.status).toBe(403);
    expect(asPeer.body).toContain('known here as a child directory');
  });

  it('TransferDirectory answers the directory as RegisterPeer does, registering nothing', async () => {
    const peersBefore = await peer.store.listPeers();
    const viaGet = await digestGet(`${peer.url}/emissary/TransferDirectory.action?targetDir=${encodeURIComponent(peer.selfUrl)}`);
    expect(viaGet.status).toBe(200);
    expect(viaGet.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(viaGet.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\r\n<directory location="EMISSARY_DIRECTORY_SERVICES/);
    const viaPost = await digestPost(
      `${peer.url}/emissary/TransferDirectory.action`,
      form({ targetDir: peer.selfUrl, directoryName: studyKey(parent.selfUrl) }),
    );
    expect(viaPost.body).toBe(viaGet.body);
    expect(await peer.store.listPeers()).toEqual(peersBefore);
    const elsewhere = await digestGet(
      `${peer.url}/emissary/TransferDirectory.action?targetDir=${encodeURIComponent('http://127.0.0.1:9/DirectoryPlace')}`,
    );
    expect(elsewhere).toMatchObject({ status: 404, body: 'Nothing found for http://127.0.0.1:9/DirectoryPlace' });
  });

  it('RegisterPlace and DeregisterPlace take places only from an allow-listed peer that is up, all on its host', async () => {
    const register = (fields: Record<string, string>) =>
      digestPost(`${peer.url}/emissary/RegisterPlace.action`, form({ targetDir: peer.selfUrl, ...fields }));
    const place = (host: string, name: string) => `INITIAL.${name}.INPUT.${placeUrl(host, `${name}Place`)}`;
    const fromParent = place(parent.selfUrl, 'EXTRA');
    expect(
      await register({ dirAddKey0: fromParent, dirAddDesc0: 'extra', dirAddCost0: '5', dirAddQual0: '90', dirAddPropFlag: 'false' }),
    ).toMatchObject({
      status: 200,
      body: 'Directory.addPlace succeeded',
    });
    expect(byKey(await peer.entries.listEntries()).get(fromParent)).toMatchObject({
      source: peerKey(parent.selfUrl),
      cost: 1005,
      description: 'extra',
    });

    // Not a peer here (the child's host), two hosts in one request, bad cost, another directory.
    const fromChild = place(reservedChild.selfUrl, 'SNEAKY');
    const notPeer = await register({ dirAddKey0: fromChild, dirAddCost0: '1', dirAddQual0: '100' });
    expect(notPeer.status).toBe(403);
    expect(notPeer.body).toMatch(/^Directory.addPlace failed: (peer not allowed|not a peer up here)/);
    const twoHosts = await register({
      dirAddKey0: fromParent,
      dirAddCost0: '1',
      dirAddQual0: '1',
      dirAddKey1: fromChild,
      dirAddCost1: '1',
      dirAddQual1: '1',
    });
    expect(twoHosts).toMatchObject({ status: 403, body: 'Directory.addPlace failed: the places are not all on one host' });
    expect((await register({ dirAddKey0: fromParent, dirAddCost0: '-1', dirAddQual0: '1' })).status).toBe(400);
    const elsewhere = await digestPost(
      `${peer.url}/emissary/RegisterPlace.action`,
      form({ targetDir: 'http://127.0.0.1:9/DirectoryPlace', dirAddKey0: fromParent }),
    );
    expect(elsewhere.status).toBe(404);
    expect(byKey(await peer.entries.listEntries()).has(fromChild)).toBe(false);

    // DeregisterPlace removes those places of the sender's host, also a copy learned through a third peer; a local
    // entry never.
    const viaThird = place(parent.selfUrl, 'RELAYED');
    await peer.entries.upsertFromSource('*.*.*.http://10.9.9.9:8001/DirectoryPlace', [
      parseDirectoryEntry({ key: viaThird, cost: 2000, quality: 90 }),
    ]);
    const deregister = await digestPost(
      `${peer.url}/emissary/DeregisterPlace.action`,
      form({
        targetDir: peer.selfUrl,
        dirAddKey0: fromParent,
        dirAddKey1: place(parent.selfUrl, 'NEVER'),
        dirAddKey2: viaThird,
        dirAddPropFlag: 'false',
      }),
    );
    expect(deregister).toMatchObject({
      status: 200,
      body: `Successfully removed 2 place(s) with keys: [${fromParent}, ${place(parent.selfUrl, 'NEVER')}, ${viaThird}]`,
    });
    const left = byKey(await peer.entries.listEntries());
    expect(left.has(fromParent) || left.has(viaThird)).toBe(false);
    expect((await digestPost(`${peer.url}/emissary/DeregisterPlace.action`, form({ targetDir: peer.selfUrl }))).status).toBe(400);
  });
});
