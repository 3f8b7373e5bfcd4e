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
