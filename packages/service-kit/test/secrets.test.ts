import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, parseSecretsKey, SecretOpenError, SecretsKeyError, sealSecret } from '../src/index.ts';

const key = randomBytes(32);
const aad = 'account:2001|npm_and_yarn';

describe('sealSecret / openSecret', () => {
  it('round-trips a secret, Unicode included, bound to its associated data', () => {
    for (const secret of ['npm_abcdef0123456789', 'pässwörd 🔑', '']) {
      const sealed = sealSecret(key, secret, aad);
      expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
      expect(sealed).not.toContain(secret || '\u0000');
      expect(openSecret(key, sealed, aad)).toBe(secret);
    }
  });

  it('uses a fresh IV each time, so the same secret seals to different values', () => {
    const values = new Set(Array.from({ length: 50 }, () => sealSecret(key, 'same token', aad)));
    expect(values.size).toBe(50);
    expect(new Set([...values].map((v) => v.split('.')[1])).size).toBe(50);
  });

  it('refuses a tampered value: any changed byte of IV, ciphertext or tag', () => {
    const sealed = sealSecret(key, 'a token', aad);
    const [version, iv, body] = sealed.split('.') as [string, string, string];
    const flip = (text: string, at: number) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[at] = (bytes[at] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    const bodyLength = Buffer.from(body, 'base64url').length;
    for (const tampered of [
      `${version}.${flip(iv, 0)}.${body}`,
      `${version}.${iv}.${flip(body, 0)}`,
      `${version}.${iv}.${flip(body, bodyLength - 1)}`,
      `${version}.${iv}.${body.slice(0, -4)}`,
    ]) {
      expect(() => openSecret(key, tampered, aad)).toThrow(SecretOpenError);
    }
    expect(() => openSecret(key, sealed, aad)).not.toThrow();
  });

  it('refuses other associated data: a value moved to another row does not open', () => {
    const sealed = sealSecret(key, 'a token', aad);
    expect(() => openSecret(key, sealed, 'account:2002|npm_and_yarn')).toThrow(
      /tampered with, sealed with another key, or for another row/,
    );
    expect(() => openSecret(key, sealed)).toThrow(SecretOpenError);
  });

  it('refuses another key', () => {
    const sealed = sealSecret(key, 'a token', aad);
    expect(() => openSecret(randomBytes(32), sealed, aad)).toThrow(SecretOpenError);
  });

  it('refuses malformed values and unknown versions with a clear error that does not echo them', () => {
    for (const value of ['', 'plain-token', 'v2.AAAA.BBBB', 'v1.AAAA', 'v1.not base64!.AAAA', 'v1.AAAAAAAAAAAAAAAA.AAAA']) {
      let caught: unknown;
      try {
        openSecret(key, value, aad);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(SecretOpenError);
      if (value.length > 4) expect((caught as Error).message).not.toContain(value);
    }
  });

  it('refuses keys that are not 32 bytes and secrets over the size limit', () => {
    expect(() => sealSecret(randomBytes(16), 'x')).toThrow(SecretsKeyError);
    expect(() => openSecret(randomBytes(31), 'v1.a.b')).toThrow(SecretsKeyError);
    expect(() => sealSecret(key, 'x'.repeat(16_385))).toThrow(RangeError);
  });
});

describe('parseSecretsKey', () => {
  const bytes = randomBytes(32);

  it('reads 64 hex characters, base64 and base64url, ignoring surrounding whitespace', () => {
    expect(parseSecretsKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('hex').toUpperCase())).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretsKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretsKey(` ${bytes.toString('base64')}\n`)).toEqual(bytes);
  });

  it('refuses a key of another length or encoding, naming the length', () => {
    expect(() => parseSecretsKey(randomBytes(16).toString('base64'))).toThrow(/decodes to 16 bytes/);
    expect(() => parseSecretsKey(randomBytes(33).toString('hex'))).toThrow(SecretsKeyError);
    expect(() => parseSecretsKey('')).toThrow(SecretsKeyError);
    expect(() => parseSecretsKey('not a key!')).toThrow(/64 hex characters or as base64/);
  });
});
