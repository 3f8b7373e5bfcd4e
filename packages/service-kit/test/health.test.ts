import { describe, expect, it } from 'vitest';
import { DEGRADED, runReadinessChecks } from '../src/health.ts';

const failing = (message: string) => async () => {
  throw new Error(message);
};

describe('runReadinessChecks', () => {
  it('reports a failed non-required check as degraded without making the service unready', async () => {
    const result = await runReadinessChecks([
      { name: 'database', check: async () => {} },
      { name: 'bus', required: false, check: failing('not connected') },
    ]);
    expect(result).toEqual({ ready: true, checks: { database: 'ok', bus: DEGRADED } });
    expect(DEGRADED).toBe('degraded');
  });

  it('shows a passing non-required check as ok, and a failed required check still makes the service unready', async () => {
    const result = await runReadinessChecks([
      { name: 'database', check: failing('connection refused') },
      { name: 'bus', required: false, check: async () => {} },
    ]);
    expect(result).toEqual({ ready: false, checks: { database: 'connection refused', bus: 'ok' } });
  });
});
