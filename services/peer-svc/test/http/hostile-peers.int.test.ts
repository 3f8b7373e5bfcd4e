import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestPost, form, rawPost, startTestPeer, type TestPeer } from '../start-peer.ts';

/** A fake peer: answers heartbeats 200; `onRegister` decides RegisterPeer's answer. Records every request. */
let fake: Server;
let fakePort = 0;
const seen: { url: string | undefined; authorization: string | undefined }[] = [];
type FakeAnswer = { status: number; headers: Record<string, string>; body?: string };
let onRegister: (req: IncomingMessage) => FakeAnswer = () => ({ status: 200, headers: {} });
/** Not allow-listed; a redirect points here. */
let trap: NetServer;
let trapPort = 0;
let trapConnections = 0;
let peer: TestPeer;
const TRANSFER_CAP = 4096;

beforeAll(async () => {
  fake = createHttpServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    req.resume();
    if (req.url === '/emissary/Heartbeat.action') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const answer = onRegister(req);
    res.writeHead(answer.status, answer.headers).end(answer.body ?? 'no');
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakePort = (fake.address() as { port: number }).port;
  trap = createNetServer((socket) => {
    trapConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as { port: number }).port;
  peer = await startTestPeer('peer_hostile', {
    PEER_ALLOW_LIST: `http://127.0.0.1:${fakePort}/DirectoryPlace`,
    PEER_TRANSFER_MAX_BYTES: String(TRANSFER_CAP),
  });
});

afterAll(async () => {
  await peer?.stop();
  await new Promise((resolve) => fake.close(resolve));
  await new Promise((resolve) => trap.close(resolve));
});

const fakeKey = () => `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${fakePort}/DirectoryPlace`;
/** The fake's directory as XML, holding its own entry (and `extra`, raw, in its entry list). */
const fakeDirectory = (extra = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\r\n<directory location="${fakeKey()}"><entryList dataid="EMISSARY_DIRECTORY_SERVICES::STUDY">` +
  `<entry><key>${fakeKey()}</key><description /><cost>50</cost><quality>50</quality><expense>5050</expense></entry>${extra}</entryList></directory>\r\n`;
const register = () => digestPost(`${peer.url}/emissary/RegisterPeer.action`, form({ directoryName: fakeKey(), targetDir: peer.selfUrl }));

describe('hostile peers', () => {
  it('sends no credentials to a peer asking for Basic, and answers 502', async () => {
    seen.length = 0;
    onRegister = () => ({ status: 401, headers: { 'www-authenticate': 'Basic realm="EmissaryRealm"' } });
    const res = await register();
    expect(res.status).toBe(502);
    expect(seen.map((s) => s.url)).toEqual(['/emissary/Heartbeat.action', '/emissary/RegisterPeer.action']);
    expect(seen.every((s) => s.authorization === undefined)).toBe(true);
  });

  it('does not follow a redirect from a peer, and answers 502', async () => {
    seen.length = 0;
    onRegister = () => ({ status: 302, headers: { location: `http://127.0.0.1:${trapPort}/emissary/RegisterPeer.action` } });
    const res = await register();
    expect(res.status).toBe(502);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(trapConnections).toBe(0);
  });

  it('answers Digest only to a Digest challenge, then registers the peer', async () => {
    seen.length = 0;
    onRegister = (req): FakeAnswer =>
      req.headers.authorization === undefined
        ? {
            status: 401,
            headers: { 'www-authenticate': 'Digest realm="EmissaryRealm", qop="auth", algorithm=SHA-256, nonce="abc", opaque="x"' },
          }
        : { status: 200, headers: { 'content-type': 'application/xml' }, body: fakeDirectory() };
    const res = await register();
    expect(res.status).toBe(200);
    expect(
      seen.filter((s) => s.url === '/emissary/RegisterPeer.action').map((s) => s.authorization?.startsWith('Digest ') ?? false),
    ).toEqual([false, true]);
    expect(await peer.store.getPeer(`*.*.*.http://127.0.0.1:${fakePort}/DirectoryPlace`)).toMatchObject({ state: 'up' });
  });

  it('refuses a directory with a DOCTYPE (an entity bomb), an oversized one, or a non-XML one: 502, nothing learned', async () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' +
      `<directory location="${fakeKey()}"><entryList dataid="INITIAL::INPUT"><entry><key>&b;</key></entry></entryList></directory>`;
    const padding = `<entry><key>INITIAL.PAD.INPUT.http://127.0.0.1:${fakePort}/PadPlace</key><description>${'x'.repeat(TRANSFER_CAP)}</description><cost>1</cost><quality>1</quality></entry>`;
    // The fake's entries learned by an earlier registration go first.
    await peer.entries.removeSource(`*.*.*.http://127.0.0.1:${fakePort}/DirectoryPlace`);
    for (const body of [bomb, fakeDirectory(padding), 'ok']) {
      await peer.store.deletePeer(`*.*.*.http://127.0.0.1:${fakePort}/DirectoryPlace`);
      onRegister = (req): FakeAnswer =>
        req.headers.authorization === undefined
          ? {
              status: 401,
              headers: { 'www-authenticate': 'Digest realm="EmissaryRealm", qop="auth", algorithm=SHA-256, nonce="abc", opaque="x"' },
            }
          : { status: 200, headers: { 'content-type': 'application/xml' }, body };
      const res = await register();
      expect(res.status, body.slice(0, 40)).toBe(502);
      expect(await peer.store.getPeer(`*.*.*.http://127.0.0.1:${fakePort}/DirectoryPlace`)).toMatchObject({ state: 'not-contacted' });
      const learned = (await peer.entries.listEntries()).filter((row) => row.source !== 'local');
      expect(learned).toEqual([]);
    }
  });

  it('never answers a malformed body with a 5xx', async () => {
    const bodies = [
      '%',
      '%%%&&&===',
      'hbf',
      '&'.repeat(40),
      'hbf=%ZZ&hbt=%',
      'hbf=a&hbf=b&hbt=c',
      '\u0000\u00ff',
      'hbt=%0d%0a%3Cscript%3E',
    ];
    for (const body of bodies) {
      for (const path of [
        '/emissary/Heartbeat.action',
        '/emissary/RegisterPeer.action',
        '/emissary/AddChildDirectory.action',
        '/emissary/FailDirectory.action',
        '/WorkSpaceClientEnqueue.action',
      ]) {
        const res = await digestPost(`${peer.url}${path}`, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
        expect(res.body).not.toMatch(/[<>\r]/);
      }
    }
    const noType = await rawPost(`${peer.url}/emissary/Heartbeat.action`, 'hbf=a', { 'content-type': undefined });
    expect(noType.status).toBe(400);
  });
});
