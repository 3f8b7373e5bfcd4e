/**
 * `node bench/peer.bench.ts`: throughput and latency of peer-svc through the gateway, and the time of one
 * registration between two peers. It makes fresh databases, starts peer-svc and the gateway as their own
 * processes (LOG_LEVEL=warn) and measures, each scenario after a warm-up, with a bounded concurrent loop of
 * keep-alive HTTP/1.1 workers (one request in flight per worker):
 *
 * - `POST /emissary/Heartbeat.action` through the gateway from an allow-listed, known sender (no authentication);
 * - `POST /WorkSpaceClientEnqueue.action` through the gateway with HTTP Digest (SHA-256, qop=auth; each worker
 *   takes one nonce from a 401 challenge and then counts `nc` up, a fresh `cnonce` per request), 1-unit and
 *   1,024-unit bundles, published to a queue of the local RabbitMQ named for this run (purged after each
 *   scenario, deleted at the end; the messages counted there must equal the 200 answers);
 * - the same two scenarios directly against peer-svc, to show what the gateway costs;
 * - registration: two fresh peer-svc processes per run, `RegisterPeer` to A naming B (Digest), timed until
 *   the answer and until both databases show the other peer `up`; median of BENCH_REGISTRATIONS runs.
 *
 * Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres, a user that may
 * CREATE DATABASE), BENCH_AMQP_URL (amqp://guest:guest@127.0.0.1:5672), BENCH_DURATION seconds per
 * measurement (10), BENCH_CONNECTIONS concurrent workers (32), BENCH_REGISTRATIONS runs (5).
 */

import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, freePort, type RunningProcess, startProcess, type TestDatabase } from '@switchyard/service-kit/testing';
import amqplib from 'amqplib';
import pg from 'pg';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const amqpUrl = process.env.BENCH_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const duration = Number(process.env.BENCH_DURATION ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const registrations = Number(process.env.BENCH_REGISTRATIONS ?? 5);
const WARMUP_SECONDS = 3;
const UNITS_LARGE = 1024;
const root = new URL('../', import.meta.url);
const peerMain = new URL('services/peer-svc/src/main.ts', root).pathname;
const gatewayMain = new URL('services/gateway/src/main.ts', root).pathname;

const REALM = 'EmissaryRealm';
const USER = { username: 'bench', password: randomBytes(12).toString('hex') };
const DIRECTORY_KEY_PREFIX = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.';
const CLIENT_PLACE = 'benchPickUpClient';
const runId = randomBytes(4).toString('hex');
const queueName = `bench_peer_${runId}`;

const processes: RunningProcess[] = [];
const databases: TestDatabase[] = [];

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  challenges: string[];
  body: string;
}

/** One POST of a form body on `agent`; the body is read in full. */
function post(agent: http.Agent, port: number, path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': String(Buffer.byteLength(body)),
          'x-requested-by': 'peer-bench',
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            challenges: res.headersDistinct['www-authenticate'] ?? [],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** A Digest client on one nonce (RFC 7616, SHA-256, qop=auth): `nc` strictly increasing, a fresh `cnonce` each time. */
class DigestSession {
  private nonce = '';
  private opaque = '';
  private nc = 0;
  reauths = 0;

  /** Takes the SHA-256 challenge of a 401; false when there is none. */
  accept(challenges: readonly string[]): boolean {
    const line = challenges.find((c) => /algorithm=SHA-256/i.test(c));
    const nonce = line && /nonce="([^"]+)"/.exec(line)?.[1];
    const opaque = line && /opaque="([^"]+)"/.exec(line)?.[1];
    if (!nonce || !opaque) return false;
    this.nonce = nonce;
    this.opaque = opaque;
    this.nc = 0;
    return true;
  }

  get ready(): boolean {
    return this.nonce !== '';
  }

  header(method: string, uri: string): string {
    this.nc += 1;
    const nc = this.nc.toString(16).padStart(8, '0');
    const cnonce = randomBytes(8).toString('hex');
    const ha1 = sha256(`${USER.username}:${REALM}:${USER.password}`);
    const ha2 = sha256(`${method}:${uri}`);
    const response = sha256(`${ha1}:${this.nonce}:${nc}:${cnonce}:auth:${ha2}`);
    return (
      `Digest username="${USER.username}", realm="${REALM}", nonce="${this.nonce}", uri="${uri}", ` +
      `algorithm=SHA-256, qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}", opaque="${this.opaque}"`
    );
  }
}

