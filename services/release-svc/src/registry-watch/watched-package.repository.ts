import type { Kysely } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { LivePackage } from '../pipeline/record/config-dependency.repository.ts';
import type {} from './watched-package.table.ts';

/**
 * Records `latest` as the newest version the watch has seen of the package for its account, in the caller's
 * transaction, the stored row locked first (two workers' rounds take turns on one package).
 * @returns the version seen before: `null` when the package was seen with none, `undefined` when never seen
 */
export async function recordLatestVersion(
  trx: Kysely<ReleaseDatabase>,
  { accountId, packageManager, name }: LivePackage,
  latest: string,
): Promise<string | null | undefined> {
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
    .values({ account_id: accountId, package_manager: packageManager, name, latest_version: latest })
    .onConflict((oc) =>
      oc.columns(['account_id', 'package_manager', 'name']).doUpdateSet({ latest_version: latest, checked_at: new Date() }),
    )
    .execute();
  return before?.latest_version;
}
