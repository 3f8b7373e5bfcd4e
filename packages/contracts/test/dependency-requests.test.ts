import { describe, expect, it } from 'vitest';
import { CreateUpdateConfig, MAX_GROUPS, PatchUpdateConfig, ReposQuery, UpdateConfigId } from '../src/index.ts';

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

describe('CreateUpdateConfig, as real clients sent it', () => {
  it('reads the documented example and fills the documented defaults', () => {
    const body = {
      'repo-id': 93163073,
      'package-manager': 'bundler',
      'update-schedule': 'daily',
      directory: '/',
      'account-id': '27347476',
      'account-type': 'org',
    };
    expect(CreateUpdateConfig.parse(body)).toEqual({
      'repo-id': 93163073,
      'account-id': 27347476,
      'account-type': 'org',
      directory: '/',
      'update-schedule': 'daily',
      'package-manager': 'bundler',
      'target-branch': null,
      'lockfile-only': false,
      'security-updates-only': false,
      'automerge-rule-development-deps': 'never',
      'automerge-rule-runtime-deps': 'never',
    });
  });

  it('accepts ids as numbers or numeric strings, legacy automerge values, and ignores unknown members', () => {
    const parsed = CreateUpdateConfig.parse({
      'repo-id': '42',
      'account-id': 7,
      'account-type': 'user',
      directory: 'helpers/npm/',
      'update-schedule': 'live',
      'package-manager': 'npm_and_yarn',
      'automerge-rule-development-deps': 'minor',
      'automerge-rule-runtime-deps': 'security',
      'automerge-whitelist': ['lodash'],
    });
    expect(parsed).toMatchObject({
      'repo-id': 42,
      'account-id': 7,
      directory: '/helpers/npm',
      'automerge-rule-development-deps': 'semver:minor',
      'automerge-rule-runtime-deps': 'security:patch',
    });
    expect(parsed).not.toHaveProperty('automerge-whitelist');
    expect(CreateUpdateConfig.parse({ ...parsed, 'automerge-rule-runtime-deps': 'patch' })['automerge-rule-runtime-deps']).toBe(
      'semver:patch',
    );
  });

  it('names every invalid attribute', () => {
    expect(
      messages(
        CreateUpdateConfig.safeParse({
          'repo-id': 0,
          'account-id': 'abc',
          'account-type': 'team',
          directory: '/a/../b',
          'update-schedule': 'hourly',
          'package-manager': 'npm',
          'lockfile-only': 'yes',
          'target-branch': 'bad branch',
        }),
      ),
    ).toEqual([
      'repo-id: must be a positive integer',
      'account-id: must be a positive integer or a string of digits',
      'account-type: must be one of org, user',
      'directory: must not contain . or .. segments',
      'update-schedule: must be one of live, daily, weekly, monthly',
      'package-manager: must be one of bundler, composer, docker, maven, npm_and_yarn, elm, submodules, hex, cargo, gradle, nuget, dep, go_modules, pip, terraform, github_actions',
      'target-branch: is not a valid branch name',
      'lockfile-only: must be true or false',
    ]);
    expect(messages(CreateUpdateConfig.safeParse({}))).toEqual([
      'repo-id: is required',
      'account-id: is required',
      'account-type: is required',
      'directory: is required',
      'update-schedule: is required',
      'package-manager: is required',
    ]);
    expect(CreateUpdateConfig.safeParse([1]).success).toBe(false);
    const lone = CreateUpdateConfig.safeParse({
      'repo-id': 1,
      'account-id': 1,
      'account-type': 'org',
      directory: '/x-\ud800',
      'update-schedule': 'daily',
      'package-manager': 'pip',
      'target-branch': 'b-\udbff',
    });
    expect(messages(lone)).toEqual(['directory: must be well-formed Unicode text', 'target-branch: must be well-formed Unicode text']);
    expect(CreateUpdateConfig.safeParse({ 'automerge-rule-runtime-deps': 'sometimes' }).success).toBe(false);
  });
});

