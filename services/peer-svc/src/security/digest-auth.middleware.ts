import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';
import { type DigestAlgorithm, digestAlgorithmOf, digestResponse, parseAuthHeader, quoteString, safeEqual } from './digest.policy.ts';

/** How users are found: a map `username → clear-text password`, or a function returning the password (`undefined`: no such user). */
export type DigestUsers = ReadonlyMap<string, string> | ((username: string) => string | undefined);

/** Options of {@link createDigestAuthenticator}. */
export interface DigestAuthenticatorOptions {
  /** The protection space sent in every challenge and required in every answer, e.g. `EmissaryRealm`. */
  realm: string;
  users: DigestUsers;
  /** How long an issued nonce is accepted, in milliseconds (default 5 minutes); older ones get `stale=true`. */
  nonceTtlMs?: number;
  /** Algorithms offered and accepted, one challenge each, in order of preference (default `['SHA-256']`; peer-svc's `DIGEST_ALGORITHMS`). */
  algorithms?: readonly DigestAlgorithm[];
  /** HMAC key signing nonces and the opaque value (default: 32 random bytes per process, so a restart invalidates nonces). */
  secret?: Uint8Array;
  /** Bound on the nonces whose last `nc` is remembered (default 10 000); see {@link createDigestAuthenticator}. */
  maxTrackedNonces?: number;
  /** Clock in epoch milliseconds (tests). */
  now?: () => number;
}

/** The parts of a request the authenticator reads (a node `IncomingMessage` or an express `Request` fits). */
export interface DigestRequest {
  method?: string | undefined;
  url?: string | undefined;
  originalUrl?: string | undefined;
  headers: IncomingHttpHeaders;
}

/**
 * Why a request was refused (for logs and tests; never sent to the client):
 * `missing` no Digest credentials, `malformed` unparsable header, `unsupported` algorithm/qop/userhash not offered,
 * `realm`/`opaque`/`uri` mismatch, `nonce` not issued by this process, `stale` expired nonce with otherwise right
 * credentials, `credentials` unknown user or wrong password, `replay` an `nc` not above the last one seen for the nonce.
 */
export type DigestFailureReason =
  | 'missing'
  | 'malformed'
  | 'unsupported'
  | 'realm'
  | 'opaque'
  | 'uri'
  | 'nonce'
  | 'stale'
  | 'credentials'
  | 'replay';

/** Outcome of {@link DigestAuthenticator.authenticate}: the user, or the 401 to send (`WWW-Authenticate` lines, one per algorithm). */
export type DigestResult =
  | { ok: true; user: string }
  | { ok: false; status: 401; reason: DigestFailureReason; headers: { 'www-authenticate': string[] } };

/** A Digest verifier; see {@link createDigestAuthenticator}. */
export interface DigestAuthenticator {
  /** Verifies the request's `Authorization` header; never throws for client input. */
  authenticate(req: DigestRequest): DigestResult;
  /** Fresh challenge lines (one per algorithm), with `stale=true` when asked. */
  challenge(stale?: boolean): string[];
  /**
   * Express middleware: on success sets `res.locals.digestUser` and calls `next()`; otherwise answers
   * 401 `text/plain` `Unauthorized` with the challenges, `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`.
   */
  middleware: RequestHandler;
}

const NONCE_SKEW_MS = 5_000;

/**
 * HTTP Digest authentication of inbound requests, RFC 7616 (qop=`auth` only; RFC 2617 clients that send
 * `algorithm=MD5` or no algorithm with qop=`auth` work; RFC 2069 answers without qop are refused).
 *
 * - Challenge: `Digest realm="…", qop="auth", algorithm=SHA-256, nonce="…", opaque="…"`, then the same for each further
 *   algorithm of `algorithms` (e.g. MD5); an answer with an algorithm not offered is refused (`unsupported`).
 * - Nonces are stateless: `<issued ms, base 36>.<16 random bytes>.<HMAC-SHA-256(secret, realm|issued|random)>`,
 *   base64url; only nonces signed with this process's secret are accepted, and for `nonceTtlMs` (plus 5 s clock skew).
 *   An expired nonce whose `response` is otherwise right gets 401 with `stale=true` (RFC 7616 §3.3), so clients retry silently.
 * - `opaque` must be returned unchanged; `realm` must equal ours; `uri` must equal the request target
 *   (`originalUrl`, else `url`) exactly; `response` is compared in constant time; an unknown user costs the same hash work.
 * - Replay: per nonce the highest `nc` accepted is remembered and a later request must use a higher one
 *   (strictly increasing, so out-of-order pipelined requests on one nonce are refused and must re-authenticate).
 *   At most `maxTrackedNonces` nonces are remembered (oldest first out); a nonce issued no later than an evicted one
 *   and no longer remembered is treated as stale, so eviction never re-opens a replay.
 * @throws TypeError for an empty realm, an empty or unknown algorithm list, or a non-positive TTL.
 */
