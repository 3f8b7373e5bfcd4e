import { randomBytes } from 'node:crypto';
import { createLogger, startService } from '@switchyard/service-kit';
import { createTestDatabase, freePort } from '@switchyard/service-kit/testing';
import { request } from 'undici';
import { inject } from 'vitest';
import { loadPeerConfig } from '../src/config.ts';
import { type DigestAlgorithm, digestResponse, parseAuthHeader } from '../src/security/digest.policy.ts';
import { type RunningPeer, startPeerService } from '../src/start.ts';

/** The Digest user every test peer accepts and uses. */
export const TEST_USER = { username: 'emissary', password: 'emissary123' };
export const TEST_REALM = 'EmissaryRealm';

/** peer-svc running in this test process on a fresh PostgreSQL database, on a free loopback port. */
export interface TestPeer extends RunningPeer {
  /** `http://127.0.0.1:<port>/DirectoryPlace`. */
  selfUrl: string;
  /** Stops HTTP, closes the pool and drops the database. */
  stop: () => Promise<void>;
}

/** A free loopback port and the directory place URL on it. */
export async function reservePeerUrl(): Promise<{ port: number; selfUrl: string }> {
  const port = await freePort();
  return { port, selfUrl: `http://127.0.0.1:${port}/DirectoryPlace` };
}

/** Starts peer-svc as `main.ts` would; `env` adds or overrides variables (`undefined` unsets one). Call from `beforeAll`. */
export async function startTestPeer(
  label: string,
  env: Record<string, string | undefined> = {},
  reserved?: { port: number; selfUrl: string },
): Promise<TestPeer> {
  const { port, selfUrl } = reserved ?? (await reservePeerUrl());
  const started = await startService(async (scope) => {
    const database = await createTestDatabase(inject('databaseUrl'), label);
    scope.defer(() => database.drop());
    const config = loadPeerConfig({
      DATABASE_URL: database.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      PEER_SELF_URL: selfUrl,
      PEER_USERS: `${TEST_USER.username}:${TEST_USER.password}`,
      PEER_CLIENT_USER: TEST_USER.username,
      PEER_CLIENT_PASSWORD: TEST_USER.password,
      PEER_CONNECT_TIMEOUT_MS: '1000',
      PEER_RESPONSE_TIMEOUT_MS: '3000',
      AMQP_URL: inject('amqpUrl'),
      ...env,
    });
    const running = scope.use(await startPeerService(config, createLogger('peer-svc', 'silent')));
    return { ...running, selfUrl };
  });
  return { ...started, stop: started.close };
}

/** An answer as the tests read it. */
export interface TextAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POSTs a raw body; `x-requested-by` and the form content type unless `headers` says otherwise. */
export async function rawPost(url: string, body: string | Buffer, headers: Record<string, string | undefined> = {}): Promise<TextAnswer> {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries({
    'x-requested-by': 'test',
    'content-type': 'application/x-www-form-urlencoded',
    ...headers,
  })) {
    if (value !== undefined) all[name] = value;
  }
  const res = await request(url, { method: 'POST', headers: all, body });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/**
 * POSTs a raw body answering the Digest challenge of `algorithm` (default SHA-256) as `user`: the first request draws
 * the challenge. The body is sent twice, as a browser would.
 * @throws Error when no challenge of `algorithm` is offered
 */
export async function digestPost(
  url: string,
  body: string | Buffer,
  user = TEST_USER,
  headers: Record<string, string> = {},
  algorithm: DigestAlgorithm = 'SHA-256',
): Promise<TextAnswer> {
  const first = await rawPost(url, body, headers);
  if (first.status !== 401) return first;
  const items = parseAuthHeader(first.headers['www-authenticate']) ?? [];
  const challenge = items.find((item) => item.params.get('algorithm') === algorithm);
  if (challenge === undefined) throw new Error(`no ${algorithm} challenge`);
  const nonce = challenge.params.get('nonce') ?? '';
  const opaque = challenge.params.get('opaque') ?? '';
  const uri = new URL(url).pathname;
  const cnonce = randomBytes(8).toString('hex');
  const nc = '00000001';
  const response = digestResponse({
    algorithm,
    username: user.username,
    realm: TEST_REALM,
    password: user.password,
    method: 'POST',
    uri,
    nonce,
    nc,
    cnonce,
  });
  const authorization = `Digest username="${user.username}", realm="${TEST_REALM}", nonce="${nonce}", uri="${uri}", algorithm=${algorithm}, qop=auth, nc=${nc}, cnonce="${cnonce}", response="${response}", opaque="${opaque}"`;
  return rawPost(url, body, { ...headers, authorization });
}

/**
 * Sends a request without a body (GET by default) answering the Digest challenge (SHA-256) as the test user: the first
 * request draws the challenge. The digest `uri` is the path and query of `url`.
 * @throws Error when no SHA-256 challenge is offered
 */
export async function digestGet(url: string, method = 'GET'): Promise<TextAnswer> {
  const send = async (headers: Record<string, string>) => {
    const res = await request(url, { method: method as 'GET', headers });
    return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
  };
  const first = await send({});
  if (first.status !== 401) return first;
  const challenge = (parseAuthHeader(first.headers['www-authenticate']) ?? []).find((item) => item.params.get('algorithm') === 'SHA-256');
  if (challenge === undefined) throw new Error('no SHA-256 challenge');
  const nonce = challenge.params.get('nonce') ?? '';
  const opaque = challenge.params.get('opaque') ?? '';
  const target = new URL(url);
  const uri = `${target.pathname}${target.search}`;
  const cnonce = randomBytes(8).toString('hex');
  const response = digestResponse({
    algorithm: 'SHA-256',
    username: TEST_USER.username,
    realm: TEST_REALM,
    password: TEST_USER.password,
    method,
    uri,
    nonce,
    nc: '00000001',
    cnonce,
  });
  return send({
    authorization: `Digest username="${TEST_USER.username}", realm="${TEST_REALM}", nonce="${nonce}", uri="${uri}", algorithm=SHA-256, qop=auth, nc=00000001, cnonce="${cnonce}", response="${response}", opaque="${opaque}"`,
  });
}

/** A form body, percent-encoded as UTF-8 (`URLSearchParams`). */
export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
