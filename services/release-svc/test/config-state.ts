import { type AccountState, DEFAULT_UPDATE_CONFIG_SETTINGS, type RepoState, type UpdateConfigState } from '@switchyard/contracts';

/**
 * The full states config-svc's events carry, for tests and benchmarks that play config-svc towards
 * release-svc's read model. Each takes what matters to the caller and gives config-svc's defaults
 * (revision 1) for the rest.
 */

/** An organisation account with config-svc's default settings. */
export function orgState(id: number, login: string): AccountState {
  return {
    id,
    login,
    type: 'org',
    revision: 1,
    settings: {
      accessGrantedToAllRepos: true,
      currentInstallationId: 1,
      planName: 'free',
      planNumber: 0,
      freeTrialEndDate: null,
      automaticallyRebasePrs: true,
      updateRunTime: '05:00',
      createMergeCommits: false,
      weeklyUpdateRunDay: 'monday',
      limitInitialUpdateRuns: true,
      limitOpenPullRequests: true,
      timeZone: 'UTC',
    },
  };
}

/** A repo of `accountId`; private, on `main`, with no language unless said otherwise. */
export function repoState(repo: {
  id: number;
  accountId: number;
  fullName: string;
  private?: boolean;
  language?: string | null;
  defaultBranch?: string;
}): RepoState {
  return {
    id: repo.id,
    accountId: repo.accountId,
    name: repo.fullName.split('/')[1] ?? '',
    fullName: repo.fullName,
    private: repo.private ?? true,
    fork: false,
    archived: false,
    htmlUrl: `https://github.com/${repo.fullName}`,
    language: repo.language ?? null,
    defaultBranch: repo.defaultBranch ?? 'main',
    revision: 1,
  };
}

/** An update config with config-svc's defaults: npm_and_yarn, daily, `/`, default branch, no automerge, no policies. */
export function updateConfigState(
  config: Pick<UpdateConfigState, 'id' | 'repoId' | 'accountId'> & Partial<UpdateConfigState>,
): UpdateConfigState {
  return {
    packageManager: 'npm_and_yarn',
    language: 'javascript',
    updateSchedule: 'daily',
    directory: '/',
    targetBranch: null,
    automergeRuleRuntimeDeps: 'never',
    automergeRuleDevelopmentDeps: 'never',
    lockfileOnly: false,
    securityUpdatesOnly: false,
    source: 'api',
    settings: DEFAULT_UPDATE_CONFIG_SETTINGS,
    revision: 1,
    ...config,
  };
}
