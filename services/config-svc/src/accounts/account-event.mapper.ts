import { AccountCreatedEvent, type AccountState, AccountUpdatedEvent } from '@switchyard/contracts';
import type { PendingEvent } from '@switchyard/messaging';
import { configOutbox } from '../db/outbox.ts';
import type { AccountRow } from './account.table.ts';

/** The full state of an account, as `account.*` events carry it. */
export function accountState(row: AccountRow): AccountState {
  return {
    id: row.id,
    login: row.login,
    type: row.account_type,
    revision: row.revision,
    settings: {
      accessGrantedToAllRepos: row.access_granted_to_all_repos,
      currentInstallationId: row.current_installation_id,
      planName: row.plan_name,
      planNumber: row.plan_number,
      freeTrialEndDate: row.free_trial_end_date,
      automaticallyRebasePrs: row.automatically_rebase_prs,
      updateRunTime: row.update_run_time,
      createMergeCommits: row.create_merge_commits,
      weeklyUpdateRunDay: row.weekly_update_run_day,
      limitInitialUpdateRuns: row.limit_initial_update_runs,
      limitOpenPullRequests: row.limit_open_pull_requests,
      timeZone: row.time_zone,
    },
  };
}

/** `account.created` for rows inserted now (revision 1), `account.updated` for changed ones. */
export function accountEvents(rows: readonly AccountRow[]): PendingEvent<typeof AccountCreatedEvent | typeof AccountUpdatedEvent>[] {
  return rows.map((row) => configOutbox.event(row.revision === 1 ? AccountCreatedEvent : AccountUpdatedEvent, accountState(row)));
}