describe('PatchUpdateConfig', () => {
  it('takes any subset of the changeable attributes and ignores the rest', () => {
    expect(PatchUpdateConfig.parse({ 'update-schedule': 'weekly', 'target-branch': null, 'package-manager': 'pip' })).toEqual({
      'update-schedule': 'weekly',
      'target-branch': null,
    });
    expect(PatchUpdateConfig.parse({})).toEqual({});
    expect(messages(PatchUpdateConfig.safeParse({ 'lockfile-only': 1 }))).toEqual(['lockfile-only: must be true or false']);
  });
});

describe('groups (our extension) on CreateUpdateConfig and PatchUpdateConfig', () => {
  const create = (groups: unknown) =>
    CreateUpdateConfig.safeParse({
      'repo-id': 1,
      'account-id': 1,
      'account-type': 'org',
      directory: '/',
      'update-schedule': 'daily',
      'package-manager': 'npm_and_yarn',
      groups,
    });

  it('maps dasherized groups to GroupRule with the defaults a config file gets, ignoring unknown members', () => {
    const parsed = create([
      {
        name: 'eslint',
        patterns: ['eslint*', '@typescript-eslint/*', 'eslint*'],
        'exclude-patterns': ['eslint-plugin-legacy'],
        'dependency-type': 'development',
        'update-types': ['minor', 'patch'],
        'applies-to': 'version-updates',
        'group-by': 'dependency-name',
      },
      { name: 'everything-else' },
      { name: 'aws-sdk.v3|security', patterns: ['@aws-sdk/*'], 'applies-to': 'security-updates' },
    ]);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.groups).toEqual([
      {
        name: 'eslint',
        patterns: ['eslint*', '@typescript-eslint/*'],
        excludePatterns: ['eslint-plugin-legacy'],
        dependencyType: 'development',
        updateTypes: ['minor', 'patch'],
        appliesTo: 'version-updates',
      },
      {
        name: 'everything-else',
        patterns: ['*'],
        excludePatterns: [],
        updateTypes: ['major', 'minor', 'patch'],
        appliesTo: 'version-updates',
      },
      {
        name: 'aws-sdk.v3|security',
        patterns: ['@aws-sdk/*'],
        excludePatterns: [],
        updateTypes: ['major', 'minor', 'patch'],
        appliesTo: 'security-updates',
      },
    ]);
    expect(parsed.data?.groups?.[1]).not.toHaveProperty('dependencyType');
    expect(create([]).data?.groups).toEqual([]);
    expect(create(undefined).data?.groups).toBeUndefined();
  });

  it('names each invalid member of each group, with its path', () => {
    expect(
      messages(
        create([
          { patterns: ['a'] },
          { name: '-dashed', patterns: [], 'exclude-patterns': [''] },
          { name: 'x'.repeat(101), 'update-types': ['major', 'semver-minor'], 'dependency-type': 'peer' },
          { name: 'a..b', patterns: ['x'.repeat(1_001), 7], 'applies-to': 'both', 'update-types': [] },
          { name: 'has space' },
          'deps',
          { name: 'ok', patterns: 'react*' },
          { name: 'line\nbreak' },
        ]),
      ),
    ).toEqual([
      'groups.0.name: is required',
      'groups.1.name: must hold only letters, digits, _, -, . and |, and start and end with a letter or a digit',
      'groups.1.patterns: must not be empty: leave it out to take every dependency',
      'groups.1.exclude-patterns.0: must not be empty',
      'groups.2.name: must be at most 100 characters',
      'groups.2.dependency-type: must be one of production, development',
      'groups.2.update-types.1: must be one of major, minor, patch',
      'groups.3.name: must not contain ..',
      'groups.3.patterns.0: must be at most 1000 characters',
      'groups.3.patterns.1: must be a string',
      'groups.3.update-types: must not be empty: leave it out for major, minor and patch',
      'groups.3.applies-to: must be one of version-updates, security-updates',
      'groups.4.name: must hold only letters, digits, _, -, . and |, and start and end with a letter or a digit',
      'groups.5: must be an object with a name',
      'groups.6.patterns: must be an array of dependency name patterns',
      'groups.7.name: must hold only letters, digits, _, -, . and |, and start and end with a letter or a digit',
    ]);
  });

  it('wants unique names (ignoring case), an array, and at most MAX_GROUPS groups', () => {
    expect(messages(create([{ name: 'deps' }, { name: 'dev' }, { name: 'Deps' }, { name: 'dev' }]))).toEqual([
      'groups.2.name: must be unique: group 0 is named deps',
      'groups.3.name: must be unique: group 1 is named dev',
    ]);
    // Invalid entries, even without a name, do not hide a repeated name.
    expect(messages(create([{ name: 'deps' }, { patterns: 'x' }, { name: 'deps', patterns: [] }, null]))).toEqual([
      'groups.1.name: is required',
      'groups.1.patterns: must be an array of dependency name patterns',
      'groups.2.patterns: must not be empty: leave it out to take every dependency',
      'groups.3: must be an object with a name',
      'groups.2.name: must be unique: group 0 is named deps',
    ]);
    expect(messages(create({ name: 'deps' }))).toEqual(['groups: must be an array of groups ([] for none)']);
    expect(messages(create(null))).toEqual(['groups: must be an array of groups ([] for none)']);
    const many = Array.from({ length: MAX_GROUPS + 1 }, (_, index) => ({ name: `g${index}` }));
    expect(messages(create(many))).toEqual([`groups: must hold at most ${MAX_GROUPS} groups`]);
    expect(create(many.slice(0, MAX_GROUPS)).success).toBe(true);
  });

  it('on PATCH: a list replaces, [] removes, absent leaves alone', () => {
    expect(PatchUpdateConfig.parse({ groups: [{ name: 'all' }] })).toEqual({
      groups: [
        { name: 'all', patterns: ['*'], excludePatterns: [], updateTypes: ['major', 'minor', 'patch'], appliesTo: 'version-updates' },
      ],
    });
    expect(PatchUpdateConfig.parse({ groups: [] })).toEqual({ groups: [] });
    expect(PatchUpdateConfig.parse({ 'lockfile-only': true })).not.toHaveProperty('groups');
    expect(messages(PatchUpdateConfig.safeParse({ groups: [{ name: '' }] }))).toEqual(['groups.0.name: must not be empty']);
  });
});

