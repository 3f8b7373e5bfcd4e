import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDigestAuthenticator } from '../../src/security/digest-auth.middleware.ts';
import {
  createPeerClient,
  PeerAuthError,
  type PeerClient,
  PeerNotAllowedError,
  PeerResponseTooLargeError,
  PeerTimeoutError,
} from '../../src/security/peer.client.ts';
import { createPeerAllowList } from '../../src/security/peer-allow-list.policy.ts';

interface TestPeer {
  port: number;
  url: string;
  connections: number;
  requests: { method: string | undefined; url: string | undefined; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

const peers: TestPeer[] = [];
const clients: PeerClient[] = [];

/** A loopback HTTP server on port 0 that counts connections and records every request before `handler` answers. */
async function startPeer(handler: RequestListener, host = '127.0.0.1'): Promise<TestPeer> {
  const sockets = new Set<Socket>();
  const peer: TestPeer = { port: 0, url: '', connections: 0, requests: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      peer.requests.push({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() });
    });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    peer.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  peer.port = (server.address() as AddressInfo).port;
  peer.url = `http://${host.includes(':') ? `[${host}]` : host}:${peer.port}`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  peers.push(peer);
  return peer;
}

/** A client whose allow-list holds the directory place `http://<hostPort>/DirectoryPlace` of each `host:port` of `allow`. */
function client(allow: string[], extra: Partial<Parameters<typeof createPeerClient>[0]> = {}) {
  const c = createPeerClient({
    allowList: createPeerAllowList(allow.map((hostPort) => `http://${hostPort}/DirectoryPlace`)),
    credentials: { username: 'emissary', password: 'emissary123' },
    ...extra,
  });
  clients.push(c);
  return c;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(peers.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await Promise.all(peers.map((p) => p.close()));
});

describe('peer client', () => {
  it('authenticates end to end against the digest server (SHA-256), sending the form and X-Requested-By', async () => {
    const auth = createDigestAuthenticator({ realm: 'EmissaryRealm', users: new Map([['emissary', 'emissary123']]) });
    const app = express();
    app.post('/emissary/RegisterPeer.action', auth.middleware, express.urlencoded({ extended: false }), (req, res) => {
      res.type('text/plain').send(`${res.locals.digestUser} ${req.body.directoryName} ${req.get('x-requested-by')}`);
    });
    const peer = await startPeer(app);
    const c = client([`127.0.0.1:${peer.port}`]);
    const res = await c.post(
      `${peer.url}/emissary/RegisterPeer.action`,
      { directoryName: 'A.B.C.http://127.0.0.1:1/DirectoryPlace', targetDir: 'x' },
      {
        authenticate: true,
      },
    );
    expect(res).toMatchObject({ status: 200, body: 'emissary A.B.C.http://127.0.0.1:1/DirectoryPlace emissary' });
    expect(peer.requests).toHaveLength(2);
    expect(peer.requests[0]?.headers.authorization).toBeUndefined();
    expect(peer.requests[1]?.headers.authorization).toMatch(/^Digest .*algorithm=SHA-256/);
    expect(peer.requests[1]?.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
  });

  it('answers an MD5-only Digest challenge with MD5 when MD5 is configured', async () => {
    const auth = createDigestAuthenticator({ realm: 'R', users: new Map([['emissary', 'emissary123']]), algorithms: ['MD5'] });
    const app = express();
    app.post('/x', auth.middleware, (_req, res) => void res.send('ok'));
    const peer = await startPeer(app);
    const res = await client([`127.0.0.1:${peer.port}`], { algorithms: ['SHA-256', 'MD5'] }).post(
      `${peer.url}/x`,
      {},
      { authenticate: true },
    );
    expect(res.status).toBe(200);
    expect(peer.requests[1]?.headers.authorization).toMatch(/algorithm=MD5/);
  });

  it('refuses an MD5-only Digest challenge by default (SHA-256 only): PeerAuthError, no credentials sent', async () => {
    const auth = createDigestAuthenticator({ realm: 'R', users: new Map([['emissary', 'emissary123']]), algorithms: ['MD5'] });
    const app = express();
    app.post('/x', auth.middleware, (_req, res) => void res.send('ok'));
    const peer = await startPeer(app);
    const call = client([`127.0.0.1:${peer.port}`]).post(`${peer.url}/x`, {}, { authenticate: true });
    await expect(call).rejects.toThrow(PeerAuthError);
    await expect(call).rejects.toThrow(/Digest algorithms: MD5; accepted: SHA-256/);
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('answers with the most preferred configured algorithm the peer offers', async () => {
    const auth = createDigestAuthenticator({ realm: 'R', users: new Map([['emissary', 'emissary123']]), algorithms: ['SHA-256', 'MD5'] });
    const app = express();
    app.post('/x', auth.middleware, (_req, res) => void res.send('ok'));
    const peer = await startPeer(app);
    expect(
      (await client([`127.0.0.1:${peer.port}`], { algorithms: ['MD5', 'SHA-256'] }).post(`${peer.url}/x`, {}, { authenticate: true }))
        .status,
    ).toBe(200);
    expect(peer.requests[1]?.headers.authorization).toMatch(/algorithm=MD5/);
    expect(() => client([], { algorithms: [] })).toThrow(TypeError);
  });

  it('contacts only URLs under an allowed directory: not another scheme on the same host and port', async () => {
    const peer = await startPeer((_req, res) => res.end('ok'));
    const c = createPeerClient({
      allowList: createPeerAllowList([`http://127.0.0.1:${peer.port}/emissary/DirectoryPlace`]),
      credentials: { username: 'emissary', password: 'emissary123' },
    });
    clients.push(c);
    expect((await c.post(`${peer.url}/emissary/Heartbeat.action`, {})).status).toBe(200);
    await expect(c.post(`https://127.0.0.1:${peer.port}/emissary/Heartbeat.action`, {})).rejects.toThrow(PeerNotAllowedError);
    await expect(c.post(`${peer.url}/other/Heartbeat.action`, {})).rejects.toThrow(PeerNotAllowedError);
    await expect(c.post(`${peer.url}/emissary/../other/x`, {})).rejects.toThrow(PeerNotAllowedError);
    await settle();
    expect(peer.requests).toHaveLength(1);
  });

  it('without authenticate, a 401 is returned as is and no credentials are sent', async () => {
    const auth = createDigestAuthenticator({ realm: 'R', users: new Map([['emissary', 'emissary123']]) });
    const app = express();
    app.post('/x', auth.middleware, (_req, res) => void res.send('ok'));
    const peer = await startPeer(app);
    expect((await client([`127.0.0.1:${peer.port}`]).post(`${peer.url}/x`, {})).status).toBe(401);
    expect(peer.requests).toHaveLength(1);
  });

  it('throws PeerAuthError when the peer refuses our Digest answer (wrong password), after one retry', async () => {
    const auth = createDigestAuthenticator({ realm: 'R', users: new Map([['emissary', 'other']]) });
    const app = express();
    app.post('/x', auth.middleware, (_req, res) => void res.send('ok'));
    const peer = await startPeer(app);
    await expect(client([`127.0.0.1:${peer.port}`]).post(`${peer.url}/x`, {}, { authenticate: true })).rejects.toThrow(PeerAuthError);
    expect(peer.requests).toHaveLength(2);
  });

  it('a listening server that is not allow-listed receives no connection at all', async () => {
    const target = await startPeer((_req, res) => res.end('should never be reached'));
    const listed = await startPeer((_req, res) => res.end('ok'));
    const c = client([`127.0.0.1:${listed.port}`, `localhost:${listed.port}`]);
    const attempts = [
      `http://127.0.0.1:${target.port}/emissary/RegisterPeer.action`,
      `http://localhost:${target.port}/`,
      `http://LOCALHOST:${target.port}/`,
      `http://[::ffff:127.0.0.1]:${target.port}/`,
      `http://2130706433:${target.port}/`,
      `http://emissary:emissary123@127.0.0.1:${listed.port}/`,
      `ftp://127.0.0.1:${listed.port}/`,
      'file:///etc/passwd',
    ];
    for (const url of attempts) {
      await expect(c.post(url, { a: 'b' }, { authenticate: true }), url).rejects.toThrow(PeerNotAllowedError);
    }
    await settle();
    expect(target.connections).toBe(0);
    expect(listed.connections).toBe(0);
  });

  it('accepts case and default-port variants of an allowed host', async () => {
    const peer = await startPeer((_req, res) => res.end('ok'));
    const c = client([`localhost:${peer.port}`]);
    expect((await c.post(`http://LocalHost:${peer.port}/x`, {})).status).toBe(200);
  });

  it('a peer asking for Basic gets no credentials at all', async () => {
    const peer = await startPeer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="EmissaryRealm"' }).end('who are you');
    });
    const c = client([`127.0.0.1:${peer.port}`]);
    const error = await c.post(`${peer.url}/emissary/RegisterPeer.action`, { a: 'b' }, { authenticate: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerAuthError);
    await settle();
    expect(peer.requests).toHaveLength(1);
    expect(peer.requests[0]?.headers.authorization).toBeUndefined();
    expect(JSON.stringify(peer.requests)).not.toContain('emissary123');
    expect(JSON.stringify(peer.requests)).not.toContain(Buffer.from('emissary:emissary123').toString('base64'));
  });

  it('a peer offering Basic and an unusable Digest (auth-int only) gets no credentials either', async () => {
    const peer = await startPeer((_req, res) => {
      res.setHeader('www-authenticate', ['Basic realm="R"', 'Digest realm="R", qop="auth-int", nonce="n"']);
      res.writeHead(401).end();
    });
    await expect(client([`127.0.0.1:${peer.port}`]).post(`${peer.url}/x`, {}, { authenticate: true })).rejects.toThrow(PeerAuthError);
    expect(peer.requests).toHaveLength(1);
  });

  it('a redirect is returned as is; its target (listening, even allow-listed) receives no request', async () => {
    const target = await startPeer((_req, res) => res.end('followed'));
    const peer = await startPeer((_req, res) => {
      res.writeHead(307, { location: `${target.url}/steal` }).end();
    });
    const c = client([`127.0.0.1:${peer.port}`, `127.0.0.1:${target.port}`]);
    const res = await c.post(`${peer.url}/x`, { a: 'b' }, { authenticate: true });
    expect(res.status).toBe(307);
    expect(res.headers.location).toBe(`${target.url}/steal`);
    await settle();
    expect(target.connections).toBe(0);
  });

  it('a peer that never answers gives PeerTimeoutError within the bound', async () => {
    const peer = await startPeer(() => {});
    const c = client([`127.0.0.1:${peer.port}`], { responseTimeoutMs: 300 });
    const started = performance.now();
    const error = await c.post(`${peer.url}/x`, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PeerTimeoutError);
    expect((error as PeerTimeoutError).phase).toBe('response');
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it('a peer that stalls mid-body also times out', async () => {
    const peer = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    const c = client([`127.0.0.1:${peer.port}`], { responseTimeoutMs: 300 });
    await expect(c.post(`${peer.url}/x`, {})).rejects.toThrow(PeerTimeoutError);
  });

  it('an oversized answer is cut: streamed or declared', async () => {
    let written = 0;
    let finished = false;
    const streaming = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const pump = () => {
        while (written < 50 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) {
            res.once('drain', pump);
            return;
          }
        }
        finished = true;
        res.end();
      };
      res.on('error', () => {});
      pump();
    });
    const c = client([`127.0.0.1:${streaming.port}`], { maxResponseBytes: 1024 });
    await expect(c.post(`${streaming.url}/x`, {})).rejects.toThrow(PeerResponseTooLargeError);
    await settle();
    expect(finished).toBe(false);

    const declared = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-length': 4096 }).end(Buffer.alloc(4096));
    });
    const d = client([`127.0.0.1:${declared.port}`], { maxResponseBytes: 1024 });
    await expect(d.post(`${declared.url}/x`, {})).rejects.toThrow(PeerResponseTooLargeError);
    const roomy = client([`127.0.0.1:${declared.port}`], { maxResponseBytes: 4096 });
    expect((await roomy.post(`${declared.url}/x`, {})).body).toHaveLength(4096);
  });

  it('refuses caller-set authorization and x-requested-by headers', async () => {
    const peer = await startPeer((_req, res) => res.end('ok'));
    const c = client([`127.0.0.1:${peer.port}`]);
    await expect(c.post(`${peer.url}/x`, {}, { headers: { Authorization: 'Basic x' } })).rejects.toThrow(TypeError);
    await expect(c.post(`${peer.url}/x`, {}, { headers: { 'X-Requested-By': 'x' } })).rejects.toThrow(TypeError);
    expect((await c.post(`${peer.url}/x`, {}, { headers: { 'x-request-id': 'abc' } })).status).toBe(200);
    expect(peer.requests[0]?.headers['x-request-id']).toBe('abc');
  });

  it('works with an IPv6 loopback peer listed as [::1]:port', async () => {
    const peer = await startPeer((_req, res) => res.end('v6'), '::1').catch(() => undefined);
    if (peer === undefined) return; // no IPv6 loopback here
    const c = client([`[::1]:${peer.port}`]);
    expect((await c.post(`http://[0:0::1]:${peer.port}/`, {})).body).toBe('v6');
    await expect(c.post(`http://127.0.0.1:${peer.port}/`, {})).rejects.toThrow(PeerNotAllowedError);
  });
});
