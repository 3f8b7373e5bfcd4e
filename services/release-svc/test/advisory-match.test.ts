import { ecosystemFor } from '@switchyard/ecosystems';
import { describe, expect, it } from 'vitest';
import { fixedAdvisories, isAffected, type OsvRange } from '../src/advisories/advisory-match.policy.ts';

describe('isAffected (OSV range evaluation)', () => {
  const npm = ecosystemFor('npm_and_yarn')?.versions;
  const pypi = ecosystemFor('pip')?.versions;
  if (!npm || !pypi) throw new Error('ecosystems missing');
  const ranges = (events: OsvRange['events'], type = 'ECOSYSTEM'): OsvRange[] => [{ type, events }];

  it('opens at introduced and closes at fixed', () => {
    const r = ranges([{ introduced: '0' }, { fixed: '4.17.21' }], 'SEMVER');
    expect(isAffected('4.17.15', r, [], npm)).toBe(true);
    expect(isAffected('4.17.21', r, [], npm)).toBe(false);
    expect(isAffected('5.0.0', r, [], npm)).toBe(false);
  });

  it('handles several spans, last_affected and explicit versions', () => {
    const r = ranges([{ introduced: '1.0.0' }, { fixed: '1.2.0' }, { introduced: '2.0.0' }, { last_affected: '2.1.0' }]);
    expect(isAffected('0.9.0', r, [], npm)).toBe(false);
    expect(isAffected('1.1.9', r, [], npm)).toBe(true);
    expect(isAffected('1.5.0', r, [], npm)).toBe(false);
    expect(isAffected('2.1.0', r, [], npm)).toBe(true);
    expect(isAffected('2.1.1', r, [], npm)).toBe(false);
    expect(isAffected('3.0.0', [], ['3.0.0'], npm)).toBe(true);
  });

  it('orders versions by the ecosystem (PEP 440 here) and ignores GIT ranges', () => {
    const r = ranges([{ introduced: '2.3.0' }, { fixed: '2.31.0' }]);
    expect(isAffected('2.23.0', r, [], pypi)).toBe(true);
    expect(isAffected('2.31.0rc1', r, [], pypi)).toBe(true);
    expect(isAffected('2.31.0', r, [], pypi)).toBe(false);
    expect(isAffected('2.23.0', [{ type: 'GIT', events: [{ introduced: '0' }] }], [], pypi)).toBe(false);
  });
});

describe('fixedAdvisories', () => {
  const npm = ecosystemFor('npm_and_yarn')?.versions;
  if (!npm) throw new Error('ecosystems missing');
  const below = (advisoryId: string, fixed: string) => ({
    advisoryId,
    ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed }] }],
    versions: [],
  });

  it('lists the advisories affecting the version in use and not the target, each once, sorted', () => {
    const affected = [below('GHSA-b', '4.17.21'), below('GHSA-a', '4.17.19'), below('GHSA-b', '4.17.21'), below('GHSA-c', '4.17.30')];
    expect(fixedAdvisories(npm, affected, '4.17.15', '4.17.21')).toEqual(['GHSA-a', 'GHSA-b']);
    expect(fixedAdvisories(npm, affected, '4.17.21', '4.17.22')).toEqual([]);
    expect(fixedAdvisories(npm, [], '4.17.15', '4.17.21')).toEqual([]);
  });
});
