import type { ScanOutcome } from '@switchyard/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReleaseDatabase } from '../../db/schema.ts';
import type {} from './scan-result.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** What a notification's scan did with one update config, as `release.scan_result` keeps it. */
export interface ScanResult {
  notificationId: string;
  updateConfigId: number;
  /** 0 when the config was no longer known. */
  repoId: number;
  /** 0 when the config was no longer known. */
  accountId: number;
  outcome: ScanOutcome;
  reason: string;
}

/** Which of `configIds` already have a result for the notification (a redelivered batch skips them). */
export async function findDecidedConfigIds(db: Db, notificationId: string, configIds: readonly number[]): Promise<Set<number>> {
  if (configIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('scan_result')
    .select('update_config_id')
    .where('notification_id', '=', notificationId)
    .where('update_config_id', 'in', [...configIds])
    .execute();
  return new Set(rows.map((row) => row.update_config_id));
}

/**
 * Stores the results of a batch's configs, except those that have a result for their notification already (results
 * are final), in one statement.
 * @returns the config ids whose result was stored
 */
export async function insertResultsOnce(trx: Db, results: readonly ScanResult[]): Promise<Set<number>> {
  if (results.length === 0) return new Set();
  const inserted = await trx
    .insertInto('scan_result')
    .values(
      results.map((result) => ({
        notification_id: result.notificationId,
        update_config_id: result.updateConfigId,
        repo_id: result.repoId,
        account_id: result.accountId,
        outcome: result.outcome,
        reason: result.reason,
      })),
    )
    .onConflict((oc) => oc.columns(['notification_id', 'update_config_id']).doNothing())
    .returning('update_config_id')
    .execute();
  return new Set(inserted.map((row) => row.update_config_id));
}

/** Appends `note` to the reason of a config's result for the notification. */
export async function appendToReason(trx: Db, notificationId: string, configId: number, note: string): Promise<void> {
  await trx
    .updateTable('scan_result')
    .set({ reason: sql<string>`reason || ${note}` })
    .where('notification_id', '=', notificationId)
    .where('update_config_id', '=', configId)
    .execute();
}

/** Counts of a notification's results by outcome (outcomes without results left out), over the repos `repoIds` only. */
export async function countOutcomes(db: Db, id: string, repoIds: readonly number[]): Promise<Partial<Record<ScanOutcome, number>>> {
  if (repoIds.length === 0) return {};
  const rows = await db
    .selectFrom('scan_result')
    .select(['outcome', sql<number>`count(*)::integer`.as('n')])
    .where('notification_id', '=', id)
    .where(sql<boolean>`repo_id = any(${sql.val([...repoIds])}::bigint[])`)
    .groupBy('outcome')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.outcome, row.n]));
}

/** A skipped or failed result of a notification's scan. */
export type ScanProblem = Pick<ScanResult, 'repoId' | 'updateConfigId' | 'outcome' | 'reason'>;

/** Up to `limit` skipped and failed results of a notification, over the repos `repoIds` only, by config id. */
export async function listProblems(db: Db, id: string, repoIds: readonly number[], limit = 100): Promise<ScanProblem[]> {
  if (repoIds.length === 0) return [];
  const rows = await db
    .selectFrom('scan_result')
    .select(['repo_id', 'update_config_id', 'outcome', 'reason'])
    .where('notification_id', '=', id)
    .where('outcome', 'in', ['skipped', 'failed'])
    .where(sql<boolean>`repo_id = any(${sql.val([...repoIds])}::bigint[])`)
    .orderBy('update_config_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ repoId: row.repo_id, updateConfigId: row.update_config_id, outcome: row.outcome, reason: row.reason }));
}