/** POST with Digest: on a 401 take its challenge and retry once (the first request of a session, or a stale nonce). */
async function postDigest(session: DigestSession, agent: http.Agent, port: number, path: string, body: string): Promise<Answer> {
  if (session.ready) {
    const answer = await post(agent, port, path, body, { authorization: session.header('POST', path) });
    if (answer.status !== 401) return answer;
    session.reauths += 1;
    if (!session.accept(answer.challenges)) return answer;
  } else {
    const challenge = await post(agent, port, path, '', {});
    if (!session.accept(challenge.challenges)) return challenge;
  }
  return post(agent, port, path, body, { authorization: session.header('POST', path) });
}

interface Measured {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
  firstError?: string;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);

/** Runs `connections` workers, each calling `request` back to back for `seconds`; latency per request in ms. */
async function measure(seconds: number, request: (worker: number, agent: http.Agent) => Promise<Answer>): Promise<Measured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async (_, worker) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          const answer = await request(worker, agent);
          if (answer.status !== 200) {
            errors += 1;
            firstError ??= `${answer.status} ${answer.body.slice(0, 120)}`;
            continue;
          }
        } catch (error) {
          errors += 1;
          firstError ??= String(error);
          continue;
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
    ...(firstError === undefined ? {} : { firstError }),
  };
}

/** peer-svc on a fresh database and a free loopback port, as its own process. */
async function startPeer(label: string, env: Record<string, string>, reserved?: number) {
  const database = await createTestDatabase(adminUrl, label);
  databases.push(database);
  const port = reserved ?? (await freePort());
  const selfUrl = `http://127.0.0.1:${port}/DirectoryPlace`;
  const running = await startProcess(
    peerMain,
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
      PEER_SELF_URL: selfUrl,
      PEER_USERS: `${USER.username}:${USER.password}`,
      PEER_CLIENT_USER: USER.username,
      PEER_CLIENT_PASSWORD: USER.password,
      HEARTBEAT_INTERVAL_MS: '3600000',
      ...env,
    },
    `http://127.0.0.1:${port}/readyz`,
  );
  processes.push(running);
  return { port, selfUrl, key: `${DIRECTORY_KEY_PREFIX}${selfUrl}`, database, running };
}

/**
 * Records the directory place `url` in the peer table of `databaseUrl` (`not-contacted`), as a peer that registered or
 * was configured would be: peer-svc answers heartbeats from known peers only.
 */
async function knowPeer(databaseUrl: string, url: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('insert into peer.peer (key, url, origin, state, missed) values ($1, $2, $3, $4, 0)', [
      `*.*.*.${url}`,
      url,
      new URL(url).origin,
      'not-contacted',
    ]);
  } finally {
    await client.end();
  }
}

/** Whether the peer table of `database` shows `url` as `up`. */
async function seesUp(client: pg.Client, url: string): Promise<boolean> {
  const { rows } = await client.query<{ state: string }>('select state from peer.peer where url = $1', [url]);
  return rows.some((row) => row.state === 'up');
}

/** One bundle's form body with a fresh `bundleId` spliced in (the rest is encoded once). */
function bundleBody(units: number): () => string {
  const marker = 'BUNDLE_ID_MARKER';
  const bundle = {
    bundleId: marker,
    outputRoot: 'data/output',
    eatPrefix: 'data/input/',
    caseId: 'bench-case',
    sentTo: 'bench',
    priority: 10,
    totalFileSize: units * 4096,
    workUnits: Array.from({ length: units }, (_, i) => ({
      fileName: `incoming/batch-${runId}/file-${String(i).padStart(6, '0')}.dat`,
      transactionId: `tx-${String(i).padStart(6, '0')}`,
      failedToParse: false,
      failedToProcess: false,
    })),
  };
  const [before = '', after = ''] = form({ pickUpClientName: CLIENT_PLACE, tpObj: JSON.stringify(bundle) }).split(marker);
  let n = 0;
  return () => {
    n += 1;
    return `${before}${runId}-${units}-${n}${after}`;
  };
}

