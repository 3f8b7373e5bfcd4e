import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { clientIdOf, type EmulatedApp } from '../seed-apps.ts';
import { APP_MESSAGES } from './messages.ts';

/**
 * GitHub App JWTs (https://docs.github.com/apps/creating-github-apps/authenticating-with-a-github-app/generating-a-json-web-token-jwt-for-a-github-app):
 * RS256 signed with the App's private key; `iss` the App ID (a JSON number, or a string of its digits) or its client
 * ID; `iat` when it was issued and `exp` at most 10 minutes later. The signature is checked with `node:crypto` (RSA
 * PKCS#1 v1.5 over SHA-256, which is what RS256 is); only the JWT's framing (three base64url parts, two of them JSON)
 * is read here.
 */

/** How far in the future `iat` may be, in seconds: the clock skew GitHub tolerates (it tells Apps to backdate `iat` by 60 s). */
export const JWT_CLOCK_SKEW_SECONDS = 60;
/** The longest a JWT may live, `exp - iat`, in seconds: 10 minutes. */
export const JWT_MAX_LIFETIME_SECONDS = 600;

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** Decodes one base64url part of a JWT as a JSON object, or undefined. */
function jsonPart(part: string): Record<string, unknown> | undefined {
  if (!SEGMENT.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Does `token` have a JWT's shape (three base64url parts, the first a JSON header)? Tokens of other kinds never do. */
export function looksLikeJwt(token: string): boolean {
  const parts = token.split('.');
  return parts.length === 3 && parts[0] !== undefined && jsonPart(parts[0]) !== undefined;
}

/** What {@link verifyAppJwt} concludes: the App the JWT authenticates, or the message GitHub refuses it with. */
export type JwtCheck = { app: EmulatedApp } | { error: string };

const publicKeys = new WeakMap<EmulatedApp, KeyObject>();

function publicKeyOf(app: EmulatedApp): KeyObject {
  let key = publicKeys.get(app);
  if (!key) {
    key = createPublicKey(app.publicKey);
    publicKeys.set(app, key);
  }
  return key;
}

/** The App that `iss` names among `apps`: by App ID (a safe integer, or a string of digits) or by client ID. */
function issuerOf(iss: unknown, apps: readonly EmulatedApp[]): EmulatedApp | 'not an integer' | undefined {
  if (typeof iss === 'string') {
    const byClient = apps.find((app) => clientIdOf(app) === iss);
    if (byClient) return byClient;
    if (!/^\d{1,15}$/.test(iss)) return 'not an integer';
    return apps.find((app) => app.id === Number(iss));
  }
  if (typeof iss !== 'number' || !Number.isSafeInteger(iss)) return 'not an integer';
  return apps.find((app) => app.id === iss);
}

/**
 * Checks an App JWT as GitHub does, at `nowMs`, against the seed's `apps`: three base64url parts, header `alg: RS256`,
 * an `iss` naming one of `apps` whose public key verifies the signature (otherwise `A JSON web token could not be
 * decoded`; an `iss` that is not an integer nor a client ID: `'Issuer' claim ('iss') must be an Integer`), an integer
 * `iat` at most {@link JWT_CLOCK_SKEW_SECONDS} in the future, a numeric `exp` not past, then at most
 * {@link JWT_MAX_LIFETIME_SECONDS} after `iat` (checked in this order). Messages are {@link APP_MESSAGES}'.
 */
export function verifyAppJwt(token: string, apps: readonly EmulatedApp[], nowMs: number): JwtCheck {
  const parts = token.split('.');
  const [headerPart, claimsPart, signaturePart] = parts;
  if (parts.length !== 3 || headerPart === undefined || claimsPart === undefined || signaturePart === undefined) {
    return { error: APP_MESSAGES.jwtUndecodable };
  }
  const header = jsonPart(headerPart);
  const claims = jsonPart(claimsPart);
  if (!header || !claims || header.alg !== 'RS256' || !SEGMENT.test(signaturePart)) return { error: APP_MESSAGES.jwtUndecodable };
  const app = issuerOf(claims.iss, apps);
  if (app === 'not an integer') return { error: APP_MESSAGES.issuerNotInteger };
  if (!app) return { error: APP_MESSAGES.jwtUndecodable };
  const signed = Buffer.from(`${headerPart}.${claimsPart}`);
  if (!verify('sha256', signed, publicKeyOf(app), Buffer.from(signaturePart, 'base64url'))) {
    return { error: APP_MESSAGES.jwtUndecodable };
  }
  const now = Math.floor(nowMs / 1000);
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || !Number.isSafeInteger(iat) || iat > now + JWT_CLOCK_SKEW_SECONDS) {
    return { error: APP_MESSAGES.issuedAtInvalid };
  }
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp <= now) return { error: APP_MESSAGES.expirationInvalid };
  if (exp - iat > JWT_MAX_LIFETIME_SECONDS) return { error: APP_MESSAGES.expirationTooFar };
  return { app };
}

/** What {@link signAppJwt} puts in a JWT. */
export interface AppJwtClaims {
  /** The App ID (or client ID); a number is sent as a JSON number. */
  iss: number | string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
  [claim: string]: unknown;
}

/**
 * A JWT signed RS256 with `privateKeyPem` (PKCS#1 or PKCS#8), as an App makes one: for tests and demos of the
 * emulator (a client of a real App uses its own library, e.g. `@octokit/auth-app`).
 */
export function signAppJwt(
  privateKeyPem: string,
  claims: AppJwtClaims,
  header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT' },
): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${encode(header)}.${encode(claims)}`;
  const signature = sign('sha256', Buffer.from(unsigned), createPrivateKey(privateKeyPem));
  return `${unsigned}.${signature.toString('base64url')}`;
}

/**
 * The JWT an App would send at `nowMs` as GitHub advises: `iat` 60 s in the past, `exp` 9 minutes after that (well
 * within the 10-minute limit), `iss` the App ID.
 */
export function appJwtAt(privateKeyPem: string, appId: number, nowMs: number): string {
  const now = Math.floor(nowMs / 1000);
  return signAppJwt(privateKeyPem, { iss: appId, iat: now - 60, exp: now + 540 });
}
