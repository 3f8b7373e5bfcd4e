import { randomBytes } from 'node:crypto';
import {
  createTestDatabase,
  freePort,
  ProcessStack,
  type RunningProcess,
  type TestDatabase,
  waitFor,
} from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { digestGet, digestPost as digestPostAs, latin1Form, postForm as post } from './support/digest-form.ts';

const peerMain = new URL('../services/peer-svc/src/main.ts', import.meta.url).pathname;
const gatewayMain = new URL('../services/gateway/src/main.ts', import.meta.url).pathname;

const REALM = 'EmissaryRealm';
const USER = 'emissary';
const PASSWORD = 'e2e-peer-secret';
const CREDENTIALS = { user: USER, password: PASSWORD };
/** POSTs a form with the suite's Digest credentials. */
const digestPost = (baseUrl: string, path: string, body: string) => digestPostAs(baseUrl, path, body, CREDENTIALS);

/** A peer's directory entries as `GET /emissary/directory` shows them: key → expense and source. */
async function directoryOf(peer: Peer): Promise<Map<string, { expense: number; source: string }>> {
  const res = await digestGet(`http://127.0.0.1:${peer.port}`, '/emissary/directory', CREDENTIALS);
  expect(res.status).toBe(200);
  const view = JSON.parse(res.body) as { entry_lists: { entries: { key: string; expense: number; source: string }[] }[] };
  return new Map(
    view.entry_lists.flatMap((list) => list.entries.map((entry) => [entry.key, { expense: entry.expense, source: entry.source }])),
  );
}

/** Each peer's places (`DIRECTORY_PLACES`): an INPUT place (cost 10 + index, quality 90) and a TRANSFORM place (never transferred). */
const placesOf = (port: number, index: number) => ({
  study: `EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.http://127.0.0.1:${port}/DirectoryPlace`,
  input: `INITIAL.FILE_PICK_UP.INPUT.http://127.0.0.1:${port}/FilePickUpPlace`,
  inputCost: 10 + index,
  transform: `UNKNOWN.TO_UPPER.TRANSFORM.http://127.0.0.1:${port}/ToUpperPlace`,
});

interface PeerRow {
  key: string;
  url: string;
  state: string;
  missed: number;
  last_heartbeat_at: Date | null;
  registered_at: Date | null;
}

/** One peer-svc process with its own database (and a pg pool to read its `peer` schema). */
interface Peer {
  name: string;
  port: number;
  selfUrl: string;
  key: string;
  db: TestDatabase;
  pool: pg.Pool;
  env: Record<string, string>;
  process?: RunningProcess;
}

async function peersOf(peer: Peer): Promise<Map<string, PeerRow>> {
  const { rows } = await peer.pool.query<PeerRow>('select key, url, state, missed, last_heartbeat_at, registered_at from peer.peer');
  return new Map(rows.map((row) => [row.url, row]));
}

/** Starts `peer`'s process (again) and registers its stop in `processes`. */
async function startPeer(processes: ProcessStack, peer: Peer): Promise<RunningProcess> {
  peer.process = await processes.start(peerMain, peer.env, `http://127.0.0.1:${peer.port}/readyz`);
  return peer.process;
}

