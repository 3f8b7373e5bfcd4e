import type { RepoState, UpdateConfigSettings, UpdateConfigState } from '@switchyard/contracts';
import type { ConfigIgnoreKind } from './config-ignore.table.ts';

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
> & {
  /** Its schedule; absent in states made before the read model kept it (`daily` then). */
  updateSchedule?: UpdateConfigState['updateSchedule'];
  deleted: boolean;
  /** Its settings beyond the API's attributes (allow and ignore rules, …); absent: every default. */
  settings?: UpdateConfigSettings;
  /** The versions people told it to leave alone (commands, closed pull requests); absent: none. */
  held?: HeldIgnore[];
};

/** An ignore a person made on the code host: of `dependencyName`, every version (`dependency`), a line of `version`, or `version` alone. */
export interface HeldIgnore {
  dependencyName: string;
  kind: ConfigIgnoreKind;
  version: string | null;
}

/** What the read model knows of a repo that the scan needs: its full name and default branch. */
export type KnownRepo = Pick<RepoState, 'fullName' | 'defaultBranch'>;

/** An update config to scan, with its repo when the read model knows the repo (config-svc's events may come in any order). */
export interface ScanTarget {
  config: KnownUpdateConfig;
  repo: KnownRepo | undefined;
  /**
   * Whether the service's GitHub App covers the repo (`installation-state` active): false once it was removed from the
   * App's selection, or the App was uninstalled or suspended on its account; true without a recorded installation
   * (personal-token mode). Absent: true.
   */
  installed?: boolean;
}
