import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';

/*
 * A client of the peer endpoints as their real clients talk to them: forms in ISO-8859-1 and HTTP Digest (RFC 7616,
 * MD5 or SHA-256, qop=auth). Written apart from peer-svc's own Digest code on purpose, so the suites would catch a mistake
 * that peer-svc's server and client made alike.
 */

/** Percent-encodes `value` as ISO-8859-1 bytes, as the peer endpoints read forms. @throws TypeError for a character above U+00FF */
export function latin1Encode(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code > 0xff) throw new TypeError(`not ISO-8859-1: ${char}`);
    out += /[A-Za-z0-9._~-]/.test(char) ? char : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** An `application/x-www-form-urlencoded` body of `params`, encoded as ISO-8859-1. */
export function latin1Form(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${latin1Encode(name)}=${latin1Encode(value)}`)
    .join('&');
}

/** A Digest user of a peer endpoint. */
export interface DigestCredentials {
  user: string;
  password: string;
}

const hashes = {
  MD5: (text: string) => createHash('md5').update(text, 'utf8').digest('hex'),
  'SHA-256': (text: string) => createHash('sha256').update(text, 'utf8').digest('hex'),
} as const;

/**
 * The `Authorization` header answering a challenge among `challenges` (a `WWW-Authenticate` value with one or more
 * Digest challenges) for `method` (POST unless said) `uri`, per RFC 7616 with qop=auth: the MD5 one when offered (as
 * the peer endpoints' older clients), else the SHA-256 one.
 * @throws Error when neither is offered
 */
export function digestAuthorization(challenges: string, uri: string, credentials: DigestCredentials, method = 'POST'): string {
  const offered = challenges.split(/,\s*(?=Digest )/);
  const md5Challenge = offered.find((challenge) => /algorithm=MD5\b/.test(challenge));
  const chosen = md5Challenge ?? offered.find((challenge) => /algorithm=SHA-256\b/.test(challenge));
  if (chosen === undefined) throw new Error(`no MD5 or SHA-256 Digest challenge in ${challenges}`);
  const algorithm = md5Challenge === undefined ? 'SHA-256' : 'MD5';
  const hash = hashes[algorithm];
  const param = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(chosen)?.[1] ?? '';
  const realm = param('realm');
  const nonce = param('nonce');
  const opaque = param('opaque');
  const nc = '00000001';
  const cnonce = randomBytes(8).toString('hex');
  const ha1 = hash(`${credentials.user}:${realm}:${credentials.password}`);
  const ha2 = hash(`${method}:${uri}`);
  const response = hash(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
  return (
    `Digest username="${credentials.user}", realm="${realm}", nonce="${nonce}", uri="${uri}", algorithm=${algorithm}, qop=auth, ` +
    `nc=${nc}, cnonce="${cnonce}", response="${response}", opaque="${opaque}"`
  );
}

/** The content type the peer endpoints' real clients send. */
export const LATIN1_FORM_TYPE = 'application/x-www-form-urlencoded; charset=ISO-8859-1';

/** A peer endpoint's answer: status, text body, headers. */
export interface TextAnswer {
  status: number;
  body: string;
  headers: Headers;
}

/** POSTs the form `body` to `url` with `headers` (no credentials). */
export async function postForm(url: string, body: string, headers: Record<string, string>): Promise<TextAnswer> {
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': LATIN1_FORM_TYPE, ...headers } });
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/**
 * POSTs the form `body` to `baseUrl + path` with Digest credentials: one unauthenticated request for the challenge
 * (expected 401), then the answer to it. Both carry `X-Requested-By`.
 */
export async function digestPost(baseUrl: string, path: string, body: string, credentials: DigestCredentials): Promise<TextAnswer> {
  const challenge = await postForm(`${baseUrl}${path}`, body, { 'x-requested-by': 'e2e' });
  expect(challenge.status).toBe(401);
  const authorization = digestAuthorization(challenge.headers.get('www-authenticate') ?? '', path, credentials);
  return postForm(`${baseUrl}${path}`, body, { 'x-requested-by': 'e2e', authorization });
}

/**
 * GETs `baseUrl + path` (the query included) with Digest credentials: one unauthenticated request for the challenge
 * (expected 401), then the answer to it.
 */
export async function digestGet(baseUrl: string, path: string, credentials: DigestCredentials): Promise<TextAnswer> {
  const challenge = await fetch(`${baseUrl}${path}`);
  expect(challenge.status).toBe(401);
  await challenge.body?.cancel();
  const authorization = digestAuthorization(challenge.headers.get('www-authenticate') ?? '', path, credentials, 'GET');
  const res = await fetch(`${baseUrl}${path}`, { headers: { authorization } });
  return { status: res.status, body: await res.text(), headers: res.headers };
}
