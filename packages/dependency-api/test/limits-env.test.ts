import { parseConfig } from '@switchyard/service-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dependencyApiLimitsEnv } from '../src/index.ts';

const load = (env: Record<string, string>) => parseConfig('test', z.object(dependencyApiLimitsEnv), env);

describe('dependencyApiLimitsEnv', () => {
  it('has defaults: rejected tokens 60 s, 20 failures a minute per address, 5,000 code-host calls an hour per token, no trusted proxy', () => {
    expect(load({})).toEqual({
      AUTH_REJECTED_TTL_MS: 60_000,
      AUTH_FAILURE_LIMIT: 20,
      AUTH_FAILURE_WINDOW_MS: 60_000,
      TRUST_PROXY: false,
      CODE_HOST_TOKEN_BUDGET: 5_000,
      CODE_HOST_TOKEN_BUDGET_WINDOW_MS: 3_600_000,
    });
  });

  it('reads TRUST_PROXY as a number of hops, a list of addresses, subnets and names, or off', () => {
    expect(load({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(load({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(load({ TRUST_PROXY: 'loopback, 10.0.0.0/8,fd00::/8 , 192.0.2.7' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
      '192.0.2.7',
    ]);
    for (const off of ['false', 'off', 'no', '0']) expect(load({ TRUST_PROXY: off }).TRUST_PROXY).toBe(false);
  });

  it('refuses to trust every address, and names what it cannot read', () => {
    for (const bad of ['true', '*', 'gateway', '10.0.0.0/33', '1.2.3', '-1', '1.5']) {
      expect(() => load({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });

  it('takes 0 as off for the limits, and refuses a budget too small to authenticate a token (three calls)', () => {
    expect(load({ AUTH_FAILURE_LIMIT: '0', CODE_HOST_TOKEN_BUDGET: '0', AUTH_REJECTED_TTL_MS: '0' })).toMatchObject({
      AUTH_FAILURE_LIMIT: 0,
      CODE_HOST_TOKEN_BUDGET: 0,
      AUTH_REJECTED_TTL_MS: 0,
    });
    expect(() => load({ CODE_HOST_TOKEN_BUDGET: '2' })).toThrow(/CODE_HOST_TOKEN_BUDGET/);
    expect(load({ CODE_HOST_TOKEN_BUDGET: '3' }).CODE_HOST_TOKEN_BUDGET).toBe(3);
    expect(() => load({ AUTH_FAILURE_WINDOW_MS: '10' })).toThrow(/AUTH_FAILURE_WINDOW_MS/);
  });
});