describe('ReposQuery', () => {
  it('requires installation-state to be active or inactive and pages from 1', () => {
    expect(ReposQuery.parse({ 'account-id': '27347476', 'account-type': 'org', 'installation-state': 'inactive' })).toEqual({
      'account-id': 27347476,
      'account-type': 'org',
      'installation-state': 'inactive',
      page: 1,
    });
    expect(messages(ReposQuery.safeParse({ 'account-id': '1', 'account-type': 'org', 'installation-state': 'all' }))).toEqual([
      'installation-state: must be one of active, inactive',
    ]);
    for (const page of ['0', '-1', 'two', '1.5']) {
      expect(ReposQuery.safeParse({ 'account-id': '1', 'account-type': 'org', 'installation-state': 'inactive', page }).success, page).toBe(
        false,
      );
    }
  });

  it('refuses account ids beyond the safe integer range instead of rounding them', () => {
    expect(
      messages(ReposQuery.safeParse({ 'account-id': '9999999999999999', 'account-type': 'org', 'installation-state': 'active' })),
    ).toEqual(['account-id: is too large']);
  });

  it('ignores unknown parameters, as the original did with lockfile-only=true', () => {
    expect(
      ReposQuery.safeParse({ 'account-id': '1', 'account-type': 'org', 'installation-state': 'active', 'lockfile-only': 'true' }).success,
    ).toBe(true);
  });
});

describe('UpdateConfigId', () => {
  it('takes positive decimal ids only', () => {
    expect(UpdateConfigId.parse('1332')).toBe(1332);
    for (const bad of ['abc', '0', '-1', '1.0', '99999999999']) expect(UpdateConfigId.safeParse(bad).success, bad).toBe(false);
  });
});
