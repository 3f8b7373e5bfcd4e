import type { AppInstallationState } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import type {} from './app-installation.table.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Stores `state` unless the stored one has the same or a newer revision, locking the row, in the caller's transaction.
 * @returns whether it was stored
 */
export async function storeInstallation(trx: Db, state: AppInstallationState): Promise<boolean> {
  const stored = await trx.selectFrom('app_installation').select('revision').where('id', '=', state.id).forUpdate().executeTakeFirst();
  if (stored && stored.revision >= state.revision) return false;
  const row = {
    account_id: state.accountId,
    repository_selection: state.repositorySelection,
    repository_ids: state.repositoryIds === null ? null : JSON.stringify(state.repositoryIds),
    suspended: state.suspended,
    removed: state.removed,
    revision: state.revision,
  };
  await trx
    .insertInto('app_installation')
    .values({ id: state.id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  return true;
}

/** Which of `accountIds` have an installation recorded (removed ones too). */
export async function accountsWithInstallations(db: Db, accountIds: readonly number[]): Promise<Set<number>> {
  if (accountIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('app_installation')
    .select('account_id')
    .distinct()
    .where('account_id', 'in', [...accountIds])
    .execute();
  return new Set(rows.map((row) => Number(row.account_id)));
}

/** The installations recorded on account `accountId` (removed ones too). */
export async function findInstallationsOfAccount(
  db: Db,
  accountId: number,
): Promise<Array<{ repositorySelection: 'all' | 'selected'; repositoryIds: number[] | null; suspended: boolean; removed: boolean }>> {
  const rows = await db
    .selectFrom('app_installation')
    .select(['repository_selection', 'repository_ids', 'suspended', 'removed'])
    .where('account_id', '=', accountId)
    .execute();
  return rows.map((row) => ({
    repositorySelection: row.repository_selection,
    repositoryIds: row.repository_ids === null ? null : row.repository_ids.map(Number),
    suspended: row.suspended,
    removed: row.removed,
  }));
}
