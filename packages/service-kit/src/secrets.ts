import { createCipheriv, createDecipheriv, type KeyObject, randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * Sealing of small secrets (registry tokens, passwords) with AES-256-GCM (node:crypto; NIST SP 800-38D,
 * https://csrc.nist.gov/pubs/sp/800/38/d/final). A sealed value is a self-describing ASCII string:
 *
 *     v1.<base64url of a random 12-byte IV>.<base64url of the ciphertext followed by the 16-byte tag>
 *
 * The associated data (`aad`) is authenticated but not stored: a value sealed for one row (e.g. `account:2001|pip`) does
 * not open for another, so a sealed value copied to another row is refused like a tampered one.
 */

/** The version prefix of values {@link sealSecret} writes. */
export const SEALED_SECRET_VERSION = 'v1';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The largest plaintext accepted, in UTF-8 bytes: these are tokens and passwords, not documents. */
export const MAX_SECRET_BYTES = 16_384;

/** A 32-byte AES-256 key, as {@link parseSecretsKey} returns it. */
export type SecretsKey = Buffer | KeyObject;

/** Thrown by {@link parseSecretsKey} for a key that is not 32 bytes in base64 or hex (a configuration error). */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

/**
 * Thrown by {@link openSecret} when a sealed value cannot be opened: malformed, of an unknown version, tampered with,
 * sealed with another key, or for other associated data. The message never carries the value or the key.
 */
export class SecretOpenError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SecretOpenError';
  }
}

/**
 * Reads the key of `SECRETS_KEY`: 32 bytes given as 64 hexadecimal characters, or as base64 / base64url (44 characters
 * with padding, 43 without). Surrounding whitespace is ignored. Generate one with `openssl rand -base64 32`.
 * @returns the 32 key bytes
 * @throws SecretsKeyError when the text is neither, or decodes to another length than 32 bytes
 */
export function parseSecretsKey(text: string): Buffer {
  const value = text.trim();
  if (/^[0-9a-fA-F]+$/.test(value) && value.length === KEY_BYTES * 2) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const bytes = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
    throw new SecretsKeyError(
      `must be ${KEY_BYTES} bytes (64 hex characters or 44 base64 characters); it decodes to ${bytes.length} bytes`,
    );
  }
  throw new SecretsKeyError(`must be ${KEY_BYTES} bytes given as 64 hex characters or as base64 (e.g. openssl rand -base64 32)`);
}

function checkKey(key: SecretsKey): void {
  const length = Buffer.isBuffer(key) ? key.length : key.symmetricKeySize;
  if (length !== KEY_BYTES) throw new SecretsKeyError(`an AES-256 key must be ${KEY_BYTES} bytes, got ${length ?? 'none'}`);
}

/**
 * Seals `plaintext` (UTF-8) with AES-256-GCM under `key`, with a fresh random 12-byte IV each call (so sealing the same
 * secret twice gives two different values), binding it to `aad` (UTF-8, may be empty).
 * @returns `v1.<iv>.<ciphertext+tag>`, both parts base64url without padding
 * @throws SecretsKeyError for a key that is not 32 bytes; RangeError for a plaintext over {@link MAX_SECRET_BYTES}
 */
export function sealSecret(key: SecretsKey, plaintext: string, aad = ''): string {
  checkKey(key);
  if (Buffer.byteLength(plaintext, 'utf8') > MAX_SECRET_BYTES) throw new RangeError(`a secret must be at most ${MAX_SECRET_BYTES} bytes`);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${SEALED_SECRET_VERSION}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
}

/**
 * Opens a value {@link sealSecret} wrote, with the same `key` and `aad`.
 * @returns the plaintext
 * @throws SecretOpenError when the value is malformed or of another version, or fails authentication (tampered with,
 *   another key, other associated data); SecretsKeyError for a key that is not 32 bytes
 */
export function openSecret(key: SecretsKey, sealed: string, aad = ''): string {
  checkKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 3 || parts[0] !== SEALED_SECRET_VERSION) {
    throw new SecretOpenError(`not a sealed secret of version ${SEALED_SECRET_VERSION} (v1.<iv>.<ciphertext>)`);
  }
  const [, ivText = '', bodyText = ''] = parts;
  if (!/^[A-Za-z0-9_-]+$/.test(ivText) || !/^[A-Za-z0-9_-]+$/.test(bodyText)) {
    throw new SecretOpenError('a sealed secret must hold base64url parts');
  }
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretOpenError('a sealed secret has a malformed IV or is truncated');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch (error) {
    throw new SecretOpenError('the sealed secret does not open: it was tampered with, sealed with another key, or for another row', {
      cause: error,
    });
  }
}

/**
 * The `SECRETS_KEY` variable of a service's environment schema: optional; when set, 32 bytes as 64 hex characters or as
 * base64 (`openssl rand -base64 32`), read by {@link parseSecretsKey} (another length is a configuration error).
 */
export const secretsKeyEnv = z
  .string()
  .transform((value, ctx) => {
    try {
      return parseSecretsKey(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  })
  .optional();
