import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_MANAGERS, type PackageManager } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import {
  type AccountSchedule,
  AUTOMERGE_NOTE,
  ecosystemOf,
  type FileUpdateConfig,
  LIVE_SCHEDULE_NOTE,
  languageOf,
  parseConfigFile,
  type WritableUpdateConfig,
  writeDependabotYml,
} from '../src/index.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');
const account: AccountSchedule = { updateRunTime: '05:00', weeklyUpdateRunDay: 'monday', timeZone: 'UTC' };

/** An update config as the API holds it: no settings beyond the API's. */
const apiConfig = (packageManager: PackageManager, extra: Partial<WritableUpdateConfig> = {}): WritableUpdateConfig => ({
  packageManager,
  directory: '/',
  targetBranch: null,
  updateSchedule: 'daily',
  automergeRuleRuntimeDeps: 'never',
  automergeRuleDevelopmentDeps: 'never',
  lockfileOnly: false,
  securityUpdatesOnly: false,
  ...extra,
});

const reparse = (text: string) => {
  const parsed = parseConfigFile('.github/dependabot.yml', text);
  expect(parsed.problems).toEqual([]);
  expect(parsed.skipped).toEqual([]);
  return parsed.configs;
};

describe('writeDependabotYml', () => {
  it("writes wunderio/drupal-project's upgrade file from its v1 file and the versions ignored by closing pull requests", () => {
    const v1 = parseConfigFile(
      '.dependabot/config.yml',
      'version: 1\nupdate_configs:\n  - package_manager: "php:composer"\n    directory: "/"\n    update_schedule: "live"\n' +
        '  - package_manager: "javascript"\n    directory: "/"\n    update_schedule: "live"\n',
    );
    const closed = (version: string) => ({ dependencyName: 'stylelint-config-standard', versions: [version], updateTypes: [] });
    const configs = v1.configs.map((config) =>
      config.packageManager === 'npm_and_yarn' ? { ...config, ignore: [closed('21.0.0'), closed('22.0.0')] } : config,
    );
    const written = writeDependabotYml({ configs, account: { updateRunTime: '03:00', weeklyUpdateRunDay: 'monday' } });
    expect(written.text).toBe(fixture('drupal-project-dependabot.yml'));
    expect(written.notes).toEqual([{ kind: 'live-schedule', message: LIVE_SCHEDULE_NOTE }]);
  });

  it.each(['octolinker-dependabot.yml', 'drupal-project-dependabot.yml'])('writes %s back as it was', (name) => {
    const configs = reparse(fixture(name));
    expect(writeDependabotYml({ configs, account }).text).toBe(fixture(name));
  });

  it('writes an API config with the account settings and the carried-over limit of 10', () => {
    const configs = [
      apiConfig('npm_and_yarn', { updateSchedule: 'weekly', automergeRuleDevelopmentDeps: 'semver:minor' }),
      apiConfig('bundler', {
        directory: '/api',
        targetBranch: 'develop',
        lockfileOnly: true,
        securityUpdatesOnly: true,
        updateSchedule: 'monthly',
      }),
    ];
    const written = writeDependabotYml({
      configs,
      account: { updateRunTime: '22:15', weeklyUpdateRunDay: 'thursday', timeZone: 'America/New_York' },
    });
    expect(written.text).toBe(
      [
        'version: 2',
        'updates:',
        '- package-ecosystem: npm',
        '  directory: "/"',
        '  schedule:',
        '    interval: weekly',
        '    day: thursday',
        '    time: "22:15"',
        '    timezone: America/New_York',
        '  open-pull-requests-limit: 10',
        '- package-ecosystem: bundler',
        '  directory: "/api"',
        '  schedule:',
        '    interval: monthly',
        '    time: "22:15"',
        '    timezone: America/New_York',
        '  target-branch: develop',
        '  open-pull-requests-limit: 0',
        '  versioning-strategy: lockfile-only',
        '',
      ].join('\n'),
    );
    expect(written.notes).toEqual([{ kind: 'automerge', message: AUTOMERGE_NOTE }]);
    const [npm, bundler] = reparse(written.text);
    expect(npm).toMatchObject({
      updateSchedule: 'weekly',
      schedule: { day: 'thursday', time: '22:15', timeZone: 'America/New_York' },
      openPullRequestsLimit: 10,
    });
    expect(bundler).toMatchObject({
      directory: '/api',
      targetBranch: 'develop',
      lockfileOnly: true,
      securityUpdatesOnly: true,
      openPullRequestsLimit: 0,
    });
    expect(writeDependabotYml({ configs, account, openPullRequestsLimit: 5 }).text).toContain('open-pull-requests-limit: 5');
  });

  it('round-trips every package manager GitHub-native Dependabot has, with every setting', () => {
    for (const packageManager of PACKAGE_MANAGERS.filter((manager) => manager !== 'dep')) {
      const config: Omit<FileUpdateConfig, 'pointer' | 'language'> = {
        packageManager,
        directory: '/services/api',
        directoryGlob: false,
        targetBranch: 'release/2.x',
        updateSchedule: 'weekly',
        schedule: { day: 'wednesday', time: '07:45', timeZone: 'Asia/Tokyo' },
        automergeRuleRuntimeDeps: 'never',
        automergeRuleDevelopmentDeps: 'never',
        versioningStrategy: 'increase-if-necessary',
        lockfileOnly: false,
        securityUpdatesOnly: false,
        labels: ['dependencies', 'yes', '2.0', '@team/deps'],
        reviewers: ['octocat', 'my-org/maintainers'],
        assignees: ['hubot'],
        milestone: 7,
        commitMessage: { prefix: 'chore(deps)', prefixDevelopment: 'build', includeScope: true },
        openPullRequestsLimit: 4,
        rebaseStrategy: 'disabled',
        allow: [{ dependencyName: 'org.example:*' }, { dependencyType: 'production' }],
        ignore: [
          { dependencyName: '@types/node', versions: ['>= 21.a, < 22', '20.1.0'], updateTypes: [] },
          { dependencyName: 'lodash', versions: [], updateTypes: ['version-update:semver-major'] },
          { dependencyName: 'left-pad', versions: [], updateTypes: [] },
        ],
        groups: [
          {
            name: 'dev tools',
            patterns: ['eslint*', 'prettier'],
            excludePatterns: ['eslint-plugin-x'],
            dependencyType: 'development',
            updateTypes: ['minor', 'patch'],
            appliesTo: 'version-updates',
          },
          {
            name: 'security',
            patterns: ['*'],
            excludePatterns: [],
            updateTypes: ['major', 'minor', 'patch'],
            appliesTo: 'security-updates',
          },
        ],
        registries: ['internal'],
      };
      const written = writeDependabotYml({ configs: [config], account });
      expect(written.notes, packageManager).toEqual([]);
      expect(written.text, packageManager).toContain(`- package-ecosystem: ${ecosystemOf(packageManager)}\n`);
      expect(reparse(written.text), packageManager).toEqual([{ ...config, pointer: '#/updates/0', language: languageOf(packageManager) }]);
    }
  });

  it('round-trips a glob directory, empty labels, "*" registries, security updates only and lockfile-only', () => {
    const config = {
      ...apiConfig('pip', { directory: '/apps/*', directoryGlob: true, lockfileOnly: true, securityUpdatesOnly: true }),
      labels: [],
      registries: '*' as const,
    };
    const [read] = reparse(writeDependabotYml({ configs: [config], account }).text);
    expect(read).toMatchObject({
      pointer: '#/updates/0/directories/0',
      directory: '/apps/*',
      directoryGlob: true,
      labels: [],
      registries: '*',
      lockfileOnly: true,
      versioningStrategy: 'lockfile-only',
      securityUpdatesOnly: true,
      openPullRequestsLimit: 0,
    });
  });

  it('carries a v1 file over to v2: what maps is kept, automerge and live are noted', () => {
    const v1 = parseConfigFile(
      '.dependabot/config.yml',
      [
        'version: 1',
        'update_configs:',
        '  - package_manager: "ruby:bundler"',
        '    directory: /',
        '    update_schedule: live',
        '    target_branch: develop',
        '    default_reviewers: [octocat]',
        '    default_assignees: [hubot]',
        '    default_labels: [deps]',
        '    default_milestone: 3',
        '    version_requirement_updates: widen_ranges',
        '    commit_message: { prefix: chore, include_scope: true }',
        '    allowed_updates:',
        '      - match: { update_type: security }',
        '      - match: { dependency_name: "rails*", update_type: all }',
        '    ignored_updates:',
        '      - match: { dependency_name: rubocop, version_requirement: "~> 1.0" }',
        '    automerged_updates:',
        '      - match: { dependency_type: development, update_type: "semver:patch" }',
        '  - package_manager: javascript',
        '    directory: /web',
        '    update_schedule: weekly',
        '    allowed_updates:',
        '      - match: { dependency_type: production, update_type: security }',
        '',
      ].join('\n'),
    );
    const written = writeDependabotYml({ configs: v1.configs, account });
    expect(written.notes.map((note) => note.kind)).toEqual(['live-schedule', 'automerge', 'security-allow']);
    const [bundler, npm] = reparse(written.text);
    expect(bundler).toMatchObject({
      packageManager: 'bundler',
      updateSchedule: 'daily',
      schedule: { time: '05:00' },
      targetBranch: 'develop',
      reviewers: ['octocat'],
      assignees: ['hubot'],
      labels: ['deps'],
      milestone: 3,
      versioningStrategy: 'widen',
      commitMessage: { prefix: 'chore', includeScope: true },
      allow: [{ dependencyName: 'rails*' }],
      ignore: [{ dependencyName: 'rubocop', versions: ['~> 1.0'], updateTypes: [] }],
      automergeRuleDevelopmentDeps: 'never',
      openPullRequestsLimit: 10,
      securityUpdatesOnly: false,
    });
    expect(npm).toMatchObject({
      directory: '/web',
      updateSchedule: 'weekly',
      securityUpdatesOnly: true,
      openPullRequestsLimit: 0,
      allow: [],
    });
  });

  it('merges the ignores of one dependency', () => {
    const config = apiConfig('npm_and_yarn', {
      ignore: [
        { dependencyName: 'express', versions: ['4.17.1'], updateTypes: [] },
        { dependencyName: 'react', versions: ['18.0.0'], updateTypes: [] },
        { dependencyName: 'express', versions: ['>= 5.a, < 6', '4.17.1'], updateTypes: ['version-update:semver-minor'] },
        { dependencyName: 'react', versions: [], updateTypes: [] },
      ],
    });
    const [read] = reparse(writeDependabotYml({ configs: [config], account }).text);
    expect(read?.ignore).toEqual([
      { dependencyName: 'express', versions: ['4.17.1', '>= 5.a, < 6'], updateTypes: ['version-update:semver-minor'] },
      { dependencyName: 'react', versions: [], updateTypes: [] },
    ]);
  });

  it('notes what it cannot write, and writes the rest', () => {
    const written = writeDependabotYml({
      configs: [
        apiConfig('dep', { directory: '/go' }),
        apiConfig('pip', { milestone: 0, commitMessage: { prefix: 'x'.repeat(51), includeScope: false } }),
        apiConfig('pip', { updateSchedule: 'weekly' }),
        apiConfig('docker', { schedule: { timeZone: 'Mars/Olympus_Mons' } }),
      ],
      account,
    });
    expect(written.notes).toEqual([
      {
        kind: 'unsupported-package-manager',
        message: 'The dep update config for `/go` is not in the new config file: GitHub-native Dependabot does not support dep.',
      },
      { kind: 'milestone', message: 'The milestone 0 of `/` (pip) is not a milestone number, so it is not in the new config file.' },
      {
        kind: 'commit-message',
        message: 'The commit message prefix of `/` (pip) is longer than 50 characters, so it is not in the new config file.',
      },
      {
        kind: 'duplicate-config',
        message:
          'A second pip update config for `/` is not in the new config file: each ecosystem, directory and target branch may appear once.',
      },
      {
        kind: 'time-zone',
        message:
          'The time zone Mars/Olympus_Mons of `/` (docker) is not one the new config file accepts, so its schedule runs at 05:00 UTC.',
      },
    ]);
    const configs = reparse(written.text);
    expect(
      configs.map((config) => [config.packageManager, config.updateSchedule, config.milestone, config.commitMessage, config.schedule]),
    ).toEqual([
      ['pip', 'daily', null, null, { time: '05:00' }],
      ['docker', 'daily', null, null, { time: '05:00' }],
    ]);
  });

  it('quotes what would read back as something else, as Psych does', () => {
    const config = apiConfig('npm_and_yarn', {
      labels: [
        'plain',
        'on',
        'No',
        'null',
        '~',
        '12',
        '1.5',
        '0x1F',
        '12:30',
        '2001-12-14',
        'a: b',
        'a #b',
        ' lead',
        'trail ',
        '"q"',
        "'s'",
        '*',
        '-',
        'tab\there',
        'é',
      ],
    });
    const written = writeDependabotYml({ configs: [config], account }).text;
    expect(written).toContain(
      [
        '  labels:',
        '  - plain',
        '  - "on"',
        '  - "No"',
        '  - "null"',
        '  - "~"',
        '  - "12"',
        '  - "1.5"',
        '  - "0x1F"',
        '  - "12:30"',
        '  - "2001-12-14"',
        '  - "a: b"',
        '  - "a #b"',
        '  - " lead"',
        '  - "trail "',
        '  - "\\"q\\""',
        '  - "\'s\'"',
        '  - "*"',
        '  - "-"',
        '  - "tab\\there"',
        '  - é',
      ].join('\n'),
    );
    expect(reparse(written)[0]?.labels).toEqual(config.labels);
  });

  it('refuses an update run time that is not HH:MM', () => {
    expect(() => writeDependabotYml({ configs: [], account: { ...account, updateRunTime: '5am' } })).toThrow(RangeError);
  });
});
