import { describe, expect, it } from 'vitest';
import { chooseConfigFile, configFileIssue, parseConfigFile } from '../src/index.ts';

const V1 = 'version: 1\nupdate_configs:\n  - package_manager: javascript\n    directory: /\n    update_schedule: live\n';
const V2 = 'version: 2\nupdates:\n  - package-ecosystem: npm\n    directory: /\n    schedule: { interval: weekly }\n';
const V2_PIP = 'version: 2\nupdates:\n  - package-ecosystem: pip\n    directory: /\n    schedule: { interval: weekly }\n';

describe('chooseConfigFile', () => {
  it('has nothing to choose without files', () => {
    expect(chooseConfigFile({})).toEqual({ chosen: null, ignored: [] });
  });

  it('reads the only file there is', () => {
    const { chosen, ignored } = chooseConfigFile({ '.dependabot/config.yml': V1 });
    expect(chosen?.path).toBe('.dependabot/config.yml');
    expect(chosen?.configs[0]?.updateSchedule).toBe('live');
    expect(ignored).toEqual([]);
    expect(chooseConfigFile({ '.github/dependabot.yaml': V2 }).chosen?.configs[0]?.packageManager).toBe('npm_and_yarn');
  });

  it('prefers .github/dependabot.yml, then .yaml, to .dependabot/config.yml, which is ignored whole', () => {
    const all = chooseConfigFile({ '.dependabot/config.yml': V1, '.github/dependabot.yaml': V2_PIP, '.github/dependabot.yml': V2 });
    expect(all.chosen?.path).toBe('.github/dependabot.yml');
    expect(all.chosen?.configs.map((config) => config.packageManager)).toEqual(['npm_and_yarn']);
    expect(all.ignored).toEqual([
      {
        path: '.github/dependabot.yaml',
        reason: '.github/dependabot.yml takes precedence over .github/dependabot.yaml; .github/dependabot.yaml is not read',
      },
      {
        path: '.dependabot/config.yml',
        reason: '.github/dependabot.yml takes precedence over .dependabot/config.yml; .dependabot/config.yml is not read',
      },
    ]);
    const yaml = chooseConfigFile({ '.dependabot/config.yml': V1, '.github/dependabot.yaml': V2_PIP });
    expect(yaml.chosen?.configs.map((config) => config.packageManager)).toEqual(['pip']);
    expect(yaml.ignored.map((file) => file.path)).toEqual(['.dependabot/config.yml']);
  });

  it('keeps an invalid v2 file chosen rather than falling back to v1', () => {
    const { chosen, ignored } = chooseConfigFile({ '.dependabot/config.yml': V1, '.github/dependabot.yml': 'version: 2\n' });
    expect(chosen).toMatchObject({ path: '.github/dependabot.yml', valid: false, configs: [] });
    expect(ignored.map((file) => file.path)).toEqual(['.dependabot/config.yml']);
  });
});

describe('configFileIssue', () => {
  it('is null for a valid file', () => {
    expect(configFileIssue(parseConfigFile('.dependabot/config.yml', V1))).toBeNull();
  });

  it('lists the problems in a code block between the intro and the footer', () => {
    const parsed = parseConfigFile(
      '.dependabot/config.yml',
      'version: 1\nupdate_configs:\n  - package_manager: javascript\n    directory: /\n    update_schedule: x\n',
    );
    expect(configFileIssue(parsed)).toEqual({
      title: 'Your .dependabot/config.yml contained invalid details',
      body: [
        'Dependabot encountered the following error when parsing your `.dependabot/config.yml`:',
        '',
        '```',
        'The property \'#/update_configs/0/update_schedule\' value "x" did not match one of the following values: live, daily, weekly, monthly',
        '```',
        '',
        'Please update the config file to conform with Dependabot\'s specification, as described in the "Config files" section of this service\'s README.',
      ].join('\n'),
    });
  });

  it('links the reference when given, names the v2 path, and fences values holding backticks', () => {
    const parsed = parseConfigFile(
      '.github/dependabot.yml',
      'version: 2\nupdates:\n  - package-ecosystem: "```"\n    directory: /\n    schedule: { interval: daily }\n',
    );
    const issue = configFileIssue(parsed, { docsUrl: 'https://example.org/switchyard/packages/repo-config#config-files' });
    expect(issue?.title).toBe('Your .github/dependabot.yml contained invalid details');
    const body = issue?.body.split('\n') ?? [];
    expect(body[0]).toBe('Dependabot encountered the following error when parsing your `.github/dependabot.yml`:');
    expect(body[2]).toBe('````');
    expect(body[3]).toMatch(
      /^The property '#\/updates\/0\/package-ecosystem' value "```" did not match one of the following values: bazel, /,
    );
    expect(body[4]).toBe('````');
    expect(body.at(-1)).toBe(
      "Please update the config file to conform with Dependabot's specification, as described in the [config file reference](https://example.org/switchyard/packages/repo-config#config-files) of this service.",
    );
  });

  it('shows a YAML error as its one problem', () => {
    const issue = configFileIssue(parseConfigFile('.github/dependabot.yml', 'version: 2\nupdates: [\n'));
    expect(issue?.body.split('\n')[3]).toBe(
      "Dependabot couldn't parse the config file at .github/dependabot.yml. The error raised was: Flow sequence in block collection must be sufficiently indented and end with a ] at line 3 column 1",
    );
  });
});
