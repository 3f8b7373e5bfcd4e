import type { CodeHostAccount } from '@switchyard/code-host';
import { type Kysely, sql } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import type { AccountRow } from './account.table.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Records the accounts the code host reported: new ones are inserted with the default settings, ones
 * whose login or type changed are updated (revision + 1), unchanged ones are left alone. Unchanged
 * rows are recognised by a plain read first, so they are never written or locked (concurrent
 * requests about the same account do not queue on its row).
 * @returns only the rows that were inserted or changed (whose events must be published)
 */
export async function syncAccounts(db: Db, accounts: readonly CodeHostAccount[]): Promise<AccountRow[]> {
  if (accounts.length === 0) return [];
  const known = new Map(
    (
      await db
        .selectFrom('account')
        .select(['id', 'login', 'account_type'])
        .where(
          'id',
          'in',
          accounts.map((a) => a.id),
        )
        .execute()
    ).map((row) => [row.id, row]),
  );
  const changed = accounts.filter((a) => {
    const row = known.get(a.id);
    return !row || row.login !== a.login || row.account_type !== a.type;
  });
  if (changed.length === 0) return [];
  return db
    .insertInto('account')
    .values(changed.map((a) => ({ id: a.id, login: a.login, account_type: a.type })))
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({
          login: (eb) => eb.ref('excluded.login'),
          account_type: (eb) => eb.ref('excluded.account_type'),
          revision: sql`account.revision + 1`,
          updated_at: sql`now()`,
        })
        .where((eb) =>
          eb.or([
            eb('account.login', 'is distinct from', eb.ref('excluded.login')),
            eb('account.account_type', 'is distinct from', eb.ref('excluded.account_type')),
          ]),
        ),
    )
    .returningAll()
    .execute();
}

/** The stored accounts with these ids, in no particular order. */
export function findAccounts(db: Db, ids: readonly number[]): Promise<AccountRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('account').selectAll().where('id', 'in', ids).execute();
}
