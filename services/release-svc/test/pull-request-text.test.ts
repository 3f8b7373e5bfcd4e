import { describe, expect, it } from 'vitest';
import {
  branchName,
  type PullRequestSubject,
  pullRequestBody,
  pullRequestTitle,
} from '../src/pipeline/deliver/pull-request-text.policy.ts';

const job: PullRequestSubject = {
  package_manager: 'npm_and_yarn',
  directory: '/',
  dependency_name: 'lodash',
  version_in_use: '4.17.15',
  target_version: '4.17.21',
  update_kind: 'patch',
  security_fix: false,
  automerge: false,
  dependency_type: 'runtime',
  unverified: false,
};

describe('the text of a job pull request', () => {
  it('names branches as Dependabot did, and keeps them valid git refs', () => {
    expect(branchName(job)).toBe('dependabot/npm_and_yarn/lodash-4.17.21');
    expect(branchName({ ...job, directory: '/web/', dependency_name: '@types/node', target_version: '20.1.0' })).toBe(
      'dependabot/npm_and_yarn/web/types/node-20.1.0',
    );
    expect(
      branchName({ ...job, package_manager: 'maven', dependency_name: 'org.apache.commons:commons-lang3', target_version: '3.14.0' }),
    ).toBe('dependabot/maven/org.apache.commons-commons-lang3-3.14.0');
    // Against a branch other than the repository's default one, the target branch is part of the name.
    expect(branchName({ ...job, target_branch: 'main' }, 'main')).toBe('dependabot/npm_and_yarn/lodash-4.17.21');
    expect(branchName({ ...job, directory: '/web', target_branch: 'release/2.x' }, 'main')).toBe(
      'dependabot/npm_and_yarn/web/release/2.x/lodash-4.17.21',
    );
    for (const name of ['a..b', 'x y', 'q?*[', '.hidden', 'pkg.lock', 'a~b^c', 'bell\u0007']) {
      const branch = branchName({ ...job, dependency_name: name });
      expect(branch, name).not.toMatch(/\.\.|[\s~^:?*[\\]|\/\.|\.lock(\/|$)|[/.]$/);
    }
  });

  it('titles the bump, with the directory outside the root and [Security] for a fix', () => {
    expect(pullRequestTitle(job)).toBe('Bump lodash from 4.17.15 to 4.17.21');
    expect(pullRequestTitle({ ...job, directory: '/web', security_fix: true })).toBe(
      '[Security] Bump lodash from 4.17.15 to 4.17.21 in /web',
    );
  });

  it('links the release notes, changelog and commits the registry points to, and says what will happen', () => {
    const body = pullRequestBody(
      { ...job, automerge: true, security_fix: true },
      { sourceUrl: 'https://github.com/lodash/lodash.git', changelogUrl: 'https://github.com/lodash/lodash/blob/main/CHANGELOG.md' },
    );
    expect(body).toContain('Bumps [lodash](https://github.com/lodash/lodash.git) from 4.17.15 to 4.17.21.');
    expect(body).toContain('- [Release notes](https://github.com/lodash/lodash/releases)');
    expect(body).toContain('- [Changelog](https://github.com/lodash/lodash/blob/main/CHANGELOG.md)');
    expect(body).toContain('- [Commits](https://github.com/lodash/lodash/compare/v4.17.15...v4.17.21)');
    expect(body).toContain('fixes a known security advisory');
    expect(body).toContain('merged automatically once its checks pass');
    expect(pullRequestBody({ ...job, unverified: true }, { sourceUrl: null, changelogUrl: null })).toMatch(
      /^Bumps lodash from 4\.17\.15 to 4\.17\.21\.\n\n4\.17\.21 was announced by a release notification and was not listed by the registry yet when this was opened\.\n\nDependabot will resolve any conflicts/,
    );
  });
});

describe('the commands a pull request body lists', () => {
  it("lists every command this service answers, in Dependabot Preview's words, inside its details block", () => {
    const body = pullRequestBody(job, { sourceUrl: null, changelogUrl: null });
    expect(body).toContain('<summary>Dependabot commands and options</summary>');
    for (const command of ['rebase', 'recreate', 'merge', 'squash and merge', 'cancel merge', 'reopen', 'close']) {
      expect(body).toContain(`- \`@dependabot ${command}\` will`);
    }
    for (const what of ['major version', 'minor version', 'patch version', 'dependency'])
      expect(body).toContain(`\`@dependabot ignore this ${what}\``);
    expect(body).toContain('You can also trigger a rebase manually by commenting `@dependabot rebase`.');
    expect(body.trimEnd().endsWith('</details>')).toBe(true);
  });

  it('says rebases are on request only when they are turned off', () => {
    const body = pullRequestBody(job, { sourceUrl: null, changelogUrl: null }, { rebases: false });
    expect(body).toContain('You can trigger a rebase of this PR by commenting `@dependabot rebase`.');
    expect(body).not.toContain('Dependabot will resolve any conflicts');
  });

  it('puts a commit-message prefix first and lower-cases the verb, as Dependabot did', () => {
    expect(pullRequestTitle(job, 'chore(deps): ')).toBe('chore(deps): bump lodash from 4.17.15 to 4.17.21');
    expect(pullRequestTitle({ ...job, security_fix: true }, 'fix: ')).toBe('fix: [Security] bump lodash from 4.17.15 to 4.17.21');
  });
});
