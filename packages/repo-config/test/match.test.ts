import { describe, expect, it } from 'vitest';
import { type AllowRule, allowsDependency, matchesDependencyName } from '../src/index.ts';

describe('matchesDependencyName', () => {
  it.each([
    ['react', 'react', true],
    ['react', 'react-dom', false],
    ['react*', 'react-dom', true],
    ['react*', 'react', true],
    ['*eslint*', '@typescript-eslint/parser', true],
    ['*eslint*', 'prettier', false],
    ['@types/*', '@types/node', true],
    ['aws*', 'AWS-SDK', true],
    ['Org.Kohsuke:*', 'org.kohsuke:github-api', true],
    ['*', '', true],
    ['*', 'anything', true],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['ab*ba', 'aba', false],
    ['*aab', 'aaab', true],
    ['a**b', 'ab', true],
    ['*.*', 'a.b', true],
    ['[a]', '[a]', true],
    ['(a+)+$', 'aaaa', false],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(matchesDependencyName(pattern, name)).toBe(expected);
  });
});

describe('allowsDependency', () => {
  const production = { name: 'rails', type: 'production' as const, direct: true };
  const development = { name: 'rspec', type: 'development' as const, direct: true };
  const indirect = { name: 'rack', type: 'production' as const, direct: false };
  const allows = (allow: AllowRule[]) => [production, development, indirect].map((dependency) => allowsDependency({ allow }, dependency));

  it('allows the direct dependencies when there are no rules', () => {
    expect(allows([])).toEqual([true, true, false]);
  });

  it('allows what any rule allows', () => {
    expect(allows([{ dependencyType: 'direct' }])).toEqual([true, true, false]);
    expect(allows([{ dependencyType: 'indirect' }])).toEqual([false, false, true]);
    expect(allows([{ dependencyType: 'all' }])).toEqual([true, true, true]);
    expect(allows([{ dependencyType: 'production' }])).toEqual([true, false, true]);
    expect(allows([{ dependencyType: 'development' }])).toEqual([false, true, false]);
    expect(allows([{ dependencyName: 'ra*' }])).toEqual([true, false, true]);
    expect(allows([{ dependencyName: 'ra*', dependencyType: 'direct' }])).toEqual([true, false, false]);
    expect(allows([{ dependencyName: 'rspec' }, { dependencyType: 'indirect' }])).toEqual([false, true, true]);
  });

  it('leaves rules for security updates to the caller: they allow no version update', () => {
    expect(allows([{ updateType: 'security' }])).toEqual([false, false, false]);
    expect(allows([{ updateType: 'security' }, { dependencyName: 'rails', updateType: 'all' }])).toEqual([true, false, false]);
  });
});
