import type { CreateUpdateConfig, GroupRule, PackageManager, PatchUpdateConfig } from '@switchyard/contracts';
import { LANGUAGE_OF } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import type {} from '../repos/repo.table.ts';
import type { UpdateConfigRow } from './update-config.table.ts';

type Db = Kysely<ConfigDatabase>;

/** PostgreSQL's unique_violation, raised by a second config with the same identity. */
const UNIQUE_VIOLATION = '23505';

/** Thrown by {@link insertUpdateConfig} and {@link patchUpdateConfig} when the config's identity is taken. */
export class UpdateConfigExistsError extends Error {
  constructor() {
    super('update config already exists');
    this.name = 'UpdateConfigExistsError';
  }
}

function rethrowDuplicate(error: unknown): never {
  if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new UpdateConfigExistsError();
  throw error;
}

/**
 * Inserts a config; `language` follows from the package manager; its `settings` hold its `groups` when it has any
 * (`{}` otherwise: an API-made config's settings leave defaults out). @throws UpdateConfigExistsError
 */
export function insertUpdateConfig(db: Db, input: CreateUpdateConfig): Promise<UpdateConfigRow> {
  return db
    .insertInto('update_config')
    .values({
      repo_id: input['repo-id'],
      package_manager: input['package-manager'],
      language: LANGUAGE_OF[input['package-manager']],
      update_schedule: input['update-schedule'],
      directory: input.directory,
      target_branch: input['target-branch'],
      automerge_rule_runtime_deps: input['automerge-rule-runtime-deps'],
      automerge_rule_development_deps: input['automerge-rule-development-deps'],
      lockfile_only: input['lockfile-only'],
      security_updates_only: input['security-updates-only'],
      ...(input.groups && input.groups.length > 0 ? { settings: JSON.stringify({ groups: input.groups }) } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
    .catch(rethrowDuplicate);
}

/** The config with `id`, or undefined. */
export function findUpdateConfig(db: Db, id: number): Promise<UpdateConfigRow | undefined> {
  return db.selectFrom('update_config').selectAll().where('id', '=', id).executeTakeFirst();
}

/** `[repoId, configId]` of every config on a repo of `accountId`, ordered by config id: enough to tell active repos from inactive ones. */
export function listConfigIdsOfAccount(db: Db, accountId: number): Promise<Array<{ repo_id: number; id: number }>> {
  return db
    .selectFrom('update_config')
    .innerJoin('repo', 'repo.id', 'update_config.repo_id')
    .select(['update_config.repo_id', 'update_config.id'])
    .where('repo.account_id', '=', accountId)
    .orderBy('update_config.id')
    .execute();
}

/**
 * Id and revision of every config of `packageManager` on a repo of one of `accountIds`, ordered by id: what a
 * release notification of that package manager in those organisations must scan.
 */
export function listConfigRevisions(
  db: Db,
  packageManager: PackageManager,
  accountIds: readonly number[],
): Promise<Array<{ id: number; revision: number }>> {
  if (accountIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('update_config')
    .innerJoin('repo', 'repo.id', 'update_config.repo_id')
    .select(['update_config.id', 'update_config.revision'])
    .where('update_config.package_manager', '=', packageManager)
    .where(sql<boolean>`repo.account_id = any(${sql.val([...accountIds])}::bigint[])`)
    .orderBy('update_config.id')
    .execute();
}

/** Every config of these repos, ordered by id. */
export function listUpdateConfigsOfRepos(db: Db, repoIds: readonly number[]): Promise<UpdateConfigRow[]> {
  if (repoIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('update_config')
    .selectAll()
    .where(sql<boolean>`repo_id = any(${sql.val(repoIds)}::bigint[])`)
    .orderBy('id')
    .execute();
}

/**
 * Changes the given attributes of config `id` (revision + 1). `groups` replaces `settings.groups` and keeps the other
 * settings; `[]` removes the key (no groups is the default, which settings leave out).
 * @returns the updated row, or undefined when there is no such config
 * @throws UpdateConfigExistsError when the new target branch collides with another config
 */
export function patchUpdateConfig(db: Db, id: number, patch: PatchUpdateConfig): Promise<UpdateConfigRow | undefined> {
  return db
    .updateTable('update_config')
    .set({
      ...(patch['update-schedule'] === undefined ? {} : { update_schedule: patch['update-schedule'] }),
      ...(patch['target-branch'] === undefined ? {} : { target_branch: patch['target-branch'] }),
      ...(patch['lockfile-only'] === undefined ? {} : { lockfile_only: patch['lockfile-only'] }),
      ...(patch['security-updates-only'] === undefined ? {} : { security_updates_only: patch['security-updates-only'] }),
      ...(patch['automerge-rule-runtime-deps'] === undefined ? {} : { automerge_rule_runtime_deps: patch['automerge-rule-runtime-deps'] }),
      ...(patch['automerge-rule-development-deps'] === undefined
        ? {}
        : { automerge_rule_development_deps: patch['automerge-rule-development-deps'] }),
      ...(patch.groups === undefined ? {} : { settings: settingsWithGroups(patch.groups) }),
      revision: sql`revision + 1`,
      updated_at: sql`now()`,
    })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
    .catch(rethrowDuplicate);
}

/** `settings` with `groups` in place of its own, or without the key for none: a jsonb expression of the column. */
function settingsWithGroups(groups: readonly GroupRule[]) {
  return groups.length === 0
    ? sql<string>`settings - 'groups'`
    : sql<string>`settings || jsonb_build_object('groups', ${JSON.stringify(groups)}::jsonb)`;
}

/** Deletes config `id`. @returns the deleted row, or undefined when there was none */
export function deleteUpdateConfig(db: Db, id: number): Promise<UpdateConfigRow | undefined> {
  return db.deleteFrom('update_config').where('id', '=', id).returningAll().executeTakeFirst();
}
