import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { directoryPlaceEntry } from '../src/directory/directory-entry.policy.ts';
import { directoryXml } from '../src/directory/directory-xml.mapper.ts';
import { DIRECTORY_KEY_PREFIX } from '../src/registry/registrar.service.ts';

/**
 * A fake host of directory places on one loopback port: each directory place `http://127.0.0.1:<port><base>DirectoryPlace`
 * answers `<base>emissary/Heartbeat.action`, `<base>emissary/RegisterPeer.action` and `…/TransferDirectory.action` with
 * 200 (RegisterPeer and TransferDirectory: its directory as XML, holding only its own entry), unless its base is in
 * `failing` (500). Heartbeats to a base in `slow` take `slowMs`. Every request path is recorded in `requests`, and the
 * most heartbeats in flight at once in `maxInFlight`.
 */
export interface FakeDirectoryServer {
  port: number;
  /** `http://127.0.0.1:<port><base>DirectoryPlace`; `base` starts and ends with `/`. */
  directoryUrl(base?: string): string;
  requests: string[];
  failing: Set<string>;
  slow: Set<string>;
  slowMs: number;
  maxInFlight: number;
  close(): Promise<void>;
}

/** Starts a {@link FakeDirectoryServer} on a free loopback port. */
export async function startFakeDirectoryServer(): Promise<FakeDirectoryServer> {
  let inFlight = 0;
  const fake: FakeDirectoryServer = {
    port: 0,
    directoryUrl: (base = '/') => `http://127.0.0.1:${fake.port}${base}DirectoryPlace`,
    requests: [],
    failing: new Set(),
    slow: new Set(),
    slowMs: 100,
    maxInFlight: 0,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '';
    fake.requests.push(path);
    req.resume();
    const match = /^(.*\/)emissary\/(Heartbeat|RegisterPeer|TransferDirectory)\.action$/.exec(path);
    const base = match?.[1] ?? '';
    const answer = () => {
      if (match === null || fake.failing.has(base)) res.writeHead(500).end('no');
      else if (match[2] === 'RegisterPeer' || match[2] === 'TransferDirectory') {
        const key = `${DIRECTORY_KEY_PREFIX}${fake.directoryUrl(base)}`;
        const entry = directoryPlaceEntry(key);
        res.writeHead(200, { 'content-type': 'application/xml' }).end(directoryXml(key, [{ dataId: entry.dataId, entries: [entry] }]));
      } else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    };
    if (match?.[2] === 'Heartbeat' && fake.slow.has(base)) {
      inFlight += 1;
      fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        answer();
      }, fake.slowMs);
      return;
    }
    answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.port = (server.address() as AddressInfo).port;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
