import type { Caller, CodeHostAccount } from '@switchyard/code-host';
import type { PatchAccount } from '@switchyard/contracts';
import { NotFound } from '@switchyard/service-kit';
import type { AccountRow } from './account.table.ts';

/**
 * The account `id` of type `type`, which must be one of the accounts the caller reaches.
 * @throws NotFound when it is not (whether or not it exists, so nothing about other accounts leaks)
 */
export function reachableAccount(caller: Caller, id: number, type: 'user' | 'org'): CodeHostAccount {
  const account = caller.accounts.find((a) => a.id === id && a.type === type);
  if (!account) throw new NotFound(`No ${type} account ${id} is reachable with this access token`);
  return account;
}

/** When an account's scheduled update runs happen: the settings `nextSlot` of `@switchyard/dependency-api` reads. */
export interface AccountSchedule {
  /** `HH:MM` on the account's wall clock. */
  updateRunTime: string;
  weeklyUpdateRunDay: AccountRow['weekly_update_run_day'];
  /** IANA time zone of `updateRunTime`. */
  timeZone: string;
}

/** An account row's schedule settings. */
export function scheduleOf(row: Pick<AccountRow, 'update_run_time' | 'weekly_update_run_day' | 'time_zone'>): AccountSchedule {
  return { updateRunTime: row.update_run_time, weeklyUpdateRunDay: row.weekly_update_run_day, timeZone: row.time_zone };
}

/** What `PATCH /accounts/:id` writes: each attribute of the body to its column. */
const PATCHED_COLUMNS = {
  'update-run-time': 'update_run_time',
  'weekly-update-run-day': 'weekly_update_run_day',
  'automatically-rebase-prs': 'automatically_rebase_prs',
  'create-merge-commits': 'create_merge_commits',
  'limit-initial-update-runs': 'limit_initial_update_runs',
  'limit-open-pull-requests': 'limit_open_pull_requests',
  'time-zone': 'time_zone',
} as const satisfies Record<keyof PatchAccount, keyof AccountRow>;

/** The columns of the settings `PATCH /accounts/:id` changes. */
export type AccountSettings = Pick<AccountRow, (typeof PATCHED_COLUMNS)[keyof typeof PATCHED_COLUMNS]>;

/**
 * The settings `patch` changes on the stored account `row`, by column: the attributes it gives with a value other than
 * the stored one (an empty object when it changes nothing).
 */
export function changedSettings(row: AccountRow, patch: PatchAccount): Partial<AccountSettings> {
  const changes: Record<string, unknown> = {};
  for (const [attribute, column] of Object.entries(PATCHED_COLUMNS) as [keyof PatchAccount, keyof AccountSettings][]) {
    const value = patch[attribute];
    if (value !== undefined && value !== row[column]) changes[column] = value;
  }
  return changes as Partial<AccountSettings>;
}
