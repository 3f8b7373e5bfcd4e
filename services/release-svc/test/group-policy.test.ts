import { GroupRule } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import { groupDigest, groupOf, largestKind } from '../src/pipeline/decide/group.policy.ts';
import { groupBody, groupTitle } from '../src/pipeline/deliver/group-text.policy.ts';

const update = (name: string, more: Partial<Parameters<typeof groupOf>[1]> = {}) => ({
  name,
  dependencyType: 'runtime' as const,
  updateKind: 'minor' as const,
  securityFix: false,
  ...more,
});

// Which group an update joins: dependabot.yml's rules, the first group that takes it.
describe('groupOf', () => {
  const groups = [
    GroupRule.parse({ name: 'aws', patterns: ['@aws-sdk/*'], excludePatterns: ['@aws-sdk/client-s3'] }),
    GroupRule.parse({ name: 'dev', dependencyType: 'development' }),
    GroupRule.parse({ name: 'small', updateTypes: ['minor', 'patch'] }),
    GroupRule.parse({ name: 'security', appliesTo: 'security-updates' }),
  ];

  it('takes the first group whose patterns match and whose exclusions do not, case-insensitively', () => {
    expect(groupOf(groups, update('@AWS-SDK/client-dynamodb'))).toBe('aws');
    expect(groupOf(groups, update('@aws-sdk/client-s3'))).toBe('small');
    expect(groupOf(groups, update('@aws-sdk/client-s3', { updateKind: 'major' }))).toBeNull();
  });

  it('keeps to the dependency type and the update types a group names', () => {
    expect(groupOf(groups, update('jest', { dependencyType: 'development', updateKind: 'major' }))).toBe('dev');
    expect(groupOf(groups, update('express', { updateKind: 'major' }))).toBeNull();
    expect(groupOf(groups, update('express', { updateKind: 'patch' }))).toBe('small');
  });

  it('groups an update that fixes an advisory only in a security-updates group', () => {
    expect(groupOf(groups, update('@aws-sdk/client-dynamodb', { securityFix: true }))).toBe('security');
    expect(groupOf(groups.slice(0, 3), update('express', { securityFix: true }))).toBeNull();
  });

  it('has no group without groups', () => {
    expect(groupOf([], update('express'))).toBeNull();
  });
});

describe('groupDigest and largestKind', () => {
  it('gives the same 10 hex digits for the same updates in any order, others for another version', () => {
    const a = groupDigest([
      { name: 'react', version: '18.3.1' },
      { name: 'react-dom', version: '18.3.1' },
    ]);
    expect(a).toMatch(/^[0-9a-f]{10}$/);
    expect(
      groupDigest([
        { name: 'react-dom', version: '18.3.1' },
        { name: 'react', version: '18.3.1' },
      ]),
    ).toBe(a);
    expect(
      groupDigest([
        { name: 'react', version: '18.3.1' },
        { name: 'react-dom', version: '18.3.2' },
      ]),
    ).not.toBe(a);
  });

  it('a group is as large an update as its largest', () => {
    expect(largestKind(['patch', 'minor'])).toBe('minor');
    expect(largestKind(['patch', 'major', 'minor'])).toBe('major');
    expect(largestKind([])).toBe('patch');
  });
});

// The words of a group's pull request, as dependabot-core's GroupUpdateTitle writes them.
describe('groupTitle and groupBody', () => {
  const job = { package_manager: 'npm_and_yarn' as const, directory: '/', group_name: 'react', security_fix: false, automerge: false };
  const react = {
    dependency_name: 'react',
    version_in_use: '16.13.1',
    target_version: '18.3.1',
    dependency_type: 'runtime' as const,
    update_kind: 'major' as const,
  };
  const dom = { ...react, dependency_name: 'react-dom' };

  it('names the group and counts the updates; one update keeps its own title, in the group', () => {
    expect(groupTitle(job, [react, dom])).toBe('Bump the react group with 2 updates');
    expect(groupTitle({ ...job, directory: '/web' }, [react, dom])).toBe('Bump the react group in /web with 2 updates');
    expect(groupTitle(job, [react, dom], 'chore(deps): ')).toBe('chore(deps): bump the react group with 2 updates');
    expect(groupTitle(job, [react])).toBe('Bump react from 16.13.1 to 18.3.1 in the react group');
  });

  it('lists every update with its links, what was left out and why, and no ignore-this commands', () => {
    const links = { sourceUrl: 'https://github.com/facebook/react', changelogUrl: null };
    const body = groupBody(
      job,
      [
        { ...react, links },
        { ...dom, links: { sourceUrl: null, changelogUrl: null } },
      ],
      {
        left: [{ name: 'scheduler', why: 'needs-resolution: no registry lists 0.99.0' }],
      },
    );
    expect(body).toContain('Bumps the react group with 2 updates: [react](https://github.com/facebook/react) and react-dom.');
    expect(body).toContain('Updates `react` from 16.13.1 to 18.3.1\n- [Release notes](https://github.com/facebook/react/releases)');
    expect(body).toContain('Updates `react-dom` from 16.13.1 to 18.3.1');
    expect(body).toContain('Left out of this pull request:\n- scheduler: needs-resolution: no registry lists 0.99.0');
    expect(body).toContain('`@dependabot close`');
    expect(body).not.toContain('ignore this');
    expect(groupBody({ ...job, automerge: true }, [{ ...react, links }])).toContain('merged automatically once its checks pass');
  });
});
