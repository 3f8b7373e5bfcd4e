import {
  type AccountState,
  type PackageManager,
  type RegistryCredentialState,
  type RepoState,
  UpdateConfigSettings,
  type UpdateConfigState,
} from '@switchyard/contracts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { repoInstalled } from '../installations/app-installation.repository.ts';
import type {} from './account.table.ts';
import { listConfigIgnores } from './config-ignore.repository.ts';
import type { RegistryCredentialTable } from './registry-credential.table.ts';
import type {} from './repo.table.ts';
import type { HeldIgnore, ScanTarget } from './scan-target.model.ts';
import type { UpdateConfigTable } from './update-config.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Stores an account's state unless the stored one has the same or a newer revision. */
export async function upsertAccount(trx: Db, a: AccountState): Promise<void> {
  const values = {
    login: a.login,
    account_type: a.type,
    revision: a.revision,
    update_run_time: a.settings.updateRunTime,
    weekly_update_run_day: a.settings.weeklyUpdateRunDay,
    time_zone: a.settings.timeZone,
    limit_initial_update_runs: a.settings.limitInitialUpdateRuns,
    create_merge_commits: a.settings.createMergeCommits,
    automatically_rebase_prs: a.settings.automaticallyRebasePrs,
    limit_open_pull_requests: a.settings.limitOpenPullRequests,
  };
  await trx
    .insertInto('account')
    .values({ id: a.id, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values).where('account.revision', '<', a.revision))
    .execute();
}

/** Stores a repo's state (its name, default branch, whether it is archived or private) unless the stored one has the same or a newer revision. */
export async function upsertRepo(trx: Db, r: RepoState): Promise<void> {
  const values = {
    account_id: r.accountId,
    full_name: r.fullName,
    default_branch: r.defaultBranch,
    archived: r.archived,
    private: r.private,
    revision: r.revision,
  };
  await trx
    .insertInto('repo')
    .values({ id: r.id, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values).where('repo.revision', '<', r.revision))
    .execute();
}

/**
 * Stores an update config's state unless the stored one has the same or a newer revision. A deletion is stored at
 * `revision + 1`: it outranks every earlier state of the config (a re-created config has a new id).
 */
export async function upsertUpdateConfig(trx: Db, c: UpdateConfigState, deleted: boolean): Promise<void> {
  const revision = deleted ? c.revision + 1 : c.revision;
  const values = {
    repo_id: c.repoId,
    account_id: c.accountId,
    package_manager: c.packageManager,
    directory: c.directory,
    target_branch: c.targetBranch,
    automerge_rule_runtime_deps: c.automergeRuleRuntimeDeps,
    automerge_rule_development_deps: c.automergeRuleDevelopmentDeps,
    lockfile_only: c.lockfileOnly,
    security_updates_only: c.securityUpdatesOnly,
    update_schedule: c.updateSchedule,
    language: c.language,
    source: c.source,
    settings: JSON.stringify(c.settings),
    deleted,
    revision,
  };
  await trx
    .insertInto('update_config')
    .values({ id: c.id, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values).where('update_config.revision', '<', revision))
    .execute();
}

