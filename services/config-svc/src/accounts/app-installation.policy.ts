/** What decides whether an installation covers a repository. */
export interface InstallationCoverage {
  repositorySelection: 'all' | 'selected';
  repositoryIds: readonly number[] | null;
  suspended: boolean;
  removed: boolean;
}

/**
 * Whether the service's GitHub App covers each repository of an account, from the account's recorded installations:
 * undefined when none is recorded (personal-token mode, or not known yet: the update configs alone decide), else a
 * repository is covered when an installation that is neither removed nor suspended has all repositories or selected it.
 */
export function coverageOf(installations: readonly InstallationCoverage[]): ((repoId: number) => boolean) | undefined {
  if (installations.length === 0) return undefined;
  const live = installations.filter((i) => !i.removed && !i.suspended);
  const all = live.some((i) => i.repositorySelection === 'all');
  const selected = new Set(live.flatMap((i) => i.repositoryIds ?? []));
  return (repoId) => all || selected.has(repoId);
}
