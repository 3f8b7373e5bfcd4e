import { randomBytes } from 'node:crypto';
import { TakenWorkBundles } from '@switchyard/contracts';
import { createTestDatabase, type TestDatabase } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ENQUEUE_QUEUE_FULL, ENQUEUE_SUCCEEDED } from '../../src/work-bundle/enqueue-messages.mapper.ts';
import { encodeWorkBundle, type WorkBundle, type WorkBundleInput } from '../../src/work-bundle/work-bundle.policy.ts';
import { digestGet, digestPost, form, startTestPeer, type TestPeer } from '../start-peer.ts';

const keyName = 'INITIAL.FILE_PICK_UP_CLIENT.INPUT.http://127.0.0.1:7001/FilePickUpClient';
const location = 'http://127.0.0.1:7001/FilePickUpClient';

const bundleOf = (id: string): WorkBundleInput => ({ bundleId: id, outputRoot: 'data/out', workUnits: [{ fileName: `${id}/a.txt` }] });
const enqueue = (peer: TestPeer, place: string, id: string) =>
  digestPost(`${peer.url}/WorkSpaceClientEnqueue.action`, form({ pickUpClientName: place, tpObj: encodeWorkBundle(bundleOf(id)) }));
const bundlesUrl = (peer: TestPeer, place: string, query = '') =>
  `${peer.url}/emissary/client-places/${encodeURIComponent(place)}/bundles${query}`;

/** Takes bundles and checks the answer's shape; returns the bundle ids taken, in order. */
async function takeIds(peer: TestPeer, place: string, query = ''): Promise<string[]> {
  const res = await digestGet(bundlesUrl(peer, place, query));
  expect(res.status, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  const answer = TakenWorkBundles.parse(JSON.parse(res.body));
  expect(answer.clientPlace).toBe(place);
  return answer.bundles.map((bundle) => (bundle.workBundle as { bundleId: string }).bundleId);
}

describe('client-place bundles in the database (no AMQP_URL)', () => {
  let database: TestDatabase;
  let peer: TestPeer;
  const env = () => ({
    AMQP_URL: undefined,
    DATABASE_URL: database.url,
    CLIENT_PLACES: `${location}=pickup.files,other=pickup.other,tiny=pickup.tiny`,
    WORK_QUEUE_LIMIT: '12',
  });

  beforeAll(async () => {
    database = await createTestDatabase(inject('databaseUrl'), 'peer_client_places_db');
    peer = await startTestPeer('peer_client_places_unused', env());
  });

  afterAll(async () => {
    await peer?.stop();
    await database?.drop();
  });

  it('enqueues without a broker and takes the bundles back oldest first, N at a time, removing them', async () => {
    for (const id of ['b1', 'b2', 'b3']) expect(await enqueue(peer, keyName, id)).toMatchObject({ status: 200, body: ENQUEUE_SUCCEEDED });
    // The key and the location name the same client place, as for the enqueue.
    expect(await takeIds(peer, keyName, '?take=2')).toEqual(['b1', 'b2']);
    const res = await digestGet(bundlesUrl(peer, location));
    const answer = TakenWorkBundles.parse(JSON.parse(res.body));
    expect(answer).toMatchObject({ clientPlace: location, queue: 'pickup.files' });
    expect(answer.bundles).toHaveLength(1);
    expect(answer.bundles[0]?.workBundle).toMatchObject({ bundleId: 'b3', outputRoot: 'data/out', workUnits: [{ fileName: 'b3/a.txt' }] });
    expect(Date.now() - Date.parse(answer.bundles[0]?.enqueuedAt ?? '')).toBeLessThan(60_000);
    expect(await takeIds(peer, location)).toEqual([]);
  });

  it('takes 10 by default and keeps client places apart', async () => {
    const ids = Array.from({ length: 11 }, (_, i) => `o${i}`);
    for (const id of ids) expect((await enqueue(peer, 'other', id)).status).toBe(200);
    expect((await enqueue(peer, keyName, 'f1')).status).toBe(200);
    expect(await takeIds(peer, 'other')).toEqual(ids.slice(0, 10));
    expect(await takeIds(peer, 'other')).toEqual(['o10']);
    expect(await takeIds(peer, keyName)).toEqual(['f1']);
  });

  it('answers 503 queue full at WORK_QUEUE_LIMIT bundles (12 here), and takes again once some were taken', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);
    for (const id of ids) expect((await enqueue(peer, 'tiny', id)).status).toBe(200);
    const full = await enqueue(peer, 'tiny', 'refused');
    expect(full).toMatchObject({ status: 503, body: ENQUEUE_QUEUE_FULL });
    expect(full.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(await takeIds(peer, 'tiny', '?take=1')).toEqual(['t0']);
    expect((await enqueue(peer, 'tiny', 't12')).status).toBe(200);
    expect(await takeIds(peer, 'tiny', '?take=100')).toEqual([...ids.slice(1), 't12']);
  });

  it('never hands one bundle to two takes at once', async () => {
    for (let i = 0; i < 8; i += 1) expect((await enqueue(peer, 'other', `c${i}`)).status).toBe(200);
    const [a, b, c] = await Promise.all([
      takeIds(peer, 'other', '?take=3'),
      takeIds(peer, 'other', '?take=3'),
      takeIds(peer, 'other', '?take=3'),
    ]);
    const all = [...(a ?? []), ...(b ?? []), ...(c ?? [])];
    expect(all.toSorted()).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']);
  });

  it('keeps accepted bundles across a restart', async () => {
    expect((await enqueue(peer, 'other', 'kept')).status).toBe(200);
    await peer.stop();
    peer = await startTestPeer('peer_client_places_unused', env());
    expect(await takeIds(peer, 'other')).toEqual(['kept']);
  });

  it('refuses a bad take with 400, an unknown client place with 404, no credentials with 401, HEAD with 405; all text/plain', async () => {
    for (const query of ['?take=0', '?take=101', '?take=abc', '?take=', '?take=1.5', '?take=-1', '?take=1&take=2', '?take=0010']) {
      const res = await digestGet(bundlesUrl(peer, 'other', query));
      expect(res, query).toMatchObject({ status: 400, body: 'take must be one integer from 1 to 100' });
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
    const unknown = await digestGet(bundlesUrl(peer, 'no<such>place'));
    expect(unknown).toMatchObject({ status: 404, body: 'No client place found using name no&lt;such&gt;place' });
    expect(unknown.headers['content-type']).toBe('text/plain; charset=utf-8');
    const anonymous = await request(bundlesUrl(peer, 'other'));
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Digest /);
    expect(await anonymous.body.text()).toBe('Unauthorized');
    const head = await request(bundlesUrl(peer, 'other'), { method: 'HEAD' });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('GET');
    await head.body.dump();
    const malformed = await digestGet(`${peer.url}/emissary/client-places/%E0%A4%A/bundles`);
    expect(malformed).toMatchObject({ status: 400, body: 'Malformed client place name' });
  });
});

