import type { Caller, CodeHostAccount } from '@switchyard/code-host';
import { NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { accountEvents } from './account.events.ts';
import { findAccounts, syncAccounts } from './account.repository.ts';
import type { AccountRow } from './account.table.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Stores the accounts the code host reported, with `account.created` / `account.updated` events for the new and
 * changed ones, inside the caller's transaction `trx`, and returns their rows in the order given.
 */
export async function recordAccounts(trx: Db, accounts: readonly CodeHostAccount[]): Promise<AccountRow[]> {
  await configOutbox.append(trx, accountEvents(await syncAccounts(trx, accounts)));
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

/**
 * `GET /accounts`: copies every account the caller's token reaches, as the code host reports it, into the `account`
 * table (publishing `account.created` / `account.updated` for the new and changed ones, see the README's "What a GET
 * writes") and returns their rows, the user's own first, with the service's settings for each.
 */
export function syncAndListAccounts(db: Db, caller: Caller): Promise<AccountRow[]> {
  return db.transaction().execute((trx) => recordAccounts(trx, caller.accounts));
}

/**
 * The account `id` of type `type`, which must be one of the accounts the caller reaches.
 * @throws NotFound when it is not (whether or not it exists, so nothing about other accounts leaks)
 */
export function reachableAccount(caller: Caller, id: number, type: 'user' | 'org'): CodeHostAccount {
  const account = caller.accounts.find((a) => a.id === id && a.type === type);
  if (!account) throw new NotFound(`No ${type} account ${id} is reachable with this access token`);
  return account;
}
