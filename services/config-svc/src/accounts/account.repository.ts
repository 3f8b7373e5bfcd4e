import type { CodeHostAccount, CodeHostInstallation } from '@switchyard/code-host';
import { type Kysely, sql } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { type AccountSchedule, type AccountSettings, scheduleOf } from './account.policy.ts';
import type { AccountRow } from './account.table.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * The largest installation id the `current_installation_id` column (a PostgreSQL `integer`) holds: an installation
 * with a larger id is not recorded (the account keeps its stored value).
 */
export const MAX_STORED_INSTALLATION_ID = 2_147_483_647;

/** What the code host says about an account: who it is, and its app installation when it has one. */
interface ReportedAccount {
  account: CodeHostAccount;
  installation: { id: number; allRepos: boolean } | undefined;
}

/**
 * Records the accounts the code host reported: new ones are inserted with the default settings, ones whose login or
 * type changed are updated (revision + 1), unchanged ones are left alone. When `installations` holds the code host's
 * app installation on an account, its id and whether it covers all repositories (`repositorySelection === 'all'`) are
 * the account's `current_installation_id` and `access_granted_to_all_repos`, and a change of either is a change too;
 * an account without one keeps what it has (see the README's "Account settings"). Unchanged rows are recognised by a
 * plain read first, so they are never written or locked (concurrent requests about the same account do not queue on
 * its row). That read also brings each account's schedule settings, so a caller that needs them asks nothing more.
 * @returns the rows that were inserted or changed (whose events must be published) and the schedule settings of every
 *   account given, as stored now
 */
export async function syncAccounts(
  db: Db,
  accounts: readonly CodeHostAccount[],
  installations: readonly CodeHostInstallation[] = [],
): Promise<SyncedAccounts> {
  if (accounts.length === 0) return { changed: [], schedules: new Map() };
  const installationOf = new Map(
    installations
      .filter((i) => Number.isSafeInteger(i.id) && i.id > 0 && i.id <= MAX_STORED_INSTALLATION_ID)
      .map((i) => [i.accountId, { id: i.id, allRepos: i.repositorySelection === 'all' }]),
  );
  const reported: ReportedAccount[] = accounts.map((account) => ({ account, installation: installationOf.get(account.id) }));
  const known = new Map(
    (
      await db
        .selectFrom('account')
        .select([
          'id',
          'login',
          'account_type',
          'current_installation_id',
          'access_granted_to_all_repos',
          'update_run_time',
          'weekly_update_run_day',
          'time_zone',
        ])
        .where(
          'id',
          'in',
          accounts.map((a) => a.id),
        )
        .execute()
    ).map((row) => [row.id, row]),
  );
  const changed = reported.filter(({ account, installation }) => {
    const row = known.get(account.id);
    if (!row || row.login !== account.login || row.account_type !== account.type) return true;
    return (
      installation !== undefined &&
      (row.current_installation_id !== installation.id || row.access_granted_to_all_repos !== installation.allRepos)
    );
  });
  const schedules = new Map<number, AccountSchedule>();
  for (const row of known.values()) schedules.set(row.id, scheduleOf(row));
  if (changed.length === 0) return { changed: [], schedules };
  const installed = changed.flatMap(({ account, installation }) => (installation ? [{ account, installation }] : []));
  const uninstalled = changed.filter((r) => r.installation === undefined);
  const written = [...(await upsertIdentity(db, uninstalled)), ...(await upsertWithInstallation(db, installed))];
  for (const row of written) schedules.set(row.id, scheduleOf(row));
  return { changed: written, schedules };
}

/** What {@link syncAccounts} did: the rows it inserted or changed, and every account's schedule settings by id. */
export interface SyncedAccounts {
  changed: AccountRow[];
  schedules: Map<number, AccountSchedule>;
}

/** Inserts or updates login and type of accounts without an installation (their installation columns untouched). */
async function upsertIdentity(db: Db, reported: readonly ReportedAccount[]): Promise<AccountRow[]> {
  if (reported.length === 0) return [];
  return db
    .insertInto('account')
    .values(reported.map(({ account: a }) => ({ id: a.id, login: a.login, account_type: a.type })))
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

/** Inserts or updates login, type and the installation columns of accounts with an installation. */
async function upsertWithInstallation(
  db: Db,
  reported: readonly (ReportedAccount & { installation: NonNullable<ReportedAccount['installation']> })[],
): Promise<AccountRow[]> {
  if (reported.length === 0) return [];
  return db
    .insertInto('account')
    .values(
      reported.map(({ account: a, installation }) => ({
        id: a.id,
        login: a.login,
        account_type: a.type,
        current_installation_id: installation.id,
        access_granted_to_all_repos: installation.allRepos,
      })),
    )
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({
          login: (eb) => eb.ref('excluded.login'),
          account_type: (eb) => eb.ref('excluded.account_type'),
          current_installation_id: (eb) => eb.ref('excluded.current_installation_id'),
          access_granted_to_all_repos: (eb) => eb.ref('excluded.access_granted_to_all_repos'),
          revision: sql`account.revision + 1`,
          updated_at: sql`now()`,
        })
        .where((eb) =>
          eb.or([
            eb('account.login', 'is distinct from', eb.ref('excluded.login')),
            eb('account.account_type', 'is distinct from', eb.ref('excluded.account_type')),
            eb('account.current_installation_id', 'is distinct from', eb.ref('excluded.current_installation_id')),
            eb('account.access_granted_to_all_repos', 'is distinct from', eb.ref('excluded.access_granted_to_all_repos')),
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

/**
 * Writes the changed settings of account `id` (`changedSettings` of the account policy), with `revision + 1`.
 * @returns the updated row
 * @throws NoResultError when there is no account `id`
 */
export function updateAccountSettings(db: Db, id: number, changes: Partial<AccountSettings>): Promise<AccountRow> {
  return db
    .updateTable('account')
    .set({ ...changes, revision: sql`revision + 1`, updated_at: sql`now()` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}