export function createDigestAuthenticator(options: DigestAuthenticatorOptions): DigestAuthenticator {
  const { realm, users } = options;
  const ttl = options.nonceTtlMs ?? 5 * 60_000;
  const algorithms = options.algorithms ?? ['SHA-256'];
  const secret = options.secret ?? randomBytes(32);
  const maxTracked = options.maxTrackedNonces ?? 10_000;
  const now = options.now ?? Date.now;
  if (realm === '') throw new TypeError('realm must not be empty');
  if (!(ttl > 0)) throw new TypeError('nonceTtlMs must be positive');
  if (algorithms.length === 0 || algorithms.some((a) => digestAlgorithmOf(a) !== a))
    throw new TypeError('algorithms must be SHA-256 and/or MD5');
  const mac = (data: string) => createHmac('sha256', secret).update(data, 'utf8').digest('base64url');
  const opaque = mac(`opaque|${realm}`);
  const dummyPassword = randomBytes(16).toString('hex');
  const lookup = typeof users === 'function' ? users : (name: string) => users.get(name);
  const lastNc = new Map<string, number>();
  let evictedUpTo = Number.NEGATIVE_INFINITY;

  const newNonce = () => {
    const issued = now().toString(36);
    const random = randomBytes(16).toString('base64url');
    return `${issued}.${random}.${mac(`${realm}|${issued}|${random}`)}`;
  };
  const nonceIssuedAt = (nonce: string): number | undefined => {
    const parts = nonce.split('.');
    if (parts.length !== 3) return undefined;
    const [issued = '', random = '', signature = ''] = parts;
    if (!/^[0-9a-z]{1,12}$/.test(issued) || !safeEqual(signature, mac(`${realm}|${issued}|${random}`))) return undefined;
    return Number.parseInt(issued, 36);
  };
  const challenge = (stale = false) =>
    algorithms.map(
      (algorithm) =>
        `Digest realm=${quoteString(realm)}, qop="auth", algorithm=${algorithm}, nonce="${newNonce()}", opaque="${opaque}"${stale ? ', stale=true' : ''}`,
    );
  const refuse = (reason: DigestFailureReason): DigestResult => ({
    ok: false,
    status: 401,
    reason,
    headers: { 'www-authenticate': challenge(reason === 'stale') },
  });
  const remember = (nonce: string, nc: number, issuedAt: number) => {
    lastNc.delete(nonce);
    lastNc.set(nonce, nc);
    while (lastNc.size > maxTracked) {
      const oldest = lastNc.keys().next().value;
      if (oldest === undefined) break;
      lastNc.delete(oldest);
      evictedUpTo = Math.max(evictedUpTo, nonceIssuedAt(oldest) ?? issuedAt);
    }
  };

  const authenticate = (req: DigestRequest): DigestResult => {
    const header = req.headers.authorization;
    if (header === undefined || header === '') return refuse('missing');
    if (header.length > 4096) return refuse('malformed');
    const items = parseAuthHeader(header);
    if (items === undefined || items.length !== 1 || items[0] === undefined) return refuse('malformed');
    const { scheme, params } = items[0];
    if (scheme !== 'digest') return refuse('missing');
    const get = (name: string) => params.get(name);
    const username = get('username');
    const nonce = get('nonce');
    const uri = get('uri');
    const response = get('response')?.toLowerCase();
    const nc = get('nc');
    const cnonce = get('cnonce');
    if (
      username === undefined ||
      nonce === undefined ||
      uri === undefined ||
      response === undefined ||
      nc === undefined ||
      cnonce === undefined
    ) {
      return refuse(params.has('username*') ? 'unsupported' : 'malformed');
    }
    const algorithm = digestAlgorithmOf(get('algorithm'));
    if (algorithm === undefined || !algorithms.includes(algorithm)) return refuse('unsupported');
    if (get('qop')?.toLowerCase() !== 'auth' || (get('userhash') ?? 'false').toLowerCase() !== 'false') return refuse('unsupported');
    if (!/^[0-9a-f]{8}$/i.test(nc) || cnonce === '' || cnonce.length > 256) return refuse('malformed');
    if (!new RegExp(`^[0-9a-f]{${algorithm === 'SHA-256' ? 64 : 32}}$`).test(response)) return refuse('malformed');
    if (get('realm') !== realm) return refuse('realm');
    if (!safeEqual(get('opaque') ?? '', opaque)) return refuse('opaque');
    const target = req.originalUrl ?? req.url ?? '';
    if (uri !== target) return refuse('uri');
    const issuedAt = nonceIssuedAt(nonce);
    if (issuedAt === undefined || issuedAt > now() + NONCE_SKEW_MS) return refuse('nonce');

    const password = lookup(username);
    const expected = digestResponse({
      algorithm,
      username,
      realm,
      password: password ?? dummyPassword,
      method: req.method ?? 'GET',
      uri,
      nonce,
      nc,
      cnonce,
    });
    if (!safeEqual(response, expected) || password === undefined) return refuse('credentials');
    const count = Number.parseInt(nc, 16);
    const seen = lastNc.get(nonce);
    if (now() - issuedAt > ttl || (seen === undefined && issuedAt <= evictedUpTo)) return refuse('stale');
    if (seen !== undefined && count <= seen) return refuse('replay');
    remember(nonce, count, issuedAt);
    return { ok: true, user: username };
  };

  const middleware: RequestHandler = (req, res, next) => {
    const result = authenticate(req);
    if (result.ok) {
      res.locals.digestUser = result.user;
      next();
      return;
    }
    res.status(401);
    res.set({
      'www-authenticate': result.headers['www-authenticate'],
      'content-type': 'text/plain; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    res.send('Unauthorized');
  };

  return { authenticate, challenge, middleware };
}
