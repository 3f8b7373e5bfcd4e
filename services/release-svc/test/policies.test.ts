import { ecosystemFor } from '@switchyard/ecosystems';
import { describe, expect, it } from 'vitest';
import { isAffected, type OsvRange } from '../src/advisories/advisory-match.ts';
import { automergeAllowed } from '../src/scan/policies.ts';

describe('automergeAllowed (the original automerge rules)', () => {
  it('follows each rule by update kind, range and security fix', () => {
    const table: Array<[Parameters<typeof automergeAllowed>, boolean]> = [
      [['never', 'patch', true, true], false],
      [['all', 'major', false, false], true],
      [['semver:patch', 'patch', false, false], true],
      [['semver:patch', 'minor', true, false], false],
      [['semver:minor', 'minor', false, false], true],
      [['semver:minor', 'major', true, false], false],
      [['in_range', 'major', true, false], true],
      [['in_range', 'patch', false, false], false],
      [['security:patch', 'patch', true, true], true],
      [['security:patch', 'patch', true, false], false],
      [['security:patch', 'minor', true, true], false],
    ];
    for (const [args, expected] of table) expect(automergeAllowed(...args), args.join(' ')).toBe(expected);
  });
});

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
