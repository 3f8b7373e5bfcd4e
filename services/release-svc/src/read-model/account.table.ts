import type { AccountType } from '@switchyard/contracts';
import type { ColumnType, Generated } from 'kysely';

type Id = ColumnType<number, number, never>;

/** `release.account`: read model of config-svc's `account.*` events. */
export interface AccountTable {
  id: Id;
  login: string;
  account_type: AccountType;
  revision: number;
  /** `HH:MM`, wall-clock in `time_zone`: when scheduled runs start. */
  update_run_time: Generated<string>;
  weekly_update_run_day: Generated<string>;
  /** IANA time zone of `update_run_time`. */
  time_zone: Generated<string>;
  /** A config's first run records at most `INITIAL_RUN_JOB_LIMIT` jobs. */
  limit_initial_update_runs: Generated<boolean>;
  /** Merge pull requests with a merge commit (else squash). */
  create_merge_commits: Generated<boolean>;
  /** Recreate a pull request's commit when its target branch moves. */
  automatically_rebase_prs: Generated<boolean>;
  /** At most `OPEN_PULL_REQUEST_LIMIT` open pull requests per config. */
  limit_open_pull_requests: Generated<boolean>;
}

declare module '../db/schema.ts' {
  interface ReleaseDatabase {
    account: AccountTable;
  }
}