describe('client-place bundles on RabbitMQ', () => {
  const queue = `peer-svc-take-${randomBytes(6).toString('hex')}`;
  let peer: TestPeer;

  beforeAll(async () => {
    peer = await startTestPeer('peer_client_places_amqp', { CLIENT_PLACES: `${location}=${queue}` });
  });

  afterAll(async () => {
    await peer?.stop();
    const connection = await amqplib.connect(inject('amqpUrl'));
    const channel = await connection.createChannel();
    await channel.deleteQueue(queue);
    await connection.close();
  });

  const depth = async () => {
    const connection = await amqplib.connect(inject('amqpUrl'));
    try {
      const channel = await connection.createChannel();
      return (await channel.checkQueue(queue)).messageCount;
    } finally {
      await connection.close();
    }
  };

  it('takes bundles off the broker queue oldest first with basic.get and acks them', async () => {
    expect(await takeIds(peer, keyName)).toEqual([]);
    for (const id of ['r1', 'r2', 'r3']) expect((await enqueue(peer, keyName, id)).status).toBe(200);
    expect(await depth()).toBe(3);
    const res = await digestGet(bundlesUrl(peer, keyName, '?take=2'));
    const answer = TakenWorkBundles.parse(JSON.parse(res.body));
    expect(answer).toMatchObject({ clientPlace: keyName, queue });
    expect(answer.bundles.map((bundle) => (bundle.workBundle as WorkBundle).bundleId)).toEqual(['r1', 'r2']);
    expect(Math.abs(Date.now() - Date.parse(answer.bundles[0]?.enqueuedAt ?? ''))).toBeLessThan(60_000);
    expect(await depth()).toBe(1);
    expect(await takeIds(peer, location, '?take=100')).toEqual(['r3']);
    expect(await depth()).toBe(0);
  });

  it('answers a message that is not JSON, put on the queue by another producer, as its text', async () => {
    const connection = await amqplib.connect(inject('amqpUrl'));
    const channel = await connection.createConfirmChannel();
    channel.sendToQueue(queue, Buffer.from('not json', 'utf8'), { persistent: true });
    await channel.waitForConfirms();
    await connection.close();
    const res = await digestGet(bundlesUrl(peer, keyName));
    expect(TakenWorkBundles.parse(JSON.parse(res.body)).bundles).toEqual([{ enqueuedAt: null, workBundle: 'not json' }]);
  });
});
