import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { PeerDirectory } from '@switchyard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuthHeader } from '../../src/security/digest.policy.ts';
import {
  type ExpectedAnswer,
  fillPlaceholders,
  MISSING_REQUESTED_BY,
  REFERENCE_CLIENT_SEQUENCE,
  type RecordedStep,
  type ReplayValues,
} from '../golden/reference-client/sequence.ts';
import { digestGet, reservePeerUrl, startTestPeer, TEST_REALM, TEST_USER, type TestPeer } from '../start-peer.ts';

const STUDY_PREFIX = 'EMISSARY_DIRECTORY_SERVICES.DIRECTORY.STUDY.';
const fixture = (name: string) => readFileSync(new URL(`../golden/reference-client/${name}`, import.meta.url), 'utf8');
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/** The qop=`auth` MD5 Digest `response` (RFC 2617 §3.2.2.1), as HttpClient's `DigestScheme` and Jetty's `DigestAuthenticator` compute it. */
function md5Response(input: { realm: string; method: string; uri: string; nonce: string; nc: string; cnonce: string }): string {
  const ha1 = md5(`${TEST_USER.username}:${input.realm}:${TEST_USER.password}`);
  const ha2 = md5(`${input.method}:${input.uri}`);
  return md5(`${ha1}:${input.nonce}:${input.nc}:${input.cnonce}:auth:${ha2}`);
}

/** A form body as HttpClient 4.5's `URLEncodedUtils.format` writes it (UTF-8): `A-Za-z0-9-_.*` kept, space `+`, else `%XX`. */
function formEncode(fields: readonly (readonly [string, string])[]): string {
  const encode = (text: string) =>
    [...Buffer.from(text, 'utf8')]
      .map((byte) => {
        const char = String.fromCharCode(byte);
        if (/[A-Za-z0-9\-_.*]/.test(char)) return char;
        if (char === ' ') return '+';
        return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
      })
      .join('');
  return fields.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
}

/** A form body read back in order (`+` and `%XX`, UTF-8). */
function formDecode(body: string): [string, string][] {
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  return body === '' ? [] : body.split('&').map((pair) => [decode(pair.split('=')[0] ?? ''), decode(pair.split('=').slice(1).join('='))]);
}

/** One HTTP/1.1 answer as read off the socket: header lines in order (names as sent), the body decoded per `Content-Encoding`. */
interface RawAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** The values of header `name` (case-insensitive), in order. */
const headerValues = (headers: readonly (readonly [string, string])[], name: string) =>
  headers.filter(([key]) => key.toLowerCase() === name.toLowerCase()).map(([, value]) => value);

/** Parses one whole answer at the start of `buffer`; `undefined` while more bytes are needed. */
function parseAnswer(buffer: Buffer, closed: boolean): { answer: RawAnswer; rest: Buffer } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const status = Number(statusLine.split(' ')[1]);
  const headers = lines.map((line): [string, string] => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]);
  let offset = headEnd + 4;
  let raw: Buffer;
  const length = headerValues(headers, 'content-length')[0];
  if (headerValues(headers, 'transfer-encoding')[0]?.toLowerCase() === 'chunked') {
    const chunks: Buffer[] = [];
    for (;;) {
      const lineEnd = buffer.indexOf('\r\n', offset);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buffer.subarray(offset, lineEnd).toString('latin1'), 16);
      if (buffer.length < lineEnd + 2 + size + 2) return undefined;
      chunks.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
      offset = lineEnd + 2 + size + 2;
      if (size === 0) break;
    }
    raw = Buffer.concat(chunks);
  } else if (length !== undefined) {
    if (buffer.length < offset + Number(length)) return undefined;
    raw = buffer.subarray(offset, offset + Number(length));
    offset += Number(length);
  } else {
    if (!closed) return undefined;
    raw = buffer.subarray(offset);
    offset = buffer.length;
  }
  const encoding = headerValues(headers, 'content-encoding')[0]?.toLowerCase();
  const body = encoding === 'gzip' ? gunzipSync(raw) : encoding === 'deflate' ? inflateSync(raw) : raw;
  return { answer: { status, headers, body: body.toString('utf8') }, rest: buffer.subarray(offset) };
}

