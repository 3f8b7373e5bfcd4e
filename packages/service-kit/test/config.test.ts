import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, envBoolean, envPort, envPostgresUrl, parseConfig } from '../src/index.ts';

const schema = z.object({ PORT: envPort(8080), DATABASE_URL: envPostgresUrl, VERBOSE: envBoolean(false) });

describe('parseConfig', () => {
  it('applies defaults and freezes the result', () => {
    const config = parseConfig('svc', schema, {});
    expect(config).toEqual({ PORT: 8080, DATABASE_URL: undefined, VERBOSE: false });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('coerces ports and booleans', () => {
    expect(parseConfig('svc', schema, { PORT: '0', VERBOSE: 'yes', DATABASE_URL: 'postgres://u@h/db' })).toEqual({
      PORT: 0,
      VERBOSE: true,
      DATABASE_URL: 'postgres://u@h/db',
    });
  });

  it('treats an empty variable as unset', () => {
    expect(parseConfig('svc', schema, { PORT: '', DATABASE_URL: '' })).toEqual({ PORT: 8080, DATABASE_URL: undefined, VERBOSE: false });
  });

  it('lists every bad variable at once', () => {
    let caught: unknown;
    try {
      parseConfig('svc', schema, { PORT: '70000', DATABASE_URL: 'mysql://h/db', VERBOSE: 'maybe' });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual(['PORT', 'DATABASE_URL', 'VERBOSE']);
    expect((caught as ConfigError).message).toContain('svc: invalid configuration');
  });
});
