import type { PackageManager } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../../db/schema.ts';
import type {} from '../../read-model/update-config.table.ts';
import type {} from './config-dependency.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Replaces the dependencies a config is known to use by what its latest run found (the registry watch polls them). */
export async function replaceConfigDependencies(trx: Db, updateConfigId: number, names: readonly string[]): Promise<void> {
  await trx.deleteFrom('config_dependency').where('update_config_id', '=', updateConfigId).execute();
  if (names.length === 0) return;
  await trx
    .insertInto('config_dependency')
    .values([...new Set(names)].map((name) => ({ update_config_id: updateConfigId, name })))
    .execute();
}

/** A package some `live` config of an account uses. */
export interface LivePackage {
  accountId: number;
  packageManager: PackageManager;
  name: string;
}

/** Every package a `live` config (not deleted) uses, once per account, package manager and name. */
export async function listLivePackages(db: Db): Promise<LivePackage[]> {
  const rows = await db
    .selectFrom('config_dependency')
    .innerJoin('update_config', 'update_config.id', 'config_dependency.update_config_id')
    .select(['update_config.account_id', 'update_config.package_manager', 'config_dependency.name'])
    .where('update_config.update_schedule', '=', 'live')
    .where('update_config.deleted', '=', false)
    .distinct()
    .execute();
  return rows.map((row) => ({ accountId: row.account_id, packageManager: row.package_manager, name: row.name }));
}

/** The `live` configs (not deleted) of the package's account that use it: their ids, repos and account. */
export function findLiveConfigsUsing(
  db: Db,
  { accountId, packageManager, name }: LivePackage,
): Promise<Array<{ id: number; repo_id: number; account_id: number }>> {
  return db
    .selectFrom('config_dependency')
    .innerJoin('update_config', 'update_config.id', 'config_dependency.update_config_id')
    .select(['update_config.id', 'update_config.repo_id', 'update_config.account_id'])
    .where('config_dependency.name', '=', name)
    .where('update_config.package_manager', '=', packageManager)
    .where('update_config.account_id', '=', accountId)
    .where('update_config.update_schedule', '=', 'live')
    .where('update_config.deleted', '=', false)
    .execute();
}
