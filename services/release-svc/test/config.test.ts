import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { loadReleaseConfig } from '../src/config.ts';

describe("release-svc's configuration: CODE_HOST_MAX_RESPONSE_BYTES", () => {
  it('defaults to 5 MiB, takes a number of bytes, and refuses values under 1 KiB, over 1 GiB or not whole', () => {
    expect(loadReleaseConfig({}).CODE_HOST_MAX_RESPONSE_BYTES).toBe(5 * 1024 * 1024);
    expect(loadReleaseConfig({ CODE_HOST_MAX_RESPONSE_BYTES: '' }).CODE_HOST_MAX_RESPONSE_BYTES).toBe(5 * 1024 * 1024);
    expect(loadReleaseConfig({ CODE_HOST_MAX_RESPONSE_BYTES: '1048576' }).CODE_HOST_MAX_RESPONSE_BYTES).toBe(1_048_576);
    for (const bad of ['1023', '1073741825', '1.5', 'five']) {
      expect(() => loadReleaseConfig({ CODE_HOST_MAX_RESPONSE_BYTES: bad }), bad).toThrow(ConfigError);
      expect(() => loadReleaseConfig({ CODE_HOST_MAX_RESPONSE_BYTES: bad }), bad).toThrow(/CODE_HOST_MAX_RESPONSE_BYTES/);
    }
  });
});
