import { randomBytes } from 'node:crypto';
import { Pool } from 'undici';
import { type DigestAlgorithm, digestAlgorithmOf, digestResponse, parseAuthHeader, quoteString } from './digest.policy.ts';
import type { PeerAllowList } from './peer-allow-list.policy.ts';

/**
 * Base of every failure of the peer client. `peer` is the peer's origin (`http://host:port`, no userinfo, no path)
 * or `undefined` when the URL did not even parse; safe to log and to map to a status (see the subclasses).
 */
export class PeerError extends Error {
  readonly peer: string | undefined;

  constructor(message: string, peer: string | undefined, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PeerError';
    this.peer = peer;
  }
}

/** The URL is not an http(s) URL of an allow-listed peer (or carries userinfo); thrown before any socket is opened. `peer` is the refused `host:port` (undefined for an unparsable or non-http URL), `reason` one of `unparsable`, `scheme`, `userinfo`, `not-listed`. Maps to 403. */
export class PeerNotAllowedError extends PeerError {
  readonly reason: string;

  constructor(peer: string | undefined, reason: string) {
    super(`peer not allowed (${reason})`, peer);
    this.name = 'PeerNotAllowedError';
    this.reason = reason;
  }
}

/** The peer did not connect within the connect timeout or answer within the response timeout. Maps to 504. */
export class PeerTimeoutError extends PeerError {
  readonly phase: 'connect' | 'response';

  constructor(peer: string | undefined, phase: 'connect' | 'response', ms: number) {
    super(`peer ${phase} timeout after ${ms} ms`, peer);
    this.name = 'PeerTimeoutError';
    this.phase = phase;
  }
}

/**
 * Authentication with the peer failed: it asked for a scheme other than Digest (e.g. Basic, and then it got no
 * credentials at all), offered no usable Digest challenge, or refused our Digest answer. `status` is the peer's. Maps to 502.
 */
export class PeerAuthError extends PeerError {
  readonly status: number;

  constructor(peer: string | undefined, status: number, message: string) {
    super(message, peer);
    this.name = 'PeerAuthError';
    this.status = status;
  }
}

/** The peer's answer exceeded the byte bound; the connection was dropped after at most `limit` bytes were kept. Maps to 502. */
export class PeerResponseTooLargeError extends PeerError {
  readonly limit: number;

  constructor(peer: string | undefined, limit: number) {
    super(`peer answer larger than ${limit} bytes`, peer);
    this.name = 'PeerResponseTooLargeError';
    this.limit = limit;
  }
}

/** Any other transport failure (connection refused, reset, TLS, bad HTTP); `cause` holds the undici error. Maps to 502. */
export class PeerConnectionError extends PeerError {
  constructor(peer: string | undefined, cause: unknown) {
    super(`peer connection failed: ${cause instanceof Error ? cause.message : String(cause)}`, peer, { cause });
    this.name = 'PeerConnectionError';
  }
}

