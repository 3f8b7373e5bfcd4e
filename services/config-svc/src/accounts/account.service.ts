import type { Caller, CodeHostAccount } from '@switchyard/code-host';
import type { AccountResource } from '@switchyard/contracts';
import type { Kysely } from 'kysely';
import type { ConfigDatabase } from '../db/schema.ts';
import { accountEvents, publishInTransaction } from '../events/config-events.ts';
import { accountResource } from '../http/resources.ts';
import { findAccounts, syncAccounts } from './account.repository.ts';
import type { AccountRow } from './account.table.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Stores the accounts the code host reported, with events for the new and changed ones, inside the
 * caller's transaction `trx`, and returns their rows in the order given.
 */
export async function recordAccounts(trx: Db, accounts: readonly CodeHostAccount[]): Promise<AccountRow[]> {
  await publishInTransaction(trx, accountEvents(await syncAccounts(trx, accounts)));
  const byId = new Map(
    (
      await findAccounts(
        trx,
        accounts.map((a) => a.id),
      )
    ).map((row) => [row.id, row]),
  );
  return accounts.flatMap((a) => byId.get(a.id) ?? []);
}

/** `GET /accounts`: every account the caller's token reaches, the user's own first. */
export async function listAccounts(db: Db, caller: Caller): Promise<AccountResource[]> {
  const rows = await db.transaction().execute((trx) => recordAccounts(trx, caller.accounts));
  return rows.map(accountResource);
}

/** The account `id` of type `type` if the caller reaches it, else undefined (never another caller's). */
export function reachableAccount(caller: Caller, id: number, type: 'user' | 'org'): CodeHostAccount | undefined {
  return caller.accounts.find((account) => account.id === id && account.type === type);
}
