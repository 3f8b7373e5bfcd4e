import type { AutomergeRule, HeldIgnore, PackageManager, UpdateConfigSettings, UpdateSchedule } from '@switchyard/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * `config.update_config`: how one directory of a repo is kept up to date. Unique per repo, package
 * manager, directory and target branch (a null target branch counting as one value).
 */
export interface UpdateConfigTable {
  id: Generated<number>;
  repo_id: number;
  package_manager: PackageManager;
  language: string;
  update_schedule: UpdateSchedule;
  directory: string;
  target_branch: string | null;
  automerge_rule_runtime_deps: AutomergeRule;
  automerge_rule_development_deps: AutomergeRule;
  lockfile_only: boolean;
  security_updates_only: boolean;
  /** `api` (made through this API or the dashboard), or the path of the config file it comes from. */
  source: Generated<string>;
  /** Its settings beyond the API's attributes (`UpdateConfigSettings`, defaults left out); `{}` for an API-made config. */
  settings: ColumnType<Partial<UpdateConfigSettings>, string | undefined, string | undefined>;
  /** The ignores people made on the code host (commands, closed pull requests), as release-svc last published them. */
  held_ignores: ColumnType<HeldIgnore[], string | undefined, string>;
  /** The version of `held_ignores` (`update_config.ignores_changed`): an older one is not applied. */
  held_ignores_version: Generated<number>;
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ConfigDatabase {
    update_config: UpdateConfigTable;
  }
}
export type UpdateConfigRow = Selectable<UpdateConfigTable>;