/** A raw TCP connection: requests go byte for byte as written, answers are read one at a time. */
class RawConnection {
  #buffer: Buffer = Buffer.alloc(0);
  #closed = false;
  #wake: (() => void) | undefined;
  readonly #socket: Socket;

  private constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    socket.on('close', () => {
      this.#closed = true;
      this.#wake?.();
    });
  }

  /** Connects to `127.0.0.1:port`. */
  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes `request` and reads the answer to it. @throws Error when the connection closes first */
  async exchange(request: Buffer): Promise<RawAnswer> {
    this.#socket.write(request);
    for (;;) {
      const parsed = parseAnswer(this.#buffer, this.#closed);
      if (parsed !== undefined) {
        this.#buffer = parsed.rest;
        return parsed.answer;
      }
      if (this.#closed) throw new Error('connection closed before a whole answer');
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  close(): void {
    this.#socket.destroy();
  }
}

/** A Digest scheme HttpClient keeps after a success (its auth cache), replayed with the same nonce and cnonce. */
interface CachedDigest {
  realm: string;
  nonce: string;
  opaque: string | undefined;
  cnonce: string;
}

/** `Authorization` as HttpClient 4.5's `DigestScheme.createDigestHeader` writes it (parameter order and quoting). */
function httpClientAuthorization(scheme: CachedDigest, uri: string, nc: number): string {
  const ncText = nc.toString(16).padStart(8, '0');
  const response = md5Response({ realm: scheme.realm, method: 'POST', uri, nonce: scheme.nonce, nc: ncText, cnonce: scheme.cnonce });
  return (
    `Digest username="${TEST_USER.username}", realm="${scheme.realm}", nonce="${scheme.nonce}", uri="${uri}", response="${response}", ` +
    `qop=auth, nc=${ncText}, cnonce="${scheme.cnonce}", algorithm=MD5${scheme.opaque === undefined ? '' : `, opaque="${scheme.opaque}"`}`
  );
}

/** One request on the wire and its answer. */
interface Attempt {
  authorization: string | undefined;
  answer: RawAnswer;
}

/**
 * The original engine's client as it behaves on the wire (see the fixture's comment): one process's auth cache, a
 * connection per step with the Digest answer on the same connection, the last Digest challenge taken, MD5 only.
 */
class ReplayingClient {
  cached: CachedDigest | undefined;
  readonly #port: number;
  readonly #values: ReplayValues;

  constructor(port: number, values: ReplayValues) {
    this.#port = port;
    this.#values = values;
  }

  /** The bytes of `step`, without the headers named in `omit`, with `authorization` last. */
  requestBytes(step: RecordedStep, omit: ReadonlySet<string>, authorization?: string): Buffer {
    const values: Record<string, string> = { ...this.#values };
    const body = Buffer.from(formEncode(step.form.map(([name, value]) => [name, fillPlaceholders(value, values)] as const)), 'utf8');
    const lines = [`${step.method} ${step.path} HTTP/1.1`];
    for (const [name, value] of step.headers) {
      if (!omit.has(name)) lines.push(`${name}: ${fillPlaceholders(value, { ...values, CONTENT_LENGTH: String(body.length) })}`);
    }
    if (authorization !== undefined) lines.push(`Authorization: ${authorization}`);
    return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
  }

  /** Sends `step` as HttpClient would; every request and answer is returned in order. @throws Error when HttpClient 4.5 could not answer the challenge */
  async send(step: RecordedStep, omit: ReadonlySet<string> = new Set()): Promise<Attempt[]> {
    const connection = await RawConnection.open(this.#port);
    try {
      const preemptive = this.cached === undefined ? undefined : httpClientAuthorization(this.cached, step.path, 2);
      const first = { authorization: preemptive, answer: await connection.exchange(this.requestBytes(step, omit, preemptive)) };
      if (first.answer.status !== 401) return [first];
      const digest = headerValues(first.answer.headers, 'www-authenticate').filter((value) => /^digest\s/i.test(value));
      const challenge = parseAuthHeader(digest.at(-1))?.[0];
      if (challenge === undefined) throw new Error('no Digest challenge');
      const algorithm = (challenge.params.get('algorithm') ?? 'MD5').toUpperCase();
      if (algorithm !== 'MD5') throw new Error(`HttpClient 4.5 cannot answer algorithm ${algorithm}`);
      const scheme: CachedDigest = {
        realm: challenge.params.get('realm') ?? '',
        nonce: challenge.params.get('nonce') ?? '',
        opaque: challenge.params.get('opaque'),
        cnonce: randomBytes(8).toString('hex'),
      };
      const authorization = httpClientAuthorization(scheme, step.path, 1);
      const second = { authorization, answer: await connection.exchange(this.requestBytes(step, omit, authorization)) };
      if (second.answer.status !== 401) this.cached = scheme;
      return [first, second];
    } finally {
      connection.close();
    }
  }
}

/** A request the reference peer received, and what it answered. */
interface ReceivedRequest {
  path: string;
  /** Header lines in order, names as sent. */
  headers: [string, string][];
  form: [string, string][];
  status: number;
  /** The `Authorization` parameters and whether they were right (Jetty's checks). */
  digest?: { params: Map<string, string>; valid: boolean };
}

/**
 * A peer of the original engine, answering as upstream does: `Heartbeat.action` 200 `text/plain` `<key>$5050[1]`
 * (`HeartbeatAction`, `DirectoryProviderPlace.toString`), `RegisterPeer.action` 200 `application/xml` with its
 * directory (`RegisterPeerAction`, `DirectoryXmlContainer.toXmlString`) behind an MD5 Digest challenge as Jetty's
 * `DigestAuthenticator` writes it (realm `EmissaryRealm`, `domain`, no `opaque`, `qop="auth"`, `stale`).
 */
interface ReferencePeer {
  url: string;
  key: string;
  received: ReceivedRequest[];
  /** The nonces it challenged with, in order. */
  nonces: string[];
  close(): Promise<void>;
}

async function startReferencePeer(): Promise<ReferencePeer> {
  const lastNc = new Map<string, number>();
  const peer: ReferencePeer = { url: '', key: '', received: [], nonces: [], close: async () => {} };
  let directory = '';
  const verify = (authorization: string | undefined, method: string, path: string) => {
    const item = parseAuthHeader(authorization)?.[0];
    if (item === undefined || item.scheme !== 'digest') return undefined;
    const { params } = item;
    const nonce = params.get('nonce') ?? '';
    const nc = Number.parseInt(params.get('nc') ?? '', 16);
    const cnonce = params.get('cnonce') ?? '';
    const valid =
      peer.nonces.includes(nonce) &&
      nc > (lastNc.get(nonce) ?? 0) &&
      params.get('username') === TEST_USER.username &&
      params.get('realm') === TEST_REALM &&
      params.get('uri') === path &&
      params.get('qop') === 'auth' &&
      (params.get('algorithm') ?? 'MD5').toUpperCase() === 'MD5' &&
      params.get('response') === md5Response({ realm: TEST_REALM, method, uri: path, nonce, nc: params.get('nc') ?? '', cnonce });
    if (valid) lastNc.set(nonce, nc);
    return { params, valid };
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '';
      const headers: [string, string][] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) headers.push([req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '']);
      const received: ReceivedRequest = { path, headers, form: formDecode(Buffer.concat(chunks).toString('utf8')), status: 0 };
      peer.received.push(received);
      const answer = (status: number, type: string, body: string, extra: Record<string, string> = {}) => {
        received.status = status;
        res.writeHead(status, { 'Content-Type': type, ...extra }).end(body);
      };
      // Jetty's security handler guards every path but /api/health: Heartbeat included.
      if (path === '/emissary/Heartbeat.action' || path === '/emissary/RegisterPeer.action') {
        const digest = verify(req.headers.authorization, req.method ?? '', path);
        if (digest !== undefined) received.digest = digest;
        if (digest?.valid === true) {
          if (path === '/emissary/Heartbeat.action') answer(200, 'text/plain', `${peer.key}$5050[1]`);
          else answer(200, 'application/xml', directory);
        } else {
          const nonce = randomBytes(24).toString('base64');
          peer.nonces.push(nonce);
          answer(401, 'text/html;charset=iso-8859-1', '<html><body><h2>HTTP ERROR 401 Unauthorized</h2></body></html>\n', {
            'WWW-Authenticate': `Digest realm="${TEST_REALM}", domain="/", nonce="${nonce}", algorithm=MD5, qop="auth", stale=false`,
            'Cache-Control': 'must-revalidate,no-cache,no-store',
          });
        }
      } else answer(404, 'text/plain', 'Not Found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  peer.url = `http://127.0.0.1:${port}/DirectoryPlace`;
  peer.key = `${STUDY_PREFIX}${peer.url}`;
  directory = fillPlaceholders(fixture('reference-peer-directory.xml'), { REF_KEY: peer.key, REF_HOST_URL: `http://127.0.0.1:${port}/` });
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}

/** Asserts `answer` is `expected` (placeholders replaced): status, media type and the whole body. */
function expectAnswer(answer: RawAnswer, expected: ExpectedAnswer, values: ReplayValues): void {
  const body = expected.bodyFile === undefined ? (expected.body ?? '') : fixture(expected.bodyFile);
  expect({
    status: answer.status,
    mediaType: headerValues(answer.headers, 'content-type')[0]?.split(';')[0]?.trim(),
    body: answer.body,
  }).toEqual({ status: expected.status, mediaType: expected.mediaType, body: fillPlaceholders(body, { ...values }) });
}

const step = (name: string): RecordedStep => {
  const found = REFERENCE_CLIENT_SEQUENCE.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no step ${name}`);
  return found;
};

describe('a recorded request sequence of the reference engine’s client', () => {
  let reference: ReferencePeer;
  let ours: TestPeer;
  let values: ReplayValues;
  let client: ReplayingClient;

  /** Our directory's entries learned from the reference peer, from `GET /emissary/directory` (Digest SHA-256). */
  const learnedFromReference = async () => {
    const answer = await digestGet(`${ours.url}/emissary/directory`);
    expect(answer.status).toBe(200);
    const view = JSON.parse(answer.body) as PeerDirectory;
    return view.entry_lists.flatMap((list) => list.entries).filter((entry) => entry.source === values.REF_PEER_KEY);
  };

  beforeAll(async () => {
    reference = await startReferencePeer();
    const reserved = await reservePeerUrl();
    const ourHostUrl = reserved.selfUrl.replace('DirectoryPlace', '');
    ours = await startTestPeer(
      'peer_reference_client',
      {
        DIGEST_ALGORITHMS: 'SHA-256,MD5',
        PEER_ALLOW_LIST: reference.url,
        DIRECTORY_PLACES: `INITIAL.FILE_PICK_UP.INPUT.${ourHostUrl}FilePickUpPlace|10|100|pick up`,
        // No heartbeat round of ours during the test: the reference peer sees only the call-backs of the registration.
        HEARTBEAT_INTERVAL_MS: '3600000',
      },
      reserved,
    );
    values = {
      OUR_URL: ours.selfUrl,
      OUR_KEY: `${STUDY_PREFIX}${ours.selfUrl}`,
      OUR_HOST_URL: ourHostUrl,
      OUR_HOST: `127.0.0.1:${ours.port}`,
      REF_URL: reference.url,
      REF_KEY: reference.key,
      REF_PEER_KEY: `*.*.*.${reference.url}`,
      REF_HOST_URL: reference.url.replace('DirectoryPlace', ''),
    };
    client = new ReplayingClient(ours.port, values);
  });

  afterAll(async () => {
    await ours?.stop();
    await reference?.close();
  });

  it('sends each step as upstream’s client writes it', () => {
    const bytes = client.requestBytes(step('RegisterPeer'), new Set()).toString('latin1');
    const body = `targetDir=${encodeURIComponent(values.OUR_URL)}&directoryName=${encodeURIComponent(values.REF_KEY)}`;
    expect(bytes).toBe(
      'POST /emissary/RegisterPeer.action HTTP/1.1\r\nX-Requested-By: emissary\r\n' +
        `Content-Length: ${body.length}\r\nContent-Type: application/x-www-form-urlencoded; charset=UTF-8\r\n` +
        `Host: ${values.OUR_HOST}\r\nConnection: Keep-Alive\r\nUser-Agent: Apache-HttpClient/4.5.14 (Java/17.0.12)\r\n` +
        `Accept-Encoding: gzip,deflate\r\n\r\n${body}`,
    );
    expect(body).toContain('targetDir=http%3A%2F%2F127.0.0.1%3A');
  });

  it('heartbeat before registering: refused 403, the sender not yet known (a documented divergence)', async () => {
    const heartbeat = step('heartbeat before registering');
    expect(heartbeat.documentedDivergence).toContain('README');
    const attempts = await client.send(heartbeat);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.authorization).toBeUndefined();
    expectAnswer(attempts[0]?.answer as RawAnswer, heartbeat.expect, values);
    expect(reference.received).toEqual([]);
    expect(await ours.store.getPeer(values.REF_PEER_KEY)).toBeUndefined();
  });

  it('RegisterPeer: an MD5 challenge in EmissaryRealm, then upstream’s directory XML after call-backs as upstream’s client makes them', async () => {
    const register = step('RegisterPeer');
    expect(register.auth).toBe('challenge');
    const attempts = await client.send(register);
    expect(attempts.map((attempt) => attempt.answer.status)).toEqual([401, 200]);
    const [challenged, answered] = attempts as [Attempt, Attempt];
    expect(challenged.authorization).toBeUndefined();
    const challenges = (parseAuthHeader(headerValues(challenged.answer.headers, 'www-authenticate')) ?? []).map((item) => ({
      scheme: item.scheme,
      realm: item.params.get('realm'),
      algorithm: item.params.get('algorithm'),
      qop: item.params.get('qop'),
      nonce: item.params.get('nonce') !== undefined,
    }));
    // One line per algorithm of DIGEST_ALGORITHMS, in order: HttpClient 4.5 keeps the last Digest line, MD5.
    expect(challenges).toEqual([
      { scheme: 'digest', realm: 'EmissaryRealm', algorithm: 'SHA-256', qop: 'auth', nonce: true },
      { scheme: 'digest', realm: 'EmissaryRealm', algorithm: 'MD5', qop: 'auth', nonce: true },
    ]);
    expect(answered.authorization).toMatch(
      /^Digest username="emissary", realm="EmissaryRealm", nonce="[^"]+", uri="\/emissary\/RegisterPeer\.action", response="[0-9a-f]{32}", qop=auth, nc=00000001, cnonce="[0-9a-f]{16}", algorithm=MD5, opaque="[^"]+"$/,
    );
    expectAnswer(answered.answer, register.expect, values);
    expect(answered.answer.body).toContain(`<key>${values.OUR_KEY}</key>`);

    // The call-backs our peer made to the reference peer while answering: a heartbeat, then its own RegisterPeer,
    // challenged and answered with MD5 Digest, each with X-Requested-By and upstream's form fields in upstream's order.
    expect(reference.received.map((r) => [r.path, r.status])).toEqual([
      ['/emissary/Heartbeat.action', 401],
      ['/emissary/Heartbeat.action', 200],
      ['/emissary/RegisterPeer.action', 401],
      ['/emissary/RegisterPeer.action', 200],
    ]);
    const [firstHeartbeat, heartbeat, firstRegister, secondRegister] = reference.received as [
      ReceivedRequest,
      ReceivedRequest,
      ReceivedRequest,
      ReceivedRequest,
    ];
    for (const callBack of reference.received) {
      expect(headerValues(callBack.headers, 'x-requested-by')).toEqual(['emissary']);
      expect(headerValues(callBack.headers, 'content-type')).toEqual(['application/x-www-form-urlencoded; charset=UTF-8']);
    }
    expect(heartbeat.form).toEqual([
      ['hbf', values.OUR_KEY],
      ['hbt', values.REF_URL],
    ]);
    // Upstream's server challenges every path (Heartbeat too): our heartbeat answers it with MD5 Digest.
    expect(headerValues(firstHeartbeat.headers, 'authorization')).toEqual([]);
    expect(heartbeat.digest?.valid).toBe(true);
    expect(headerValues(firstRegister.headers, 'authorization')).toEqual([]);
    for (const registration of [firstRegister, secondRegister]) {
      expect(registration.form).toEqual([
        ['targetDir', values.REF_URL],
        ['directoryName', values.OUR_KEY],
      ]);
    }
    expect(secondRegister.digest?.valid).toBe(true);
    expect(Object.fromEntries(secondRegister.digest?.params ?? [])).toMatchObject({
      username: TEST_USER.username,
      realm: 'EmissaryRealm',
      // The second challenge: the heartbeat drew the first.
      nonce: reference.nonces[1],
      uri: '/emissary/RegisterPeer.action',
      algorithm: 'MD5',
      qop: 'auth',
      nc: '00000001',
    });

    // The reference peer's STUDY and INPUT entries, at the remote expense; its transform place is not taken.
    expect(await ours.store.getPeer(values.REF_PEER_KEY)).toMatchObject({ state: 'up' });
    const learned = await learnedFromReference();
    expect(learned.map(({ key, cost, quality, expense, description }) => ({ key, cost, quality, expense, description }))).toEqual([
      { key: values.REF_KEY, cost: 1050, quality: 50, expense: 105_050, description: '' },
      {
        key: `INITIAL.FILE_PICK_UP.INPUT.${values.REF_HOST_URL}FilePickUpPlace`,
        cost: 1010,
        quality: 100,
        expense: 101_000,
        description: 'reference pick up',
      },
    ]);
  });

  it('heartbeat after registering: 200 with our directory place as upstream prints it, under the cached Digest', async () => {
    const heartbeat = step('heartbeat after registering');
    const attempts = await client.send(heartbeat);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.authorization).toMatch(/ nc=00000002, /);
    expectAnswer(attempts[0]?.answer as RawAnswer, heartbeat.expect, values);
  });

  it('FailDirectory: the cached Digest is accepted, the reference peer’s entries are gone and it is forgotten', async () => {
    const leave = step('FailDirectory (leaving)');
    const callBacks = reference.received.length;
    const attempts = await client.send(leave);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.authorization).toContain(`nonce="${client.cached?.nonce}"`);
    expect(attempts[0]?.authorization).toMatch(/ nc=00000002, /);
    expectAnswer(attempts[0]?.answer as RawAnswer, leave.expect, values);
    expect(await learnedFromReference()).toEqual([]);
    expect(await ours.store.getPeer(values.REF_PEER_KEY)).toBeUndefined();
    expect(reference.received).toHaveLength(callBacks);
  });

  it('the same sequence without X-Requested-By: 400 at every step, before any challenge, and nothing happens', async () => {
    const fresh = new ReplayingClient(ours.port, values);
    const callBacks = reference.received.length;
    for (const recorded of REFERENCE_CLIENT_SEQUENCE) {
      const attempts = await fresh.send(recorded, new Set(['X-Requested-By']));
      expect(attempts, recorded.name).toHaveLength(1);
      expect(attempts[0]?.authorization).toBeUndefined();
      expect(headerValues(attempts[0]?.answer.headers ?? [], 'www-authenticate')).toEqual([]);
      expectAnswer(attempts[0]?.answer as RawAnswer, MISSING_REQUESTED_BY, values);
    }
    expect(reference.received).toHaveLength(callBacks);
    expect(await ours.store.getPeer(values.REF_PEER_KEY)).toBeUndefined();
    expect(await learnedFromReference()).toEqual([]);
  });
});
