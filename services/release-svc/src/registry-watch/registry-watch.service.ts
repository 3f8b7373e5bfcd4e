import { type Logger, runPool } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { newestStable } from '../pipeline/decide/choose-target.policy.ts';
import { findLiveConfigsUsing, listLivePackages } from '../pipeline/record/config-dependency.repository.ts';
import { isRegistryError, type RegistryAccess } from '../pipeline/resolve/registry-access.client.ts';
import { requestRun } from '../runs/run-request.service.ts';
import { recordLatestVersion } from './watched-package.repository.ts';

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
  const used = await listLivePackages(db);
  let requested = 0;
  await runPool(used, deps.concurrency, async (watched) => {
    const { accountId, packageManager, name } = watched;
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
      const before = await recordLatestVersion(trx, watched, seen);
      if (before === undefined || before === seen) return 0;
      let runs = 0;
      for (const config of await findLiveConfigsUsing(trx, watched)) {
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