/** The subset of a pino logger the client uses; it logs peers' origins and outcomes, never credentials or bodies. */
export interface PeerClientLogger {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** Options of {@link createPeerClient}; times in milliseconds, sizes in bytes. */
export interface PeerClientOptions {
  allowList: PeerAllowList;
  /** This server's user in its realm; sent only as a Digest answer to an allow-listed peer's challenge. `realm`, if set, must match the challenge's. */
  credentials: { username: string; password: string; realm?: string };
  /**
   * Digest algorithms answered when a peer challenges, in order of preference (default `['SHA-256']`; peer-svc's
   * `DIGEST_ALGORITHMS`). A peer offering none of them gets no credentials: the call throws {@link PeerAuthError}.
   */
  algorithms?: readonly DigestAlgorithm[];
  /** Bound on establishing the TCP (and TLS) connection, default 2000. */
  connectTimeoutMs?: number;
  /** Bound on each attempt from sending the request to the last byte of the answer, default 5000. */
  responseTimeoutMs?: number;
  /** Bound on an answer's body, default 64 KiB; larger answers throw {@link PeerResponseTooLargeError}. */
  maxResponseBytes?: number;
  /** Value of the `X-Requested-By` header sent on every request (the CSRF guard of the original engine), default `emissary`. */
  requestedBy?: string;
  logger?: PeerClientLogger;
}

/** Per-call options of {@link PeerClient.post}. */
export interface PeerPostOptions {
  /** Answer a Digest challenge with the credentials (default `false`: a 401 is returned as is, nothing is sent). */
  authenticate?: boolean;
  /** Extra request headers; `authorization`, `host`, `content-type`, `content-length`, `transfer-encoding`, `connection` and `x-requested-by` are refused. */
  headers?: Record<string, string>;
  /** Bound on this answer's body, in bytes, instead of the client's `maxResponseBytes` (a zone transfer's directory is larger than a heartbeat's answer). */
  maxResponseBytes?: number;
}

/** A peer's answer: status (3xx included, never followed), headers as undici gives them, body decoded as UTF-8. */
export interface PeerResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The only way peer-svc talks to other peers; see {@link createPeerClient}. */
export interface PeerClient {
  /**
   * POSTs `form` (`application/x-www-form-urlencoded; charset=UTF-8`) to `url`.
   * @throws PeerNotAllowedError before any socket when `url` is not an allow-listed http(s) URL.
   * @throws PeerTimeoutError, PeerResponseTooLargeError, PeerAuthError, PeerConnectionError (all {@link PeerError}).
   * @throws TypeError for a refused header name.
   */
  post(url: string | URL, form: Record<string, string>, options?: PeerPostOptions): Promise<PeerResponse>;
  /** Closes every pooled connection; later calls reopen them. */
  close(): Promise<void>;
}

const forbiddenHeaders = new Set([
  'authorization',
  'host',
  'content-type',
  'content-length',
  'transfer-encoding',
  'connection',
  'x-requested-by',
]);

/**
 * Creates the outbound client. Every call: the URL is checked against `allowList` first (no DNS, no socket otherwise);
 * one undici `Pool` per allowed origin (no redirect interceptor: a 3xx comes back as a response, its `Location` is
 * never contacted); connect bounded by `connectTimeoutMs`, each attempt by `responseTimeoutMs`; at most
 * `maxResponseBytes` of body are read, then the connection is dropped.
 *
 * Authentication (RFC 7616 §3.4, client side): never preemptive. With `authenticate` and a 401, the
 * `WWW-Authenticate` challenges are parsed; among the Digest challenges with qop `auth` whose algorithm is one of
 * `algorithms` (absent algorithm = MD5), the one of the most preferred algorithm is used; a fresh 16-byte `cnonce` and
 * `nc=00000001`; the `uri` is the path and query sent; `opaque` is echoed. The request is retried exactly once. A 401
 * offering no usable Digest challenge (Basic, Bearer, auth-int only, RFC 2069 without qop, another realm, only an
 * algorithm not in `algorithms`, e.g. MD5 when only SHA-256 is configured) throws {@link PeerAuthError} and no
 * credentials are sent; a 401 to the retry throws {@link PeerAuthError} too.
 * @throws TypeError for an empty or unknown `algorithms` list
 */
export function createPeerClient(options: PeerClientOptions): PeerClient {
  const { allowList, credentials, logger } = options;
  const connectTimeoutMs = options.connectTimeoutMs ?? 2000;
  const responseTimeoutMs = options.responseTimeoutMs ?? 5000;
  const maxResponseBytes = options.maxResponseBytes ?? 64 * 1024;
  const requestedBy = options.requestedBy ?? 'emissary';
  const algorithms = options.algorithms ?? ['SHA-256'];
  if (algorithms.length === 0 || algorithms.some((a) => digestAlgorithmOf(a) !== a))
    throw new TypeError('algorithms must be SHA-256 and/or MD5');
  const clients = new Map<string, Pool>();

  const clientFor = (origin: string) => {
    let client = clients.get(origin);
    if (client === undefined) {
      client = new Pool(origin, {
        // several connections: a registration call-back must not queue behind the request that caused it
        connections: 8,
        connect: { timeout: connectTimeoutMs },
        headersTimeout: responseTimeoutMs,
        bodyTimeout: responseTimeoutMs,
        keepAliveTimeout: 4_000,
      });
      clients.set(origin, client);
    }
    return client;
  };

  const attempt = async (
    url: URL,
    path: string,
    body: string,
    headers: Record<string, string>,
    maxResponseBytes: number,
  ): Promise<PeerResponse> => {
    const peer = url.origin;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, responseTimeoutMs);
    try {
      const answer = await clientFor(peer).request({ method: 'POST', path, headers, body, signal: controller.signal });
      answer.body.on('error', () => {}); // dropping an oversized body must not surface as an unhandled stream error
      const declared = Number(answer.headers['content-length'] ?? 0);
      const chunks: Buffer[] = [];
      let size = 0;
      if (declared > maxResponseBytes) {
        answer.body.destroy();
        throw new PeerResponseTooLargeError(peer, maxResponseBytes);
      }
      for await (const chunk of answer.body) {
        const buffer = chunk as Buffer;
        size += buffer.length;
        if (size > maxResponseBytes) {
          answer.body.destroy();
          controller.abort();
          throw new PeerResponseTooLargeError(peer, maxResponseBytes);
        }
        chunks.push(buffer);
      }
      return { status: answer.statusCode, headers: answer.headers, body: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof PeerError) throw error;
      const code = (error as { code?: unknown }).code;
      if (code === 'UND_ERR_CONNECT_TIMEOUT') throw new PeerTimeoutError(peer, 'connect', connectTimeoutMs);
      if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
        throw new PeerTimeoutError(peer, 'response', responseTimeoutMs);
      }
      throw new PeerConnectionError(peer, error);
    } finally {
      clearTimeout(timer);
    }
  };

  const digestAuthorization = (peer: string, status: number, challengeHeader: string | string[] | undefined, path: string) => {
    const items = parseAuthHeader(challengeHeader) ?? [];
    const usable = items
      .filter((item) => item.scheme === 'digest')
      .map((item) => ({ item, algorithm: digestAlgorithmOf(item.params.get('algorithm')) }))
      .filter(
        (c): c is { item: (typeof items)[number]; algorithm: DigestAlgorithm } =>
          c.algorithm !== undefined &&
          algorithms.includes(c.algorithm) &&
          (c.item.params.get('qop') ?? '')
            .split(',')
            .map((q) => q.trim().toLowerCase())
            .includes('auth') &&
          (c.item.params.get('nonce') ?? '') !== '' &&
          c.item.params.get('realm') !== undefined &&
          (credentials.realm === undefined || c.item.params.get('realm') === credentials.realm),
      );
    const chosen = algorithms.map((algorithm) => usable.find((c) => c.algorithm === algorithm)).find((c) => c !== undefined);
    if (chosen === undefined) {
      const schemes = [...new Set(items.map((item) => item.scheme))].join(', ') || 'none';
      const offered = [
        ...new Set(items.filter((item) => item.scheme === 'digest').map((item) => (item.params.get('algorithm') ?? 'MD5').slice(0, 32))),
      ].slice(0, 8);
      logger?.warn(
        { peer, schemes, offered, accepted: algorithms },
        'peer asked for authentication without a usable Digest challenge; no credentials sent',
      );
      throw new PeerAuthError(
        peer,
        status,
        `peer offered no usable Digest challenge (schemes: ${schemes}; Digest algorithms: ${offered.join(', ') || 'none'}; accepted: ${algorithms.join(', ')}); no credentials sent`,
      );
    }
    const { params } = chosen.item;
    const realm = params.get('realm') ?? '';
    const nonce = params.get('nonce') ?? '';
    const opaque = params.get('opaque');
    const cnonce = randomBytes(16).toString('hex');
    const nc = '00000001';
    const response = digestResponse({ algorithm: chosen.algorithm, ...credentials, realm, method: 'POST', uri: path, nonce, nc, cnonce });
    try {
      return [
        `Digest username=${quoteString(credentials.username)}`,
        `realm=${quoteString(realm)}`,
        `nonce=${quoteString(nonce)}`,
        `uri=${quoteString(path)}`,
        `algorithm=${chosen.algorithm}`,
        'qop=auth',
        `nc=${nc}`,
        `cnonce="${cnonce}"`,
        `response="${response}"`,
        ...(opaque === undefined ? [] : [`opaque=${quoteString(opaque)}`]),
      ].join(', ');
    } catch {
      throw new PeerAuthError(peer, status, 'peer Digest challenge carries unusable characters');
    }
  };

  const post = async (target: string | URL, form: Record<string, string>, postOptions: PeerPostOptions = {}): Promise<PeerResponse> => {
    const checked = allowList.check(target);
    if (!checked.ok) {
      const peer = checked.hostPort;
      logger?.warn({ peer, reason: checked.reason }, 'refused a peer that is not allow-listed');
      throw new PeerNotAllowedError(peer, checked.reason);
    }
    const extra = postOptions.headers ?? {};
    for (const name of Object.keys(extra)) {
      if (forbiddenHeaders.has(name.toLowerCase())) throw new TypeError(`header ${name} cannot be set by the caller`);
    }
    const { url } = checked;
    const path = `${url.pathname}${url.search}`;
    const body = new URLSearchParams(form).toString();
    const headers = { ...extra, 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8', 'x-requested-by': requestedBy };
    const limit = postOptions.maxResponseBytes ?? maxResponseBytes;
    const first = await attempt(url, path, body, headers, limit);
    if (first.status !== 401 || postOptions.authenticate !== true) return first;
    const authorization = digestAuthorization(url.origin, first.status, first.headers['www-authenticate'], path);
    const second = await attempt(url, path, body, { ...headers, authorization }, limit);
    if (second.status === 401) {
      logger?.warn({ peer: url.origin }, 'peer refused our Digest credentials');
      throw new PeerAuthError(url.origin, 401, 'peer refused our Digest credentials');
    }
    return second;
  };

  const close = async () => {
    const all = [...clients.values()];
    clients.clear();
    await Promise.all(all.map((client) => client.close()));
  };

  return { post, close };
}
