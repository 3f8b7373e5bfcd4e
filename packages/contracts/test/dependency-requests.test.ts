import { describe, expect, it } from 'vitest';
import { CreateUpdateConfig, PatchUpdateConfig, ReposQuery, UpdateConfigId } from '../src/index.ts';

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
