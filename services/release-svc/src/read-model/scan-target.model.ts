import type { RepoState, UpdateConfigState } from '@switchyard/contracts';

/**
 * An update config as the read model holds it: config-svc's state of it, less what the scan does not use, and
 * whether config-svc deleted it.
 */
export type KnownUpdateConfig = Pick<
  UpdateConfigState,
  | 'id'
  | 'repoId'
  | 'accountId'
  | 'packageManager'
  | 'directory'
  | 'targetBranch'
  | 'automergeRuleRuntimeDeps'
  | 'automergeRuleDevelopmentDeps'
  | 'lockfileOnly'
  | 'securityUpdatesOnly'
  | 'revision'
> & { deleted: boolean };

/** What the read model knows of a repo that the scan needs: its full name and default branch. */
export type KnownRepo = Pick<RepoState, 'fullName' | 'defaultBranch'>;

/** An update config to scan, with its repo when the read model knows the repo (config-svc's events may come in any order). */
export interface ScanTarget {
  config: KnownUpdateConfig;
  repo: KnownRepo | undefined;
}
