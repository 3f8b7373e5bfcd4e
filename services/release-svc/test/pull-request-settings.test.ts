import { DEFAULT_UPDATE_CONFIG_SETTINGS, OPEN_PULL_REQUEST_LIMIT } from '@switchyard/contracts';
import { describe, expect, it } from 'vitest';
import {
  commitPrefix,
  DEPENDENCIES_LABEL,
  openPullRequestLimit,
  pullRequestLabels,
  SECURITY_PULL_REQUEST_LIMIT,
} from '../src/pipeline/deliver/pull-request-settings.policy.ts';

const settings = DEFAULT_UPDATE_CONFIG_SETTINGS;

describe("a config's settings on its pull requests", () => {
  it("limits open pull requests by the config's own limit, else the account's, with room for security fixes", () => {
    expect(openPullRequestLimit(settings, true, false)).toBe(OPEN_PULL_REQUEST_LIMIT);
    expect(openPullRequestLimit(settings, false, false)).toBeNull();
    expect(openPullRequestLimit({ openPullRequestsLimit: 2 }, false, false)).toBe(2);
    expect(openPullRequestLimit({ openPullRequestsLimit: 0 }, true, false)).toBe(0);
    expect(openPullRequestLimit({ openPullRequestsLimit: 0 }, true, true)).toBe(SECURITY_PULL_REQUEST_LIMIT);
    expect(openPullRequestLimit({ openPullRequestsLimit: 25 }, true, true)).toBe(25);
  });

  it("labels with the defaults, the config's own labels, or none for an empty list", () => {
    expect(pullRequestLabels(settings, 'javascript')).toEqual([DEPENDENCIES_LABEL, 'javascript']);
    expect(pullRequestLabels(settings, null)).toEqual([DEPENDENCIES_LABEL]);
    expect(pullRequestLabels({ labels: ['deps', 'npm'] }, 'javascript')).toEqual(['deps', 'npm']);
    expect(pullRequestLabels({ labels: [] }, 'javascript')).toEqual([]);
  });

  it("writes the commit-message prefix as Dependabot did: the development prefix, the scope, the ': ' rule", () => {
    const runtime = { dependency_type: 'runtime' as const };
    const development = { dependency_type: 'development' as const };
    expect(commitPrefix(settings, runtime)).toBe('');
    expect(commitPrefix({ commitMessage: { prefix: 'chore', includeScope: false } }, runtime)).toBe('chore: ');
    expect(commitPrefix({ commitMessage: { prefix: 'chore', includeScope: true } }, development)).toBe('chore(deps-dev): ');
    expect(commitPrefix({ commitMessage: { prefix: 'fix', prefixDevelopment: 'chore', includeScope: true } }, development)).toBe(
      'chore(deps-dev): ',
    );
    expect(commitPrefix({ commitMessage: { prefix: '[deps] ', includeScope: false } }, runtime)).toBe('[deps] ');
    expect(commitPrefix({ commitMessage: { prefix: '[deps]', includeScope: false } }, runtime)).toBe('[deps]: ');
    expect(commitPrefix({ commitMessage: { includeScope: true } }, runtime)).toBe('(deps): ');
  });
});