describe('three peer-svc processes and the gateway, on PostgreSQL and RabbitMQ', () => {
  const peers: Peer[] = [];
  const queue = `e2e_peer_${randomBytes(6).toString('hex')}`;
  const clientPlace = 'e2e-pickup-client';
  const processes = new ProcessStack();
  let gatewayUrl: string;
  let amqp: amqplib.ChannelModel | undefined;

  /** A fourth process, started by its test: a child directory of A (`PEER_PARENT`). */
  let child: Peer;

  beforeAll(async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    const childPort = await freePort();
    // A also allows its child-to-be.
    const allowList = [...ports, childPort].map((port) => `http://127.0.0.1:${port}/DirectoryPlace`).join(',');
    for (const [index, port] of ports.entries()) {
      const name = ['a', 'b', 'c'][index] ?? 'x';
      const db = await createTestDatabase(inject('databaseUrl'), `e2e_peer_${name}`);
      processes.defer(() => db.drop());
      const pool = new pg.Pool({ connectionString: db.url, max: 2 });
      processes.defer(() => pool.end().catch(() => undefined));
      const selfUrl = `http://127.0.0.1:${port}/DirectoryPlace`;
      peers.push({
        name,
        port,
        selfUrl,
        key: `*.*.*.${selfUrl}`,
        db,
        pool,
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: db.url,
          LOG_LEVEL: 'warn',
          AMQP_URL: inject('amqpUrl'),
          DIGEST_REALM: REALM,
          PEER_USERS: `${USER}:${PASSWORD}`,
          PEER_CLIENT_USER: USER,
          PEER_CLIENT_PASSWORD: PASSWORD,
          PEER_ALLOW_LIST: allowList,
          // The gateway's clients here (support/digest-form.ts) answer MD5 challenges only.
          DIGEST_ALGORITHMS: 'SHA-256,MD5',
          PEER_SELF_URL: selfUrl,
          // Each peer's rendezvous peers are the two others: failed peers are then kept (and observable), not dropped.
          PEER_RENDEZVOUS: ports
            .filter((other) => other !== port)
            .map((other) => `http://127.0.0.1:${other}/DirectoryPlace`)
            .join(','),
          PEER_CONNECT_TIMEOUT_MS: '500',
          PEER_RESPONSE_TIMEOUT_MS: '1000',
          HEARTBEAT_INTERVAL_MS: '200',
          HEARTBEAT_UNHEALTHY_AFTER: '3',
          HEARTBEAT_FAILED_AFTER: '20',
          CLIENT_PLACES: `${clientPlace}=${queue}`,
          DIRECTORY_PLACES: `${placesOf(port, index).input}|${placesOf(port, index).inputCost}|90|pick up;${placesOf(port, index).transform}|20|90`,
        },
      });
    }
    const childDb = await createTestDatabase(inject('databaseUrl'), 'e2e_peer_child');
    processes.defer(() => childDb.drop());
    const childPool = new pg.Pool({ connectionString: childDb.url, max: 2 });
    processes.defer(() => childPool.end().catch(() => undefined));
    const childSelf = `http://127.0.0.1:${childPort}/DirectoryPlace`;
    const parentEnv = (peers[0] as Peer).env;
    child = {
      name: 'child',
      port: childPort,
      selfUrl: childSelf,
      key: `*.*.*.${childSelf}`,
      db: childDb,
      pool: childPool,
      env: {
        ...parentEnv,
        PORT: String(childPort),
        DATABASE_URL: childDb.url,
        PEER_SELF_URL: childSelf,
        PEER_ALLOW_LIST: (peers[0] as Peer).selfUrl,
        PEER_RENDEZVOUS: '',
        PEER_PARENT: (peers[0] as Peer).selfUrl,
        DIRECTORY_PLACES: `${placesOf(childPort, 3).input}|${placesOf(childPort, 3).inputCost}|90|pick up;${placesOf(childPort, 3).transform}|20|90`,
      },
    };
    // allSettled: a peer that fails to start must not leave the others starting after afterAll ran.
    const started = await Promise.allSettled(peers.map((peer) => startPeer(processes, peer)));
    for (const result of started) if (result.status === 'rejected') throw result.reason;
    const gateway = await processes.service(gatewayMain, { PEER_SVC_URL: `http://127.0.0.1:${ports[0]}` }, { readyPath: '/healthz' });
    gatewayUrl = gateway.url;
    const connection = await amqplib.connect(inject('amqpUrl'));
    amqp = connection;
    processes.defer(async () => {
      const channel = await connection.createChannel().catch(() => undefined);
      await channel?.deleteQueue(queue).catch(() => undefined);
      await connection.close().catch(() => undefined);
    });
  });

  afterAll(() => processes.disposeAsync());

  it("register with each other and learn one another's places, heartbeat, see one killed (unhealthy, then failed: its entries gone) and re-register it with its entries when it is back", {
    timeout: 120_000,
  }, async () => {
    const [a, b, c] = peers as [Peer, Peer, Peer];
    const upEverywhere = async () => {
      for (const peer of peers) {
        const rows = await peersOf(peer);
        for (const other of peers) {
          if (other === peer) continue;
          const row = rows.get(other.selfUrl);
          if (row?.state !== 'up' || row.registered_at === null || row.last_heartbeat_at === null) return false;
          expect(row.key).toBe(other.key);
        }
        expect(rows.has(peer.selfUrl)).toBe(false);
      }
      return true;
    };
    await waitFor(upEverywhere, 15_000);

    // Heartbeats keep arriving: A's record of B's last heartbeat moves on.
    const before = (await peersOf(a)).get(b.selfUrl)?.last_heartbeat_at?.getTime() ?? 0;
    await waitFor(async () => ((await peersOf(a)).get(b.selfUrl)?.last_heartbeat_at?.getTime() ?? 0) > before, 5_000);

    // Everyone holds the two others' STUDY and INPUT entries at the remote expense (cost + 1000), never their TRANSFORM.
    const learnedEverywhere = async () => {
      for (const peer of peers) {
        const seen = await directoryOf(peer);
        for (const [index, other] of peers.entries()) {
          if (other === peer) continue;
          const places = placesOf(other.port, index);
          const source = other.key;
          if (seen.get(places.study)?.source !== source || seen.get(places.input)?.source !== source) return false;
          expect(seen.get(places.study)?.expense).toBe(105_050);
          expect(seen.get(places.input)?.expense).toBe((places.inputCost + 1000) * 100 + 100 - 90);
          expect(seen.has(places.transform)).toBe(false);
        }
      }
      return true;
    };
    await waitFor(learnedEverywhere, 15_000);
    const placesOfC = placesOf(c.port, 2);

    // C is killed (no clean stop: it cannot tell anyone).
    expect(await c.process?.stop('SIGKILL')).toBeNull();
    const stateOfC = async (peer: Peer) => (await peersOf(peer)).get(c.selfUrl);
    for (const peer of [a, b]) {
      const unhealthy = await waitFor(async () => {
        const row = await stateOfC(peer);
        return row?.state === 'unhealthy' ? row : undefined;
      }, 10_000);
      expect(unhealthy.missed).toBeGreaterThanOrEqual(3);
      expect(unhealthy.missed).toBeLessThan(20);
    }
    for (const peer of [a, b]) {
      const failed = await waitFor(async () => {
        const row = await stateOfC(peer);
        return row?.state === 'failed' ? row : undefined;
      }, 15_000);
      expect(failed.missed).toBeGreaterThanOrEqual(20);
      // Failed: C's entries are gone from the peer.
      const seen = await directoryOf(peer);
      expect(seen.has(placesOfC.study)).toBe(false);
      expect(seen.has(placesOfC.input)).toBe(false);
    }

    const { rows } = await a.pool.query<{ now: Date }>('select now() as now');
    const restartedAt = rows[0]?.now.getTime() ?? Date.now();
    await startPeer(processes, c);
    for (const peer of [a, b]) {
      const back = await waitFor(async () => {
        const row = await stateOfC(peer);
        return row?.state === 'up' && (row.registered_at?.getTime() ?? 0) >= restartedAt ? row : undefined;
      }, 15_000);
      expect(back.missed).toBe(0);
    }
    await waitFor(upEverywhere, 15_000);
    // Back: its entries come back with the re-registration's zone transfer.
    await waitFor(learnedEverywhere, 15_000);
  });

  it("a child of A has its INPUT place proxied by A at A's peers; killed, the proxies go after A fails it, and come back with it", {
    timeout: 90_000,
  }, async () => {
    const [a, b, c] = peers as [Peer, Peer, Peer];
    // The proxy: the child's data type, service name and type at A's directory place; at A the child's cost + 1000, at
    // A's peers + 1000 again, learned from A. The child's own address is known to A alone.
    const proxy = `INITIAL.FILE_PICK_UP.INPUT.${a.selfUrl}`;
    const childPlaces = placesOf(child.port, 3);
    const expenseOf = (cost: number) => cost * 100 + 100 - 90;
    const proxiedEverywhere = async () => {
      if ((await directoryOf(a)).get(proxy)?.source !== child.key) return false;
      for (const peer of [b, c]) if ((await directoryOf(peer)).get(proxy)?.source !== a.key) return false;
      return true;
    };
    await startPeer(processes, child);
    await waitFor(proxiedEverywhere, 15_000);
    expect((await directoryOf(a)).get(proxy)?.expense).toBe(expenseOf(childPlaces.inputCost + 1000));
    for (const peer of [b, c]) {
      const seen = await directoryOf(peer);
      expect(seen.get(proxy)?.expense).toBe(expenseOf(childPlaces.inputCost + 2000));
      expect([...seen.keys()].some((key) => key.includes(`//127.0.0.1:${child.port}/`))).toBe(false);
    }
    const { rows: roles } = await a.pool.query<{ role: string; state: string }>('select role, state from peer.peer where url = $1', [
      child.selfUrl,
    ]);
    expect(roles).toEqual([{ role: 'child', state: 'up' }]);

    // Killed: A fails it by heartbeats (20 × 200 ms), removes its proxies and tells its peers (DeregisterPlace).
    expect(await child.process?.stop('SIGKILL')).toBeNull();
    const holders = async () =>
      (await Promise.all([a, b, c].map(async (peer) => [peer.name, (await directoryOf(peer)).get(proxy)?.source] as const))).filter(
        ([, source]) => source !== undefined,
      );
    await waitFor(async () => (await holders()).length === 0, 20_000).catch(async (error: unknown) => {
      // Say who still holds it, from whom, and what A records of the child.
      const { rows } = await a.pool.query('select role, state, missed from peer.peer where url = $1', [child.selfUrl]);
      throw new Error(`proxy still held: ${JSON.stringify(await holders())}; A's record of the child: ${JSON.stringify(rows)}`, {
        cause: error,
      });
    });
    await startPeer(processes, child);
    await waitFor(proxiedEverywhere, 15_000);
  });

  it('a peer stopping cleanly tells the others, which fail it and drop its entries before it has exited', async () => {
    const [a, b, c] = peers as [Peer, Peer, Peer];
    const placesOfB = placesOf(b.port, 1);
    expect(await b.process?.stop()).toBe(0);
    // No waiting: B's FailDirectory was answered before it closed HTTP, far sooner than 20 missed heartbeats (4 s).
    for (const peer of [a, c]) {
      const row = (await peersOf(peer)).get(b.selfUrl);
      expect(row?.state).toBe('failed');
      const seen = await directoryOf(peer);
      expect(seen.has(placesOfB.study)).toBe(false);
      expect(seen.has(placesOfB.input)).toBe(false);
    }
    await startPeer(processes, b);
    await waitFor(async () => {
      for (const peer of [a, c]) if ((await directoryOf(peer)).get(placesOfB.input)?.source !== b.key) return false;
      return true;
    }, 15_000);
  });

  it('carries a work bundle with ISO-8859-1 text through the gateway to the client place queue, intact', async () => {
    const bundle = {
      bundleId: `e2e-${randomBytes(8).toString('hex')}`,
      outputRoot: 'data/sortie/été',
      eatPrefix: 'data/entrée',
      caseId: 'Müller & Søn - «déjà vu» ½ ©',
      sentTo: 'Ærøskøbing',
      errorCount: 0,
      priority: 5,
      simpleMode: false,
      oldestFileModificationTime: 1_700_000_000_000,
      youngestFileModificationTime: 1_700_000_100_000,
      totalFileSize: 4096,
      workUnits: [
        { fileName: 'dossier/façade.txt', transactionId: 'tx-ñ-1', failedToParse: false, failedToProcess: false },
        { fileName: 'Grüße/über ÿ.bin', transactionId: null, failedToParse: true, failedToProcess: false },
      ],
    };
    const tpObj = JSON.stringify(bundle);
    const expected = JSON.parse(tpObj);
    const res = await digestPost(gatewayUrl, '/WorkSpaceClientEnqueue.action', latin1Form({ pickUpClientName: clientPlace, tpObj }));
    expect(res).toMatchObject({ status: 200, body: 'Successful add to the PickUpPlaceClient queue' });
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');

    const channel = await (amqp as amqplib.ChannelModel).createChannel();
    try {
      const message = await waitFor(async () => (await channel.get(queue, { noAck: true })) || undefined, 5_000);
      expect(message.properties.contentType).toBe('application/json');
      expect(message.properties.deliveryMode).toBe(2);
      expect(JSON.parse(message.content.toString('utf8'))).toEqual(expected);
      expect(await channel.get(queue, { noAck: true })).toBe(false);
      await channel.deleteQueue(queue);
    } finally {
      await channel.close();
    }
  });

  it('answers the refusals through the gateway with the exact status and body', async () => {
    const path = '/WorkSpaceClientEnqueue.action';
    const validTpObj = JSON.stringify({ bundleId: 'e2e-refusals', workUnits: [{ fileName: 'a.txt' }] });

    const noRequestedBy = await post(`${gatewayUrl}${path}`, latin1Form({ pickUpClientName: clientPlace, tpObj: validTpObj }), {});
    expect(noRequestedBy).toMatchObject({ status: 400, body: 'Missing X-Requested-By header' });

    const javaStream = '\u00ac\u00ed\u0000\u0005sr\u0000\u0013emissary.WorkBundle';
    const serialized = await digestPost(gatewayUrl, path, latin1Form({ pickUpClientName: clientPlace, tpObj: javaStream }));
    expect(serialized).toMatchObject({ status: 400, body: 'Cannot deserialize WorkBundle' });

    const unknown = await digestPost(gatewayUrl, path, latin1Form({ pickUpClientName: 'no-such-place', tpObj: validTpObj }));
    expect(unknown).toMatchObject({ status: 404, body: 'No client place found using name no-such-place' });

    const noCredentials = await post(`${gatewayUrl}${path}`, latin1Form({ pickUpClientName: clientPlace, tpObj: validTpObj }), {
      'x-requested-by': 'e2e',
    });
    expect(noCredentials).toMatchObject({ status: 401, body: 'Unauthorized' });
    expect(noCredentials.headers.get('www-authenticate')).toMatch(/^Digest realm="EmissaryRealm", qop="auth", algorithm=SHA-256, /);
  });
});
