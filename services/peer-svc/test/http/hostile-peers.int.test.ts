import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestPost, form, rawPost, startTestPeer, type TestPeer } from '../start-peer.ts';

/** A fake peer: answers heartbeats 200; `onRegister` decides RegisterPeer's answer. Records every request. */
let fake: Server;
let fakePort = 0;
const seen: { url: string | undefined; authorization: string | undefined }[] = [];
type FakeAnswer = { status: number; headers: Record<string, string> };
let onRegister: (req: IncomingMessage) => FakeAnswer = () => ({ status: 200, headers: {} });
/** Not allow-listed; a redirect points here. */
let trap: NetServer;
let trapPort = 0;
let trapConnections = 0;
let peer: TestPeer;

beforeAll(async () => {
  fake = createHttpServer((req, res) => {
    seen.push({ url: req.url, authorization: req.headers.authorization });
    req.resume();
    if (req.url === '/emissary/Heartbeat.action') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const answer = onRegister(req);
    res.writeHead(answer.status, answer.headers).end('no');
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  fakePort = (fake.address() as { port: number }).port;
  trap = createNetServer((socket) => {
    trapConnections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as { port: number }).port;
  peer = await startTestPeer('peer_hostile', { PEER_ALLOW_LIST: `http://127.0.0.1:${fakePort}/DirectoryPlace` });
});

afterAll(async () => {
  await peer?.stop();
  await new Promise((resolve) => fake.close(resolve));
  await new Promise((resolve) => trap.close(resolve));
});

const fakeKey = () => `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${fakePort}/DirectoryPlace`;
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
        : { status: 200, headers: {} };
    const res = await register();
    expect(res.status).toBe(200);
    expect(
      seen.filter((s) => s.url === '/emissary/RegisterPeer.action').map((s) => s.authorization?.startsWith('Digest ') ?? false),
    ).toEqual([false, true]);
    expect(await peer.store.getPeer(`*.*.*.http://127.0.0.1:${fakePort}/DirectoryPlace`)).toMatchObject({ state: 'up' });
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
