import type { Caller, CodeHostAccount, CodeHostInstallation, CodeHostView } from '@switchyard/code-host';
import type { PatchAccount } from '@switchyard/contracts';
import { Forbidden, NotFound } from '@switchyard/service-kit';
import type { Kysely } from 'kysely';
import { configOutbox } from '../db/outbox.ts';
import type { ConfigDatabase } from '../db/schema.ts';
import { changedSettings } from './account.policy.ts';
import { findAccounts, syncAccounts, updateAccountSettings } from './account.repository.ts';
import type { AccountRow } from './account.table.ts';
import { accountEvents } from './account-event.mapper.ts';
import { accountsWithInstallations } from './app-installation.repository.ts';

type Db = Kysely<ConfigDatabase>;

/**
 * Stores the accounts the code host reported, with `account.created` / `account.updated` events for the new and
 * changed ones, inside the caller's transaction `trx`, and returns their rows in the order given. `installations`
 * (the code host's app installations the caller reaches, when known) set the installation attributes of the accounts
 * they are on (see `syncAccounts`).
 */
export async function recordAccounts(
  trx: Db,
  accounts: readonly CodeHostAccount[],
  installations: readonly CodeHostInstallation[] = [],
): Promise<AccountRow[]> {
  await configOutbox.append(trx, accountEvents((await syncAccounts(trx, accounts, installations)).changed));
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
 * writes") and returns their rows, the user's own first, with the service's settings for each. The code host's app
 * installations come with the caller (asked once with the user and cached with it by the code-host view): an account
 * with one gets its id as `current-installation-id` and `access-granted-to-all-repos` from its repository selection.
 */
export function syncAndListAccounts(db: Db, caller: Caller): Promise<AccountRow[]> {
  return db.transaction().execute(async (trx) => recordAccounts(trx, caller.accounts, await callerInstallations(trx, caller)));
}

/**
 * The caller's view of the App's installations (`/user/installations`, cached with the caller) for the accounts of
 * which release-svc has recorded none: where it has, its record (webhooks, reconciled with the code host) is newer than
 * a cached view and stands.
 */
async function callerInstallations(trx: Db, caller: Caller): Promise<CodeHostInstallation[]> {
  const viewed = caller.installations ?? [];
  const recorded = await accountsWithInstallations(
    trx,
    viewed.map((i) => i.accountId),
  );
  return viewed.filter((i) => !recorded.has(i.accountId));
}

/**
 * `PATCH /accounts/:id` (this service's extension): changes the settings of the account `id`, which the caller must
 * reach and administer: their own user account, or an organisation the code host says they are an `admin` of (asked
 * afresh, not cached). The account is recorded first if it is not yet (as `GET /accounts` would); the change is written
 * with `revision + 1` and `account.updated` in one transaction. A body that changes nothing writes nothing.
 * @throws NotFound when the caller does not reach the account; Forbidden when they do not administer it; what the code
 *   host view throws (RateLimited, Unauthenticated, …)
 */
export async function patchAccount(db: Db, view: CodeHostView, caller: Caller, id: number, patch: PatchAccount): Promise<AccountRow> {
  const account = caller.accounts.find((a) => a.id === id);
  if (!account) throw new NotFound(`No account ${id} is reachable with this access token`);
  if (account.type === 'user' && account.id !== caller.user.id) {
    throw new Forbidden(`Only ${account.login} may change the settings of the user account ${account.login}`);
  }
  if (account.type === 'org' && (await view.organisationRole(caller, account)) !== 'admin') {
    throw new Forbidden(`Only admins of the organisation ${account.login} may change its settings`);
  }
  return db.transaction().execute(async (trx) => {
    const [row] = await recordAccounts(trx, [account], await callerInstallations(trx, caller));
    if (row === undefined) throw new Error(`account ${id} was not recorded`);
    const changes = changedSettings(row, patch);
    if (Object.keys(changes).length === 0) return row;
    const updated = await updateAccountSettings(trx, id, changes);
    await configOutbox.append(trx, accountEvents([updated]));
    return updated;
  });
}
