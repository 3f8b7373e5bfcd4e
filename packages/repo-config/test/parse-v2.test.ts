import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FileUpdateConfig, parseConfigFile } from '../src/index.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8');

/** A v2 file of the given update entries (each a block of lines indented by 4, its first line after `  - `). */
const v2 = (...entries: string[]) => `version: 2\nupdates:\n${entries.map((entry) => `  - ${entry}`).join('')}`;
const npm = (extra = '') => `package-ecosystem: npm\n    directory: /\n    schedule:\n      interval: daily\n${extra}`;

const only = (text: string, path: '.github/dependabot.yml' | '.github/dependabot.yaml' = '.github/dependabot.yml'): FileUpdateConfig => {
  const parsed = parseConfigFile(path, text);
  expect(parsed.problems).toEqual([]);
  expect(parsed.configs).toHaveLength(1);
  return parsed.configs[0] as FileUpdateConfig;
};

describe('parseConfigFile: version 2 (.github/dependabot.yml)', () => {
  it("reads the file of wunderio/drupal-project's upgrade pull request", () => {
    const parsed = parseConfigFile('.github/dependabot.yml', fixture('drupal-project-dependabot.yml'));
    expect(parsed).toMatchObject({ path: '.github/dependabot.yml', version: 2, valid: true, problems: [], skipped: [] });
    expect(parsed.configs).toEqual([
      {
        pointer: '#/updates/0',
        directory: '/',
        directoryGlob: false,
        packageManager: 'composer',
        language: 'php',
        targetBranch: null,
        updateSchedule: 'daily',
        schedule: { time: '03:00' },
        automergeRuleRuntimeDeps: 'never',
        automergeRuleDevelopmentDeps: 'never',
        versioningStrategy: 'auto',
        lockfileOnly: false,
        securityUpdatesOnly: false,
        labels: null,
        reviewers: [],
        assignees: [],
        milestone: null,
        commitMessage: null,
        openPullRequestsLimit: 10,
        rebaseStrategy: 'auto',
        allow: [],
        ignore: [],
        groups: [],
        registries: [],
      },
      expect.objectContaining({
        pointer: '#/updates/1',
        packageManager: 'npm_and_yarn',
        language: 'javascript',
        directory: '/',
        schedule: { time: '03:00' },
        openPullRequestsLimit: 10,
        ignore: [{ dependencyName: 'stylelint-config-standard', versions: ['21.0.0', '22.0.0'], updateTypes: [] }],
      }),
    ]);
  });

  it("reads the file of OctoLinker's upgrade pull request", () => {
    const config = only(fixture('octolinker-dependabot.yml'));
    expect(config).toMatchObject({
      packageManager: 'npm_and_yarn',
      updateSchedule: 'weekly',
      schedule: { time: '12:00' },
      openPullRequestsLimit: 10,
    });
    expect(config.ignore).toHaveLength(13);
    expect(config.ignore[3]).toEqual({ dependencyName: '@babel/core', versions: ['7.13.13', '7.13.8'], updateTypes: [] });
    expect(config.ignore[12]).toEqual({ dependencyName: 'fsevents', versions: ['2.3.1', '2.3.2'], updateTypes: [] });
  });

  it.each([
    ['bundler', 'bundler', 'ruby'],
    ['cargo', 'cargo', 'rust'],
    ['composer', 'composer', 'php'],
    ['docker', 'docker', 'docker'],
    ['elm', 'elm', 'elm'],
    ['github-actions', 'github_actions', 'github_actions'],
    ['gitsubmodule', 'submodules', 'submodules'],
    ['gomod', 'go_modules', 'go'],
    ['gradle', 'gradle', 'java'],
    ['maven', 'maven', 'java'],
    ['mix', 'hex', 'elixir'],
    ['npm', 'npm_and_yarn', 'javascript'],
    ['nuget', 'nuget', 'dotnet'],
    ['pip', 'pip', 'python'],
    ['terraform', 'terraform', 'terraform'],
  ])('maps package-ecosystem %s to %s (language %s)', (ecosystem, packageManager, language) => {
    const config = only(
      v2(`package-ecosystem: ${ecosystem}\n    directory: /\n    schedule: { interval: monthly }\n`),
      '.github/dependabot.yaml',
    );
    expect(config.packageManager).toBe(packageManager);
    expect(config.language).toBe(language);
    expect(config.updateSchedule).toBe('monthly');
  });

  it('skips the ecosystems it does not serve, and the intervals it does not schedule, saying why', () => {
    const ecosystems = [
      'bazel',
      'bun',
      'conda',
      'deno',
      'devcontainers',
      'docker-compose',
      'dotnet-sdk',
      'helm',
      'julia',
      'nix',
      'opentofu',
    ];
    const later = ['pre-commit', 'pub', 'rust-toolchain', 'sbt', 'swift', 'uv', 'vcpkg'];
    const entries = [...ecosystems, ...later].map(
      (ecosystem) => `package-ecosystem: ${ecosystem}\n    directory: /\n    schedule: { interval: daily }\n`,
    );
    const intervals = ['quarterly', 'semiannually', 'yearly'].map(
      (interval) => `package-ecosystem: pip\n    directory: /${interval}\n    schedule: { interval: ${interval} }\n`,
    );
    const cron = 'package-ecosystem: pip\n    directory: /cron\n    schedule: { interval: cron, cronjob: "0 9 * * 1" }\n';
    const parsed = parseConfigFile('.github/dependabot.yml', v2(...entries, ...intervals, cron, npm()));
    expect(parsed.valid).toBe(true);
    expect(parsed.configs.map((config) => config.pointer)).toEqual(['#/updates/22']);
    expect(parsed.skipped).toHaveLength(22);
    expect(parsed.skipped[1]).toEqual({
      pointer: '#/updates/1',
      reason:
        'package-ecosystem bun is not served: the ecosystems served are bundler, cargo, composer, docker, elm, github-actions, gitsubmodule, gomod, gradle, maven, mix, npm, nuget, pip, terraform',
    });
    expect(parsed.skipped[18]).toEqual({
      pointer: '#/updates/18/schedule/interval',
      reason: 'interval quarterly is not offered: update configs run daily, weekly or monthly; the entry is not served',
    });
    expect(parsed.skipped[21]?.pointer).toBe('#/updates/21/schedule/interval');
  });

  it('reads every key an update config has', () => {
    const config = only(
      v2(
        [
          'package-ecosystem: bundler',
          '    directory: /app/',
          '    schedule: { interval: weekly, day: friday, time: "16:30", timezone: Europe/Berlin }',
          '    target-branch: develop',
          '    open-pull-requests-limit: 3',
          '    reviewers: [octocat, my-org/reviewers]',
          '    assignees: [hubot]',
          '    labels: []',
          '    milestone: 4',
          '    commit-message: { prefix: deps, prefix-development: dev-deps, include: scope }',
          '    versioning-strategy: lockfile-only',
          '    rebase-strategy: disabled',
          '    registries: "*"',
          '    allow:',
          '      - dependency-name: "rails*"',
          '      - dependency-type: indirect',
          '    ignore:',
          '      - dependency-name: rubocop',
          '        versions: ">= 2"',
          '      - dependency-name: "*"',
          '        update-types: [version-update:semver-major, version-update:semver-minor]',
          '      - update-types: [version-update:semver-patch]',
          '',
        ].join('\n'),
      ),
    );
    expect(config).toMatchObject({
      packageManager: 'bundler',
      directory: '/app',
      updateSchedule: 'weekly',
      schedule: { day: 'friday', time: '16:30', timeZone: 'Europe/Berlin' },
      targetBranch: 'develop',
      openPullRequestsLimit: 3,
      securityUpdatesOnly: false,
      reviewers: ['octocat', 'my-org/reviewers'],
      assignees: ['hubot'],
      labels: [],
      milestone: 4,
      commitMessage: { prefix: 'deps', prefixDevelopment: 'dev-deps', includeScope: true },
      versioningStrategy: 'lockfile-only',
      lockfileOnly: true,
      rebaseStrategy: 'disabled',
      registries: '*',
      allow: [{ dependencyName: 'rails*' }, { dependencyType: 'indirect' }],
      ignore: [
        { dependencyName: 'rubocop', versions: ['>= 2'], updateTypes: [] },
        { dependencyName: '*', versions: [], updateTypes: ['version-update:semver-major', 'version-update:semver-minor'] },
        { dependencyName: '*', versions: [], updateTypes: ['version-update:semver-patch'] },
      ],
    });
  });

  it('takes open-pull-requests-limit: 0 as security updates only', () => {
    const config = only(v2(npm('    open-pull-requests-limit: 0\n')));
    expect(config.securityUpdatesOnly).toBe(true);
    expect(config.openPullRequestsLimit).toBe(0);
  });

  it('keeps groups in file order, with their defaults', () => {
    const config = only(
      v2(
        npm(
          [
            '    groups:',
            '      zeta:',
            '        patterns: ["@types/*"]',
            '        exclude-patterns: ["@types/node"]',
            '        dependency-type: development',
            '        update-types: [minor, patch]',
            '      "2":',
            '        applies-to: security-updates',
            '      alpha:',
            '        patterns: ["*"]',
            '',
          ].join('\n'),
        ),
      ),
    );
    expect(config.groups).toEqual([
      {
        name: 'zeta',
        patterns: ['@types/*'],
        excludePatterns: ['@types/node'],
        dependencyType: 'development',
        updateTypes: ['minor', 'patch'],
        appliesTo: 'version-updates',
      },
      { name: '2', patterns: ['*'], excludePatterns: [], updateTypes: ['major', 'minor', 'patch'], appliesTo: 'security-updates' },
      { name: 'alpha', patterns: ['*'], excludePatterns: [], updateTypes: ['major', 'minor', 'patch'], appliesTo: 'version-updates' },
    ]);
  });

  it('expands directories into one config each, keeping globs flagged for the caller', () => {
    const parsed = parseConfigFile(
      '.github/dependabot.yml',
      v2(
        'package-ecosystem: npm\n    directories: ["/", "/packages/*", "/apps/web/"]\n    schedule: { interval: daily }\n    labels: [deps]\n',
      ),
    );
    expect(parsed.configs.map(({ pointer, directory, directoryGlob, labels }) => ({ pointer, directory, directoryGlob, labels }))).toEqual([
      { pointer: '#/updates/0/directories/0', directory: '/', directoryGlob: false, labels: ['deps'] },
      { pointer: '#/updates/0/directories/1', directory: '/packages/*', directoryGlob: true, labels: ['deps'] },
      { pointer: '#/updates/0/directories/2', directory: '/apps/web', directoryGlob: false, labels: ['deps'] },
    ]);
    const [first, second] = parsed.configs;
    first?.labels?.push('changed');
    expect(second?.labels).toEqual(['deps']);
  });

  it('skips the keys it does not serve, saying why, and keeps the config', () => {
    const parsed = parseConfigFile(
      '.github/dependabot.yml',
      [
        'version: 2',
        'enable-beta-ecosystems: true',
        'registries:',
        '  npm-github:',
        '    type: npm-registry',
        '    url: https://npm.pkg.github.com',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a Dependabot secret reference, written as users write it
        '    token: ${{secrets.TOKEN}}',
        'updates:',
        '  - package-ecosystem: npm',
        '    directory: /',
        '    schedule: { interval: daily }',
        '    registries: [npm-github]',
        '    cooldown: { default-days: 3 }',
        '    vendor: true',
        '    pull-request-branch-name: { separator: "-" }',
        '    allow:',
        '      - dependency-name: react',
        '        update-types: [version-update:semver-patch]',
        '    groups:',
        '      everything:',
        '        group-by: dependency-name',
        '  - package-ecosystem: yarn-berry',
        '    directory: /',
        '    schedule: { interval: daily }',
        '',
      ].join('\n'),
    );
    expect(parsed.valid).toBe(true);
    expect(parsed.skipped.map((entry) => entry.pointer)).toEqual([
      '#/enable-beta-ecosystems',
      '#/registries',
      '#/updates/0/cooldown',
      '#/updates/0/vendor',
      '#/updates/0/pull-request-branch-name',
      '#/updates/0/allow/0',
      '#/updates/0/groups/everything/group-by',
      '#/updates/1',
    ]);
    expect(parsed.skipped[5]?.reason).toBe('allow rules limited to update-types are not supported; the rule allows nothing');
    expect(parsed.configs).toHaveLength(1);
    expect(parsed.configs[0]).toMatchObject({ registries: ['npm-github'], allow: [], groups: [{ name: 'everything', patterns: ['*'] }] });
  });

  describe('problems', () => {
    const problems = (text: string) => {
      const parsed = parseConfigFile('.github/dependabot.yml', text);
      expect(parsed.valid).toBe(false);
      expect(parsed.configs).toEqual([]);
      return parsed.problems;
    };

    it('an unknown key of an update entry', () => {
      expect(problems(v2(npm('    commit_message: { prefix: chore }\n')))).toEqual([
        {
          pointer: '#/updates/0',
          message: `The property '#/updates/0/' contains additional properties ["commit_message"] outside of the schema when none are allowed`,
        },
      ]);
    });

    it('all unknown keys of one object in one message', () => {
      expect(problems(v2(npm('    allow:\n      - dependency-name: a\n        dependency_type: all\n        match: {}\n')))).toEqual([
        {
          pointer: '#/updates/0/allow/0',
          message: `The property '#/updates/0/allow/0' contains additional properties ["dependency_type", "match"] outside of the schema when none are allowed`,
        },
      ]);
    });

    it('an unquoted time, which YAML 1.1 reads as a sexagesimal integer', () => {
      expect(problems(v2('package-ecosystem: npm\n    directory: /\n    schedule:\n      interval: daily\n      time: 03:00\n'))).toEqual([
        {
          pointer: '#/updates/0/schedule/time',
          message: "The property '#/updates/0/schedule/time' of type integer did not match the following type: string",
        },
      ]);
    });

    it('a missing updates key, a v1 key and the wrong version', () => {
      expect(problems('version: 1\nupdate_configs: []\n')).toEqual([
        { pointer: '#/', message: "The property '#/' did not contain a required property of 'updates'" },
        {
          pointer: '#/',
          message: `The property '#/' contains additional properties ["update_configs"] outside of the schema when none are allowed`,
        },
        { pointer: '#/version', message: "The property '#/version' value 1 did not match one of the following values: 2" },
      ]);
    });

    it('a duplicate (package-ecosystem, directory, target-branch)', () => {
      const twice = v2(
        npm(),
        'package-ecosystem: npm\n    directory: ""\n    schedule: { interval: weekly }\n',
        npm('    target-branch: develop\n'),
      );
      expect(problems(twice)).toEqual([
        {
          pointer: '#/updates/1',
          message:
            "The property '#/updates/1' is a duplicate. Update configs must have a unique combination of 'package-ecosystem', 'directory', and 'target-branch'",
        },
      ]);
      const overlapping = v2(npm(), 'package-ecosystem: npm\n    directories: [/a, /]\n    schedule: { interval: weekly }\n');
      expect(problems(overlapping).map((problem) => problem.pointer)).toEqual(['#/updates/1']);
    });

    it('a glob in directory', () => {
      expect(problems(v2(npm(), 'package-ecosystem: pip\n    directory: /services/*\n    schedule: { interval: daily }\n'))).toEqual([
        { pointer: '#/updates/1/directory', message: "The property '#/updates/1/directory' must not include a glob pattern" },
      ]);
    });

    it('enums, patterns, limits and combinators, grouped by update entry', () => {
      const text = v2(
        'package-ecosystem: pnpm\n    directory: /\n    schedule: { interval: hourly, time: "25:00" }\n',
        'package-ecosystem: npm\n    directory: /\n    directories: [/a]\n    schedule: { interval: daily }\n',
        npm(
          '    milestone: 0\n    labels: [a, a]\n    registries: npm-github\n    commit-message: { prefix: "0123456789012345678901234567890123456789012345678901" }\n',
        ),
        'package-ecosystem: npm\n    schedule: { interval: daily }\n',
      );
      expect(problems(text)).toEqual([
        {
          pointer: '#/updates/0/package-ecosystem',
          message:
            'The property \'#/updates/0/package-ecosystem\' value "pnpm" did not match one of the following values: bazel, bun, bundler, cargo, composer, conda, deno, devcontainers, docker, docker-compose, dotnet-sdk, elm, github-actions, gitsubmodule, gomod, gradle, helm, julia, maven, mix, nix, npm, nuget, opentofu, pip, pre-commit, pub, rust-toolchain, sbt, swift, terraform, uv, vcpkg',
        },
        {
          pointer: '#/updates/0/schedule/interval',
          message:
            'The property \'#/updates/0/schedule/interval\' value "hourly" did not match one of the following values: daily, weekly, monthly, quarterly, semiannually, yearly, cron',
        },
        {
          pointer: '#/updates/0/schedule/time',
          message: "The property '#/updates/0/schedule/time' value \"25:00\" did not match the regex '^([01][0-9]|2[0-3]):[0-5][0-9]$'",
        },
        { pointer: '#/updates/1', message: "The property '#/updates/1' of type object matched more than one of the required schemas" },
        {
          pointer: '#/updates/2/commit-message/prefix',
          message: "The property '#/updates/2/commit-message/prefix' was not of a maximum string length of 50",
        },
        // The prefix fails the anyOf branch that requires it, so the anyOf fails too.
        {
          pointer: '#/updates/2/commit-message',
          message: "The property '#/updates/2/commit-message' of type object did not match one or more of the required schemas",
        },
        { pointer: '#/updates/2/labels', message: "The property '#/updates/2/labels' contained duplicated array values" },
        {
          pointer: '#/updates/2/milestone',
          message: "The property '#/updates/2/milestone' did not have a minimum value of 1, inclusively",
        },
        {
          pointer: '#/updates/2/registries',
          message: "The property '#/updates/2/registries' of type string did not match any of the required schemas",
        },
        { pointer: '#/updates/3', message: "The property '#/updates/3' of type object did not match any of the required schemas" },
      ]);
    });

    it('a document that is not a mapping', () => {
      expect(problems('- version: 2\n')).toEqual([
        { pointer: '#/', message: "The property '#/' of type array did not match the following type: object" },
      ]);
      expect(problems('')).toEqual([{ pointer: '#/', message: "The property '#/' of type null did not match the following type: object" }]);
    });

    it('caps the list at 100 problems', () => {
      const entries = Array.from(
        { length: 150 },
        (_, index) => `package-ecosystem: npm\n    directory: /d${index}\n    schedule: { interval: never }\n`,
      );
      const listed = problems(v2(...entries));
      expect(listed).toHaveLength(100);
      expect(listed[98]?.pointer).toBe('#/updates/98/schedule/interval');
      expect(listed[99]).toEqual({ pointer: '#/', message: '51 further problems are not listed' });
    });
  });
});
