import type { AppInstallationState } from '@switchyard/contracts';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { ReleaseDatabase } from '../db/schema.ts';
import { RELEASE_SCHEMA } from '../db/schema.ts';
import type { ObservedInstallation } from './app-installation.model.ts';
import type {} from './app-installation.table.ts';

type Db = Kysely<ReleaseDatabase>;

/** Installation `id` as recorded, or undefined. */
export async function findInstallation(db: Db, id: number): Promise<AppInstallationState | undefined> {
  const row = await db.selectFrom('app_installation').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toState(row);
}

/** The id of the installation recorded on account `login` (any case) that is neither removed nor suspended, if any. */
export async function findLiveInstallationIdOf(db: Db, login: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('app_installation')
    .select('id')
    .where(sql<boolean>`lower(account_login) = ${login.toLowerCase()}`)
    .where('removed', '=', false)
    .where('suspended', '=', false)
    .orderBy('changed_at', 'desc')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** Every recorded installation that is not removed, by id. */
export async function listLiveInstallations(db: Db): Promise<AppInstallationState[]> {
  const rows = await db.selectFrom('app_installation').selectAll().where('removed', '=', false).orderBy('id').execute();
  return rows.map(toState);
}

/**
 * Records installation `id` as `observe` makes it from the recorded state (undefined when none), read under a row lock
 * inside the caller's transaction, so that concurrent changes (two `installation_repositories` deliveries) apply one
 * after the other; nothing when `observe` gives undefined or the same state. The revision is one more (the first
 * record revision 1).
 * @returns the new state, or undefined when nothing changed
 */
export async function saveInstallation(
  trx: Db,
  id: number,
  observe: (current: AppInstallationState | undefined) => ObservedInstallation | undefined,
  at: Date,
): Promise<AppInstallationState | undefined> {
  const current = await trx.selectFrom('app_installation').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  const observed = observe(current && toState(current));
  if (!observed) return undefined;
  const ids = observed.repositoryIds === null ? null : [...new Set(observed.repositoryIds)].sort((a, b) => a - b);
  const next = { ...observed, repositoryIds: ids };
  if (current && sameState(toState(current), next)) return undefined;
  const revision = (current?.revision ?? 0) + 1;
  const row = {
    account_id: next.accountId,
    account_login: next.accountLogin,
    account_type: next.accountType,
    repository_selection: next.repositorySelection,
    repository_ids: ids === null ? null : JSON.stringify(ids),
    suspended: next.suspended,
    removed: next.removed,
    revision,
    changed_at: at,
  };
  await trx
    .insertInto('app_installation')
    .values({ id: next.id, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
  return { ...next, revision };
}

/**
 * SQL: is the repository `repoId` of account `accountId` (column references) covered by the App? True when the account
 * has no recorded installation at all (personal-token mode, or not known yet: the code host decides), or when one of
 * its installations is neither removed nor suspended and has all repositories or selected this one.
 */
export function repoInstalled(accountId: Expression<number>, repoId: Expression<number>): RawBuilder<SqlBool> {
  const table = sql.table(`${RELEASE_SCHEMA}.app_installation`);
  return sql<SqlBool>`(not exists (select 1 from ${table} i where i.account_id = ${accountId})
    or exists (select 1 from ${table} i where i.account_id = ${accountId} and not i.removed and not i.suspended
      and (i.repository_selection = 'all' or i.repository_ids @> to_jsonb(${repoId}::bigint))))`;
}

function toState(row: {
  id: number;
  account_id: number | string;
  account_login: string;
  account_type: 'user' | 'org';
  repository_selection: 'all' | 'selected';
  repository_ids: number[] | null;
  suspended: boolean;
  removed: boolean;
  revision: number;
}): AppInstallationState {
  return {
    id: Number(row.id),
    accountId: Number(row.account_id),
    accountLogin: row.account_login,
    accountType: row.account_type,
    repositorySelection: row.repository_selection,
    repositoryIds: row.repository_ids === null ? null : row.repository_ids.map(Number),
    suspended: row.suspended,
    removed: row.removed,
    revision: row.revision,
  };
}

function sameState(a: ObservedInstallation, b: ObservedInstallation): boolean {
  return (
    a.accountId === b.accountId &&
    a.accountLogin === b.accountLogin &&
    a.accountType === b.accountType &&
    a.repositorySelection === b.repositorySelection &&
    a.suspended === b.suspended &&
    a.removed === b.removed &&
    JSON.stringify(a.repositoryIds) === JSON.stringify(b.repositoryIds)
  );
}
