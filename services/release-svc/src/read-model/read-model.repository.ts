import type { AccountState, PackageManager, RegistryCredentialState, RepoState, UpdateConfigState } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';

type Db = Kysely<ReleaseDatabase>;

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
> & { deleted: boolean };

/** What the read model knows of a repo that the scan needs: its full name and default branch. */
export type KnownRepo = Pick<RepoState, 'fullName' | 'defaultBranch'>;

/** An update config to scan, with its repo when the read model knows the repo (config-svc's events may come in any order). */
export interface ScanTarget {
  config: KnownUpdateConfig;
  repo: KnownRepo | undefined;
}

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

/** Stores a repo's state unless the stored one has the same or a newer revision. */
export async function upsertRepo(trx: Db, r: RepoState): Promise<void> {
  const values = {
    account_id: r.accountId,
    full_name: r.fullName,
    default_branch: r.defaultBranch,
    archived: r.archived,
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

/** The update configs of `ids` the read model knows, each with its repo when known, by config id. */
export async function findScanTargets(db: Db, ids: readonly number[]): Promise<Map<number, ScanTarget>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('update_config')
    .leftJoin('repo', 'repo.id', 'update_config.repo_id')
    .selectAll('update_config')
    .select(['repo.full_name', 'repo.default_branch'])
    .where('update_config.id', 'in', [...ids])
    .execute();
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
          deleted: row.deleted,
        },
        repo:
          row.full_name === null || row.default_branch === null
            ? undefined
            : { fullName: row.full_name, defaultBranch: row.default_branch },
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
