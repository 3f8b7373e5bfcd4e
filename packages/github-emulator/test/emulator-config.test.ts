import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { GITHUB_SECONDARY_LIMITS, loadEmulatorConfig } from '../src/index.ts';

describe('emulator configuration', () => {
  it('defaults to port 8090, the demo seed and github.com', () => {
    expect(loadEmulatorConfig({})).toEqual({ HOST: '0.0.0.0', LOG_LEVEL: 'info', PORT: 8090, CODE_HOST_HTML_URL: 'https://github.com' });
    expect(loadEmulatorConfig({ PORT: '0', CODE_HOST_SEED: '/tmp/seed.json', CODE_HOST_SEED_UNUSED: 'x' })).toMatchObject({
      PORT: 0,
      CODE_HOST_SEED: '/tmp/seed.json',
    });
  });

  it('reads where webhooks go and their secret', () => {
    expect(loadEmulatorConfig({ CODE_HOST_WEBHOOK_URL: 'http://127.0.0.1:9000/hooks', CODE_HOST_WEBHOOK_SECRET: 's3cret' })).toMatchObject({
      CODE_HOST_WEBHOOK_URL: 'http://127.0.0.1:9000/hooks',
      CODE_HOST_WEBHOOK_SECRET: 's3cret',
    });
    expect(() => loadEmulatorConfig({ CODE_HOST_WEBHOOK_URL: 'not a url' })).toThrow(ConfigError);
  });

  it('reads a rate limit of its own (requests an hour per user), a whole number', () => {
    expect(loadEmulatorConfig({ CODE_HOST_RATE_LIMIT: '500000' })).toMatchObject({ CODE_HOST_RATE_LIMIT: 500_000 });
    expect(() => loadEmulatorConfig({ CODE_HOST_RATE_LIMIT: '0' })).toThrow(ConfigError);
    expect(() => loadEmulatorConfig({ CODE_HOST_RATE_LIMIT: 'many' })).toThrow(ConfigError);
  });

  it('reads the installation token lifetime (ms, 1 s to a day) and where to write the App’s private key', () => {
    expect(
      loadEmulatorConfig({ CODE_HOST_INSTALLATION_TOKEN_TTL_MS: '60000', CODE_HOST_APP_PRIVATE_KEY_FILE: '/tmp/keys/switchyard.pem' }),
    ).toMatchObject({ CODE_HOST_INSTALLATION_TOKEN_TTL_MS: 60_000, CODE_HOST_APP_PRIVATE_KEY_FILE: '/tmp/keys/switchyard.pem' });
    expect(() => loadEmulatorConfig({ CODE_HOST_INSTALLATION_TOKEN_TTL_MS: '10' })).toThrow(ConfigError);
    expect(() => loadEmulatorConfig({ CODE_HOST_INSTALLATION_TOKEN_TTL_MS: 'an hour' })).toThrow(ConfigError);
  });

  it('reads the secondary limits: off (the default), github (100, 80, 500) or three positive integers', () => {
    expect(loadEmulatorConfig({}).CODE_HOST_SECONDARY_LIMITS).toBeUndefined();
    expect(loadEmulatorConfig({ CODE_HOST_SECONDARY_LIMITS: 'off' }).CODE_HOST_SECONDARY_LIMITS).toBeUndefined();
    expect(loadEmulatorConfig({ CODE_HOST_SECONDARY_LIMITS: 'github' }).CODE_HOST_SECONDARY_LIMITS).toEqual(GITHUB_SECONDARY_LIMITS);
    expect(loadEmulatorConfig({ CODE_HOST_SECONDARY_LIMITS: '10,4,20' }).CODE_HOST_SECONDARY_LIMITS).toEqual({
      concurrent: 10,
      contentPerMinute: 4,
      contentPerHour: 20,
    });
    for (const bad of ['on', '0,80,500', '100,80', '100,80,500,1', '-1,2,3', '1.5,2,3']) {
      expect(() => loadEmulatorConfig({ CODE_HOST_SECONDARY_LIMITS: bad }), bad).toThrow(ConfigError);
    }
  });

  it('rejects invalid variables all at once', () => {
    expect(() => loadEmulatorConfig({ PORT: 'eighty', CODE_HOST_HTML_URL: 'not a url' })).toThrow(ConfigError);
    try {
      loadEmulatorConfig({ PORT: 'eighty', CODE_HOST_HTML_URL: 'not a url' });
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'CODE_HOST_HTML_URL']);
    }
  });
});
