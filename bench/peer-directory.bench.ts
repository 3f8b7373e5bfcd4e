/**
 * `node bench/peer-directory.bench.ts`: the directory exchange of peer-svc, in this process on fresh databases.
 *
 * - registration with zone transfer: two fresh peers A and B, each with BENCH_PLACES INITIAL::INPUT places (and the
 *   directory place's own entry); `registerWith` from A to B, which includes B's call-back RegisterPeer to A and both
 *   zone transfers (XML read, filtered, written to `peer.directory_entry` with their outbox events), timed until it
 *   resolves; median of BENCH_REGISTRATIONS runs, each on two new peers.
 * - heartbeat rounds with 100 known peers: one peer with 100 peers recorded `up` in its table, all directory places of
 *   one minimal HTTP server on loopback that answers every heartbeat 200 at once; one `beatOnce()` (HEARTBEAT_CONCURRENCY
 *   default 8) is timed, BENCH_ROUNDS rounds, and heartbeats/s = 100 / the round's duration.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may CREATE
 * DATABASE), BENCH_REGISTRATIONS (5), BENCH_PLACES (50), BENCH_ROUNDS (10).
 */

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { loadPeerConfig } from '@switchyard/peer-svc/config';
import { type RunningPeer, startPeerService } from '@switchyard/peer-svc/start';
import { createLogger } from '@switchyard/service-kit';
import { createTestDatabase, freePort, type TestDatabase } from '@switchyard/service-kit/testing';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const registrations = Number(process.env.BENCH_REGISTRATIONS ?? 5);
const places = Number(process.env.BENCH_PLACES ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const KNOWN_PEERS = 100;
const USER = { username: 'bench', password: 'bench-directory-secret' };
const logger = createLogger('peer-svc', 'error');

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
const ms = (value: number) => value.toFixed(1);

/** A peer-svc in this process on a fresh database; `close()` stops it and drops the database. */
async function startPeer(
  label: string,
  port: number,
  env: Record<string, string>,
): Promise<{ peer: RunningPeer; close: () => Promise<void> }> {
  const database: TestDatabase = await createTestDatabase(adminUrl, label);
  const config = loadPeerConfig({
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    PORT: String(port),
    PEER_SELF_URL: `http://127.0.0.1:${port}/DirectoryPlace`,
    PEER_USERS: `${USER.username}:${USER.password}`,
    PEER_CLIENT_USER: USER.username,
    PEER_CLIENT_PASSWORD: USER.password,
    HEARTBEAT_INTERVAL_MS: '3600000',
    PEER_LEAVE_TIMEOUT_MS: '0',
    ...env,
  });
  const peer = await startPeerService(config, logger);
  return {
    peer,
    close: async () => {
      await peer.close();
      await database.drop();
    },
  };
}

const placesFor = (port: number) =>
  Array.from(
    { length: places },
    (_, i) => `INITIAL.PICK_UP_${i}.INPUT.http://127.0.0.1:${port}/PickUp${i}Place|${10 + i}|90|place ${i}`,
  ).join(';');

// --- registration with zone transfer between two fresh peers -------------------------------------------------
const registrationTimes: number[] = [];
let learned = 0;
for (let run = 0; run < registrations; run += 1) {
  const [portA, portB] = [await freePort(), await freePort()];
  const allow = `http://127.0.0.1:${portA}/DirectoryPlace,http://127.0.0.1:${portB}/DirectoryPlace`;
  const a = await startPeer('bench_dir_a', portA, { PEER_ALLOW_LIST: allow, DIRECTORY_PLACES: placesFor(portA) });
  const b = await startPeer('bench_dir_b', portB, { PEER_ALLOW_LIST: allow, DIRECTORY_PLACES: placesFor(portB) });
  try {
    const t0 = performance.now();
    await a.peer.registrar.registerWith(`http://127.0.0.1:${portB}/DirectoryPlace`);
    registrationTimes.push(performance.now() - t0);
    learned = (await a.peer.entries.listEntries()).filter((row) => row.source !== 'local').length;
  } finally {
    await a.close();
    await b.close();
  }
}

// --- heartbeat rounds with 100 known peers ---------------------------------------------------------------------
const responder = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
});
await new Promise<void>((resolve) => responder.listen(0, '127.0.0.1', resolve));
const responderPort = (responder.address() as AddressInfo).port;
const urls = Array.from({ length: KNOWN_PEERS }, (_, i) => `http://127.0.0.1:${responderPort}/p${i}/DirectoryPlace`);
const hub = await startPeer('bench_dir_hub', await freePort(), { PEER_ALLOW_LIST: urls.join(',') });
const roundTimes: number[] = [];
try {
  for (const url of urls) {
    await hub.peer.store.savePeer({ key: `*.*.*.${url}`, url, origin: new URL(url).origin, state: 'up', missed: 0, registered: true });
  }
  await hub.peer.heartbeats.beatOnce(); // warm-up: connections opened
  for (let round = 0; round < rounds; round += 1) {
    const t0 = performance.now();
    await hub.peer.heartbeats.beatOnce();
    roundTimes.push(performance.now() - t0);
  }
  const states = new Set((await hub.peer.store.listPeers()).map((peer) => peer.state));
  if (states.size !== 1 || !states.has('up')) throw new Error(`peers not all up after the rounds: ${[...states].join(', ')}`);
} finally {
  await hub.close();
  responder.closeAllConnections();
  await new Promise<void>((resolve) => responder.close(() => resolve()));
}

process.stdout.write(
  `\npeer-svc directory benchmark: Node ${process.versions.node}, peers in this process (LOG_LEVEL=error), PostgreSQL ${new URL(adminUrl).host}\n\n` +
    `registration with zone transfer (A registerWith B, B's call-back included; ${places} INPUT places each, ${learned} entries learned by A), ${registrations} runs:\n` +
    `  median ${ms(median(registrationTimes))} ms  (runs: ${registrationTimes.map(ms).join(', ')})\n` +
    `heartbeat round, ${KNOWN_PEERS} known peers, HEARTBEAT_CONCURRENCY 8, ${rounds} rounds:\n` +
    `  median round ${ms(median(roundTimes))} ms = ${Math.round((KNOWN_PEERS * 1000) / median(roundTimes))} heartbeats/s  (rounds: ${roundTimes.map(ms).join(', ')})\n`,
);
