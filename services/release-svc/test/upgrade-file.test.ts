import { DEFAULT_UPDATE_CONFIG_SETTINGS } from '@switchyard/contracts';
import { parseConfigFile, writeDependabotYml } from '@switchyard/repo-config';
import { describe, expect, it } from 'vitest';
import type { ConfigIgnoreRow } from '../src/read-model/config-ignore.table.ts';
import type { KnownUpdateConfig } from '../src/read-model/scan-target.model.ts';
import { ignoreRulesOf, upgradeBody, writableConfig } from '../src/upgrades/upgrade-file.policy.ts';

const config: KnownUpdateConfig = {
  id: 7,
  repoId: 3101,
  accountId: 2001,
  packageManager: 'npm_and_yarn',
  directory: '/',
  targetBranch: null,
  automergeRuleRuntimeDeps: 'never',
  automergeRuleDevelopmentDeps: 'never',
  lockfileOnly: false,
  securityUpdatesOnly: false,
  updateSchedule: 'live',
  revision: 3,
  deleted: false,
  settings: {
    ...DEFAULT_UPDATE_CONFIG_SETTINGS,
    labels: ['deps'],
    ignore: [{ dependencyName: 'left-pad', versions: ['2.x'], updateTypes: [] }],
  },
};

const held = (over: Partial<ConfigIgnoreRow>): ConfigIgnoreRow => ({
  id: 1,
  update_config_id: 7,
  dependency_name: 'react',
  kind: 'major',
  version: '18.3.1',
  source: 'command',
  job_id: 4,
  created_by: 'alice',
  created_at: new Date('2026-11-29T10:00:00Z'),
  ...over,
});

describe('the upgrade pull request', () => {
  it("carries the config's ignores with those people made, one rule per dependency", () => {
    const rules = ignoreRulesOf(config, [
      held({}),
      held({ id: 2, dependency_name: 'express', kind: 'version', version: '5.0.0', source: 'closed-pull-request' }),
      held({ id: 3, dependency_name: 'express', kind: 'version', version: '5.1.0', source: 'closed-pull-request' }),
      held({ id: 4, dependency_name: 'jest', kind: 'minor', version: '29.7.0' }),
      held({ id: 5, dependency_name: 'lodash', kind: 'dependency', version: null }),
      held({ id: 6, update_config_id: 8, dependency_name: 'other' }),
    ]);
    expect(rules).toEqual([
      { dependencyName: 'left-pad', versions: ['2.x'], updateTypes: [] },
      { dependencyName: 'react', versions: ['>= 18.a, < 19'], updateTypes: [] },
      { dependencyName: 'express', versions: ['5.0.0', '5.1.0'], updateTypes: [] },
      { dependencyName: 'jest', versions: ['>= 29.7.a, < 29.8'], updateTypes: [] },
      { dependencyName: 'lodash', versions: [], updateTypes: [] },
    ]);
  });

  it('writes a file that validates and reads back to the same config, live made daily with a note', () => {
    const written = writeDependabotYml({
      configs: [writableConfig(config, [held({})])],
      account: { updateRunTime: '03:00', weeklyUpdateRunDay: 'monday', timeZone: 'UTC' },
    });
    const parsed = parseConfigFile('.github/dependabot.yml', written.text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.configs[0]).toMatchObject({
      packageManager: 'npm_and_yarn',
      directory: '/',
      updateSchedule: 'daily',
      schedule: { time: '03:00' },
      labels: ['deps'],
      openPullRequestsLimit: 10,
      ignore: [
        { dependencyName: 'left-pad', versions: ['2.x'] },
        { dependencyName: 'react', versions: ['>= 18.a, < 19'] },
      ],
    });
    expect(written.notes.map((note) => note.kind)).toContain('live-schedule');
    const body = upgradeBody(
      false,
      written.notes.map((note) => note.message),
    );
    expect(body).toContain('moves your configuration from the dashboard and the API to a config file');
    expect(body).toContain('Please note that regular `@dependabot` commands do not work on this pull request.');
  });
});