/** Ids of the update configs (not deleted) of `packageManager` on repos of `accountIds`, ascending. */
export async function listConfigIdsToScan(db: Db, packageManager: PackageManager, accountIds: readonly number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('update_config')
    .select('id')
    .where('package_manager', '=', packageManager)
    .where('deleted', '=', false)
    .where(sql<boolean>`account_id = any(${sql.val([...accountIds])}::bigint[])`)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The configs of `wanted` the read model does not hold yet at their revision (or later) with their repo: what it has
 * still to learn from config-svc's events before a scan of them can be planned.
 * @returns their ids, ordered
 */
export async function configsBehind(db: Db, wanted: ReadonlyArray<{ id: number; revision: number }>): Promise<number[]> {
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('update_config')
    .innerJoin('repo', 'repo.id', 'update_config.repo_id')
    .select(['update_config.id', 'update_config.revision'])
    .where(
      'update_config.id',
      'in',
      wanted.map((config) => config.id),
    )
    .execute();
  const held = new Map(rows.map((row) => [row.id, row.revision]));
  return wanted
    .filter((config) => (held.get(config.id) ?? Number.NEGATIVE_INFINITY) < config.revision)
    .map((config) => config.id)
    .sort((a, b) => a - b);
}

/**
 * The update configs of `ids` the read model knows, each with its repo when known and the ignores people made of a
 * dependency or a version line (`held`), by config id.
 */
export async function findScanTargets(db: Db, ids: readonly number[]): Promise<Map<number, ScanTarget>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('update_config')
    .leftJoin('repo', 'repo.id', 'update_config.repo_id')
    .selectAll('update_config')
    .select(['repo.full_name', 'repo.default_branch'])
    .select((eb) => repoInstalled(eb.ref('update_config.account_id'), eb.ref('update_config.repo_id')).as('installed'))
    .where('update_config.id', 'in', [...ids])
    .execute();
  const held = new Map<number, HeldIgnore[]>();
  for (const ignore of await listConfigIgnores(db, ids)) {
    // One version closed unmerged (by a person, or with `close`) is its job's to keep out: the record stage says which
    // pull request ignored it, and an older version is not proposed in its place.
    if (ignore.kind === 'version') continue;
    const list = held.get(ignore.update_config_id) ?? [];
    list.push({ dependencyName: ignore.dependency_name, kind: ignore.kind, version: ignore.version });
    held.set(ignore.update_config_id, list);
  }
  return new Map(
    rows.map((row): [number, ScanTarget] => [
      row.id,
      {
        config: {
          id: row.id,
          repoId: row.repo_id,
          accountId: row.account_id,
          packageManager: row.package_manager,
          directory: row.directory,
          targetBranch: row.target_branch,
          automergeRuleRuntimeDeps: row.automerge_rule_runtime_deps,
          automergeRuleDevelopmentDeps: row.automerge_rule_development_deps,
          lockfileOnly: row.lockfile_only,
          securityUpdatesOnly: row.security_updates_only,
          updateSchedule: row.update_schedule,
          revision: row.revision,
          deleted: row.deleted,
          settings: UpdateConfigSettings.parse(row.settings),
          held: held.get(row.id) ?? [],
        },
        repo:
          row.full_name === null || row.default_branch === null
            ? undefined
            : { fullName: row.full_name, defaultBranch: row.default_branch },
        installed: Boolean(row.installed),
      },
    ]),
  );
}

/**
 * Stores a registry credential's state unless the stored one has the same or a newer revision; a deletion is stored at
 * `revision + 1` (a credential created again has a new id).
 */
export async function upsertRegistryCredential(trx: Db, c: RegistryCredentialState, deleted: boolean): Promise<void> {
  const revision = deleted ? c.revision + 1 : c.revision;
  const values = {
    account_id: c.accountId,
    package_manager: c.packageManager,
    base_url: c.baseUrl,
    auth_type: c.authType,
    username: c.username,
    sealed_secret: c.sealedSecret,
    deleted,
    revision,
  };
  await trx
    .insertInto('registry_credential')
    .values({ id: c.id, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values).where('registry_credential.revision', '<', revision))
    .execute();
}

/** An account's settings that the worker's rules read; `undefined` fields never occur (the columns have defaults). */
export interface AccountSettings {
  limitInitialUpdateRuns: boolean;
  createMergeCommits: boolean;
  automaticallyRebasePrs: boolean;
  limitOpenPullRequests: boolean;
}

