import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FileUpdateConfig, parseConfigFile } from '../src/index.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

/** A v1 file with one entry: `package_manager: javascript`, `directory: /`, daily, plus `extra` lines (indented 4). */
const v1 = (extra = '', head = '  - package_manager: javascript\n    directory: /\n    update_schedule: daily\n') =>
  `version: 1\nupdate_configs:\n${head}${extra}`;

const only = (text: string): FileUpdateConfig => {
  const parsed = parseConfigFile('.dependabot/config.yml', text);
  expect(parsed.problems).toEqual([]);
  expect(parsed.configs).toHaveLength(1);
  return parsed.configs[0] as FileUpdateConfig;
};

describe('parseConfigFile: version 1 (.dependabot/config.yml)', () => {
  it('reads the example of the Preview docs', () => {
    const parsed = parseConfigFile('.dependabot/config.yml', fixture('preview-docs-config.yml'));
    expect(parsed).toEqual({
      path: '.dependabot/config.yml',
      version: 1,
      valid: true,
      problems: [],
      skipped: [],
      configs: [
        {
          pointer: '#/update_configs/0',
          packageManager: 'bundler',
          language: 'ruby',
          directory: '/',
          directoryGlob: false,
          targetBranch: null,
          updateSchedule: 'live',
          schedule: {},
          automergeRuleRuntimeDeps: 'security:patch',
          automergeRuleDevelopmentDeps: 'all',
          versioningStrategy: 'auto',
          lockfileOnly: false,
          securityUpdatesOnly: false,
          labels: ['label-name'],
          reviewers: ['github-username'],
          assignees: [],
          milestone: null,
          commitMessage: null,
          openPullRequestsLimit: null,
          rebaseStrategy: 'auto',
          allow: [],
          ignore: [],
          groups: [],
          registries: [],
        },
      ],
    });
  });

  it.each([
    ['javascript', 'npm_and_yarn', 'javascript'],
    ['ruby:bundler', 'bundler', 'ruby'],
    ['php:composer', 'composer', 'php'],
    ['python', 'pip', 'python'],
    ['go:modules', 'go_modules', 'go'],
    ['go:dep', 'dep', 'go'],
    ['java:maven', 'maven', 'java'],
    ['java:gradle', 'gradle', 'java'],
    ['dotnet:nuget', 'nuget', 'dotnet'],
    ['rust:cargo', 'cargo', 'rust'],
    ['elixir:hex', 'hex', 'elixir'],
    ['docker', 'docker', 'docker'],
    ['terraform', 'terraform', 'terraform'],
    ['submodules', 'submodules', 'submodules'],
    ['elm', 'elm', 'elm'],
    ['github_actions', 'github_actions', 'github_actions'],
  ])('maps package_manager %s to %s (language %s)', (v1Name, packageManager, language) => {
    const config = only(v1('', `  - package_manager: "${v1Name}"\n    directory: /\n    update_schedule: weekly\n`));
    expect(config.packageManager).toBe(packageManager);
    expect(config.language).toBe(language);
    expect(config.updateSchedule).toBe('weekly');
  });

  it('reads every key of an entry', () => {
    const config = only(
      v1(
        [
          '    target_branch: develop',
          '    default_reviewers: [octocat, org/team]',
          '    default_assignees: [hubot]',
          '    default_labels: [deps, javascript]',
          '    default_milestone: 12',
          '    version_requirement_updates: "increase_versions_if_necessary"',
          '    commit_message: { prefix: fix, prefix_development: chore, include_scope: true }',
          '    allowed_updates:',
          '      - match: { dependency_name: "react*", dependency_type: direct }',
          '      - match: { dependency_type: development, update_type: all }',
          '    ignored_updates:',
          '      - match: { dependency_name: express, version_requirement: "4.x" }',
          '      - match: { dependency_name: "aws*" }',
          '',
        ].join('\n'),
      ),
    );
    expect(config).toMatchObject({
      targetBranch: 'develop',
      reviewers: ['octocat', 'org/team'],
      assignees: ['hubot'],
      labels: ['deps', 'javascript'],
      milestone: 12,
      versioningStrategy: 'increase-if-necessary',
      lockfileOnly: false,
      securityUpdatesOnly: false,
      commitMessage: { prefix: 'fix', prefixDevelopment: 'chore', includeScope: true },
      allow: [
        { dependencyName: 'react*', dependencyType: 'direct', updateType: 'all' },
        { dependencyType: 'development', updateType: 'all' },
      ],
      ignore: [
        { dependencyName: 'express', versions: ['4.x'], updateTypes: [] },
        { dependencyName: 'aws*', versions: [], updateTypes: [] },
      ],
    });
  });

  it.each([
    ['off', 'lockfile-only', true],
    ['auto', 'auto', false],
    ['widen_ranges', 'widen', false],
    ['increase_versions', 'increase', false],
    ['increase_versions_if_necessary', 'increase-if-necessary', false],
  ])('maps version_requirement_updates %s to %s', (value, strategy, lockfileOnly) => {
    const config = only(v1(`    version_requirement_updates: "${value}"\n`));
    expect(config.versioningStrategy).toBe(strategy);
    expect(config.lockfileOnly).toBe(lockfileOnly);
  });

  it('reads an unquoted off as YAML 1.1 does (false), which the schema refuses', () => {
    const parsed = parseConfigFile('.dependabot/config.yml', v1('    version_requirement_updates: off\n'));
    expect(parsed.problems).toEqual([
      {
        pointer: '#/update_configs/0/version_requirement_updates',
        message: "The property '#/update_configs/0/version_requirement_updates' of type boolean did not match the following type: string",
      },
      {
        pointer: '#/update_configs/0/version_requirement_updates',
        message:
          "The property '#/update_configs/0/version_requirement_updates' value false did not match one of the following values: off, auto, widen_ranges, increase_versions, increase_versions_if_necessary",
      },
    ]);
  });

  it('takes security-only allowed updates as security updates only, kind: security as update_type: security', () => {
    for (const match of ['{ update_type: security }', '{ kind: security }']) {
      const config = only(v1(`    allowed_updates:\n      - match: ${match}\n`));
      expect(config.securityUpdatesOnly).toBe(true);
      expect(config.allow).toEqual([{ updateType: 'security' }]);
    }
    const mixed = only(v1('    allowed_updates:\n      - match: { update_type: security }\n      - match: { dependency_name: lodash }\n'));
    expect(mixed.securityUpdatesOnly).toBe(false);
    expect(mixed.allow).toEqual([{ updateType: 'security' }, { dependencyName: 'lodash', updateType: 'all' }]);
  });

  it('combines automerged updates into the widest rule per dependency type', () => {
    const config = only(
      v1(
        [
          '    automerged_updates:',
          '      - match: { dependency_type: all, update_type: "security:patch" }',
          '      - match: { dependency_type: production, update_type: "semver:minor" }',
          '      - match: { dependency_type: development, update_type: "semver:patch" }',
          '      - match: { dependency_type: production, update_type: "semver:patch" }',
          '',
        ].join('\n'),
      ),
    );
    expect(config.automergeRuleRuntimeDeps).toBe('semver:minor');
    expect(config.automergeRuleDevelopmentDeps).toBe('semver:patch');
    const everything = only(v1('    automerged_updates:\n      - match: {}\n'));
    expect([everything.automergeRuleRuntimeDeps, everything.automergeRuleDevelopmentDeps]).toEqual(['all', 'all']);
  });

  it('skips what it cannot serve, saying why, and serves the rest', () => {
    const parsed = parseConfigFile(
      '.dependabot/config.yml',
      v1(
        [
          '    automerged_updates:',
          '      - match: { dependency_name: "rspec*", update_type: "semver:minor" }',
          '      - match: { dependency_type: development, update_type: in_range }',
          '      - match: { dependency_type: development, update_type: "semver:minor" }',
          '      - kind: all',
          '    allowed_updates:',
          '      - match: { dependency_type: optional }',
          '      - match: { dependency_name: lodash, update_type: all }',
          '    ignored_updates:',
          '      - match: { version_requirement: "1.x" }',
          '    default_label: [deps]',
          '  - package_manager: docker',
          '    directory: /',
          '    update_schedule: live',
          'extra: true',
          '',
        ].join('\n'),
      ),
    );
    expect(parsed.valid).toBe(true);
    expect(parsed.skipped).toEqual([
      { pointer: '#/extra', reason: 'extra is not a key of the version 1 file and has no effect' },
      { pointer: '#/update_configs/0/default_label', reason: 'default_label is not a key of a version 1 update config and has no effect' },
      {
        pointer: '#/update_configs/0/allowed_updates/0/match/dependency_type',
        reason: 'dependency_type "optional" is not one of development, production, direct, indirect, all',
      },
      { pointer: '#/update_configs/0/ignored_updates/0', reason: 'an ignored update without a dependency_name ignores nothing' },
      {
        pointer: '#/update_configs/0/automerged_updates/0',
        reason:
          'automerging by dependency name ("rspec*") cannot be expressed: the API\'s automerge rules apply to every runtime or development dependency',
      },
      {
        pointer: '#/update_configs/0/automerged_updates/2',
        reason:
          'automerge rule semver:minor for development dependencies cannot be combined with the earlier in_range: the API holds one rule per dependency type, in_range is kept',
      },
      { pointer: '#/update_configs/0/automerged_updates/3', reason: 'an automerged update without a match object names no updates' },
      {
        pointer: '#/update_configs/1/update_schedule',
        reason: 'live is not offered for docker: its versions cannot be watched; use daily, weekly or monthly; the config runs daily',
      },
    ]);
    const [javascript, docker] = parsed.configs;
    expect(javascript?.allow).toEqual([{ dependencyName: 'lodash', updateType: 'all' }]);
    expect(javascript?.ignore).toEqual([]);
    expect([javascript?.automergeRuleRuntimeDeps, javascript?.automergeRuleDevelopmentDeps]).toEqual(['never', 'in_range']);
    expect(docker?.updateSchedule).toBe('daily');
  });

  it('normalises directories and keeps target branches apart', () => {
    const parsed = parseConfigFile(
      '.dependabot/config.yml',
      v1(
        '  - package_manager: javascript\n    directory: app/\n    update_schedule: daily\n    target_branch: develop\n' +
          '  - package_manager: javascript\n    directory: /app/./lib/..\n    update_schedule: daily\n',
      ),
    );
    expect(parsed.configs.map((config) => [config.directory, config.targetBranch])).toEqual([
      ['/', null],
      ['/app', 'develop'],
      ['/app', null],
    ]);
  });

  it('reports a duplicate entry and a glob in directory as problems, and then has no configs', () => {
    const parsed = parseConfigFile(
      '.dependabot/config.yml',
      v1(
        '  - package_manager: javascript\n    directory: ""\n    update_schedule: weekly\n  - package_manager: docker\n    directory: /*\n    update_schedule: weekly\n',
      ),
    );
    expect(parsed).toMatchObject({ valid: false, configs: [], skipped: [] });
    expect(parsed.problems).toEqual([
      {
        pointer: '#/update_configs/1',
        message:
          "The property '#/update_configs/1' is a duplicate. Update configs must have a unique combination of 'package_manager', 'directory', and 'target_branch'",
      },
      { pointer: '#/update_configs/2/directory', message: "The property '#/update_configs/2/directory' must not include a glob pattern" },
    ]);
  });

  it('words schema problems as the Ruby json-schema gem does', () => {
    const parsed = parseConfigFile(
      '.dependabot/config.yml',
      'version: 1\nupdate_configs:\n  - package_manager: cobol\n    update_schedule: hourly\n    default_milestone: "12"\n    default_labels: deps\n',
    );
    expect(parsed.problems).toEqual([
      { pointer: '#/update_configs/0', message: "The property '#/update_configs/0' did not contain a required property of 'directory'" },
      {
        pointer: '#/update_configs/0/package_manager',
        message:
          'The property \'#/update_configs/0/package_manager\' value "cobol" did not match one of the following values: javascript, ruby:bundler, php:composer, python, go:modules, go:dep, java:maven, java:gradle, dotnet:nuget, rust:cargo, elixir:hex, docker, terraform, submodules, elm, github_actions',
      },
      {
        pointer: '#/update_configs/0/update_schedule',
        message:
          'The property \'#/update_configs/0/update_schedule\' value "hourly" did not match one of the following values: live, daily, weekly, monthly',
      },
      {
        pointer: '#/update_configs/0/default_labels',
        message: "The property '#/update_configs/0/default_labels' of type string did not match the following type: array",
      },
      {
        pointer: '#/update_configs/0/default_milestone',
        message: "The property '#/update_configs/0/default_milestone' of type string did not match the following type: integer",
      },
    ]);
  });

  it('requires version 1 at .dependabot/config.yml', () => {
    const parsed = parseConfigFile('.dependabot/config.yml', 'version: 2\nupdates: []\n');
    expect(parsed.version).toBe(2);
    expect(parsed.problems).toEqual([
      { pointer: '#/', message: "The property '#/' did not contain a required property of 'update_configs'" },
      { pointer: '#/version', message: "The property '#/version' value 2 did not match one of the following values: 1" },
    ]);
    expect(parseConfigFile('.dependabot/config.yml', 'update_configs: []\n').problems).toEqual([
      { pointer: '#/', message: "The property '#/' did not contain a required property of 'version'" },
    ]);
  });
});
