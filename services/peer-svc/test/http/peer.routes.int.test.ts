import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import amqplib from 'amqplib';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CANNOT_DESERIALIZE_WORK_BUNDLE, ENQUEUE_QUEUE_FULL, ENQUEUE_SUCCEEDED } from '../../src/work-bundle/enqueue-messages.mapper.ts';
import { encodeWorkBundle } from '../../src/work-bundle/work-bundle.policy.ts';
import { digestPost, form, rawPost, reservePeerUrl, startTestPeer, TEST_USER, type TestPeer } from '../start-peer.ts';

const queue = `peer-svc-test-${randomBytes(6).toString('hex')}`;
const clientName = 'INITIAL.FILE_PICK_UP_CLIENT.INPUT.http://127.0.0.1:7001/FilePickUpClient';
/** A client place whose queue the broker refuses every message for (full, `reject-publish`). */
const fullQueue = `${queue}-full`;
const fullClientName = 'full-pick-up-client';
let peer: TestPeer;
/** A listening socket that is NOT on the allow-list, counting the connections it receives. */
let trap: Server;
let trapPort = 0;
let trapConnections = 0;
/** An allow-listed port nothing listens on. */
let allowedButDead = '';

beforeAll(async () => {
  trap = createServer((socket) => {
    trapConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as { port: number }).port;
  const dead = await reservePeerUrl();
  allowedButDead = dead.selfUrl;
  const connection = await amqplib.connect(inject('amqpUrl'));
  const channel = await connection.createChannel();
  await channel.assertQueue(fullQueue, { durable: true, arguments: { 'x-max-length': 0, 'x-overflow': 'reject-publish' } });
  await connection.close();
  peer = await startTestPeer('peer_routes', {
    PEER_ALLOW_LIST: `http://127.0.0.1:7001/DirectoryPlace,${dead.selfUrl}`,
    FORM_LIMIT_BYTES: '65536',
    CLIENT_PLACES: `${clientName}=${queue},${fullClientName}=${fullQueue}`,
  });
});

afterAll(async () => {
  await peer?.stop();
  await new Promise((resolve) => trap.close(resolve));
  const connection = await amqplib.connect(inject('amqpUrl'));
  const channel = await connection.createChannel();
  await channel.deleteQueue(queue);
  await channel.deleteQueue(fullQueue);
  await connection.close();
});

const heartbeat = () => `${peer.url}/emissary/Heartbeat.action`;
const register = () => `${peer.url}/emissary/RegisterPeer.action`;
const enqueue = () => `${peer.url}/WorkSpaceClientEnqueue.action`;
const allowedKey = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:7001/DirectoryPlace';

describe('request rules', () => {
  it('refuses a POST without X-Requested-By with 400', async () => {
    const res = await rawPost(heartbeat(), form({ hbf: allowedKey, hbt: peer.selfUrl }), { 'x-requested-by': undefined });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a form body over the limit with 413 before parsing it', async () => {
    const res = await rawPost(heartbeat(), `hbf=${'a'.repeat(70_000)}`);
    expect(res.status).toBe(413);
  });

  it('refuses a body that is not a form with 400', async () => {
    const res = await rawPost(heartbeat(), '{"hbf":1}', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
  });

  it('answers 401 with Digest challenges without credentials, and 401 with wrong ones', async () => {
    const none = await rawPost(register(), form({ directoryName: allowedKey, targetDir: peer.selfUrl }));
    expect(none.status).toBe(401);
    expect(String(none.headers['www-authenticate'])).toMatch(/^Digest /);
    const wrong = await digestPost(register(), form({ directoryName: allowedKey, targetDir: peer.selfUrl }), {
      ...TEST_USER,
      password: 'nope',
    });
    expect(wrong.status).toBe(401);
    const enqueueWrong = await digestPost(enqueue(), form({ pickUpClientName: clientName, tpObj: '{}' }), {
      ...TEST_USER,
      password: 'nope',
    });
    expect(enqueueWrong.status).toBe(401);
  });
});

describe('Heartbeat.action', () => {
  it('refuses a heartbeat from an allow-listed sender it does not know with 403, recording nothing', async () => {
    const res = await rawPost(heartbeat(), form({ hbf: allowedKey, hbt: peer.selfUrl }));
    expect(res).toMatchObject({ status: 403, body: `Heartbeat failed, directory not found for ${allowedKey}` });
    expect(await peer.store.getPeer('*.*.*.http://127.0.0.1:7001/DirectoryPlace')).toBeUndefined();
  });

  it('answers a heartbeat from a known allow-listed sender with the directory key, and records it', async () => {
    const url = 'http://127.0.0.1:7001/DirectoryPlace';
    const key = `*.*.*.${url}`;
    await peer.store.savePeer({ key, url, origin: 'http://127.0.0.1:7001', state: 'up', missed: 0, registered: true });
    try {
      const res = await rawPost(heartbeat(), form({ hbf: allowedKey, hbt: peer.selfUrl }));
      expect(res.status).toBe(200);
      expect(res.body).toBe(`EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${peer.selfUrl}$5050[1]`);
      const stored = await peer.store.getPeer(key);
      expect(stored?.last_heartbeat_at).toBeInstanceOf(Date);
    } finally {
      await peer.store.deletePeer(key);
    }
  });

  it('refuses a sender not on the allow-list with 403, neutralising the echo', async () => {
    const hbf = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${trapPort}/DirectoryPlace`;
    const res = await rawPost(heartbeat(), form({ hbf, hbt: peer.selfUrl }));
    expect(res.status).toBe(403);
    expect(res.body).toBe(`Heartbeat failed, directory not found for ${hbf}`);
    const injected = await rawPost(heartbeat(), form({ hbf: '<script>\r\nx', hbt: peer.selfUrl }));
    expect(injected.status).toBe(400);
    expect(injected.body).not.toMatch(/[<>\r\n]/);
  });

  it('answers 404 for a target directory that is not ours and 400 without one', async () => {
    expect((await rawPost(heartbeat(), form({ hbf: allowedKey, hbt: 'http://127.0.0.1:1/DirectoryPlace' }))).status).toBe(404);
    expect((await rawPost(heartbeat(), form({ hbf: allowedKey }))).status).toBe(400);
  });
});

describe('RegisterPeer.action', () => {
  it('refuses a directoryName naming a listening socket not on the allow-list: 403, and the socket gets no connection', async () => {
    const directoryName = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${trapPort}/DirectoryPlace`;
    const res = await digestPost(register(), form({ directoryName, targetDir: peer.selfUrl }));
    expect(res.status).toBe(403);
    expect(res.body).toBe(`Registration failed for peer: ${directoryName}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(trapConnections).toBe(0);
  });

  it('answers 400 for missing or malformed parameters and 404 for a targetDir that is not ours', async () => {
    expect((await digestPost(register(), form({ targetDir: peer.selfUrl }))).status).toBe(400);
    expect((await digestPost(register(), form({ directoryName: 'not a key', targetDir: peer.selfUrl }))).status).toBe(400);
    expect((await digestPost(register(), form({ directoryName: allowedKey, targetDir: 'http://127.0.0.1:1/DirectoryPlace' }))).status).toBe(
      404,
    );
  });

  it('answers 502 when the allow-listed peer to call back cannot be reached', async () => {
    const directoryName = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.${allowedButDead}`;
    const res = await digestPost(register(), form({ directoryName, targetDir: peer.selfUrl }));
    expect(res.status).toBe(502);
  });
});

describe('AddChildDirectory.action', () => {
  it('records an allow-listed child and refuses another with 403', async () => {
    const child = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:7001/DirectoryPlace';
    const ok = await digestPost(`${peer.url}/emissary/AddChildDirectory.action`, form({ directoryName: child, targetDir: peer.selfUrl }));
    expect(ok).toMatchObject({ status: 200, body: 'addChildDirectory succeeded' });
    const other = `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${trapPort}/DirectoryPlace`;
    expect((await digestPost(`${peer.url}/emissary/AddChildDirectory.action`, form({ directoryName: other }))).status).toBe(403);
  });
});

describe('WorkSpaceClientEnqueue.action', () => {
  const bundle = {
    bundleId: 'bundle-1',
    outputRoot: 'out',
    priority: 5,
    workUnits: [{ fileName: 'in/caf\u00e9.txt', transactionId: 't1' }, { fileName: 'in/b.bin' }],
  };

  it('publishes a work bundle that arrives intact on the client place queue (both paths)', async () => {
    const tpObj = encodeWorkBundle(bundle);
    // tpObj is ISO-8859-1 text: each character one percent-escaped byte, as the upstream client wrote it.
    const body = `pickUpClientName=${encodeURIComponent(clientName)}&tpObj=${[...Buffer.from(tpObj, 'latin1')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('')}`;
    for (const path of ['/WorkSpaceClientEnqueue.action', '/emissary/WorkSpaceClientEnqueue.action']) {
      const res = await digestPost(`${peer.url}${path}`, body);
      expect(res).toMatchObject({ status: 200, body: ENQUEUE_SUCCEEDED });
    }
    const connection = await amqplib.connect(inject('amqpUrl'));
    try {
      const channel = await connection.createChannel();
      for (let i = 0; i < 2; i += 1) {
        const message = await channel.get(queue, { noAck: true });
        expect(message).not.toBe(false);
        if (message === false) return;
        expect(message.properties.deliveryMode).toBe(2);
        const received = JSON.parse(message.content.toString('utf8'));
        expect(received).toMatchObject(bundle);
        expect(received.workUnits[0].fileName).toBe('in/caf\u00e9.txt');
      }
    } finally {
      await connection.close();
    }
  });

  it('refuses a Java serialization stream with 400 Cannot deserialize WorkBundle', async () => {
    const body = `pickUpClientName=${encodeURIComponent(clientName)}&tpObj=%AC%ED%00%05sr%00%1Bemissary.pickup.WorkBundle`;
    const res = await digestPost(enqueue(), body);
    expect(res).toMatchObject({ status: 400, body: CANNOT_DESERIALIZE_WORK_BUNDLE });
    const base64 = await digestPost(enqueue(), form({ pickUpClientName: clientName, tpObj: 'rO0ABXNyABtlbWlzc2FyeQ==' }));
    expect(base64).toMatchObject({ status: 400, body: CANNOT_DESERIALIZE_WORK_BUNDLE });
  });

  it('refuses 1025 work units and a path with .. with 400', async () => {
    const units = Array.from({ length: 1025 }, (_, i) => ({ fileName: `f${i}` }));
    const big = await digestPost(
      enqueue(),
      form({ pickUpClientName: clientName, tpObj: JSON.stringify({ bundleId: 'b', workUnits: units }) }),
    );
    expect(big).toMatchObject({ status: 400, body: CANNOT_DESERIALIZE_WORK_BUNDLE });
    const dotdot = await digestPost(
      enqueue(),
      form({ pickUpClientName: clientName, tpObj: JSON.stringify({ bundleId: 'b', workUnits: [{ fileName: '../etc/passwd' }] }) }),
    );
    expect(dotdot).toMatchObject({ status: 400, body: CANNOT_DESERIALIZE_WORK_BUNDLE });
  });

  it('escapes an unknown client place name once in the 404 (markup, ampersands, quotes)', async () => {
    const names: [string, string][] = [
      ['a<b>c', 'a&lt;b&gt;c'],
      ['Tom & Jerry', 'Tom &amp; Jerry'],
      ['&lt;already', '&amp;lt;already'],
      ['say "hi" \'there\'', 'say "hi" \'there\''],
    ];
    for (const [name, echoed] of names) {
      const res = await digestPost(enqueue(), form({ pickUpClientName: name, tpObj: encodeWorkBundle(bundle) }));
      expect(res, name).toMatchObject({ status: 404, body: `No client place found using name ${echoed}` });
    }
  });

  it("answers 404 with upstream's message for an unknown client place", async () => {
    const res = await digestPost(
      enqueue(),
      form({ pickUpClientName: 'NOPE.X.Y.http://127.0.0.1:7001/Nope', tpObj: encodeWorkBundle(bundle) }),
    );
    expect(res).toMatchObject({ status: 404, body: 'No client place found using name NOPE.X.Y.http://127.0.0.1:7001/Nope' });
  });
});

describe('WorkSpaceClientEnqueue.action without the broker', () => {
  const tpObj = encodeWorkBundle({ bundleId: 'refused', workUnits: [{ fileName: 'a.txt' }] });

  it('answers 503 WorkSpaceClientEnqueWorker failed, queue full when the broker does not take the bundle', async () => {
    const res = await digestPost(enqueue(), form({ pickUpClientName: fullClientName, tpObj }));
    expect(res).toMatchObject({ status: 503, body: ENQUEUE_QUEUE_FULL });
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('keeps the bundle in the database when no broker is configured (client-places.int.test.ts takes it back)', async () => {
    const lonely = await startTestPeer('peer_no_broker', { AMQP_URL: undefined, CLIENT_PLACES: `${clientName}=${queue}` });
    try {
      const res = await digestPost(`${lonely.url}/WorkSpaceClientEnqueue.action`, form({ pickUpClientName: clientName, tpObj }));
      expect(res).toMatchObject({ status: 200, body: ENQUEUE_SUCCEEDED });
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    } finally {
      await lonely.stop();
    }
  });
});
