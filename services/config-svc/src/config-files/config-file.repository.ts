import type { ConfigFileState, FileUpdateConfig, HeldIgnore } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import type {} from '../repos/repo.table.ts';
import type { UpdateConfigRow } from '../update-configs/update-config.table.ts';

type Db = Kysely<ConfigDatabase>;

/** When repo `repoId`'s config file was last read, locking its row until the transaction ends; undefined without the row. */
export async function lockConfigFileReadAt(trx: Db, repoId: number): Promise<{ readAt: Date | null } | undefined> {
  const row = await trx.selectFrom('repo').select('config_file_read_at').where('id', '=', repoId).forUpdate().executeTakeFirst();
  return row && { readAt: row.config_file_read_at };
}

/** Records what repo `repoId`'s config file is (null: none) and when it was read; `using_config_file` is whether there is one. */
export async function setRepoConfigFile(trx: Db, repoId: number, file: ConfigFileState | null, readAt: Date): Promise<void> {
  await trx
    .updateTable('repo')
    .set({ config_file: file === null ? null : JSON.stringify(file), config_file_read_at: readAt, using_config_file: file !== null })
    .where('id', '=', repoId)
    .execute();
}

/** Every update config of repo `repoId`, ordered by id. */
export function listRepoConfigs(trx: Db, repoId: number): Promise<UpdateConfigRow[]> {
  return trx.selectFrom('update_config').selectAll().where('repo_id', '=', repoId).orderBy('id').execute();
}

/** The columns a config file's entry sets on an update config. */
function fileColumns(config: FileUpdateConfig, source: string) {
  return {
    language: config.language,
    update_schedule: config.updateSchedule,
    automerge_rule_runtime_deps: config.automergeRuleRuntimeDeps,
    automerge_rule_development_deps: config.automergeRuleDevelopmentDeps,
    lockfile_only: config.lockfileOnly,
    security_updates_only: config.securityUpdatesOnly,
    source,
    settings: JSON.stringify(config.settings),
  };
}

/** Inserts a config file's entry of repo `repoId` as an update config whose `source` is the file's path. */
export function insertFileConfig(trx: Db, repoId: number, config: FileUpdateConfig, source: string): Promise<UpdateConfigRow> {
  return trx
    .insertInto('update_config')
    .values({
      repo_id: repoId,
      package_manager: config.packageManager,
      directory: config.directory,
      target_branch: config.targetBranch,
      ...fileColumns(config, source),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets config `id` to a config file's entry (revision + 1). @returns the row as it is now */
export function updateFromFile(trx: Db, id: number, config: FileUpdateConfig, source: string): Promise<UpdateConfigRow> {
  return trx
    .updateTable('update_config')
    .set({ ...fileColumns(config, source), revision: sql`revision + 1`, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes the configs `ids`. @returns the deleted rows */
export function deleteConfigs(trx: Db, ids: readonly number[]): Promise<UpdateConfigRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return trx
    .deleteFrom('update_config')
    .where(sql<boolean>`id = any(${sql.val([...ids])}::int[])`)
    .returningAll()
    .execute();
}

/**
 * Stores the ignores people made for config `configId` (`update_config.ignores_changed`) unless the stored ones are of
 * the same or a newer version; the config's revision does not change (they are not its settings).
 * @returns whether they were stored
 */
export async function setHeldIgnores(trx: Db, configId: number, version: number, ignores: readonly HeldIgnore[]): Promise<boolean> {
  const result = await trx
    .updateTable('update_config')
    .set({ held_ignores: JSON.stringify(ignores), held_ignores_version: version })
    .where('id', '=', configId)
    .where('held_ignores_version', '<', version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
