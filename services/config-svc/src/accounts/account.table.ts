import type { ColumnType, Generated, Selectable } from 'kysely';

/**
 * `config.account`: a code-host user or organisation that a caller reached, with the service's settings
 * for it (defaults in the migration; the code host knows none of them). `id` is the code host's id.
 */
export interface AccountTable {
  id: ColumnType<number, number, never>;
  login: string;
  account_type: 'user' | 'org';
  access_granted_to_all_repos: Generated<boolean>;
  current_installation_id: Generated<number>;
  plan_name: Generated<string>;
  plan_number: Generated<number>;
  free_trial_end_date: Generated<string | null>;
  automatically_rebase_prs: Generated<boolean>;
  update_run_time: Generated<string>;
  create_merge_commits: Generated<boolean>;
  weekly_update_run_day: Generated<'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday'>;
  limit_initial_update_runs: Generated<boolean>;
  limit_open_pull_requests: Generated<boolean>;
  /** The IANA time zone of `update_run_time` (this service's extension), `UTC` by default. */
  time_zone: Generated<string>;
  revision: Generated<number>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

declare module '../db/schema.ts' {
  interface ConfigDatabase {
    account: AccountTable;
  }
}
export type AccountRow = Selectable<AccountTable>;
