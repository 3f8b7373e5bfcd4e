import { randomUUID } from 'node:crypto';
import type { AccountState, ConfigEventType, EventEnvelope, RepoState, UpdateConfigState } from '@switchyard/contracts';
import { appendToOutbox } from '@switchyard/messaging';
import type { Kysely } from 'kysely';
import type { AccountRow } from '../accounts/account.table.ts';
import { CONFIG_SCHEMA, type ConfigDatabase } from '../db/schema.ts';
import type { RepoRow } from '../repos/repo.table.ts';
import type { UpdateConfigRow } from '../update-configs/update-config.table.ts';

/** The `source` of every event config-svc publishes. */
export const EVENT_SOURCE = 'config-svc';

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
    },
  };
}

/** The full state of a repo, as `repo.*` events carry it. */
export function repoState(row: RepoRow): RepoState {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    fullName: row.full_name,
    private: row.private,
    fork: row.fork,
    archived: row.archived,
    htmlUrl: row.html_url,
    language: row.language,
    defaultBranch: row.default_branch,
    revision: row.revision,
  };
}

/** The full state of an update config, as `update_config.*` events carry it. */
export function updateConfigState(row: UpdateConfigRow, accountId: number): UpdateConfigState {
  return {
    id: row.id,
    repoId: row.repo_id,
    accountId,
    packageManager: row.package_manager,
    language: row.language,
    updateSchedule: row.update_schedule,
    directory: row.directory,
    targetBranch: row.target_branch,
    automergeRuleRuntimeDeps: row.automerge_rule_runtime_deps,
    automergeRuleDevelopmentDeps: row.automerge_rule_development_deps,
    lockfileOnly: row.lockfile_only,
    securityUpdatesOnly: row.security_updates_only,
    revision: row.revision,
  };
}

/** An event of config-svc with a new id, stamped now. */
export function configEvent<T>(type: ConfigEventType, data: T): EventEnvelope<T> {
  return { id: randomUUID(), type, source: EVENT_SOURCE, time: new Date().toISOString(), data };
}

/**
 * Adds events to the outbox in the caller's transaction (the transactional outbox: they are published
 * if and only if the change commits).
 */
export async function publishInTransaction(trx: Kysely<ConfigDatabase>, events: readonly EventEnvelope[]): Promise<void> {
  if (events.length > 0) await appendToOutbox(trx as never, CONFIG_SCHEMA, events);
}

/** `account.created` for rows inserted now (revision 1), `account.updated` for changed ones. */
export function accountEvents(rows: readonly AccountRow[]): EventEnvelope[] {
  return rows.map((row) => configEvent(row.revision === 1 ? 'account.created' : 'account.updated', accountState(row)));
}

/** `repo.created` / `repo.updated` for the rows a sync inserted or changed. */
export function repoEvents(rows: readonly RepoRow[]): EventEnvelope[] {
  return rows.map((row) => configEvent(row.revision === 1 ? 'repo.created' : 'repo.updated', repoState(row)));
}
