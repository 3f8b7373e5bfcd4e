import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { loadConfigServiceConfig } from '../src/config.ts';

describe("config-svc's configuration: CODE_HOST_MAX_RESPONSE_BYTES", () => {
  it('defaults to 5 MiB, takes a number of bytes, and refuses values under 1 KiB or over 1 GiB', () => {
    expect(loadConfigServiceConfig({}).CODE_HOST_MAX_RESPONSE_BYTES).toBe(5 * 1024 * 1024);
    expect(loadConfigServiceConfig({ CODE_HOST_MAX_RESPONSE_BYTES: '65536' }).CODE_HOST_MAX_RESPONSE_BYTES).toBe(65_536);
    for (const bad of ['100', '2147483648']) {
      expect(() => loadConfigServiceConfig({ CODE_HOST_MAX_RESPONSE_BYTES: bad }), bad).toThrow(ConfigError);
    }
  });
});

describe("config-svc's configuration: SECRETS_KEY", () => {
  const key = Buffer.alloc(32, 7);

  it('is optional, and reads 32 bytes given as hex or base64', () => {
    expect(loadConfigServiceConfig({}).SECRETS_KEY).toBeUndefined();
    expect(loadConfigServiceConfig({ SECRETS_KEY: key.toString('hex') }).SECRETS_KEY).toEqual(key);
    expect(loadConfigServiceConfig({ SECRETS_KEY: key.toString('base64') }).SECRETS_KEY).toEqual(key);
  });

  it('refuses a key of another length as a configuration error that does not echo it', () => {
    const short = Buffer.alloc(16, 7).toString('base64');
    let caught: unknown;
    try {
      loadConfigServiceConfig({ SECRETS_KEY: short });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as ConfigError).problems).toEqual([expect.stringMatching(/^SECRETS_KEY: must be 32 bytes/)]);
    expect((caught as Error).message).not.toContain(short);
  });
});
