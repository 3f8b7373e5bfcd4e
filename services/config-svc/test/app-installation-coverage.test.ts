import { describe, expect, it } from 'vitest';
import { coverageOf } from '../src/accounts/app-installation.policy.ts';

const installation = (extra: Partial<Parameters<typeof coverageOf>[0][number]> = {}) => ({
  repositorySelection: 'selected' as const,
  repositoryIds: [1, 2],
  suspended: false,
  removed: false,
  ...extra,
});

/** Which repos of an account the App covers, from the installations release-svc published for it. */
describe('coverageOf: the repos an account’s App installations cover', () => {
  it('is unknown without a recorded installation (the update configs alone decide)', () => {
    expect(coverageOf([])).toBeUndefined();
  });

  it('covers the selected repos, or all of them, of a live installation', () => {
    const selected = coverageOf([installation()]);
    expect([1, 2, 3].map((id) => selected?.(id))).toEqual([true, true, false]);
    expect(coverageOf([installation({ repositorySelection: 'all', repositoryIds: null })])?.(3)).toBe(true);
  });

  it('covers nothing of a removed or suspended installation, unless another live one does', () => {
    expect(coverageOf([installation({ removed: true })])?.(1)).toBe(false);
    expect(coverageOf([installation({ suspended: true })])?.(1)).toBe(false);
    const reinstalled = coverageOf([installation({ removed: true }), installation({ repositorySelection: 'all', repositoryIds: null })]);
    expect(reinstalled?.(5)).toBe(true);
  });
});