const pad = (value: string | number, width: number) => String(value).padStart(width);
const ms = (value: number) => value.toFixed(1);
const rows: string[] = [];
const notes: string[] = [];

try {
  // --- heartbeats and enqueue through the gateway -------------------------------------------------------
  const senderPort = await freePort(); // an allow-listed, known sender; heartbeats are not called back
  const senderUrl = `http://127.0.0.1:${senderPort}/DirectoryPlace`;
  const senderKey = `${DIRECTORY_KEY_PREFIX}${senderUrl}`;
  const peer = await startPeer('bench_peer', {
    AMQP_URL: amqpUrl,
    PEER_ALLOW_LIST: senderUrl,
    CLIENT_PLACES: `${CLIENT_PLACE}=${queueName}`,
  });
  await knowPeer(peer.database.url, senderUrl);
  const gatewayPort = await freePort();
  const gateway = await startProcess(
    gatewayMain,
    { PORT: String(gatewayPort), HOST: '127.0.0.1', PEER_SVC_URL: `http://127.0.0.1:${peer.port}`, LOG_LEVEL: 'warn' },
    `http://127.0.0.1:${gatewayPort}/readyz`,
  );
  processes.push(gateway);

  const heartbeatBody = form({ hbf: senderKey, hbt: peer.selfUrl });
  const targets = [
    ['gateway', gatewayPort],
    ['direct', peer.port],
  ] as const;
  for (const [target, port] of targets) {
    const heartbeat = (_: number, agent: http.Agent) => post(agent, port, '/emissary/Heartbeat.action', heartbeatBody);
    await measure(WARMUP_SECONDS, heartbeat);
    rows.push(row('POST Heartbeat (no auth)', target, await measure(duration, heartbeat)));
  }

  const amqp = await amqplib.connect(amqpUrl);
  try {
    const channel = await amqp.createChannel();
    for (const [units, [target, port]] of [1, UNITS_LARGE].flatMap((u) => targets.map((t) => [u, t] as const))) {
      const nextBody = bundleBody(units);
      const sessions = Array.from({ length: connections }, () => new DigestSession());
      const enqueue = (worker: number, agent: http.Agent) =>
        postDigest(sessions[worker] ?? new DigestSession(), agent, port, '/WorkSpaceClientEnqueue.action', nextBody());
      await measure(WARMUP_SECONDS, enqueue);
      await channel.purgeQueue(queueName);
      const result = await measure(duration, enqueue);
      const { messageCount } = await channel.checkQueue(queueName);
      await channel.purgeQueue(queueName);
      rows.push(row(`POST Enqueue ${units} unit${units === 1 ? '' : 's'} (Digest)`, target, result));
      const bytes = Buffer.byteLength(nextBody());
      const reauths = sessions.reduce((sum, s) => sum + s.reauths, 0);
      notes.push(
        `${units}-unit bundle, ${target}: form body ${(bytes / 1024).toFixed(1)} KiB; ${messageCount} messages in the queue for ` +
          `${result.requests} answers 200; Digest re-challenges after the first: ${reauths}`,
      );
    }
    await channel.deleteQueue(queueName);
    await channel.close();
  } finally {
    await amqp.close();
  }
  await gateway.stop();
  await peer.running.stop();

  // --- registration between two fresh peers ---------------------------------------------------------------
  const answerTimes: number[] = [];
  const upTimes: number[] = [];
  for (let run = 0; run < registrations; run += 1) {
    const [portA, portB] = [await freePort(), await freePort()];
    const allow = `http://127.0.0.1:${portA}/DirectoryPlace,http://127.0.0.1:${portB}/DirectoryPlace`;
    const [a, b] = await Promise.all([
      startPeer('bench_peer_a', { PEER_ALLOW_LIST: allow }, portA),
      startPeer('bench_peer_b', { PEER_ALLOW_LIST: allow }, portB),
    ]);
    const dbA = new pg.Client({ connectionString: a.database.url });
    const dbB = new pg.Client({ connectionString: b.database.url });
    await Promise.all([dbA.connect(), dbB.connect()]);
    // B initiates the registration (posted here in its name), so B knows A and answers A's call-back heartbeat.
    await knowPeer(b.database.url, a.selfUrl);
    const agent = new http.Agent({ keepAlive: true });
    try {
      const session = new DigestSession();
      const path = '/emissary/RegisterPeer.action';
      const challenge = await post(agent, a.port, path, '');
      if (!session.accept(challenge.challenges)) throw new Error(`no Digest challenge: ${challenge.status}`);
      const t0 = performance.now();
      const answer = await post(agent, a.port, path, form({ directoryName: b.key, targetDir: a.selfUrl }), {
        authorization: session.header('POST', path),
      });
      const answered = performance.now() - t0;
      if (answer.status !== 200) throw new Error(`RegisterPeer answered ${answer.status} ${answer.body}`);
      const deadline = t0 + 10_000;
      while (!((await seesUp(dbA, b.selfUrl)) && (await seesUp(dbB, a.selfUrl)))) {
        if (performance.now() > deadline) throw new Error('peers did not see each other up within 10 s');
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
      answerTimes.push(answered);
      upTimes.push(performance.now() - t0);
    } finally {
      agent.destroy();
      await Promise.all([dbA.end(), dbB.end()]);
      await Promise.all([a.running.stop(), b.running.stop()]);
      await Promise.all([a.database.drop(), b.database.drop()]);
    }
  }
  const median = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  };

  process.stdout.write(
    `\npeer-svc benchmark: Node ${process.versions.node}, ${connections} concurrent keep-alive workers, ` +
      `${duration} s per run after ${WARMUP_SECONDS} s warm-up, LOG_LEVEL=warn\n` +
      `Digest SHA-256 qop=auth, one nonce per worker; queue ${queueName} on ${new URL(amqpUrl).host}; ` +
      `PostgreSQL ${new URL(adminUrl).host}\n\n`,
  );
  process.stdout.write(
    `${'scenario'.padEnd(34)}${pad('target', 8)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('requests', 10)}${pad('errors', 8)}\n`,
  );
  for (const line of rows) process.stdout.write(`${line}\n`);
  process.stdout.write('\n');
  for (const note of notes) process.stdout.write(`${note}\n`);
  process.stdout.write(
    `\nregistration (RegisterPeer to A naming B, two fresh peers, ${registrations} runs):\n` +
      `  answer 200:              median ${ms(median(answerTimes))} ms  (runs: ${answerTimes.map(ms).join(', ')})\n` +
      `  both see each other up:  median ${ms(median(upTimes))} ms  (runs: ${upTimes.map(ms).join(', ')})\n`,
  );
} finally {
  for (const running of processes.reverse()) await running.stop();
  for (const database of databases) await database.drop();
  const amqp = await amqplib.connect(amqpUrl).catch(() => undefined);
  if (amqp) {
    const channel = await amqp.createChannel();
    await channel.deleteQueue(queueName).catch(() => undefined);
    await amqp.close().catch(() => undefined);
  }
}

function row(scenario: string, target: string, r: Measured): string {
  const line = `${scenario.padEnd(34)}${pad(target, 8)}${pad(Math.round(r.perSecond), 9)}${pad(ms(r.p50), 9)}${pad(ms(r.p99), 9)}${pad(r.requests, 10)}${pad(r.errors, 8)}`;
  return r.firstError === undefined ? line : `${line}  first error: ${r.firstError}`;
}
