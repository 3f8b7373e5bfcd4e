import type { AutomergeRule, PackageManager, UpdateConfigSettings, UpdateSchedule } from '@switchyard/contracts';
import type { ColumnType, Generated, Selectable } from 'kysely';

type Id = ColumnType<number, number, never>;

/** `release.update_config`: read model of `update_config.*` events (`deleted` keeps the revision of a deletion). */
export interface UpdateConfigTable {
  id: Id;
  repo_id: number;
  account_id: number;
  package_manager: PackageManager;
  directory: string;
  target_branch: string | null;
  automerge_rule_runtime_deps: AutomergeRule;
  automerge_rule_development_deps: AutomergeRule;
  lockfile_only: boolean;
  security_updates_only: boolean;
  deleted: boolean;
  revision: number;
  update_schedule: Generated<UpdateSchedule>;
  /** The config's `language` (`javascript`, `python`, …), a label of its pull requests; null until the next event. */
  language: string | null;
  /** `api`, or the path of the repository's config file the config comes from. */
  source: Generated<string>;
  /** Its settings beyond the API's attributes, every default filled in (`{}` until the next event of an older config). */
  settings: ColumnType<Partial<UpdateConfigSettings>, string | undefined, string | undefined>;
  /** When the read model first held the config: slots before it are not the config's. */
  first_seen_at: Generated<Date>;
  /** The next slot of its schedule, or null (`live`, or not computed yet). */
  next_run_at: Date | null;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    update_config: UpdateConfigTable;
  }
}

/** An update config as the read model holds it. */
export type UpdateConfigRow = Selectable<UpdateConfigTable>;
