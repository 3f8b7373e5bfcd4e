import { describe, expect, it } from 'vitest';
import { ignoreCondition, leadingNumbers, meetsIgnoreCondition } from '../src/ignore-conditions.ts';

describe("dependabot-core's ignore conditions", () => {
  it('are written from the version a pull request targeted, by the line it names', () => {
    expect(ignoreCondition('major', '7.2.1')).toBe('>= 7.a, < 8');
    expect(ignoreCondition('minor', '0.23.4')).toBe('>= 0.23.a, < 0.24');
    expect(ignoreCondition('minor', 'v2')).toBe('>= 2.0.a, < 2.1');
    expect(ignoreCondition('patch', '1.2.3')).toBe('1.2.3');
    expect(ignoreCondition('version', '1.2.3')).toBe('1.2.3');
    expect(ignoreCondition('major', 'alpine')).toBe('alpine');
    expect(ignoreCondition('dependency', '1.0.0')).toBeNull();
  });

  it('are met by the versions of their line, pre-releases included, and no other', () => {
    const major = '>= 7.a, < 8';
    expect(meetsIgnoreCondition(major, '7.0.0-beta.1')).toBe(true);
    expect(meetsIgnoreCondition(major, '7.9.9')).toBe(true);
    expect(meetsIgnoreCondition(major, '8.0.0')).toBe(false);
    expect(meetsIgnoreCondition(major, '6.9.0')).toBe(false);
    expect(meetsIgnoreCondition('>= 0.128.a, < 0.129', '0.128.3')).toBe(true);
    expect(meetsIgnoreCondition('>= 0.128.a, < 0.129', '0.129.0')).toBe(false);
    expect(meetsIgnoreCondition(major, 'latest')).toBe(false);
  });

  it("leave a condition in an ecosystem's own syntax to the ecosystem", () => {
    expect(meetsIgnoreCondition('^1.0.0', '1.2.0')).toBeUndefined();
    expect(meetsIgnoreCondition('>=1.0,<2.0', '1.2.0')).toBe(true);
    expect(meetsIgnoreCondition('[1.0,2.0)', '1.2.0')).toBeUndefined();
    expect(meetsIgnoreCondition('~> 2.0', '2.1')).toBeUndefined();
  });

  it('read the leading numbers of a version', () => {
    expect(leadingNumbers('v7.2.1-rc.1')).toEqual([7, 2, 1]);
    expect(leadingNumbers('3.11-slim')).toEqual([3, 11]);
    expect(leadingNumbers('alpine')).toEqual([]);
  });
});
