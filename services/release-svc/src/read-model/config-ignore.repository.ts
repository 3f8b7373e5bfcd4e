import { type HeldIgnore, UpdateConfigIgnoresChangedEvent } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import { releaseOutbox } from '../db/outbox.ts';
import type { ReleaseDatabase } from '../db/schema.ts';
import type { ConfigIgnoreRow } from './config-ignore.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** An ignore as `update_config.ignores_changed` carries it. */
function heldIgnore(row: ConfigIgnoreRow): HeldIgnore {
  return {
    id: row.id,
    dependencyName: row.dependency_name,
    kind: row.kind,
    version: row.version,
    source: row.source,
    pullRequestJobId: row.job_id,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Publishes the ignores of each of `configIds` as they are now (`update_config.ignores_changed`, its version one more
 * than the last), in the caller's transaction: config-svc shows them on the config.
 */
async function publishIgnores(trx: Db, configIds: readonly number[]): Promise<void> {
  for (const configId of new Set(configIds)) {
    const { version } = await trx
      .insertInto('config_ignore_version')
      .values({ update_config_id: configId, version: 1 })
      .onConflict((oc) => oc.column('update_config_id').doUpdateSet({ version: sql`config_ignore_version.version + 1` }))
      .returning('version')
      .executeTakeFirstOrThrow();
    const ignores = (await listConfigIgnores(trx, [configId])).map(heldIgnore);
    await releaseOutbox.append(trx, [releaseOutbox.event(UpdateConfigIgnoresChangedEvent, { updateConfigId: configId, version, ignores })]);
  }
}

/**
 * Stores an ignore of config `ignore.update_config_id`, unless the same one (config, dependency, kind, version, source,
 * job) is stored, and publishes the config's ignores; in the caller's transaction.
 */
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
  await publishIgnores(trx, [ignore.update_config_id]);
}

/** Removes the ignores pull-request job `jobId` made (its pull request was reopened), publishing the config's. @returns how many */
export async function removeIgnoresOfJob(trx: Db, jobId: number): Promise<number> {
  const removed = await trx.deleteFrom('config_ignore').where('job_id', '=', jobId).returning('update_config_id').execute();
  if (removed.length > 0)
    await publishIgnores(
      trx,
      removed.map((row) => row.update_config_id),
    );
  return removed.length;
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

/**
 * Removes ignore `id` of config `configId`, publishing the config's ignores; in the caller's transaction.
 * @returns the removed row, or undefined when there was none
 */
export async function removeConfigIgnore(trx: Db, configId: number, id: number): Promise<ConfigIgnoreRow | undefined> {
  const removed = await trx
    .deleteFrom('config_ignore')
    .where('id', '=', id)
    .where('update_config_id', '=', configId)
    .returningAll()
    .executeTakeFirst();
  if (removed) await publishIgnores(trx, [configId]);
  return removed;
}
