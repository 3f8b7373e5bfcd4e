import type { PackageManager } from '@switchyard/contracts';
import { ecosystemFor } from '@switchyard/ecosystems';
import type { RegistryVersion } from '@switchyard/registries';
import type { Logger } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { runPool } from '../scan/pool.ts';
import { isRegistryError, type RegistryAccess } from './registry-access.ts';
import { requestRun } from './update-run.service.ts';

type Db = Kysely<ReleaseDatabase>;

/** What the registry watch needs. */
export interface RegistryWatchDeps {
  db: Db;
  registries: RegistryAccess;
  logger: Logger;
  /** Packages asked at once. */
  concurrency: number;
}

/**
 * The newest version a package lists that is neither yanked, deprecated nor a pre-release, by its ecosystem's order;
 * for an `unordered` scheme (commit ids), the registry's `latest` (the default branch's head).
 */
export function newestStable(
  packageManager: PackageManager,
  versions: readonly RegistryVersion[],
  latest: string | null = null,
): string | null {
  const scheme = ecosystemFor(packageManager)?.versions;
  if (!scheme) return null;
  if (scheme.unordered) return latest;
  let newest: string | null = null;
  for (const v of versions) {
    if (v.yanked || v.deprecated !== null || !scheme.isValid(v.version) || scheme.isPrerelease(v.version)) continue;
    if (newest === null || scheme.compare(v.version, newest) > 0) newest = v.version;
  }
  return newest;
}

/**
 * One round of the registry watch: every package a `live` config's last run found (per account, so an account's
 * private registry is asked for its own), asked of the registries with conditional requests (an unchanged package
 * costs a 304), `deps.concurrency` at a time. When a package's newest stable version differs from the one the watch saw
 * before, each `live` config of that account that uses it gets a run (`live:<name>@<version>`, once per config and
 * version). The first sight of a package only records its version. A registry that fails is logged and asked again
 * next round.
 * @returns the runs requested
 */
export async function watchRegistries(deps: RegistryWatchDeps): Promise<number> {
  const { db } = deps;
  const used = await db
    .selectFrom('config_dependency')
    .innerJoin('update_config', 'update_config.id', 'config_dependency.update_config_id')
    .select(['update_config.account_id', 'update_config.package_manager', 'config_dependency.name'])
    .where('update_config.update_schedule', '=', 'live')
    .where('update_config.deleted', '=', false)
    .distinct()
    .execute();
  let requested = 0;
  await runPool(used, deps.concurrency, async ({ account_id: accountId, package_manager: packageManager, name }) => {
    let newest: string | null;
    try {
      const found = await deps.registries.fetch(accountId, packageManager, name);
      if (!found || 'notFound' in found) return;
      newest = newestStable(packageManager, found.package.versions, found.package.latest);
    } catch (error) {
      if (!isRegistryError(error)) throw error;
      deps.logger.warn({ packageManager, name, err: error }, 'registry watch could not ask the registry; next round asks again');
      return;
    }
    if (newest === null) return;
    const seen = newest;
    requested += await db.transaction().execute(async (trx) => {
      const before = await trx
        .selectFrom('watched_package')
        .select('latest_version')
        .where('account_id', '=', accountId)
        .where('package_manager', '=', packageManager)
        .where('name', '=', name)
        .forUpdate()
        .executeTakeFirst();
      await trx
        .insertInto('watched_package')
        .values({ account_id: accountId, package_manager: packageManager, name, latest_version: seen })
        .onConflict((oc) =>
          oc.columns(['account_id', 'package_manager', 'name']).doUpdateSet({ latest_version: seen, checked_at: new Date() }),
        )
        .execute();
      if (!before || before.latest_version === seen) return 0;
      const configs = await trx
        .selectFrom('config_dependency')
        .innerJoin('update_config', 'update_config.id', 'config_dependency.update_config_id')
        .select(['update_config.id', 'update_config.repo_id', 'update_config.account_id'])
        .where('config_dependency.name', '=', name)
        .where('update_config.package_manager', '=', packageManager)
        .where('update_config.account_id', '=', accountId)
        .where('update_config.update_schedule', '=', 'live')
        .where('update_config.deleted', '=', false)
        .execute();
      let runs = 0;
      for (const config of configs) {
        const run = await requestRun(trx, {
          updateConfigId: config.id,
          repoId: config.repo_id,
          accountId: config.account_id,
          trigger: 'live',
          triggerKey: `live:${name}@${seen}`,
        });
        if (run) runs++;
      }
      return runs;
    });
  });
  return requested;
}
