import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { PeerDirectory } from '@switchyard/contracts';
import { ConfigError } from '@switchyard/service-kit';
import { type EventTap, tapEvents } from '@switchyard/service-kit/testing';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LOCAL_SOURCE, parseDirectoryEntry } from '../../src/directory/directory-entry.policy.ts';
import { digestGet, digestPost, form, reservePeerUrl, startTestPeer, type TestPeer } from '../start-peer.ts';

/** The directory place URL of the golden peer: a name, never contacted (it only answers its own registration). */
const GOLDEN_SELF = 'http://peer-golden.test:8001/DirectoryPlace';
const GOLDEN_KEY = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${GOLDEN_SELF}`;
const UPPER = 'UNKNOWN.TO_UPPER.TRANSFORM.http://peer-golden.test:8001/ToUpperPlace';
const LOWER = 'UNKNOWN.TO_LOWER.TRANSFORM.http://peer-golden.test:8001/ToLowerPlace';
const GOLDEN_PLACES = `${UPPER}|20|90|Upper <case> & "quotes" 'too';\n${LOWER}|20|90|`;
const golden = readFileSync(new URL('../golden/register-peer-directory.xml', import.meta.url));

describe('directory entries', () => {
  const exchange = `test.peer-entries.${randomBytes(4).toString('hex')}`;
  let tap: EventTap;
  let peer: TestPeer;

  beforeAll(async () => {
    tap = await tapEvents(inject('amqpUrl'), exchange, { bindings: ['directory.entries_changed'], deleteExchangeOnClose: true });
    peer = await startTestPeer('peer_entries', {
      EVENTS_EXCHANGE: exchange,
      PEER_SELF_URL: GOLDEN_SELF,
      PEER_ALLOW_LIST: GOLDEN_SELF,
      DIRECTORY_PLACES: GOLDEN_PLACES,
    });
  });
  afterAll(async () => {
    await peer?.stop();
    await tap?.close();
  });

  it('answers RegisterPeer with the directory as XML, byte for byte the golden file', async () => {
    const res = await digestPost(`${peer.url}/emissary/RegisterPeer.action`, form({ directoryName: GOLDEN_KEY, targetDir: GOLDEN_SELF }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.from(res.body, 'utf8').equals(golden)).toBe(true);
    expect(res.body).toBe(golden.toString('utf8'));
  });

  it('keeps plain-text errors on RegisterPeer', async () => {
    const res = await digestPost(`${peer.url}/emissary/RegisterPeer.action`, form({ directoryName: GOLDEN_KEY }));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('publishes the local entries loaded at start', async () => {
    const event = await tap.waitForEvent((e) => (e.data as { source?: string }).source === LOCAL_SOURCE, 15_000);
    expect(event.data).toEqual({
      source: 'local',
      data_ids: ['EMISSARY_DIRECTORY_SERVICES::STUDY', 'UNKNOWN::TRANSFORM'],
      upserted: [GOLDEN_KEY, LOWER, UPPER],
      removed: [],
    });
  });

  it('shows the directory to an operator with Digest: grouped by data id, cheapest first, with source and age', async () => {
    const url = `${peer.url}/emissary/directory`;
    const anonymous = await request(url);
    await anonymous.body.text();
    expect(anonymous.statusCode).toBe(401);
    const res = await digestGet(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const view = JSON.parse(res.body) as PeerDirectory;
    expect(view.location).toBe(GOLDEN_KEY);
    expect(view.entry_lists.map((list) => [list.data_id, list.entries.map((entry) => entry.key)])).toEqual([
      ['EMISSARY_DIRECTORY_SERVICES::STUDY', [GOLDEN_KEY]],
      ['UNKNOWN::TRANSFORM', [LOWER, UPPER]],
    ]);
    expect(view.entry_lists[1]?.entries[1]).toEqual({
      key: UPPER,
      description: `Upper <case> & "quotes" 'too'`,
      cost: 20,
      quality: 90,
      expense: 2010,
      source: 'local',
      age: expect.any(Number),
    });
    for (const entry of view.entry_lists.flatMap((list) => list.entries)) {
      expect(Number.isInteger(entry.age) && entry.age >= 0 && entry.age < 60).toBe(true);
    }
  });

  it('keeps one entry per key across sources: local wins, the cheaper remote wins, a source is removed', async () => {
    const sourceA = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://10.0.0.1:8001/DirectoryPlace';
    const sourceB = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://10.0.0.2:8001/DirectoryPlace';
    const remote = 'UNKNOWN.TO_UPPER.TRANSFORM.http://10.0.0.1:8001/ToUpperPlace';
    const entry = (key: string, cost: number, description = '') => parseDirectoryEntry({ key, cost, quality: 90, description });

    const first = await peer.entries.upsertFromSource(sourceA, [entry(remote, 30), entry(UPPER, 1)]);
    expect(first).toEqual({ source: sourceA, data_ids: ['UNKNOWN::TRANSFORM'], upserted: [remote], removed: [] });
    expect((await peer.entries.listByDataId('UNKNOWN::TRANSFORM')).map((row) => [row.key, row.source])).toEqual([
      [LOWER, 'local'],
      [UPPER, 'local'],
      [remote, sourceA],
    ]);
    // The same values again only confirm the entry: no change, no event.
    expect((await peer.entries.upsertFromSource(sourceA, [entry(remote, 30)])).upserted).toEqual([]);
    // A dearer copy from another source is not taken; a cheaper one is.
    expect((await peer.entries.upsertFromSource(sourceB, [entry(remote, 31)])).upserted).toEqual([]);
    expect((await peer.entries.upsertFromSource(sourceB, [entry(remote, 10, 'via B')])).upserted).toEqual([remote]);
    const [held] = (await peer.entries.listByDataId('UNKNOWN::TRANSFORM')).filter((row) => row.key === remote);
    expect(held).toMatchObject({ source: sourceB, cost: 10, expense: 1010, description: 'via B' });
    // Removing a source's entries last confirmed before a time long past removes nothing; without it, all of them.
    expect((await peer.entries.removeSource(sourceB, { seenBefore: new Date(0) })).removed).toEqual([]);
    expect(await peer.entries.removeSource(sourceB)).toEqual({
      source: sourceB,
      data_ids: ['UNKNOWN::TRANSFORM'],
      upserted: [],
      removed: [remote],
    });
    expect((await peer.entries.removeSource(sourceA)).removed).toEqual([]);
    await expect(peer.entries.upsertFromSource(LOCAL_SOURCE, [])).rejects.toThrow(TypeError);
    await expect(peer.entries.upsertFromSource(sourceA, [entry(remote, 1), entry(remote, 2)])).rejects.toThrow(TypeError);

    const events = await tap.waitForEvent((e) => (e.data as { removed?: string[] }).removed?.includes(remote) ?? false, 15_000);
    expect(events.source).toBe('peer-svc');
    const changes = tap.events.map((e) => e.data as { source: string; upserted: string[]; removed: string[] });
    expect(changes.filter((change) => change.source !== LOCAL_SOURCE)).toEqual([
      { source: sourceA, data_ids: ['UNKNOWN::TRANSFORM'], upserted: [remote], removed: [] },
      { source: sourceB, data_ids: ['UNKNOWN::TRANSFORM'], upserted: [remote], removed: [] },
      { source: sourceB, data_ids: ['UNKNOWN::TRANSFORM'], upserted: [], removed: [remote] },
    ]);
  });

  it('removes every entry on a failed host, whoever it was learned from, local ones excepted', async () => {
    const hostC = 'http://10.0.0.3:8001/';
    const viaB = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://10.0.0.2:8001/DirectoryPlace';
    const viaC = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://10.0.0.3:8001/DirectoryPlace';
    const onC = (name: string) => parseDirectoryEntry({ key: `INITIAL.${name}.INPUT.${hostC}${name}Place`, cost: 1000, quality: 90 });
    // A host whose URL only starts like C's (port 80010 is not a port, so 8001 followed by a path: another host here).
    const lookalike = parseDirectoryEntry({ key: 'INITIAL.NEAR.INPUT.http://10.0.0.30:8001/NearPlace', cost: 1000, quality: 90 });
    await peer.entries.upsertFromSource(viaB, [onC('FROM_B'), lookalike]);
    await peer.entries.upsertFromSource(viaC, [onC('FROM_C')]);
    const changes = await peer.entries.removeHost(hostC);
    expect(changes).toEqual([
      { source: viaB, data_ids: ['INITIAL::INPUT'], upserted: [], removed: [onC('FROM_B').key] },
      { source: viaC, data_ids: ['INITIAL::INPUT'], upserted: [], removed: [onC('FROM_C').key] },
    ]);
    const left = (await peer.entries.listEntries()).map((row) => row.key);
    expect(left).toContain(lookalike.key);
    expect(left.some((key) => key.includes(hostC))).toBe(false);
    expect(await peer.entries.removeHost('http://peer-golden.test:8001/')).toEqual([]);
    expect(left).toContain(UPPER);
    await peer.entries.removeSource(viaB);
  });

  it('replaces the local entries: new ones added, changed ones updated, missing ones removed', async () => {
    const self = parseDirectoryEntry({ key: GOLDEN_KEY, cost: 50, quality: 50 });
    const upper = parseDirectoryEntry({ key: UPPER, cost: 5, quality: 90 });
    const other = parseDirectoryEntry({ key: 'INITIAL.PICK_UP.INPUT.http://peer-golden.test:8001/PickUpPlace', cost: 1, quality: 100 });
    const change = await peer.entries.replaceLocal([self, upper, other]);
    expect(change).toEqual({
      source: 'local',
      data_ids: ['INITIAL::INPUT', 'UNKNOWN::TRANSFORM'],
      upserted: [other.key, UPPER],
      removed: [LOWER],
    });
    expect((await peer.entries.listEntries()).map((row) => [row.key, row.expense])).toEqual([
      [GOLDEN_KEY, 5050],
      [other.key, 100],
      [UPPER, 510],
    ]);
  });
});

describe('directory places at start', () => {
  it('refuses a bad DIRECTORY_PLACES entry with a ConfigError naming it', async () => {
    const error = await startTestPeer('peer_entries_bad', { DIRECTORY_PLACES: `${UPPER}|20|90;${LOWER}|x|90` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([`DIRECTORY_PLACES entry 2 ("${LOWER}"): cost must be an integer from 0 to 21474835`]);
  });
});

describe('RegisterPeer between two peers', () => {
  let a: TestPeer;
  let b: TestPeer;

  beforeAll(async () => {
    const [urlA, urlB] = [await reservePeerUrl(), await reservePeerUrl()];
    const allow = `${urlA.selfUrl},${urlB.selfUrl}`;
    const place = (selfUrl: string, name: string) =>
      `UNKNOWN.${name}.TRANSFORM.${selfUrl.replace(/DirectoryPlace$/, `${name}Place`)}|20|90|${name}`;
    a = await startTestPeer('peer_entries_a', { PEER_ALLOW_LIST: allow, DIRECTORY_PLACES: place(urlA.selfUrl, 'TO_UPPER') }, urlA);
    b = await startTestPeer('peer_entries_b', { PEER_ALLOW_LIST: allow, DIRECTORY_PLACES: place(urlB.selfUrl, 'TO_LOWER') }, urlB);
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
  });

  it('answers the registering peer with the directory after the call-back', async () => {
    const keyB = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${b.selfUrl}`;
    // As B's registrar does before it posts: B records A, so that it answers A's call-back heartbeat.
    await b.store.savePeer({
      key: `*.*.*.${a.selfUrl}`,
      url: a.selfUrl,
      origin: new URL(a.selfUrl).origin,
      state: 'not-contacted',
      missed: 0,
    });
    const res = await digestPost(`${a.url}/emissary/RegisterPeer.action`, form({ directoryName: keyB, targetDir: a.selfUrl }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(res.body.startsWith(`<?xml version="1.0" encoding="UTF-8"?>\r\n<directory location="${a.registrar.selfKey}">\r\n`)).toBe(true);
    expect(res.body).toContain(`<key>UNKNOWN.TO_UPPER.TRANSFORM.${a.selfUrl.replace(/DirectoryPlace$/, 'TO_UPPERPlace')}</key>`);
    expect((await b.store.getPeer(`*.*.*.${a.selfUrl}`))?.state).toBe('up');
  });
});
