import { ConfigError } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { acceleratedClock, isSimulated } from '../src/clock.ts';
import { readLauncherSettings } from '../src/settings.ts';

const readClockSettings = (env: Record<string, string>) => readLauncherSettings(env).clock;

describe('readLauncherSettings: the clock', () => {
  it('defaults to the system clock: no start, rate 1 (an empty variable counts as unset)', () => {
    const settings = readClockSettings({ CLOCK_START: '', CLOCK_RATE: '' });
    expect(settings).toEqual({ start: undefined, rate: 1 });
    expect(isSimulated(settings)).toBe(false);
  });

  it('reads an ISO 8601 start with its zone and a rate', () => {
    const settings = readClockSettings({ CLOCK_START: '2026-12-07T00:00:00+01:00', CLOCK_RATE: '8640' });
    expect(settings).toEqual({ start: new Date('2026-12-06T23:00:00Z'), rate: 8640 });
    expect(isSimulated(settings)).toBe(true);
    expect(isSimulated(readClockSettings({ CLOCK_RATE: '2.5' }))).toBe(true);
  });

  it('refuses a start that is not an ISO time and a rate out of range, naming both at once', () => {
    const refused = (() => {
      try {
        readClockSettings({ CLOCK_START: 'next monday', CLOCK_RATE: '0.5' });
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).problems).toEqual([
      expect.stringMatching(/^CLOCK_START: must be an ISO 8601 time/),
      'CLOCK_RATE: must be a number from 1 to 1000000',
    ]);
    expect(() => readClockSettings({ CLOCK_RATE: 'fast' })).toThrow(/CLOCK_RATE: must be a number/);
    expect(() => readClockSettings({ CLOCK_START: '2026-12-07T00:00:00' })).toThrow(/CLOCK_START/);
  });
});

describe('readLauncherSettings: CODE_HOST_RATE_LIMIT', () => {
  it("is the seed's unless set to a whole number of requests an hour", () => {
    expect(readLauncherSettings({}).codeHostRateLimit).toBeUndefined();
    expect(readLauncherSettings({ CODE_HOST_RATE_LIMIT: '1000000' }).codeHostRateLimit).toBe(1_000_000);
    expect(() => readLauncherSettings({ CODE_HOST_RATE_LIMIT: '0' })).toThrow(/CODE_HOST_RATE_LIMIT: must be at least 1/);
    expect(() => readLauncherSettings({ CODE_HOST_RATE_LIMIT: '2.5' })).toThrow(/CODE_HOST_RATE_LIMIT: must be a whole number/);
  });
});

describe('readLauncherSettings: CODE_HOST_INSTALLATION_TOKEN_TTL_MS', () => {
  it("is GitHub's hour unless set to a whole number of milliseconds from 1000", () => {
    expect(readLauncherSettings({}).installationTokenTtlMs).toBeUndefined();
    expect(readLauncherSettings({ CODE_HOST_INSTALLATION_TOKEN_TTL_MS: '30000' }).installationTokenTtlMs).toBe(30_000);
    expect(() => readLauncherSettings({ CODE_HOST_INSTALLATION_TOKEN_TTL_MS: '999' })).toThrow(
      /CODE_HOST_INSTALLATION_TOKEN_TTL_MS: must be at least 1000/,
    );
  });
});

describe('acceleratedClock', () => {
  it('runs from its start at its rate, from its first reading on', () => {
    let real = 1_000_000;
    const clock = acceleratedClock({ start: new Date('2026-12-07T00:00:00Z'), rate: 3_600 }, () => real);
    real += 5_000; // made, not read yet: no time passes on it
    expect(clock().toISOString()).toBe('2026-12-07T00:00:00.000Z');
    real += 1_000;
    expect(clock().toISOString()).toBe('2026-12-07T01:00:00.000Z');
    real += 24_000;
    expect(clock().toISOString()).toBe('2026-12-08T01:00:00.000Z');
  });

  it('starts at the real time of its first reading without a start', () => {
    let real = Date.parse('2026-11-29T10:00:00Z');
    const clock = acceleratedClock({ start: undefined, rate: 60 }, () => real);
    expect(clock().toISOString()).toBe('2026-11-29T10:00:00.000Z');
    real += 60_000;
    expect(clock().toISOString()).toBe('2026-11-29T11:00:00.000Z');
  });
});
