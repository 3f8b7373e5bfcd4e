import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { ConfigIgnoreRow } from './config-ignore.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Stores an ignore of config `ignore.update_config_id`, unless the same one (config, dependency, kind, version, source, job) is stored. */
export async function addConfigIgnore(trx: Db, ignore: Omit<ConfigIgnoreRow, 'id' | 'created_at'>): Promise<void> {
  const same = await trx
    .selectFrom('config_ignore')
    .select('id')
    .where('update_config_id', '=', ignore.update_config_id)
    .where('dependency_name', '=', ignore.dependency_name)
    .where('kind', '=', ignore.kind)
    .where(sql<boolean>`version is not distinct from ${ignore.version}`)
    .where('source', '=', ignore.source)
    .where(sql<boolean>`job_id is not distinct from ${ignore.job_id}`)
    .executeTakeFirst();
  if (same) return;
  await trx.insertInto('config_ignore').values(ignore).execute();
}

/** Removes the ignores pull-request job `jobId` made (its pull request was reopened). @returns how many */
export async function removeIgnoresOfJob(trx: Db, jobId: number): Promise<number> {
  const removed = await trx.deleteFrom('config_ignore').where('job_id', '=', jobId).executeTakeFirst();
  return Number(removed.numDeletedRows);
}

/** The ignores of configs `configIds`, oldest first. */
export function listConfigIgnores(db: Db, configIds: readonly number[]): Promise<ConfigIgnoreRow[]> {
  if (configIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('config_ignore')
    .selectAll()
    .where(sql<boolean>`update_config_id = any(${sql.val([...configIds])}::int[])`)
    .orderBy('id')
    .execute();
}

/** Removes ignore `id` of config `configId`. @returns the removed row, or undefined when there was none */
export function removeConfigIgnore(db: Db, configId: number, id: number): Promise<ConfigIgnoreRow | undefined> {
  return db.deleteFrom('config_ignore').where('id', '=', id).where('update_config_id', '=', configId).returningAll().executeTakeFirst();
}