/** The settings of account `accountId`, or undefined while the read model has not received the account. */
export async function findAccountSettings(db: Db, accountId: number): Promise<AccountSettings | undefined> {
  const row = await db
    .selectFrom('account')
    .select(['limit_initial_update_runs', 'create_merge_commits', 'automatically_rebase_prs', 'limit_open_pull_requests'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return (
    row && {
      limitInitialUpdateRuns: row.limit_initial_update_runs,
      createMergeCommits: row.create_merge_commits,
      automaticallyRebasePrs: row.automatically_rebase_prs,
      limitOpenPullRequests: row.limit_open_pull_requests,
    }
  );
}

/** The config's `language` (`javascript`, `python`, …: a label of its pull requests), or null when unknown. */
export async function findConfigLanguage(db: Db, configId: number): Promise<string | null> {
  const row = await db.selectFrom('update_config').select('language').where('id', '=', configId).executeTakeFirst();
  return row?.language ?? null;
}

/** The newest registry credential of the account and package manager that is not deleted, its secret still sealed. */
export function findRegistryCredential(
  db: Db,
  accountId: number,
  packageManager: PackageManager,
): Promise<Selectable<RegistryCredentialTable> | undefined> {
  return db
    .selectFrom('registry_credential')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('package_manager', '=', packageManager)
    .where('deleted', '=', false)
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/** A config's schedule as the scheduler reads it: the config and its account's settings (null while the account is unknown). */
export interface ConfigSchedule {
  id: number;
  repo_id: number;
  account_id: number;
  update_schedule: Selectable<UpdateConfigTable>['update_schedule'];
  first_seen_at: Date;
  next_run_at: Date | null;
  update_run_time: string | null;
  weekly_update_run_day: string | null;
  time_zone: string | null;
}

/** The schedules of the configs (not deleted) `which` names: one config, or every config of an account. */
export function findSchedules(trx: Db, which: { configId: number } | { accountId: number }): Promise<ConfigSchedule[]> {
  const query = schedules(trx);
  return (
    'configId' in which
      ? query.where('update_config.id', '=', which.configId)
      : query.where('update_config.account_id', '=', which.accountId)
  ).execute();
}

/**
 * Takes up to `limit` configs (not deleted) whose next run is due at `now`, earliest first, locked for the caller's
 * transaction; rows another transaction holds are skipped (`for update skip locked`), so several workers share them.
 */
export function takeDueSchedules(trx: Db, now: Date, limit: number): Promise<ConfigSchedule[]> {
  return schedules(trx)
    .where('update_config.next_run_at', '<=', now)
    .orderBy('update_config.next_run_at')
    .limit(limit)
    .forUpdate('update_config')
    .skipLocked()
    .execute();
}

function schedules(db: Db) {
  return (
    db
      .selectFrom('update_config')
      .leftJoin('account', 'account.id', 'update_config.account_id')
      .select([
        'update_config.id',
        'update_config.repo_id',
        'update_config.account_id',
        'update_config.update_schedule',
        'update_config.first_seen_at',
        'update_config.next_run_at',
        'account.update_run_time',
        'account.weekly_update_run_day',
        'account.time_zone',
      ])
      .where('update_config.deleted', '=', false)
      // A repository the App no longer covers (removed from its selection, uninstalled, suspended) has no scheduled runs;
      // its configs stay, due, and run at the next round after it is covered again.
      .where((eb) => repoInstalled(eb.ref('update_config.account_id'), eb.ref('update_config.repo_id')))
  );
}

/** Sets the config's next scheduled run (null: none; `live`). */
export async function setNextRunAt(trx: Db, configId: number, next: Date | null): Promise<void> {
  await trx.updateTable('update_config').set({ next_run_at: next }).where('id', '=', configId).execute();
}

/**
 * The revisions the read model holds of an update config and of its account (each 0 when unknown): what changes when
 * config-svc's settings change, so that work that read the settings can tell whether they moved meanwhile.
 */
export async function settingsRevisions(db: Db, configId: number, accountId: number): Promise<{ config: number; account: number }> {
  const [config, account] = await Promise.all([
    db.selectFrom('update_config').select('revision').where('id', '=', configId).executeTakeFirst(),
    db.selectFrom('account').select('revision').where('id', '=', accountId).executeTakeFirst(),
  ]);
  return { config: config?.revision ?? 0, account: account?.revision ?? 0 };
}

/** The ids of repo `repoId`'s update configs that are not deleted, ascending. */
export async function listRepoConfigIds(db: Db, repoId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('update_config')
    .select('id')
    .where('repo_id', '=', repoId)
    .where('deleted', '=', false)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Repo `repoId` as the read model knows it (its account, full name and default branch), or undefined. */
export function findKnownRepo(
  db: Db,
  repoId: number,
): Promise<{ account_id: number; full_name: string; default_branch: string } | undefined> {
  return db.selectFrom('repo').select(['account_id', 'full_name', 'default_branch']).where('id', '=', repoId).executeTakeFirst();
}

/** The login of account `accountId` as the read model knows it, or undefined. */
export async function findAccountLogin(db: Db, accountId: number): Promise<string | undefined> {
  return (await db.selectFrom('account').select('login').where('id', '=', accountId).executeTakeFirst())?.login;
}

/** Account `accountId`'s schedule settings: `update-run-time` (`HH:MM`), `weekly-update-run-day` and time zone; undefined when unknown. */
export async function findAccountSchedule(
  db: Db,
  accountId: number,
): Promise<{ updateRunTime: string; weeklyUpdateRunDay: string; timeZone: string } | undefined> {
  const row = await db
    .selectFrom('account')
    .select(['update_run_time', 'weekly_update_run_day', 'time_zone'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row && { updateRunTime: row.update_run_time, weeklyUpdateRunDay: row.weekly_update_run_day, timeZone: row.time_zone };
}
