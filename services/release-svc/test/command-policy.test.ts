import { describe, expect, it } from 'vitest';
import { commandOf, isCommandName, PULL_REQUEST_COMMAND_NAMES, unknownCommand } from '../src/commands/command.policy.ts';
import { configFilePushOf } from '../src/config-files/config-file-push.policy.ts';

describe('the command of a comment', () => {
  it('is what follows @dependabot on the first line that starts with it, normalised', () => {
    expect(commandOf('@dependabot rebase')).toBe('rebase');
    expect(commandOf('Thanks!\n  @Dependabot   Squash  and merge.\n@dependabot close')).toBe('squash and merge');
    expect(commandOf('@dependabot ignore this major version\r\nbecause of the API change')).toBe('ignore this major version');
    expect(commandOf('@dependabot')).toBe('');
  });

  it('is none for a mention inside a sentence, a quote, or another bot name', () => {
    expect(commandOf('please @dependabot rebase')).toBeUndefined();
    expect(commandOf('> @dependabot rebase\nquoted')).toBeUndefined();
    expect(commandOf('@dependabotx rebase')).toBeUndefined();
    expect(commandOf('')).toBeUndefined();
  });

  it('knows the eleven commands and lists them when refusing another', () => {
    expect(PULL_REQUEST_COMMAND_NAMES).toHaveLength(11);
    expect(isCommandName('cancel merge')).toBe(true);
    expect(isCommandName('use these labels')).toBe(false);
    expect(unknownCommand('use `these` labels')).toContain("Sorry, I don't know how to `use 'these' labels`.");
    expect(unknownCommand('x')).toContain('`@dependabot ignore this patch version`');
  });

  it('keeps at most 200 characters of a long command, in linear time', () => {
    expect(commandOf(`@dependabot ${'a '.repeat(100_000)}`)?.length).toBe(200);
  });
});

describe('a push that asks for the config files to be read', () => {
  const push = (over: Record<string, unknown> = {}) => ({
    ref: 'refs/heads/main',
    commits: [{ added: [], removed: [], modified: ['.github/dependabot.yml'] }],
    repository: {
      id: 7,
      name: 'web',
      full_name: 'acme/web',
      owner: { id: 2, login: 'acme', type: 'Organization' },
      private: false,
      fork: false,
      archived: false,
      html_url: 'https://github.com/acme/web',
      language: null,
      default_branch: 'main',
    },
    ...over,
  });

  it('is one to the default branch touching a config file, described as the code host gave the repository', () => {
    expect(configFilePushOf(push())).toEqual({
      id: 7,
      name: 'web',
      fullName: 'acme/web',
      owner: { id: 2, login: 'acme', type: 'org' },
      private: false,
      fork: false,
      archived: false,
      htmlUrl: 'https://github.com/acme/web',
      language: null,
      defaultBranch: 'main',
    });
    expect(configFilePushOf(push({ commits: [{ added: [], removed: ['.dependabot/config.yml'], modified: [] }] }))).toBeDefined();
    // A push that does not list its files may have changed one.
    expect(configFilePushOf(push({ commits: undefined }))).toBeDefined();
  });

  it('is not one to another branch, a deletion, or without a config file among the changed paths', () => {
    expect(configFilePushOf(push({ ref: 'refs/heads/develop' }))).toBeUndefined();
    expect(configFilePushOf(push({ deleted: true }))).toBeUndefined();
    expect(
      configFilePushOf(push({ commits: [{ added: ['README.md'], removed: [], modified: ['.github/workflows/ci.yml'] }] })),
    ).toBeUndefined();
    expect(configFilePushOf({ ref: 'refs/heads/main' })).toBeUndefined();
  });
});
