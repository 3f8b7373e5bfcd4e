import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDirectoryEntry } from '../../src/directory/directory-entry.policy.ts';
import { directoryXml } from '../../src/directory/directory-xml.mapper.ts';
import { DEFAULT_TRANSFER_DATA_IDS } from '../../src/directory/zone-transfer.policy.ts';
import type { EntryRow } from '../../src/registry/directory-entry.table.ts';
import { createZoneTransfer } from '../../src/registry/zone-transfer.service.ts';
import { digestPost, form, reservePeerUrl, startTestPeer, type TestPeer } from '../start-peer.ts';

const studyKey = (selfUrl: string) => `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${selfUrl}`;
const peerKey = (selfUrl: string) => `*.*.*.${selfUrl}`;
const placeUrl = (selfUrl: string, place: string) => selfUrl.replace('DirectoryPlace', place);
const byKey = (rows: EntryRow[]) => new Map(rows.map((row) => [row.key, row]));

describe('zone transfer between two peers, and leaving', () => {
  let a: TestPeer;
  let b: TestPeer;
  let c: TestPeer | undefined;
  let cUrl: string;
  let bInput: string;
  let bTransform: string;

  beforeAll(async () => {
    const [ra, rb, rc] = [await reservePeerUrl(), await reservePeerUrl(), await reservePeerUrl()];
    cUrl = rc.selfUrl;
    bInput = `INITIAL.FILE_PICK_UP.INPUT.${placeUrl(rb.selfUrl, 'FilePickUpPlace')}`;
    bTransform = `UNKNOWN.TO_UPPER.TRANSFORM.${placeUrl(rb.selfUrl, 'ToUpperPlace')}`;
    a = await startTestPeer(
      'zone_a',
      {
        PEER_ALLOW_LIST: [rb.selfUrl, rc.selfUrl].join(','),
        DIRECTORY_PLACES: `INITIAL.A_PICK_UP.INPUT.${placeUrl(ra.selfUrl, 'APickUpPlace')}|5|90|a`,
      },
      ra,
    );
    b = await startTestPeer(
      'zone_b',
      { PEER_ALLOW_LIST: ra.selfUrl, DIRECTORY_PLACES: `${bInput}|10|100|pick up;${bTransform}|20|90` },
      rb,
    );
  });
  afterAll(async () => {
    await c?.stop();
    await b?.stop();
    await a?.stop();
  });

  it('registering takes the peer’s STUDY and INPUT entries at the remote expense, both ways', async () => {
    await a.registrar.registerWith(b.selfUrl);
    const atA = byKey(await a.entries.listEntries());
    expect(atA.get(studyKey(b.selfUrl))).toMatchObject({ source: peerKey(b.selfUrl), cost: 1050, quality: 50, expense: 105_050 });
    expect(atA.get(bInput)).toMatchObject({ source: peerKey(b.selfUrl), cost: 1010, expense: 101_000, description: 'pick up' });
    expect(atA.has(bTransform)).toBe(false);
    // B learned A's directory from the call-back's answer; its own entries came back in A's answer and stay local.
    const atB = byKey(await b.entries.listEntries());
    expect(atB.get(studyKey(a.selfUrl))).toMatchObject({ source: peerKey(a.selfUrl), expense: 105_050 });
    expect(atB.get(`INITIAL.A_PICK_UP.INPUT.${placeUrl(a.selfUrl, 'APickUpPlace')}`)).toMatchObject({ cost: 1005, expense: 100_510 });
    expect(atB.get(bInput)?.source).toBe('local');
  });

  it('a cheaper entry from another peer wins; a dearer one does not; stale entries of the peer go, recent ones stay', async () => {
    const transfer = createZoneTransfer({
      entries: a.entries,
      selfHostUrl: a.selfUrl.replace('DirectoryPlace', ''),
      dataIds: new Set(DEFAULT_TRANSFER_DATA_IDS),
      maxBytes: 1 << 20,
    });
    const x = 'http://x.test:8001/DirectoryPlace';
    const y = 'http://y.test:8001/DirectoryPlace';
    const shared = 'INITIAL.SHARED.INPUT.http://z.test:8001/SharedPlace';
    const doc = (self: string, entries: { key: string; cost: number; quality: number }[]) =>
      directoryXml(studyKey(self), [
        { dataId: 'INITIAL::INPUT', entries: entries.map((e) => parseDirectoryEntry({ ...e, description: '' })) },
      ]);
    await transfer.apply(peerKey(x), doc(x, [{ key: shared, cost: 5, quality: 50 }]), new Date());
    expect(byKey(await a.entries.listEntries()).get(shared)).toMatchObject({ source: peerKey(x), expense: 100_550 });
    await transfer.apply(peerKey(y), doc(y, [{ key: shared, cost: 7, quality: 50 }]), new Date());
    expect(byKey(await a.entries.listEntries()).get(shared)).toMatchObject({ source: peerKey(x), expense: 100_550 });
    await transfer.apply(peerKey(y), doc(y, [{ key: shared, cost: 2, quality: 50 }]), new Date());
    expect(byKey(await a.entries.listEntries()).get(shared)).toMatchObject({ source: peerKey(y), expense: 100_250 });

    const old = parseDirectoryEntry({ key: 'INITIAL.OLD.INPUT.http://x.test:8001/OldPlace', cost: 1, quality: 1 });
    const recent = parseDirectoryEntry({ key: 'INITIAL.RECENT.INPUT.http://x.test:8001/RecentPlace', cost: 1, quality: 1 });
    await a.entries.upsertFromSource(peerKey(x), [old], new Date(Date.now() - 60_000));
    await a.entries.upsertFromSource(peerKey(x), [recent], new Date(Date.now() - 10_000));
    const result = await transfer.apply(peerKey(x), doc(x, []), new Date());
    expect(result.removed.removed).toEqual([old.key]);
    const after = byKey(await a.entries.listEntries());
    expect(after.has(old.key)).toBe(false);
    expect(after.has(recent.key)).toBe(true);
    // A document naming another directory than the peer asked is refused whole.
    await expect(transfer.apply(peerKey(x), doc(y, []), new Date())).rejects.toThrow('its location names another directory');
  });

  it('FailDirectory from a peer removes its entries and fails it; bad requests are refused', async () => {
    const url = `${a.url}/emissary/FailDirectory.action`;
    expect((await digestPost(url, form({ targetDir: a.selfUrl }))).status).toBe(400);
    expect(await digestPost(url, form({ targetDir: 'http://127.0.0.1:1/DirectoryPlace', dirFailName: studyKey(b.selfUrl) }))).toMatchObject(
      {
        status: 404,
      },
    );
    expect(await digestPost(url, form({ targetDir: a.selfUrl, dirFailName: studyKey('http://evil.test:1/DirectoryPlace') }))).toMatchObject(
      {
        status: 403,
      },
    );
    expect((await digestPost(url, form({ targetDir: a.selfUrl, dirFailName: studyKey(a.selfUrl) }))).status).toBe(403);

    const res = await digestPost(url, form({ targetDir: a.selfUrl, dirFailName: studyKey(b.selfUrl), dirAddPropFlag: 'true' }));
    expect(res).toMatchObject({
      status: 200,
      body: `Modified 2 entries from ${studyKey(a.selfUrl)}$5050[1] due to failure of remote ${studyKey(b.selfUrl)}`,
    });
    const atA = byKey(await a.entries.listEntries());
    expect([...atA.values()].filter((row) => row.source === peerKey(b.selfUrl))).toEqual([]);
    // B is not configured at A: a failed B is forgotten, as the heartbeat manager does.
    expect(await a.store.getPeer(peerKey(b.selfUrl))).toBeUndefined();
  });

  it('a peer that stops cleanly tells its peers, which drop its entries at once', async () => {
    c = await startTestPeer('zone_c', { PEER_ALLOW_LIST: a.selfUrl }, { port: Number(new URL(cUrl).port), selfUrl: cUrl });
    await c.registrar.registerWith(a.selfUrl);
    expect(byKey(await a.entries.listEntries()).get(studyKey(c.selfUrl))?.source).toBe(peerKey(c.selfUrl));
    expect((await a.store.getPeer(peerKey(c.selfUrl)))?.state).toBe('up');
    await c.stop();
    c = undefined;
    expect(byKey(await a.entries.listEntries()).has(studyKey(cUrl))).toBe(false);
    expect(await a.store.getPeer(peerKey(cUrl))).toBeUndefined();
  });
});
